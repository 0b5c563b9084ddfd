// Concurrency and retries over real HTTP (real listening ports, concurrent
// fetches), against the machine's Postgres (a fresh database) and Redis:
// - 50 simultaneous submissions of one legal action at one expectedVersion;
// - retries with one Idempotency-Key spread over two server instances;
// - two server PROCESSES taking writes for the same games from concurrent bots,
//   then every game's stored state = the engine replay of its stored actions.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { games as gameModules } from '../../src/games/index.ts';
import { openTestStore, testConfig, TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';
import { prng } from '../http/rest-helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { store, databaseUrl } = await openTestStore(t);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
t.teardown(() => db.end());

type Json = unknown;
interface Res { status: number; body: string; json: any; headers: Headers }

async function call(base: string, method: string, url: string, key: string | null, payload?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const h: Record<string, string> = { ...headers };
  if (key) h.authorization = `Bearer ${key}`;
  if (payload !== undefined) h['content-type'] = 'application/json';
  const r = await fetch(base + url, { method, headers: h, ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}) });
  const body = await r.text();
  let json: any = null;
  try {
    json = JSON.parse(body);
  } catch {
    // not JSON
  }
  return { status: r.status, body, json, headers: r.headers };
}

async function signup(base: string, name: string): Promise<{ key: string; id: string }> {
  const r = await call(base, 'POST', '/players', null, { name });
  if (r.status !== 201) throw new Error(`signup ${r.status} ${r.body}`);
  return { key: r.json.key.key, id: r.json.player.id };
}

/** A started two-player game (York = a, Lancaster = b) on the short scenario. */
async function startedGame(base: string, a: string, b: string, seed?: string): Promise<string> {
  const g = await call(base, 'POST', '/games', a, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], ...(seed ? { seed } : {}) });
  if (g.status !== 201) throw new Error(`create ${g.status} ${g.body}`);
  const j = await call(base, 'POST', `/games/${g.json.id}/join`, b, {});
  if (j.status >= 300) throw new Error(`join ${j.status} ${j.body}`);
  return g.json.id as string;
}

async function appOn(busPrefix: string): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, busPrefix }), { store });
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address() as net.AddressInfo;
  return { app, base: `http://127.0.0.1:${addr.port}` };
}

/** The stored log of a game: dense seqs 1..n, version = n. */
async function checkLog(tt: Test, gameId: string): Promise<void> {
  const seqs = (await db.query('SELECT seq FROM actions WHERE game_id = $1 ORDER BY seq', [gameId])).rows.map((r) => r.seq as number);
  const { version } = (await db.query('SELECT version FROM games WHERE id = $1', [gameId])).rows[0];
  tt.same(seqs, Array.from({ length: seqs.length }, (_, i) => i + 1), 'log seqs are dense 1..n (no gap, no duplicate)');
  tt.equal(version, seqs.length, 'game version = log length');
}

/** JSON with object keys sorted (jsonb does not keep key order). */
function canonical(v: Json): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x);
}

const prefix = uniquePrefix();
const one = await appOn(prefix);
const two = await appOn(prefix);

t.test('50 simultaneous submissions of one legal action at one expectedVersion: one commits, 49 × 409', async (tt) => {
  const a = await signup(one.base, 'A');
  const b = await signup(one.base, 'B');
  const gameId = await startedGame(one.base, a.key, b.key);
  const legal = await call(one.base, 'GET', `/games/${gameId}/actions`, a.key);
  tt.equal(legal.status, 200);
  tt.ok(legal.json.active, 'York may act');
  const body = { action: legal.json.actions[0], expectedVersion: legal.json.version };
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => call(i % 2 ? two.base : one.base, 'POST', `/games/${gameId}/actions`, a.key, body)),
  );
  const ok = results.filter((r) => r.status >= 200 && r.status < 300);
  const conflicts = results.filter((r) => r.status === 409);
  tt.equal(ok.length, 1, 'exactly one commit');
  tt.equal(conflicts.length, 49, '49 conflicts');
  for (const r of conflicts) {
    tt.match(r.headers.get('content-type'), /^application\/problem\+json/);
    tt.match(r.json, { status: 409, code: 'version_conflict', type: String, title: String, detail: String, currentVersion: legal.json.version + 1 });
  }
  tt.same(results.filter((r) => r.status !== 409 && !(r.status >= 200 && r.status < 300)).map((r) => r.status), [], 'no other status');
  await checkLog(tt, gameId);
});

