/**
 * The clocks' cost on the write path (issue 15: at most +5% per action). The same games (same
 * seed, same moves) are played through the service's submitAction in pairs, A with a
 * correspondence clock and B without, on real Postgres; each move is made in both games of a
 * pair back to back (which goes first alternates), so drift on a shared machine hits both alike.
 *
 * Per action it takes this process's CPU time (process.cpuUsage), the Postgres backends' CPU
 * time (/proc/<pid>/schedstat of every backend connected to the bench database: ns, not 10 ms
 * ticks) and the wall time. Each game pair is one block; the printed ratio A/B is the median over
 * the blocks of (A's total in the block / B's), with its range and interquartile range, beside
 * the per-action medians. Printed figures, not a test.
 *
 *   npx tsx scripts/bench-clocks.ts [-- --games 60 --moves 40 --warmup 2]
 *   BENCH_NO_CLOCK=1 npx tsx scripts/bench-clocks.ts   # A/A: both without a clock (the noise floor)
 *   BENCH_IDEMPOTENCY=1 …                              # every action with an Idempotency-Key
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createMemoryBus } from '../src/bus/index.ts';
import { createGameService, type Caller } from '../src/service/api.ts';
import { openStore } from '../src/store/store.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const GAMES = arg('games', 60);
const MOVES = arg('moves', 40);
/** Blocks played but not counted (JIT warm-up, first connections). */
const WARMUP = arg('warmup', 2);
const AA = !!process.env.BENCH_NO_CLOCK;
const IDEM = !!process.env.BENCH_IDEMPOTENCY;

const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
const dbName = `herald_bench_${randomBytes(4).toString('hex')}`;
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${dbName}`;
const store = await openStore({ databaseUrl: url.toString(), dataDir: '/nonexistent' }, { info: () => {} });
const bus = createMemoryBus();
let now = Date.UTC(2027, 0, 1);
const svc = createGameService({ store, bus, now: () => now });

/** The bench database's backends (the pool under the store); refreshed outside the timed part. */
let backends: number[] = [];
async function refreshBackends(): Promise<void> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [dbName]);
  backends = rows.map((r) => r.pid);
}
/** CPU ns the backends have used so far (NaN when /proc is not readable: a remote database). */
function backendNs(): number {
  let total = 0;
  for (const pid of backends) {
    try {
      total += Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      return NaN;
    }
  }
  return total;
}

type Kind = 'A' | 'B';
/** ms each; `handover`: the move changed who must act (the clocks' handover, when A writes them). */
interface Sample { node: number; pg: number; wall: number; handover: boolean }
const samples: Record<Kind, Sample[]> = { A: [], B: [] };
const blocks: Record<Kind, Omit<Sample, 'handover'>>[] = [];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))]!;
};
const pct = (r: number): string => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)}%`;

