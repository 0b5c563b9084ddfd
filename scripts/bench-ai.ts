// `npm run bench:ai`: strength and cost of the computer players (issue 20) on
// Richard III. Not a test: it prints figures (src/ai/README.md quotes them).
//
// Strength: games of each search level against random play and against the
// level below, each pairing played from both seats over every scenario; win
// rates per seat with 95% Wilson intervals, and Elo differences (from the
// score over both seats) with intervals mapped from the Wilson bounds.
// Games run in child processes (--workers, default 2: one per core), each AI
// seat seeing only module.view(state, seat) and its legal actions.
//
// Cost: decisions at positions from random games, one level at a time in this
// process: CPU time per decision (process.cpuUsage: this process only, never
// wall clock), simulations per CPU second, tree nodes and heap growth per search.
//
// Options: --games N (games per pairing and seat, default 20), --levels
// easy,normal,hard, --pairs normal:random,... (default: each level vs random and
// vs the level below), --workers N, --cost-positions N (default 30; 0 skips),
// --partial FILE (rewrite the strength figures so far to FILE every few games),
// --sims easy=50,normal=200 and --depth N (override the levels' budgets, for tuning),
// --seats Lancaster (play the first level from these seats only, for tuning one side),
// --scenarios kingmaker,... (play only these scenarios),
// --from N (seeds from game index N on: fresh games for a confirmation run),
// --search '{"completeMoves":0}' (more SearchOptions for every search level, for A/B runs),
// --cost-ab '[{"completeMoves":0},{}]' (cost: these SearchOptions variants of each level, alternated
// three times in this process, at the same positions: CPU ratios from one run on a loaded machine).
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chooseAction, chooseRandom, LEVEL_SEARCH, type AiLevel, type SearchLevel } from '../src/ai/index.ts';
import { ismcts, nextMover, onlyWaiting, type SearchOptions } from '../src/ai/ismcts.ts';
import { randomInt, seedRng } from '../src/engine/rng.ts';
import { richardIII } from '../src/games/richard-iii/index.ts';
import type { AnyGameModule } from '../src/ai/types.ts';

const M = richardIII as unknown as AnyGameModule;
const ROLES = M.roles as readonly string[];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const overrides = (): Partial<Record<SearchLevel, Partial<SearchOptions>>> => {
  const out: Partial<Record<SearchLevel, Partial<SearchOptions>>> = {};
  const depth = arg('depth');
  const extra = JSON.parse(arg('search') ?? '{}') as Partial<SearchOptions>;
  for (const l of Object.keys(LEVEL_SEARCH) as SearchLevel[]) out[l] = { ...extra, ...(depth ? { playoutDepth: Number(depth) } : {}) };
  for (const kv of (arg('sims') ?? '').split(',').filter(Boolean)) {
    const [l, n] = kv.split('=');
    out[l as SearchLevel] = { ...out[l as SearchLevel], simulations: Number(n) };
  }
  return out;
};

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface GameJob { id: number; a: AiLevel; b: AiLevel; aSeat: string; scenario: string; seed: string }
interface DecisionStat { level: AiLevel; cpuMs: number; sims: number; capped: boolean; mismatches: number }
interface GameResult { job: GameJob; winner: string | null; decisions: number; stats: DecisionStat[]; unfinished: boolean }

function decide(level: AiLevel, state: unknown, role: string, legal: unknown[], seed: string, ov: Partial<Record<SearchLevel, Partial<SearchOptions>>>): { action: unknown; stat: DecisionStat } {
  const view = M.view(state, role);
  const t = cpuMs();
  const d = level === 'random'
    ? chooseRandom({ legalActions: legal, seed })
    : chooseAction(M, { gameType: M.id, role, view, legalActions: legal, level, seed }, ov[level]);
  return { action: d.action, stat: { level, cpuMs: cpuMs() - t, sims: d.simulations, capped: d.cappedByTime, mismatches: d.sampleMismatches ?? 0 } };
}

