// The server killed with SIGKILL while bots play over HTTP: src/main.ts runs
// as a child process on a fresh database (the machine's Postgres; the process
// is what is killed, not the database). Every acknowledged (2xx) action is
// recorded; after kill -9 and a restart every one of them is in the stored
// log, every game's stored state equals the engine replay of its stored
// actions (the same jsonb text), and the bots — first retrying the request
// that was in flight with its Idempotency-Key — play their games to the end.
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { projectRoot } from '../../src/paths.ts';
import { games } from '../../src/games/index.ts';
import { createTestDatabase } from '../helpers/services.ts';
import { picker } from '../http/graphql-helpers.ts';
import { exited, freePort, pause } from './failures-helpers.ts';

const engine = games['richard-iii']!;
const databaseUrl = await createTestDatabase(t);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
t.teardown(() => db.end());

let child: ChildProcess | null = null;
let stderr = '';
t.teardown(async () => {
  if (child) {
    child.kill('SIGKILL');
    await exited(child);
  }
});

async function startServer(): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0', RATE_LIMIT_ANONYMOUS_MAX: '0' };
  for (const name of ['NODE_OPTIONS', 'REDIS_URL', 'DATA_DIR']) delete env[name];
  const t0 = performance.now();
  const c = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
  child = c;
  c.stderr!.on('data', (d: Buffer) => (stderr += d));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (c.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return Math.round(performance.now() - t0);
    } catch {
      // not listening yet
    }
    await pause(100);
  }
  throw new Error(`server not ready: ${stderr}`);
}

async function killServer(): Promise<void> {
  const c = child!;
  c.kill('SIGKILL');
  await exited(c);
  child = null;
}

interface Acked {
  gameId: string;
  version: number;
  role: string;
  action: unknown;
}
const acked: Acked[] = [];

/** JSON with sorted keys (jsonb does not keep the key order). */
function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}
let serverUp = true;

async function api(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any; replayed: boolean }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: await res.json(), replayed: res.headers.get('idempotent-replayed') === 'true' };
}

/**
 * A hot-seat bot (one key, both seats) playing random legal actions. Network
 * errors (the server is down) are waited out; a submission that failed that way
 * is retried with the same Idempotency-Key and expectedVersion once the server
 * answers again. Stops when the game is over, or when `stopAt()` says so.
 */
async function bot(key: string, gameId: string, seed: string, stopAt: () => boolean, stats: { retried: Set<string>; replayed: number }): Promise<string> {
  const pick = picker(seed);
  let pending: { role: string; action: unknown; version: number; idem: string } | null = null;
  let n = 0;
  for (let i = 0; i < 6000; i++) {
    if (stopAt()) return 'stopped';
    try {
      if (!pending) {
        const g = await api('GET', `/games/${gameId}`, key);
        if (g.json.status === 'finished') return 'finished';
        // Alternate between the active roles (both are active during card play).
        const active = g.json.activeRoles as string[];
        const role = active[n % active.length]!;
        const legal = await api('GET', `/games/${gameId}/actions?role=${role}`, key);
        if (legal.status !== 200) throw new Error(`legal actions: ${legal.status}`);
        pending = { role, action: pick(legal.json.actions), version: g.json.version, idem: `${seed}-${n++}` };
      } else {
        stats.retried.add(pending.idem);
      }
      const p: { role: string; action: unknown; version: number; idem: string } = pending;
      const res = await api('POST', `/games/${gameId}/actions`, key, { role: p.role, action: p.action, expectedVersion: p.version }, { 'idempotency-key': p.idem });
      if (res.status !== 200) throw new Error(`bot ${seed}: ${res.status} ${JSON.stringify(res.json)}`);
      if (res.json.version !== p.version + 1) throw new Error(`bot ${seed}: version ${res.json.version} after ${p.version}`);
      if (res.replayed) stats.replayed++;
      acked.push({ gameId, version: res.json.version, role: p.role, action: p.action });
      pending = null;
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('bot ')) throw err;
      // fetch failed: the server is down (or was killed mid-request). Keep `pending` for the retry.
      if (serverUp && !(err instanceof TypeError)) throw err;
      await pause(50);
    }
  }
  throw new Error(`bot ${seed}: the game did not end`);
}

