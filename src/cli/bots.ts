/**
 * Bot-vs-bot games through a server: two players (signed up here, or given by
 * their keys) play n games with uniformly random legal moves, `concurrency`
 * at a time, over the same REST routes as any client. Each game is created by
 * the first bot in the game type's first seat and joined by the second in its
 * second (Richard III: York, Lancaster); every move is submitted with the
 * version it was chosen at.
 */
import { gamePath, HeraldClient, type Action, type ActionResult, type CreatedPlayer, type GameSummary, type LegalActions } from './api.ts';
import { CliError } from './errors.ts';
import { mean, median, wilson } from './stats.ts';

export interface BotsOptions {
  games: number;
  gameType: string;
  /** The game type's two seats, in its order (GET /game-types). */
  roles: [string, string];
  scenario: string;
  options: Record<string, unknown>;
  concurrency: number;
  /** Keys of the two bots, the first seat's first; signed up when absent. */
  keys: [string, string] | null;
  /** Seeds the move choices and the games' seeds (reproducible runs); random when absent. */
  seed: number | null;
  /** A game still going after this many versions is resigned by the side to move, and counted apart. */
  maxVersions: number;
  onGameDone?: (done: number) => void;
}

export interface GameOutcome {
  id: string;
  winner: string | null;
  reason: string | null;
  status: string;
  versions: number;
  ms: number;
  /** True when the game was stopped at maxVersions. */
  capped: boolean;
}

/** xorshift32: a small seeded generator in [0, 1), so a run can be repeated with --seed (the test harnesses use it too). */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

/** Bots wait out the rate limit as often as it takes: a refused request changes nothing. */
const BOT_RATE_LIMIT_RETRIES = 1_000;

async function botClients(server: string, keys: [string, string] | null, roles: readonly string[]): Promise<[HeraldClient, HeraldClient]> {
  const bot = (key: string) => new HeraldClient(server, key, BOT_RATE_LIMIT_RETRIES);
  if (keys) return [bot(keys[0]), bot(keys[1])];
  const anon = new HeraldClient(server, null);
  const suffix = Math.random().toString(36).slice(2, 8);
  const made = await Promise.all(roles.map((r) => anon.post<CreatedPlayer>('/players', { name: `bot-${r.toLowerCase()}-${suffix}`, isBot: true })));
  return [bot(made[0]!.key.key), bot(made[1]!.key.key)];
}

async function playOne(bots: [HeraldClient, HeraldClient], opts: BotsOptions, random: () => number, gameSeed: string): Promise<GameOutcome> {
  const started = performance.now();
  const [first, second] = bots;
  const [firstRole, secondRole] = opts.roles;
  const created = await first.post<GameSummary>('/games', {
    gameType: opts.gameType,
    scenario: opts.scenario,
    roles: [firstRole],
    seed: gameSeed,
    ...(Object.keys(opts.options).length ? { options: opts.options } : {}),
  });
  let game = await second.post<GameSummary>(gamePath(created.id, '/join'), { role: secondRole });
  const byRole: Record<string, HeraldClient> = { [firstRole]: first, [secondRole]: second };
  // The acting seat's next legal actions come back with each move: no second request while it goes on.
  let known: { role: string; version: number; actions: Action[] } | null = null;
  let capped = false;
  let idle = 0;
  while (game.status === 'active') {
    if (game.version >= opts.maxVersions) {
      const role = game.activeRoles[0] ?? firstRole;
      game = await byRole[role]!.post<GameSummary>(gamePath(game.id, '/resign'), {});
      capped = true;
      break;
    }
    const role = game.activeRoles[Math.floor(random() * game.activeRoles.length)]!;
    const client = byRole[role]!;
    let actions: Action[];
    let version: number;
    if (known && known.role === role && known.version === game.version) ({ actions, version } = known);
    else {
      const legal = await client.get<LegalActions>(gamePath(game.id, '/actions'));
      actions = legal.actions;
      version = legal.version;
    }
    if (actions.length === 0) {
      // Told it is active, but nothing to do at this version: read the game again (not for ever).
      if (++idle > 50) throw new Error(`game ${game.id}: ${role} is active at version ${game.version} with no legal action`);
      game = await client.get<GameSummary>(gamePath(game.id));
      known = null;
      continue;
    }
    const action = actions[Math.floor(random() * actions.length)]!;
    try {
      const res = await client.post<ActionResult>(gamePath(game.id, '/actions'), { action, expectedVersion: version });
      game = res.game;
      idle = 0;
      known = { role, version: res.version, actions: res.legalActions };
    } catch (err) {
      // Both seats may act at once (cards are chosen together): a move of the other bot in
      // between makes ours stale, which the server refuses with version_conflict. Read again.
      if (err instanceof CliError && err.problem?.code === 'version_conflict') {
        game = await client.get<GameSummary>(gamePath(game.id));
        known = null;
        continue;
      }
      throw err;
    }
  }
  return {
    id: game.id,
    winner: game.result?.winner ?? null,
    reason: game.result?.reason ?? null,
    status: game.status,
    versions: game.version,
    ms: performance.now() - started,
    capped,
  };
}