function playGame(job: GameJob, ov: Partial<Record<SearchLevel, Partial<SearchOptions>>>): GameResult {
  let s = M.setup({ scenario: job.scenario, seed: job.seed });
  const levelOf = (role: string): AiLevel => (role === job.aSeat ? job.a : job.b);
  const stats: DecisionStat[] = [];
  let n = 0;
  while (!M.status(s).over && n < 5000) {
    // The first active seat with a decision to make (a seat that has played its card only waits).
    const role = M.activeRoles(s).find((r) => !onlyWaiting(M.legalActions(s, r)));
    if (!role) break;
    const legal = M.legalActions(s, role).filter((a) => (a as { type?: string }).type !== 'undo' && (a as { type?: string }).type !== 'take_back');
    const { action, stat } = decide(levelOf(role), s, role, legal.length ? legal : M.legalActions(s, role), `${job.seed}:${n}`, ov);
    if (stat.level !== 'random' && legal.length > 1) stats.push(stat);
    s = M.apply(s, role, action);
    n++;
  }
  const st = M.status(s);
  return { job, winner: st.over ? st.winner : null, decisions: n, stats, unfinished: !st.over };
}

// ---------------------------------------------------------------- stats
function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, c - h), Math.min(1, c + h)];
}
const elo = (p: number): number => (p <= 0 ? -Infinity : p >= 1 ? Infinity : -400 * Math.log10(1 / p - 1));
const fmtElo = (x: number): string => (x === Infinity ? '+inf' : x === -Infinity ? '-inf' : `${x >= 0 ? '+' : ''}${Math.round(x)}`);
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
function quantiles(xs: number[]): string {
  if (xs.length === 0) return '-';
  const s = [...xs].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
  return `median ${q(0.5).toFixed(1)} ms (p10 ${q(0.1).toFixed(1)}, p90 ${q(0.9).toFixed(1)}, max ${s[s.length - 1]!.toFixed(1)}; n=${s.length})`;
}

// ---------------------------------------------------------------- parent
async function main(): Promise<void> {
  const games = Number(arg('games') ?? 20);
  const levels = (arg('levels') ?? 'easy,normal,hard').split(',') as SearchLevel[];
  const workers = Number(arg('workers') ?? 2);
  const costPositions = Number(arg('cost-positions') ?? 30);
  const ov = overrides();
  const budgets = levels.map((l) => `${l} ${JSON.stringify({ ...LEVEL_SEARCH[l], ...ov[l] })}`).join('; ');
  console.log(`bench:ai — Richard III, ${games} games per pairing and seat, scenarios: ${M.scenarios.map((s) => s.id).join(', ')}`);
  console.log(`budgets: ${budgets}`);

  if (costPositions > 0 && arg('cost-ab')) costAB(levels, costPositions, ov, JSON.parse(arg('cost-ab')!) as Partial<SearchOptions>[]);
  else if (costPositions > 0) cost(levels, costPositions, ov);
  if (games <= 0) return;

  const order: AiLevel[] = ['random', 'easy', 'normal', 'hard'];
  const pairs: [AiLevel, AiLevel][] = arg('pairs')
    ? arg('pairs')!.split(',').map((p) => p.split(':') as [AiLevel, AiLevel])
    : levels.flatMap((l) => {
        const below = order[order.indexOf(l) - 1]!;
        return below === 'random' ? [[l, 'random'] as [AiLevel, AiLevel]] : [[l, 'random'] as [AiLevel, AiLevel], [l, below] as [AiLevel, AiLevel]];
      });
  const seats = arg('seats') ? arg('seats')!.split(',').filter((r) => ROLES.includes(r)) : ROLES;
  const scenarios = arg('scenarios') ? arg('scenarios')!.split(',').filter((id) => M.scenarios.some((s) => s.id === id)) : M.scenarios.map((s) => s.id);
  const jobs: GameJob[] = [];
  let id = 0;
  const from = Number(arg('from') ?? 0);
  for (let g = from; g < from + games; g++) {
    for (const [a, b] of pairs) {
      for (const aSeat of seats) {
        const scenario = scenarios[g % scenarios.length]!;
        jobs.push({ id: id++, a, b, aSeat, scenario, seed: `bench-ai:${g}:${scenario}` });
      }
    }
  }
  const results: GameResult[] = [];
  const started = Date.now();
  await new Promise<void>((resolve) => {
    let next = 0;
    let live = 0;
    const script = fileURLToPath(import.meta.url);
    for (let w = 0; w < Math.min(workers, jobs.length); w++) {
      const child = fork(script, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_AI_CHILD: JSON.stringify(ov) } });
      live++;
      const feed = () => child.send(next < jobs.length ? jobs[next++]! : { done: true });
      child.on('message', (r: GameResult) => {
        results.push(r);
        if (results.length % 4 === 0 || results.length === jobs.length) {
          process.stderr.write(`  ${results.length}/${jobs.length} games, ${Math.round((Date.now() - started) / 1000)} s\n`);
          // The figures so far, for a long run stopped early.
          const out = arg('partial');
          if (out) writeFileSync(out, capture(() => report(pairs, results)));
        }
        feed();
      });
      child.on('exit', () => { if (--live === 0) resolve(); });
      feed();
    }
  });
  if (!arg('partial')) report(pairs, results);
  else console.log(capture(() => report(pairs, results)));
}

