/**
 * Benchmark of the clock scheduler (issue 15): 100,000 running correspondence games with clocks
 * on the machine's Postgres, swept by real server processes (`src/main.ts`, spawned like
 * production: DATABASE_URL, REDIS_URL, their own PORT; the sweep runs every 5 s as shipped).
 *
 * Setup: a few real games are created and opened through the service (in this process), then
 * cloned with INSERT … SELECT generate_series: new ids, seats held by ~2,000 players, their log
 * rows, and each clone's running seat given its own deadline (spread over 3–13 days) with the
 * clocks JSON, deadline_at and remind_at rewritten to match, as the write path would store them.
 *
 * It prints (figures, no assertions):
 * - idle: per minute, with one instance and no game due: transactions (= statements: the sweeps
 *   run autocommit statements) from pg_stat_database less this script's own, index scans of the
 *   sweep indexes, the server's CPU (/proc/<pid>/stat) and its Postgres backends' CPU;
 * - EXPLAIN ANALYZE of each sweep query, with nothing due and with a burst due;
 * - bursts: `--burst` games cloned already past their deadline in one transaction (and
 *   separately `--burst` games whose first reminder is due), with 1 and 2 instances: timeouts
 *   fired per second (from the timeout log entries' created_at: (n-1)/(last-first)), the time
 *   from "due" to the last one, and a check that each game got exactly one timeout entry (and
 *   each reminder went out once, counted on the Redis bus). Medians and ranges over repeats.
 * - `--baseline <git rev>`: the same idle and burst runs for the server of that revision (its
 *   src/ extracted to a temp folder), alternating with this tree in every repeat, so before and
 *   after are measured on the same machine state.
 *
 *   npm run bench:scheduler -- [--games 100000] [--burst 10000] [--repeats 3] [--idle-seconds 60]
 *                              [--instances 1,2] [--baseline 5f08952 --baseline-burst 2000] [--idle-repeats 2]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, cpSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createMemoryBus } from '../src/bus/index.ts';
import { createGameService, type Caller } from '../src/service/api.ts';
import { openStore } from '../src/store/store.ts';
import { projectRoot } from '../src/paths.ts';
import { dueBatch } from '../src/service/clocks.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const num = (name: string, dflt: number): number => Number(opt(name) ?? dflt);
const GAMES = num('games', 100_000);
const BURST = num('burst', 10_000);
const REPEATS = num('repeats', 3);
const IDLE_S = num('idle-seconds', 60);
const INSTANCES = (opt('instances') ?? '1,2').split(',').map(Number);
const BASELINE = opt('baseline');
const BASELINE_BURST = num('baseline-burst', Math.min(BURST, 2_000));
const TEMPLATES = 8;
const PLAYERS = 2_000;
const DAY = 86_400_000;
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ─── Statistics ─────────────────────────────────────────────────────────────
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
const summary = (xs: number[], d = 1) => (xs.length === 0 ? 'n/a' : `${fmt(median(xs), d)} (${fmt(Math.min(...xs), d)}–${fmt(Math.max(...xs), d)}, n=${xs.length})`);

// ─── The database ───────────────────────────────────────────────────────────
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
const dbName = `herald_bench_sched_${randomBytes(4).toString('hex')}`;
await admin.query(`CREATE DATABASE ${dbName}`);
const dbUrlObj = new URL(ADMIN_URL);
dbUrlObj.pathname = `/${dbName}`;
const DB_URL = dbUrlObj.toString();
const busPrefix = `herald-bench:${randomBytes(4).toString('hex')}:`;

/** This script's own connection; every statement it sends is counted (pg_stat_database counts them too). */
const db = new pg.Client({ connectionString: DB_URL });
let ownStatements = 0;
let queue: Promise<unknown> = Promise.resolve();
/** One statement at a time on the script's connection (the CPU sampler and the polling share it). */
function q<T extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<T>> {
  const run = queue.then(() => {
    ownStatements++;
    return db.query<T>(text, values);
  });
  queue = run.catch(() => {});
  return run;
}