t.test('retries with one Idempotency-Key across two instances: one commit, byte-identical bodies', async (tt) => {
  const a = await signup(one.base, 'A');
  const b = await signup(two.base, 'B');
  const gameId = await startedGame(one.base, a.key, b.key);
  const legal = await call(two.base, 'GET', `/games/${gameId}/actions`, a.key);
  const before = legal.json.version as number;
  const body = { action: legal.json.actions[0], expectedVersion: before };
  const headers = { 'idempotency-key': 'retry-me-0001' };
  // A burst of simultaneous retries on both instances, then sequential ones.
  const burst = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(i % 2 ? two.base : one.base, 'POST', `/games/${gameId}/actions`, a.key, body, headers)),
  );
  const later = [];
  for (const base of [one.base, two.base, one.base, two.base]) later.push(await call(base, 'POST', `/games/${gameId}/actions`, a.key, body, headers));
  const all = [...burst, ...later];
  tt.same(all.map((r) => r.status), all.map(() => 200), 'every retry answers 200');
  const bodies = new Set(all.map((r) => r.body));
  tt.equal(bodies.size, 1, 'byte-identical response bodies');
  tt.equal(all.filter((r) => r.headers.get('idempotent-replayed') !== 'true').length, 1, 'one original, the rest replays');
  tt.equal(all[0]!.json.version, before + 1);
  const n = (await db.query(`SELECT count(*)::int AS n FROM actions WHERE game_id = $1 AND kind = 'action'`, [gameId])).rows[0].n;
  tt.equal(n, 1, 'one action committed');
  const v = (await db.query('SELECT version FROM games WHERE id = $1', [gameId])).rows[0].version;
  tt.equal(v, before + 1);
  // The same key with another body is refused, not committed.
  const other = legal.json.actions.find((x: Json) => canonical(x) !== canonical(body.action));
  if (other) {
    const r = await call(one.base, 'POST', `/games/${gameId}/actions`, a.key, { action: other, expectedVersion: before }, headers);
    tt.equal(r.status, 400);
    tt.equal(r.json.code, 'invalid_request');
  }
  await checkLog(tt, gameId);
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function spawnServer(tt: Test, port: number, busPrefix: string): Promise<{ base: string; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      PORT: String(port),
      HOST: '127.0.0.1',
      BUS_PREFIX: busPrefix,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      RATE_LIMIT_ANONYMOUS_MAX: '0',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  tt.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${out}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} not ready: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, child, log: () => out };
}

t.test('two server processes take writes for the same games: stored state = engine replay of stored actions', async (tt) => {
  const busPrefix = uniquePrefix();
  const [p1, p2] = await Promise.all([freePort(), freePort()]);
  const servers = await Promise.all([spawnServer(tt, p1, busPrefix), spawnServer(tt, p2, busPrefix)]);
  const bases = servers.map((s) => s.base);
  const GAMES = 4;
  const TARGET_VERSION = 40; // each game: 2 set-up entries + 38 actions (unless it ends first)
  const gameIds: string[] = [];
  const seats: Array<{ gameId: string; key: string }> = [];
  for (let g = 0; g < GAMES; g++) {
    const a = await signup(bases[g % 2]!, `A${g}`);
    const b = await signup(bases[(g + 1) % 2]!, `B${g}`);
    const id = await startedGame(bases[g % 2]!, a.key, b.key, `two-proc-${g}`);
    gameIds.push(id);
    // Two bots per seat (one per process) race each other as well as the opponent.
    seats.push({ gameId: id, key: a.key }, { gameId: id, key: a.key }, { gameId: id, key: b.key }, { gameId: id, key: b.key });
  }
  const counts = { committed: 0, conflicts: 0, notYourTurn: 0, other: [] as string[] };
  const deadline = Date.now() + 60_000;
  await Promise.all(
    seats.map(async (s, i) => {
      const rnd = prng(1000 + i);
      for (;;) {
        if (Date.now() > deadline) {
          counts.other.push('deadline reached');
          return;
        }
        const read = bases[rnd(2)]!;
        const write = bases[rnd(2)]!;
        const legal = await call(read, 'GET', `/games/${s.gameId}/actions`, s.key);
        if (legal.status !== 200) {
          counts.other.push(`GET ${legal.status} ${legal.body.slice(0, 200)}`);
          return;
        }
        if (legal.json.version >= TARGET_VERSION) return;
        if (legal.json.actions.length === 0 || !legal.json.active) {
          // The game is over or it is the other side's turn.
          const g = await call(read, 'GET', `/games/${s.gameId}`, s.key);
          if (g.json?.status !== 'active') return;
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const action = legal.json.actions[rnd(legal.json.actions.length)];
        const r = await call(write, 'POST', `/games/${s.gameId}/actions`, s.key, { action, expectedVersion: legal.json.version });
        if (r.status === 200) {
          counts.committed++;
        } else if (r.status === 409 && r.json?.code === 'version_conflict') counts.conflicts++;
        else if (r.status === 409 && r.json?.code === 'not_your_turn') counts.notYourTurn++;
        else if (r.status === 409 && r.json?.code === 'game_over') return;
        else counts.other.push(`POST ${r.status} ${r.body.slice(0, 200)}`);
      }
    }),
  );
  tt.same(counts.other, [], 'no unexpected responses');
  tt.ok(counts.committed > GAMES * 10, `actions committed through both processes (${counts.committed}; ${counts.conflicts} version conflicts, ${counts.notYourTurn} not your turn)`);
  tt.comment(`two processes: ${counts.committed} committed, ${counts.conflicts} version conflicts, ${counts.notYourTurn} not-your-turn`);
  for (const s of servers) tt.equal(s.child.exitCode, null, 'server process still up');

  for (const id of gameIds) {
    const g = (await db.query('SELECT game_type, scenario, seed, options, state::text AS state, version FROM games WHERE id = $1', [id])).rows[0];
    const log = (await db.query('SELECT seq, kind, role, action FROM actions WHERE game_id = $1 ORDER BY seq', [id])).rows;
    const m = gameModules[g.game_type]!;
    let state = m.setup({ scenario: g.scenario, seed: g.seed, options: g.options });
    for (const e of log) if (e.kind === 'action') state = m.apply(state, e.role, e.action);
    tt.equal(canonical(JSON.parse(g.state)), canonical(state), `game ${id}: stored state = replay of its ${log.length} log entries`);
    // And Postgres agrees: the replay as jsonb equals the stored jsonb.
    const same = (await db.query('SELECT state = $2::jsonb AS same FROM games WHERE id = $1', [id, JSON.stringify(state)])).rows[0].same;
    tt.equal(same, true, 'jsonb equality');
    await checkLog(tt, id);
  }
  for (const s of servers) s.child.kill('SIGTERM');
});