try {
  const a: Caller = await svc.authenticate((await svc.createPlayer(null, { name: 'A' })).key!.key);
  const b: Caller = await svc.authenticate((await svc.createPlayer(null, { name: 'B' })).key!.key);
  const holder = (role: string) => (role === 'York' ? a : b);
  let keyNo = 0;
  for (let i = 0; i < GAMES; i++) {
    const seed = `bench-${i}`;
    const pair: Record<Kind, string> = { A: '', B: '' };
    // Which game is created first alternates too (row placement, ids).
    for (const kind of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const clocked = kind === 'A' && !AA;
      const g = await svc.createGame(a, { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York'], ...(clocked ? { timeControl: { kind: 'correspondence', daysPerMove: 14 } } : {}) });
      await svc.join(b, g.id, {});
      pair[kind] = g.id;
    }
    await refreshBackends();
    const block: Record<Kind, Omit<Sample, 'handover'>> = { A: { node: 0, pg: 0, wall: 0 }, B: { node: 0, pg: 0, wall: 0 } };
    for (let m = 0; m < MOVES; m++) {
      now += 60_000;
      const order = (m + i) % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      let over = false;
      const moves: Partial<Record<Kind, { caller: Caller; id: string; role: string; action: unknown; before: string }>> = {};
      for (const kind of order) {
        const g = await svc.getGame(a, pair[kind]);
        if (g.status !== 'active') { over = true; break; }
        const role = g.activeRoles[0]!;
        const legal = await svc.getLegalActions(holder(role), g.id, { role });
        moves[kind] = { caller: holder(role), id: g.id, role, before: g.activeRoles.join(), action: legal.actions.find((x) => (x as { type?: string }).type !== 'undo') ?? legal.actions[0] };
      }
      // Both games must make this move, or the block's two sums would not be of the same work.
      if (over) break;
      for (const kind of order) {
        const mv = moves[kind]!;
        const p0 = backendNs();
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        const res = await svc.submitAction(mv.caller, mv.id, { role: mv.role, action: mv.action as never, ...(IDEM ? { idempotencyKey: `k${keyNo++}` } : {}) });
        const wall = performance.now() - w0;
        const c = process.cpuUsage(c0);
        const pgMs = (backendNs() - p0) / 1e6;
        const s = { node: (c.user + c.system) / 1000, pg: pgMs, wall, handover: res.game.activeRoles.join() !== mv.before };
        if (i >= WARMUP) samples[kind].push(s);
        block[kind].node += s.node;
        block[kind].pg += s.pg;
        block[kind].wall += s.wall;
      }
    }
    if (i >= WARMUP && samples.A.length > 0) blocks.push(block);
  }

  const n = samples.A.length;
  console.log(`${AA ? 'A/A check (both without a clock)' : 'A = correspondence clock (14 days per move), B = no clock'}${IDEM ? ', with Idempotency-Keys' : ''}`);
  console.log(`${blocks.length} blocks (game pairs) of up to ${MOVES} moves after ${WARMUP} warm-up blocks; ${n} actions each`);
  const metrics: [string, (s: Omit<Sample, 'handover'>) => number][] = [
    ['node CPU', (s) => s.node],
    ['postgres CPU', (s) => s.pg],
    ['node+postgres', (s) => s.node + s.pg],
    ['wall', (s) => s.wall],
  ];
  console.log('per action (median ms)      A        B     A/B of medians | A/B per block: median [IQR] (range)');
  for (const [name, f] of metrics) {
    const ma = median(samples.A.map(f));
    const mb = median(samples.B.map(f));
    const ratios = blocks.map((bl) => f(bl.A) / f(bl.B));
    console.log(
      `${name.padEnd(16)} ${ma.toFixed(3).padStart(9)} ${mb.toFixed(3).padStart(8)}   ${pct(ma / mb).padStart(7)}        | ` +
        `${pct(median(ratios))} [${pct(quantile(ratios, 0.25))} .. ${pct(quantile(ratios, 0.75))}] (${pct(Math.min(...ratios))} .. ${pct(Math.max(...ratios))})`,
    );
  }
  const ho = (k: Kind) => samples[k].filter((s) => s.handover);
  console.log(`handovers only (${ho('A').length} of ${n} actions; the others write no clock fields), median ms:`);
  for (const [name, f] of metrics.slice(0, 3)) {
    const ma = median(ho('A').map(f));
    const mb = median(ho('B').map(f));
    console.log(`${name.padEnd(16)} ${ma.toFixed(3).padStart(9)} ${mb.toFixed(3).padStart(8)}   ${pct(ma / mb).padStart(7)}`);
  }
  const mean = (k: Kind, f: (s: Sample) => number) => samples[k].reduce((t, s) => t + f(s), 0) / n;
  console.log(`means: node CPU A ${mean('A', (s) => s.node).toFixed(3)} / B ${mean('B', (s) => s.node).toFixed(3)} ms, postgres CPU A ${mean('A', (s) => s.pg).toFixed(3)} / B ${mean('B', (s) => s.pg).toFixed(3)} ms`);
} finally {
  await store.close();
  await bus.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