const children = new Set<ChildProcess>();
let baselineDir: string | null = null;
async function cleanup(): Promise<void> {
  for (const c of children) c.kill('SIGKILL');
  await db.end().catch(() => {});
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await admin.end().catch(() => {});
  if (baselineDir) rmSync(baselineDir, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

async function setup(): Promise<string[]> {
  const t0 = performance.now();
  // Migrations and the template games through the real service (a memory bus: nobody listens yet).
  const store = await openStore({ databaseUrl: DB_URL, dataDir: '/nonexistent' }, { info: () => {} });
  const bus = createMemoryBus();
  let now = Date.now() - 3_600_000;
  const svc = createGameService({ store, bus, now: () => now });
  const callers: Caller[] = [];
  for (let i = 0; i < 4; i++) callers.push(await svc.authenticate((await svc.createPlayer(null, { name: `Template ${i}` })).key!.key));
  const templates: string[] = [];
  for (let i = 0; i < TEMPLATES; i++) {
    const [a, b] = [callers[i % 4]!, callers[(i + 1) % 4]!];
    const g = await svc.createGame(a, { gameType: 'richard-iii', scenario: 'richard-iii', seed: `sched-${i}`, roles: ['York'], rated: true, timeControl: { kind: 'correspondence', daysPerMove: 14 } as never });
    await svc.join(b, g.id, {});
    // Richard III's opening (both keep their hands, both play a card) until one seat alone must
    // act, both having moved: a timeout then is a rated loss, not an abort.
    for (const [who, role] of [[a, 'York'], [b, 'Lancaster'], [a, 'York'], [b, 'Lancaster']] as const) {
      now += 60_000;
      const legal = await svc.getLegalActions(who, g.id, { role });
      await svc.submitAction(who, g.id, { role, action: legal.actions[0] as never });
    }
    const s = await svc.getGame(null, g.id);
    if (s.activeRoles.length !== 1) throw new Error(`template ${i}: ${s.activeRoles.join(',')} active after the opening`);
    templates.push(g.id);
  }
  await store.close();
  await bus.close();
  await db.connect();
  // Players who hold the clones' seats.
  await q(`INSERT INTO players (id, name) SELECT gen_random_uuid(), 'Player ' || i FROM generate_series(1, ${PLAYERS}) i`);
  await q(`ANALYZE`);
  TEMPLATE_IDS = templates;
  await cloneGames(GAMES, 'background');
  await q(`VACUUM ANALYZE games`);
  await q(`VACUUM ANALYZE seats`);
  await q(`VACUUM ANALYZE actions`);
  const n = (await q(`SELECT count(*)::int AS n FROM games WHERE status = 'active' AND deadline_at IS NOT NULL`)).rows[0].n;
  console.log(`setup: ${n} running correspondence games (${TEMPLATES} templates opened through the service, cloned), ${PLAYERS} players, in ${fmt((performance.now() - t0) / 1000)} s`);
  return templates;
}

let columnsCache: Record<string, string[]> = {};
async function columns(table: string): Promise<string[]> {
  if (!columnsCache[table]) columnsCache[table] = (await q(`SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = 'public' ORDER BY ordinal_position`, [table])).rows.map((r) => r.column_name as string);
  return columnsCache[table]!;
}

/** INSERT INTO table SELECT every column, as is unless `over` gives its expression. */
async function cloneRows(table: string, over: Record<string, string>, from: string): Promise<void> {
  const cols = await columns(table);
  const exprs = cols.map((c) => over[c] ?? `src.${c}`);
  await q(`INSERT INTO ${table} (${cols.join(', ')}) SELECT ${exprs.join(', ')} ${from}`);
}

/**
 * `n` clones of the template games, in one transaction (they become visible, and due, at once).
 * background: deadlines spread over 3–13 days from now (no reminder due for days either);
 * timeouts: deadlines up to a second ago; reminders: deadline in 2 days, so the share-used
 * reminder (at 80% of the 14-day turn) is due and the low-time one is not.
 */
async function cloneGames(n: number, kind: 'background' | 'timeouts' | 'reminders'): Promise<string[]> {
  const now = Date.now();
  const deadline =
    kind === 'background' ? `${now} + ${3 * DAY} + floor(random() * ${10 * DAY} + i * 0)::bigint` : kind === 'timeouts' ? `${now} - 1 - floor(random() * 1000 + i * 0)::bigint` : `${now} + ${2 * DAY} + floor(random() * 60000 + i * 0)::bigint`;
  // When the running seat's turn began: up to a day ago (its time left is then deadline - since).
  const since = kind === 'background' ? `${now} - floor(random() * ${DAY} + i * 0)::bigint` : `${now} - ${DAY} - floor(random() * 1000 + i * 0)::bigint`;
  await q('BEGIN');
  try {
    await q(`CREATE TEMP TABLE stage ON COMMIT DROP AS
      WITH t AS (SELECT id, active_roles[1] AS role, (row_number() OVER (ORDER BY id) - 1)::int AS k, clocks FROM games WHERE id = ANY($1::uuid[])),
           p AS (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS np FROM players WHERE name LIKE 'Player %')
      SELECT gen_random_uuid() AS id, t.id AS tid, t.role, r.d, r.s, (t.clocks->'seats'->t.role->>'turnBudgetMs')::bigint AS budget,
             p.ids[1 + i % p.np] AS york, p.ids[1 + ((i % p.np) + 1 + (i / p.np) % (p.np - 1)) % p.np] AS lancaster
      FROM generate_series(1, ${n}) i
      JOIN t ON t.k = i % ${TEMPLATES}
      CROSS JOIN p
      CROSS JOIN LATERAL (SELECT ${deadline} AS d, ${since} AS s) r`, [TEMPLATE_IDS]);
    const seat = `jsonb_build_object('runningSince', stage.s, 'remainingMs', stage.d - stage.s, 'deadline', stage.d)`;
    const remindAt = kind === 'timeouts' ? 'NULL' : `to_timestamp((stage.d - round(stage.budget * 0.2))::double precision / 1000)`;
    await cloneRows(
      'games',
      {
        id: 'stage.id',
        clocks: `jsonb_set(src.clocks, ARRAY['seats', stage.role], (src.clocks->'seats'->stage.role) || ${seat})`,
        deadline_at: `to_timestamp(stage.d::double precision / 1000)`,
        remind_at: remindAt,
        reminders_sent: `'{}'`,
        created_by_id: 'stage.york',
        created_at: `to_timestamp(stage.s::double precision / 1000) - interval '1 hour'`,
        updated_at: `to_timestamp(stage.s::double precision / 1000)`,
      },
      `FROM stage JOIN games src ON src.id = stage.tid`,
    );
    await cloneRows('seats', { game_id: 'stage.id', player_id: `CASE src.role WHEN 'York' THEN stage.york ELSE stage.lancaster END`, invite_code_hash: 'NULL' }, `FROM stage JOIN seats src ON src.game_id = stage.tid`);
    await cloneRows(
      'actions',
      { game_id: 'stage.id', player_id: `CASE WHEN src.player_id IS NULL THEN NULL WHEN src.role = 'York' THEN stage.york ELSE stage.lancaster END`, idempotency_key: 'NULL' },
      `FROM stage JOIN actions src ON src.game_id = stage.tid`,
    );
    const ids = (await q(`SELECT id::text AS id FROM stage`)).rows.map((r) => r.id as string);
    await q('COMMIT');
    return ids;
  } catch (err) {
    await q('ROLLBACK');
    throw err;
  }
}
let TEMPLATE_IDS: string[] = [];

// ─── Server processes ───────────────────────────────────────────────────────
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  port: number;
}

/** A server process of `tree`; a start that fails is tried again (on a saturated machine a plugin can miss Fastify's start-up timeout). */
async function startServer(tree: string): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(tree);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.log(`  (a server did not start, trying again: ${String(err).split('\n').find((l) => /Error/.test(l)) ?? String(err).slice(0, 200)})`);
    }
  }
}