/** The stored log is dense and the stored state is the replay of the stored actions (as jsonb text). */
async function checkStored(t: Test, gameId: string): Promise<number> {
  // One snapshot for both reads: a statement the killed server sent just before
  // it died may still be committing in Postgres, between two separate reads.
  await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  let g, log: Array<{ seq: number; kind: string; role: string; action: unknown }>;
  try {
    g = (await db.query(`SELECT scenario, seed, options, version, state::text AS state FROM games WHERE id = $1`, [gameId])).rows[0];
    log = (await db.query(`SELECT seq, kind, role, action FROM actions WHERE game_id = $1 ORDER BY seq`, [gameId])).rows;
  } finally {
    await db.query('COMMIT');
  }
  t.same(log.map((e) => e.seq), Array.from({ length: g.version }, (_, i) => i + 1), `game ${gameId}: log 1…${g.version}, no gap, no duplicate`);
  let state = engine.setup({ scenario: g.scenario, seed: g.seed, options: g.options });
  for (const e of log) if (e.kind === 'action') state = engine.apply(state, e.role, e.action);
  const replayed = (await db.query(`SELECT $1::jsonb::text AS s`, [JSON.stringify(state)])).rows[0].s as string;
  t.ok(replayed === g.state, `game ${gameId}: stored state = replay of its ${log.filter((e) => e.kind === 'action').length} stored actions`);
  return g.version;
}

t.test('kill -9 while bots play: no acknowledged action lost, no game corrupt, bots resume', async (t) => {
  const firstStartMs = await startServer();
  const signup = await fetch(`${base}/players`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bot', isBot: true }) });
  const key = ((await signup.json()) as { key: { key: string } }).key.key;
  const ids: string[] = [];
  for (const seed of ['kill-1', 'kill-2', 'kill-3']) {
    const created = await api('POST', '/games', key, { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York', 'Lancaster'] });
    t.equal(created.status, 201);
    ids.push(created.json.id);
  }

  const stats = { retried: new Set<string>(), replayed: 0 };
  let resumed = false;
  const bots = ids.map((id, i) => bot(key, id, `bot-${i}`, () => false, stats));
  // Let them play, then kill the server mid-play.
  while (acked.length < 120) await pause(10);
  serverUp = false;
  const ackedAtKill = acked.length;
  await killServer();
  t.comment(`killed after ${ackedAtKill} acknowledged actions`);
  await pause(300);
  const restartMs = await startServer();
  serverUp = true;
  resumed = true;
  t.comment(`server start: ${firstStartMs} ms; restart after SIGKILL: ${restartMs} ms`);

  // Right after the restart: every action acknowledged before the kill is stored, every game replays.
  const before = acked.slice(0, ackedAtKill);
  const stored = new Map<string, unknown>();
  const rows = (await db.query(`SELECT game_id::text AS g, seq, role, action FROM actions WHERE kind = 'action'`)).rows as Array<{ g: string; seq: number; role: string; action: unknown }>;
  for (const r of rows) stored.set(`${r.g}#${r.seq}`, { role: r.role, action: r.action });
  const lost = before.filter((a) => {
    const s = stored.get(`${a.gameId}#${a.version}`);
    return s === undefined || canon(s) !== canon({ role: a.role, action: a.action });
  });
  t.same(lost, [], `all ${before.length} acknowledged actions are in the stored log`);
  for (const id of ids) await checkStored(t, id);

  // The bots resume (retrying their in-flight request with its Idempotency-Key) and finish their games.
  const results = await Promise.all(bots);
  t.ok(resumed);
  t.same(results, ['finished', 'finished', 'finished'], 'every game played to the end after the restart');
  t.comment(`${acked.length} acknowledged actions in all; ${stats.retried.size} submissions retried with their Idempotency-Key after failing at the kill (${stats.replayed} had committed before it: the stored answer was replayed)`);
  const allRows = (await db.query(`SELECT game_id::text AS g, seq, role, action FROM actions WHERE kind = 'action'`)).rows as Array<{ g: string; seq: number; role: string; action: unknown }>;
  const all = new Map(allRows.map((r) => [`${r.g}#${r.seq}`, canon({ role: r.role, action: r.action })]));
  t.same(
    acked.filter((a) => all.get(`${a.gameId}#${a.version}`) !== canon({ role: a.role, action: a.action })),
    [],
    'every acknowledged action is stored, as acknowledged',
  );
  t.equal(new Set(acked.map((a) => `${a.gameId}#${a.version}`)).size, acked.length, 'no version acknowledged twice');
  for (const id of ids) await checkStored(t, id);
});