/** What fn prints, as a string (console.log captured). */
function capture(fn: () => void): string {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...xs: unknown[]) => { lines.push(xs.join(' ')); };
  try { fn(); } finally { console.log = log; }
  return lines.join('\n') + '\n';
}

function report(pairs: [AiLevel, AiLevel][], results: GameResult[]): void {
  console.log('\nStrength (win rate of the first level; 95% Wilson interval; a draw or unfinished game counts half):');
  const eloOf = new Map<string, [number, number, number]>();
  for (const [a, b] of pairs) {
    const mine = results.filter((r) => r.job.a === a && r.job.b === b);
    const line: string[] = [];
    let kAll = 0, nAll = 0;
    for (const seat of ROLES) {
      const rs = mine.filter((r) => r.job.aSeat === seat);
      if (rs.length === 0) continue;
      const k = rs.reduce((x, r) => x + (r.winner === seat ? 1 : r.winner === null ? 0.5 : 0), 0);
      const [lo, hi] = wilson(k, rs.length);
      line.push(`as ${seat} ${k}/${rs.length} = ${pct(k / rs.length)} [${pct(lo)}, ${pct(hi)}]`);
      kAll += k; nAll += rs.length;
    }
    const [lo, hi] = wilson(kAll, nAll);
    const p = kAll / nAll;
    eloOf.set(`${a}:${b}`, [elo(p), elo(lo), elo(hi)]);
    console.log(`  ${a} vs ${b}: ${line.join('; ')}; both seats ${pct(p)} [${pct(lo)}, ${pct(hi)}]`);
    // Per scenario: the Pretender far behind in some, the King in another.
    const per: string[] = [];
    for (const seat of ROLES) {
      for (const sc of M.scenarios) {
        const rs = mine.filter((r) => r.job.aSeat === seat && r.job.scenario === sc.id);
        if (rs.length === 0) continue;
        per.push(`${seat} ${sc.id} ${rs.reduce((x, r) => x + (r.winner === seat ? 1 : r.winner === null ? 0.5 : 0), 0)}/${rs.length}`);
      }
    }
    console.log(`    by scenario: ${per.join(', ')}`);
    const lost = mine.filter((r) => r.winner !== r.job.aSeat).map((r) => `${r.job.aSeat[0]}:${r.job.seed.replace('bench-ai:', '')}`);
    if (lost.length) console.log(`    not won: ${lost.join(' ')}`);
  }
  console.log('\nElo difference (first level minus second, from the score over both seats; 95% interval):');
  for (const [k, [e, lo, hi]] of eloOf) console.log(`  ${k.replace(':', ' − ')}: ${fmtElo(e)} [${fmtElo(lo)}, ${fmtElo(hi)}]`);
  console.log('\nDecision CPU time in these games (search levels, decisions with more than one choice):');
  const byLevel = new Map<string, DecisionStat[]>();
  for (const r of results) for (const s of r.stats) byLevel.set(s.level, [...(byLevel.get(s.level) ?? []), s]);
  for (const [l, ss] of byLevel) {
    const cpu = ss.reduce((x, s) => x + s.cpuMs, 0);
    const sims = ss.reduce((x, s) => x + s.sims, 0);
    const mism = ss.reduce((x, s) => x + s.mismatches, 0);
    console.log(`  ${l}: ${quantiles(ss.map((s) => s.cpuMs))}; ${Math.round(sims / (cpu / 1000))} simulations per CPU second; sampled states disagreeing with the request: ${mism}; capped: ${ss.filter((s) => s.capped).length}`);
  }
  const dec = results.map((r) => r.decisions);
  console.log(`\nGames: ${results.length}, decisions per game median ${[...dec].sort((a, b) => a - b)[dec.length >> 1]}, unfinished ${results.filter((r) => r.unfinished).length}`);
}