async function startServerOnce(tree: string): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: DB_URL, REDIS_URL, BUS_PREFIX: busPrefix, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  for (const name of ['NODE_OPTIONS', 'DATA_DIR']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: tree, env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d;
    if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
  });
  child.once('exit', () => children.delete(child));
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return { child, port };
    } catch {
      // not listening yet
    }
    await pause(200);
  }
  throw new Error(`server not ready: ${stderr}`);
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const gone = new Promise<void>((r) => s.child.once('exit', () => r()));
  s.child.kill('SIGTERM');
  await Promise.race([gone, pause(15_000)]);
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await gone;
}

// ─── CPU from /proc ─────────────────────────────────────────────────────────
function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime, stime (fields 14, 15)
  } catch {
    return null;
  }
}

/**
 * CPU of the server processes and of this database's Postgres backends (autovacuum included),
 * this script's own backend excluded. Backends are found in pg_stat_activity each second; a
 * backend that exits between two samples loses at most its last second.
 */
class CpuMeter {
  private first = new Map<number, number>();
  private last = new Map<number, number>();
  private nodeStart: number;
  private timer: NodeJS.Timeout;
  private ownPid = 0;
  private servers: Server[];
  private constructor(servers: Server[], initialPids: number[], ownPid: number) {
    this.servers = servers;
    this.ownPid = ownPid;
    for (const p of initialPids) {
      const t = cpuTicks(p);
      if (t !== null) (this.first.set(p, t), this.last.set(p, t));
    }
    this.nodeStart = this.nodeTicks();
    this.timer = setInterval(() => void this.sample(), 1000);
  }
  static async start(servers: Server[]): Promise<CpuMeter> {
    const own = (await q(`SELECT pg_backend_pid() AS p`)).rows[0].p as number;
    return new CpuMeter(servers, await backendPids(own), own);
  }
  private nodeTicks(): number {
    return this.servers.reduce((s, x) => s + (cpuTicks(x.child.pid!) ?? 0), 0);
  }
  async sample(): Promise<void> {
    for (const p of await backendPids(this.ownPid)) {
      const t = cpuTicks(p);
      if (t === null) continue;
      if (!this.first.has(p)) this.first.set(p, 0); // a backend that started within the window: all of it counts
      this.last.set(p, t);
    }
  }
  /** Seconds of CPU: { node, pg }. */
  async stop(): Promise<{ node: number; pg: number }> {
    clearInterval(this.timer);
    await this.sample();
    let pgTicks = 0;
    for (const [p, t] of this.last) pgTicks += t - (this.first.get(p) ?? 0);
    return { node: (this.nodeTicks() - this.nodeStart) / CLK_TCK, pg: pgTicks / CLK_TCK };
  }
}