export interface BotsSummary {
  games: number;
  gameType: string;
  scenario: string;
  options: Record<string, unknown>;
  wins: Record<string, { n: number; share: number; ci95: [number, number] }>;
  draws: number;
  /** Games stopped at --max-versions (resigned by the side to move): not counted as wins. */
  capped: number;
  versions: { mean: number | null; median: number | null };
  seconds: { mean: number | null; median: number | null; total: number };
  gameIds: string[];
}

export async function runBots(server: string, opts: BotsOptions): Promise<BotsSummary> {
  if (opts.keys === null && opts.games > 0) {
    // Fail early and clearly when the server is not there.
    await new HeraldClient(server, null).get('/healthz');
  }
  const bots = await botClients(server, opts.keys, opts.roles);
  const master = rng(opts.seed ?? Math.floor(Math.random() * 2 ** 32));
  const plan = Array.from({ length: opts.games }, (_, i) => ({ i, seed: Math.floor(master() * 2 ** 32), gameSeed: `bots-${opts.seed ?? 'r'}-${i}-${Math.floor(master() * 2 ** 32)}` }));
  const outcomes: GameOutcome[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const p = plan[next++]!;
      outcomes.push(await playOne(bots, opts, rng(p.seed), p.gameSeed));
      opts.onGameDone?.(outcomes.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, opts.games)) }, worker));
  const total = (performance.now() - started) / 1000;

  const decided = outcomes.filter((o) => !o.capped);
  const wins: BotsSummary['wins'] = {};
  for (const role of opts.roles) {
    const n = decided.filter((o) => o.winner === role).length;
    const ci = wilson(n, decided.length);
    wins[role] = { n, share: decided.length ? n / decided.length : 0, ci95: [round(ci.low), round(ci.high)] };
  }
  const secs = outcomes.map((o) => o.ms / 1000);
  return {
    games: outcomes.length,
    gameType: opts.gameType,
    scenario: opts.scenario,
    options: opts.options,
    wins,
    draws: decided.filter((o) => o.winner === null).length,
    capped: outcomes.length - decided.length,
    versions: { mean: roundOrNull(mean(outcomes.map((o) => o.versions)), 1), median: median(outcomes.map((o) => o.versions)) },
    seconds: { mean: roundOrNull(mean(secs), 2), median: roundOrNull(median(secs), 2), total: round(total, 2) },
    gameIds: outcomes.map((o) => o.id),
  };
}

function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function roundOrNull(x: number | null, digits: number): number | null {
  return x === null ? null : round(x, digits);
}

export function summaryText(s: BotsSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const decided = s.games - s.capped;
  const lines = [`${s.games} game${s.games === 1 ? '' : 's'} of ${s.gameType} (${s.scenario}${Object.keys(s.options).length ? `, ${Object.entries(s.options).map(([k, v]) => `${k}=${v}`).join(', ')}` : ''}) in ${s.seconds.total} s`];
  for (const [role, w] of Object.entries(s.wins)) lines.push(`  ${role.padEnd(10)} won ${String(w.n).padStart(4)} of ${decided}  ${pct(w.share).padStart(7)}  95 % CI ${pct(w.ci95[0])} – ${pct(w.ci95[1])} (Wilson)`);
  lines.push(`  draws      ${s.draws}`);
  if (s.capped) lines.push(`  stopped at the version cap (not counted): ${s.capped}`);
  lines.push(`  length     mean ${s.versions.mean} versions, median ${s.versions.median}`);
  lines.push(`  wall time  mean ${s.seconds.mean} s a game, median ${s.seconds.median} s`);
  return lines.join('\n');
}