/** Positions from random games where the seat has a real choice. */
function positions(n: number): { state: unknown; role: string }[] {
  const out: { state: unknown; role: string }[] = [];
  for (let g = 0; out.length < n; g++) {
    const rng = seedRng(`bench-ai-positions:${g}`);
    let s = M.setup({ scenario: M.scenarios[g % M.scenarios.length]!.id, seed: `bench-ai-positions:${g}` });
    const every = 25;
    for (let i = 0; !M.status(s).over && out.length < n; i++) {
      const m = nextMover(M, s, ROLES[0]!);
      if (!m) break;
      if (i % every === every - 1 && m.actions.length > 1) out.push({ state: s, role: m.actor });
      s = M.apply(s, m.actor, m.actions[randomInt(rng, m.actions.length)]);
    }
  }
  return out;
}

function cost(levels: SearchLevel[], n: number, ov: Partial<Record<SearchLevel, Partial<SearchOptions>>>): void {
  const ps = positions(n);
  const gc = (globalThis as { gc?: () => void }).gc;
  console.log(`\nCost at ${ps.length} positions from random games (one process, CPU time; heap growth ${gc ? 'after a forced GC' : 'without --expose-gc: rough'}):`);
  // Warm the JIT so the first level does not pay for it.
  for (const p of ps.slice(0, 3)) ismcts(M, { role: p.role, view: M.view(p.state, p.role), legalActions: M.legalActions(p.state, p.role), seed: 'warm' }, { ...LEVEL_SEARCH.easy, ...ov.easy });
  for (const l of levels) {
    const times: number[] = [];
    const heap: number[] = [];
    let sims = 0, cpu = 0, nodes = 0;
    for (const [i, p] of ps.entries()) {
      const view = M.view(p.state, p.role);
      const legalActions = M.legalActions(p.state, p.role);
      gc?.();
      const h0 = process.memoryUsage().heapUsed;
      const t = cpuMs();
      const r = ismcts(M, { role: p.role, view, legalActions, seed: `cost:${i}` }, { ...LEVEL_SEARCH[l], ...ov[l] });
      const dt = cpuMs() - t;
      heap.push((process.memoryUsage().heapUsed - h0) / 1e6);
      times.push(dt);
      cpu += dt; sims += r.simulations; nodes += r.nodes;
    }
    heap.sort((a, b) => a - b);
    console.log(`  ${l}: ${quantiles(times)}; ${Math.round(sims / (cpu / 1000))} simulations per CPU second; ${Math.round(nodes / ps.length)} tree nodes per search; heap growth during a search median ${heap[heap.length >> 1]!.toFixed(1)} MB (max ${heap[heap.length - 1]!.toFixed(1)} MB)`);
  }
}

/** CPU per decision of SearchOptions variants, alternated A, B, …, A, B, … three times at the same positions. */
function costAB(levels: SearchLevel[], n: number, ov: Partial<Record<SearchLevel, Partial<SearchOptions>>>, variants: Partial<SearchOptions>[]): void {
  const ps = positions(n);
  console.log(`\nCost A/B at ${ps.length} positions from random games (one process, CPU time, variants alternated three times):`);
  for (const p of ps.slice(0, 3)) ismcts(M, { role: p.role, view: M.view(p.state, p.role), legalActions: M.legalActions(p.state, p.role), seed: 'warm' }, { ...LEVEL_SEARCH.easy, ...ov.easy });
  for (const l of levels) {
    const times = variants.map(() => [] as number[]);
    for (let round = 0; round < 3; round++) {
      for (const [v, extra] of variants.entries()) {
        for (const [i, p] of ps.entries()) {
          const view = M.view(p.state, p.role);
          const legalActions = M.legalActions(p.state, p.role);
          const t = cpuMs();
          ismcts(M, { role: p.role, view, legalActions, seed: `cost:${i}` }, { ...LEVEL_SEARCH[l], ...ov[l], ...extra });
          times[v]!.push(cpuMs() - t);
        }
      }
    }
    for (const [v, extra] of variants.entries()) console.log(`  ${l} ${JSON.stringify(extra)}: ${quantiles(times[v]!)}`);
  }
}

// ---------------------------------------------------------------- child
if (process.env.BENCH_AI_CHILD) {
  const ov = JSON.parse(process.env.BENCH_AI_CHILD) as Partial<Record<SearchLevel, Partial<SearchOptions>>>;
  process.on('message', (job: GameJob | { done: true }) => {
    if ('done' in job) process.exit(0);
    process.send!(playGame(job, ov));
  });
} else {
  await main();
}