async function backendPids(own: number): Promise<number[]> {
  return (await q(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1`, [own])).rows.map((r) => r.pid as number);
}

// ─── Idle ───────────────────────────────────────────────────────────────────
interface DbCounters {
  xacts: number;
  tupReturned: number;
  tupFetched: number;
  deadlineScans: number;
  remindScans: number;
  own: number;
}

async function counters(): Promise<DbCounters> {
  await q(`SELECT pg_stat_clear_snapshot()`);
  const d = (await q(`SELECT xact_commit + xact_rollback AS x, tup_returned, tup_fetched FROM pg_stat_database WHERE datname = current_database()`)).rows[0];
  const i = (await q(`SELECT indexrelname AS name, idx_scan FROM pg_stat_user_indexes WHERE relname = 'games'`)).rows as Array<{ name: string; idx_scan: string }>;
  const scans = (needle: string) => i.filter((r) => r.name.includes(needle)).reduce((s, r) => s + Number(r.idx_scan), 0);
  return { xacts: Number(d.x), tupReturned: Number(d.tup_returned), tupFetched: Number(d.tup_fetched), deadlineScans: scans('deadline_at'), remindScans: scans('remind_at'), own: ownStatements };
}

interface IdleFigures {
  statementsPerMin: number;
  deadlineScansPerMin: number;
  remindScansPerMin: number;
  tuplesPerMin: number;
  nodeCpuMsPerMin: number;
  pgCpuMsPerMin: number;
}

async function measureIdle(tree: string, label: string): Promise<IdleFigures> {
  const server = await startServer(tree);
  try {
    // The start-up sweeps (settlement, clocks) run first; then a quiet moment for the stats to flush.
    await pause(12_000);
    const meter = await CpuMeter.start([server]);
    const c0 = await counters();
    const t0 = performance.now();
    await pause(IDLE_S * 1000);
    const cpu = await meter.stop();
    // Backends report their statistics at most every second while busy and within 10 s while idle.
    await pause(11_000);
    const c1 = await counters();
    // Both readings lag their instant by about as much, so the counts cover the time between them.
    const minutes = (performance.now() - t0) / 60_000;
    // Our own statements between the two readings (each one an autocommit transaction), less the
    // ones of the first reading that were counted before it (2 of its 3 statements).
    const own = c1.own - c0.own;
    const f: IdleFigures = {
      statementsPerMin: (c1.xacts - c0.xacts - own) / minutes,
      deadlineScansPerMin: (c1.deadlineScans - c0.deadlineScans) / minutes,
      remindScansPerMin: (c1.remindScans - c0.remindScans) / minutes,
      tuplesPerMin: (c1.tupReturned + c1.tupFetched - c0.tupReturned - c0.tupFetched) / minutes,
      nodeCpuMsPerMin: (cpu.node * 1000) / (IDLE_S / 60),
      pgCpuMsPerMin: (cpu.pg * 1000) / (IDLE_S / 60),
    };
    console.log(
      `idle ${label}: ${fmt(f.statementsPerMin)} statements/min (index scans: deadline_at ${fmt(f.deadlineScansPerMin)}/min, remind_at ${fmt(f.remindScansPerMin)}/min; ` +
        `tuples read ${fmt(f.tuplesPerMin, 0)}/min), CPU per minute: server ${fmt(f.nodeCpuMsPerMin, 0)} ms, Postgres ${fmt(f.pgCpuMsPerMin, 0)} ms`,
    );
    return f;
  } finally {
    await stopServer(server);
  }
}

// ─── EXPLAIN ────────────────────────────────────────────────────────────────
/** The sweep statements as the sweeps send them (clocks.ts, vacation.ts via Prisma, settle.ts). */
const asRun = (column: 'deadline_at' | 'remind_at') => dueBatch(column).replace('$1::timestamptz', 'now()').replace('$2::uuid[]', `'{}'::uuid[]`);
const SWEEP_QUERIES: Array<[string, string]> = [
  ['timeouts (clocks.ts sweepTimeouts)', asRun('deadline_at')],
  ['reminders (clocks.ts sweepReminders)', asRun('remind_at')],
  ['timeouts before this change (5f08952)', `SELECT id::text AS id FROM games WHERE status = 'active' AND deadline_at <= now() ORDER BY deadline_at LIMIT 200`],
  ['vacations ending (vacation.ts)', `SELECT player_id, ends_by FROM vacations WHERE ended_at IS NULL AND ends_by <= now() ORDER BY ends_by LIMIT 200`],
  ['league vacation limits (vacation.ts)', `SELECT id, player_id, ends_by FROM vacations WHERE ended_at IS NULL AND league_ends_by <= now() LIMIT 200`],
  ['unsettled games (settle.ts, every 60 s)', `SELECT id::text AS id FROM games WHERE status IN ('finished', 'abandoned') AND settled_at IS NULL ORDER BY updated_at, id LIMIT 200`],
];

async function explainAll(label: string, queries: Array<[string, string]>): Promise<void> {
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS) ${label}:`);
  for (const [name, sql] of queries) {
    const plan = (await q(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`)).rows.map((r) => r['QUERY PLAN'] as string);
    console.log(`  ${name}:`);
    for (const line of plan) console.log(`    ${line}`);
  }
}

// ─── Bursts ─────────────────────────────────────────────────────────────────
interface BurstFigures {
  perSecond: number;
  clearSeconds: number;
  duplicates: number;
  missing: number;
}

async function waitUntil(what: string, cond: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await pause(250);
  }
}

async function timeoutBurst(n: number): Promise<BurstFigures> {
  const ids = await cloneGames(n, 'timeouts');
  const due = Date.now();
  await waitUntil('the timeouts', async () => (await q(`SELECT count(*)::int AS n FROM games WHERE status = 'active' AND deadline_at <= now()`)).rows[0].n === 0, 60 * 60_000);
  // Settlement runs after each timeout's commit: let the last ones finish before the next burst.
  await waitUntil('the settlements', async () => (await q(`SELECT count(*)::int AS n FROM games WHERE id = ANY($1::uuid[]) AND settled_at IS NULL`, [ids])).rows[0].n === 0, 10 * 60_000);
  const r = (await q(`SELECT count(*)::int AS entries, count(DISTINCT game_id)::int AS games,
      extract(epoch FROM min(created_at)) * 1000 AS first, extract(epoch FROM max(created_at)) * 1000 AS last
    FROM actions WHERE game_id = ANY($1::uuid[]) AND kind = 'timeout'`, [ids])).rows[0];
  const first = Number(r.first);
  const last = Number(r.last);
  await q(`DELETE FROM games WHERE id = ANY($1::uuid[])`, [ids]);
  return { perSecond: (r.entries - 1) / ((last - first) / 1000), clearSeconds: (last - due) / 1000, duplicates: r.entries - r.games, missing: n - r.games };
}

/** Reminder events seen on the bus (every player channel), by game. */
class ReminderListener {
  private sub = new Redis(REDIS_URL, { lazyConnect: true });
  seen = new Map<string, number>();
  times: number[] = [];
  async start(): Promise<void> {
    await this.sub.connect();
    this.sub.on('pmessage', (_p: string, _c: string, payload: string) => {
      try {
        const m = JSON.parse(payload) as { type?: string; gameId?: string };
        if (m.type !== 'reminder' || !m.gameId) return;
        this.seen.set(m.gameId, (this.seen.get(m.gameId) ?? 0) + 1);
        this.times.push(Date.now());
      } catch {
        // not an event
      }
    });
    await this.sub.psubscribe(`${busPrefix}player:*`);
  }
  reset(): void {
    this.seen.clear();
    this.times = [];
  }
  async stop(): Promise<void> {
    this.sub.disconnect();
  }
}

async function reminderBurst(n: number, listener: ReminderListener): Promise<BurstFigures> {
  listener.reset();
  const ids = await cloneGames(n, 'reminders');
  const due = Date.now();
  await waitUntil('the reminders', async () => (await q(`SELECT count(*)::int AS n FROM games WHERE status = 'active' AND remind_at <= now()`)).rows[0].n === 0, 60 * 60_000);
  await waitUntil('the reminder events', async () => listener.seen.size >= n, 30_000).catch(() => {});
  const times = listener.times;
  let events = 0;
  for (const id of ids) events += listener.seen.get(id) ?? 0;
  const got = ids.filter((id) => listener.seen.has(id)).length;
  await q(`DELETE FROM games WHERE id = ANY($1::uuid[])`, [ids]);
  const first = Math.min(...times);
  const last = Math.max(...times);
  return { perSecond: (times.length - 1) / ((last - first) / 1000), clearSeconds: (last - due) / 1000, duplicates: events - got, missing: n - got };
}

// ─── Trees (this one, and the baseline revision) ────────────────────────────
function extractBaseline(rev: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-baseline-'));
  const archive = execFileSync('git', ['-C', projectRoot, 'archive', '--format=tar', rev], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
  // The generated Prisma client is not in git; the baseline must have the same schema.
  cpSync(path.join(projectRoot, 'src', 'generated'), path.join(dir, 'src', 'generated'), { recursive: true });
  return dir;
}

// ─── Main ───────────────────────────────────────────────────────────────────
try {
  console.log(`bench:scheduler — ${GAMES} games, bursts of ${BURST}${BASELINE ? ` (baseline ${BASELINE}: ${BASELINE_BURST})` : ''}, ${REPEATS} repeats, instances ${INSTANCES.join(' and ')}, idle ${IDLE_S} s; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const trees: Array<{ label: string; dir: string; burst: number }> = [];
  if (BASELINE) {
    baselineDir = extractBaseline(BASELINE);
    trees.push({ label: `before (${BASELINE})`, dir: baselineDir, burst: BASELINE_BURST });
  }
  trees.push({ label: BASELINE ? 'after (this tree)' : 'this tree', dir: projectRoot, burst: BURST });
  TEMPLATE_IDS = await setup();

  await explainAll('with no game due', SWEEP_QUERIES);
  const dueIds = await cloneGames(BURST, 'timeouts');
  await q(`ANALYZE games`);
  await explainAll(`with ${BURST} games past their deadline`, SWEEP_QUERIES.slice(0, 3).filter((_, i) => i !== 1));
  await q(`DELETE FROM games WHERE id = ANY($1::uuid[])`, [dueIds]);
  await q(`VACUUM ANALYZE games`);

  console.log(`\nidle (one instance, ${IDLE_S} s each, no game due):`);
  const idle = new Map<string, IdleFigures[]>();
  for (let r = 0; r < num('idle-repeats', Math.min(REPEATS, 2)); r++) {
    for (const tree of trees) {
      const f = await measureIdle(tree.dir, tree.label);
      idle.set(tree.label, [...(idle.get(tree.label) ?? []), f]);
    }
  }

  console.log(`\nbursts:`);
  const listener = new ReminderListener();
  await listener.start();
  const results = new Map<string, { timeouts: BurstFigures[]; reminders: BurstFigures[] }>();
  for (let r = 0; r < REPEATS; r++) {
    for (const tree of trees) {
      for (const k of INSTANCES) {
        const servers: Server[] = [];
        for (let i = 0; i < k; i++) servers.push(await startServer(tree.dir));
        try {
          await pause(6_000); // past the start-up sweeps
          const key = `${tree.label}, ${k} instance${k > 1 ? 's' : ''}`;
          const acc = results.get(key) ?? { timeouts: [], reminders: [] };
          const meter = await CpuMeter.start(servers);
          const to = await timeoutBurst(tree.burst);
          const cpu = await meter.stop();
          acc.timeouts.push(to);
          console.log(`  ${key}, repeat ${r + 1}: ${tree.burst} timeouts: ${fmt(to.perSecond)}/s, all fired ${fmt(to.clearSeconds)} s after due; twice: ${to.duplicates}, never: ${to.missing}; CPU per timeout: server ${fmt((cpu.node * 1000) / tree.burst)} ms, Postgres ${fmt((cpu.pg * 1000) / tree.burst)} ms`);
          const re = await reminderBurst(tree.burst, listener);
          acc.reminders.push(re);
          console.log(`  ${key}, repeat ${r + 1}: ${tree.burst} reminders: ${fmt(re.perSecond)}/s, all sent ${fmt(re.clearSeconds)} s after due; twice: ${re.duplicates}, never: ${re.missing}`);
          results.set(key, acc);
        } finally {
          for (const s of servers) await stopServer(s);
        }
      }
    }
  }
  await listener.stop();

  console.log(`\nsummary (median (min–max, n)):`);
  for (const [label, fs] of idle) {
    console.log(`  idle, ${label}: ${summary(fs.map((f) => f.statementsPerMin))} statements/min, server CPU ${summary(fs.map((f) => f.nodeCpuMsPerMin), 0)} ms/min, Postgres CPU ${summary(fs.map((f) => f.pgCpuMsPerMin), 0)} ms/min`);
  }
  for (const [key, r] of results) {
    console.log(`  ${key}: timeouts ${summary(r.timeouts.map((f) => f.perSecond))}/s (burst cleared in ${summary(r.timeouts.map((f) => f.clearSeconds))} s); reminders ${summary(r.reminders.map((f) => f.perSecond))}/s (cleared in ${summary(r.reminders.map((f) => f.clearSeconds))} s)`);
  }
  const dup = [...results.values()].flatMap((r) => [...r.timeouts, ...r.reminders]).reduce((s, f) => s + f.duplicates + f.missing, 0);
  console.log(`  exactly once: ${dup === 0 ? 'every due game got one timeout entry and every due reminder went out once' : `${dup} games fired twice or never (see above)`}`);
} finally {
  await cleanup();
}
