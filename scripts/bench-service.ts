/**
 * Service throughput on real Postgres and Redis, Herald against a floor:
 *
 *   npm run bench:service [-- --server herald|floor|both|pooled|pooler --rounds 3 --games 8 --seconds 20
 *                            --warmup 5 --watch 1 --webhooks 0 --profile --pgbench-seconds 10 --base DIR
 *                            --type richard-iii --scenario <id> --node-args-b "--max-semi-space-size=32" --gc
 *                            --client new|old|ab]
 *
 * --client: the bench client (scripts/bench-client.ts). `new` (default): keep-alive sockets with a
 * small HTTP/1.1 reader, the seat's view of an action's answer and the labelled choices of a
 * legal-action read scanned but not built (the bots never read them), SSE read from plain sockets.
 * `old`: the client up to 27 Nov 2026 (undici's Pool.dispatch, every answer parsed whole, SSE
 * through node:http). `ab`: every server run twice per round, with the old client then the new,
 * and the client's CPU per action new / old printed round by round.
 *
 * --type: the game type played (default richard-iii; any two-seat type of
 * src/games/index.ts), --scenario: its scenario (default: the one named as the
 * type, else its first).
 *
 * Each run starts a server as its own process on a fresh database
 * herald_bench_<random> (migrated, dropped at the end) and the machine's Redis,
 * then plays K concurrent games over real HTTP from this process, as a bot
 * client would: each game has two players; the bot picks an active role, takes
 * that seat's legal actions from the last action's answer (or asks GET
 * /games/{id}/actions when the turn passed), and posts a random one with
 * expectedVersion. A finished game is replaced by a new one until the time is
 * up. The measured window (--seconds) starts after --warmup seconds of the same play (default 5;
 * 0: from the first game), so that it sees each server's steady state rather than its JIT
 * compiling the code of its first requests. With --watch 1 (default) each game also has an SSE subscriber (GET
 * /games/{id}/events, a seat's view) that measures commit → delivery from each
 * event's `at` (the commit time, server clock, same machine).
 *
 * Servers (--server): `herald` is src/main.ts as `npm start` runs it; `floor`
 * is scripts/bench-floor-server.ts, the least a server can do for the same
 * requests: the same engine calls, commit statements (group commit), Redis
 * publishes and SSE views, on node:http + pg + ioredis without a framework
 * (issue 18: Herald's server CPU per action should be within 1.25× of it).
 * `both` alternates Herald, floor, Herald, floor… (--rounds each, default 3)
 * so that the load other processes put on the machine falls on both alike.
 * `pooled` is Herald with its DATABASE_URL through a PgBouncer in transaction
 * mode started for the run (DATABASE_POOLER=transaction, migrations through
 * DATABASE_DIRECT_URL; PGBOUNCER names the binary, default
 * /usr/sbin/pgbouncer), whose CPU is reported apart; `pooler` alternates
 * Herald direct and Herald through PgBouncer, for what the pooler costs.
 * `--base DIR` with `both` adds Herald from another checkout (DIR: e.g. a
 * worktree of main with its node_modules and generated Prisma client) as a
 * third server, alternated herald, base, floor: a change and its base, each
 * against the floor under the same load.
 *
 * Per run: persisted actions/s (rows committed in the window, counted in the
 * database), POST /games/{id}/actions latency as the client sees it,
 * commit-to-subscriber latency, and CPU time per persisted action of the
 * server process, of the Postgres backends of the bench database (their
 * /proc/<pid>/stat; Postgres's background writers are not counted, for
 * either server) and of this client (process.cpuUsage: the bots, the SSE
 * subscribers, the webhook receiver), and how many commits each commit
 * statement carried. Then, per server, the median and range of each figure,
 * and the ratios Herald / floor of the medians. Finally `pgbench -N` at the
 * same concurrency on a scratch database, for reference.
 *
 * --profile: a CPU profile of the server for the measured window of each run
 * (the inspector's Profiler over the server's --inspect port), written to
 * bench-profiles/<server>-<round>.cpuprofile (open it in Chrome DevTools), and
 * the share of busy samples by category (HTTP, JSON, engine, views, SQL/pg,
 * Prisma, Redis, SSE, metrics, GC, syscalls/native, app code, other), each
 * with the code it was spent for. A profiled run's CPU figures include the
 * profiler's own cost.
 *
 * --spectators 1,10,100,1000 measures fan-out instead: for each N, games played one after
 * another by one pair of bots, each followed from its start by N SSE watchers of the first seat and
 * N of the spectator view; prints the server's CPU per action (one event to each of the 2N
 * watchers), the CPU per extra watcher against the first N, and the delivery p50/p99.
 *
 * With --webhooks 1 (Herald only) every player also registers a webhook
 * endpoint for your_turn, game_started and game_ended, pointing at a receiver
 * in this process (answers 204; the server runs with
 * HERALD_WEBHOOK_ALLOW_PRIVATE=1): the outbox rows are written by each commit
 * and the server's delivery job signs and sends them. With --jobs 0 the server
 * runs no background job (HERALD_JOBS=false): the outbox rows are written and
 * nothing is delivered, so --webhooks 1 --jobs 0 against --webhooks 0 --jobs 0
 * measures the write path's own cost of webhooks.
 *
 * Addresses: BENCH_DATABASE_ADMIN_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379). BENCH_SERVER_NODE_ARGS: extra node flags for the server.
 * BENCH_PERF_DIR=dir: Linux perf records the server for each window. BENCH_STRACE_DIR=dir: strace
 * logs the server's socket reads and writes for each window, and each run prints them per persisted
 * action by socket (http, postgres, redis, other) and syscall (strace slows the server: read that
 * run's counts, not its CPU figures). BENCH_COUNT_DIR=dir: both servers load
 * scripts/bench-count-calls.ts, which counts their calls into the game module (view and legalActions
 * by seat), their JSON.stringify calls and SHA-256 hashes; each run prints them per persisted action
 * of its window (the counting slows the server: read that run's counts, not its CPU figures).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { Session } from 'node:inspector/promises';
import { admin, ADMIN_URL, cpuSeconds, dbUrl, freePort, percentile, serverEnv, threadCpu } from './bench-common.ts';
import { games as installedGames } from '../src/games/index.ts';
import { type Call, LegacyClient, legacyWatch, RawClient, watch as rawWatch } from './bench-client.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
function argText(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? String(process.argv[i + 1]) : fallback;
}

/** `pooled`: Herald with its DATABASE_URL through a PgBouncer in transaction mode (DATABASE_POOLER=transaction). */
/** `herald-b`, `floor-b`: the same servers with --node-args-b's node flags added (an A/B of V8 flags on both). */
type ServerKind = 'herald' | 'floor' | 'pooled' | 'base' | 'herald-b' | 'floor-b';
const GAME_TYPE = argText('type', 'richard-iii');
const GAME = installedGames[GAME_TYPE];
if (!GAME) throw new Error(`--type: unknown game type ${GAME_TYPE}; expected one of ${Object.keys(installedGames).join(', ')}`);
if (GAME.roles.length !== 2) throw new Error(`--type: the bots play two-seat games; ${GAME_TYPE} has ${GAME.roles.length} seats`);
const SCENARIO = argText('scenario', (GAME.scenarios.find((sc) => sc.id === GAME_TYPE) ?? GAME.scenarios[0]!).id);
/** The two seats: the first creates each game (and is the watched seat), the second joins. */
const [FIRST, SECOND] = GAME.roles as [string, string];
const NEW_GAME = { gameType: GAME_TYPE, scenario: SCENARIO, roles: [FIRST] };
const K = arg('games', 8);
const WEBHOOKS = arg('webhooks', 0) > 0;
const JOBS = arg('jobs', 1) > 0;
const SECONDS = arg('seconds', 20);
// --warmup: seconds of play before the measured window (0: the window starts with the first game).
const WARMUP = arg('warmup', 5);
const PGBENCH_SECONDS = arg('pgbench-seconds', 10);
const WATCH = arg('watch', 1) !== 0;
const PROFILE = process.argv.includes('--profile');
// --gc: the server runs with V8's --trace-gc-nvp; each run reports its young-generation collections
// (scavenges) in the window: how many, the bytes they promoted to the old generation and their
// pauses, per action (what the server keeps alive across requests shows up as promotion).
const GC = process.argv.includes('--gc');
const SERVER = argText('server', 'herald');
// --spectators 1,10,100,1000: instead of the load, one game at a time followed by N watchers of a seat and N of the spectator view.
const SPECTATORS = argText('spectators', '').split(',').filter(Boolean).map(Number);
// `both`: Herald and the floor alternated; `pooler`: Herald direct and Herald through PgBouncer alternated.
const PAIRED = SERVER === 'both' || SERVER === 'pooler';
const ROUNDS = Math.max(1, arg('rounds', PAIRED ? 3 : 1));
if (!['herald', 'floor', 'both', 'pooled', 'pooler'].includes(SERVER)) throw new Error('--server must be herald, floor, both, pooled or pooler');
const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';
if (PAIRED && ROUNDS < 3) console.log(`note: ${ROUNDS} round(s) of each; take at least 3 (the default) before reading the medians`);
if (WEBHOOKS && SERVER !== 'herald' && SERVER !== 'pooled') throw new Error('--webhooks 1 needs --server herald (the floor has no webhook registration)');
// --base DIR (with --server both): Herald from another checkout (DIR, e.g. a worktree of main, its
// node_modules and generated Prisma client in place) as a third server, alternated herald, base,
// floor: the ratios of both to the floor under the same load on the machine.
const BASE_DIR = argText('base', '');
// --node-args-b "FLAGS" (with --server both): node flags (e.g. --max-semi-space-size=32) for a second
// Herald and a second floor, alternated herald, floor, herald-b, floor-b: what the flags do to each
// and to their ratio, under the same load (BENCH_SERVER_NODE_ARGS still goes to all four).
const NODE_ARGS_B = argText('node-args-b', '').split(' ').filter(Boolean);
if (NODE_ARGS_B.length > 0 && (SERVER !== 'both' || BASE_DIR)) throw new Error('--node-args-b goes with --server both (and not --base)');
// --client old|new|ab: the bench client (scripts/bench-client.ts): `new` (default) plain keep-alive
// sockets, action answers parsed without the seat's view; `old` the client up to 27 Nov 2026
// (undici's Pool.dispatch, every answer parsed whole, SSE through node:http); `ab` runs every server
// with both, alternated (old, new), for the client's own CPU per action A/B.
const CLIENT = argText('client', 'new');
if (!['old', 'new', 'ab'].includes(CLIENT)) throw new Error('--client must be old, new or ab');
if (CLIENT === 'ab' && (BASE_DIR || NODE_ARGS_B.length)) throw new Error('--client ab goes without --base and --node-args-b');
const SERVER_SCHEDULE: ServerKind[] = PAIRED
  ? Array.from({ length: ROUNDS }, () => (SERVER === 'both' ? (BASE_DIR ? ['herald', 'base', 'floor'] : NODE_ARGS_B.length ? ['herald', 'floor', 'herald-b', 'floor-b'] : ['herald', 'floor']) : ['herald', 'pooled']) as ServerKind[]).flat()
  : Array.from({ length: ROUNDS }, () => SERVER as ServerKind);
/** A run: the server, and the client that loads it. */
interface Slot {
  kind: ServerKind;
  client: 'old' | 'new';
  /** The name of its column: the server's kind, with the client's under --client ab. */
  label: string;
}
const SCHEDULE: Slot[] = SERVER_SCHEDULE.flatMap((kind): Slot[] =>
  CLIENT === 'ab' ? [{ kind, client: 'old', label: `${kind}+old-client` }, { kind, client: 'new', label: `${kind}+new-client` }] : [{ kind, client: CLIENT as 'old' | 'new', label: kind }],
);
/** The members of an answer the bots never read, scanned but not built (new client): the seat's view, the labelled choices. */
const SKIP_ACTION_ANSWER: ReadonlySet<string> = new Set(['view']);
const SKIP_LEGAL_ANSWER: ReadonlySet<string> = new Set(['choices']);

function spread(name: string, values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `${name}: p50 ${percentile(s, 50).toFixed(2)} ms, p95 ${percentile(s, 95).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(2)} ms (n=${s.length})`;
}

/** CPU seconds of each Postgres backend of database `db` now, by pid (a backend that appears later counts from 0). */
async function backendCpu(db: string): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const rows = await admin('SELECT pid FROM pg_stat_activity WHERE datname = $1', ADMIN_URL, [db]);
  for (const r of rows) {
    const s = cpuSeconds(Number(r.pid));
    if (!Number.isNaN(s)) out.set(Number(r.pid), s);
  }
  return out;
}

function cpuSince(before: Map<number, number>, now: Map<number, number>): number {
  if (now.size === 0) return NaN; // a remote database: no /proc for its backends
  let total = 0;
  for (const [pid, s] of now) total += s - (before.get(pid) ?? 0);
  return total;
}

// ─── The profiler over the inspector ─────────────────────────────────────────

class Inspector {
  private next = 1;
  private readonly waiting = new Map<number, (r: any) => void>();
  private readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data));
      if (m.id !== undefined) this.waiting.get(m.id)?.(m.result ?? m.error);
    });
  }

  static async open(port: number): Promise<Inspector> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    const ws = new WebSocket(list[0]!.webSocketDebuggerUrl, { perMessageDeflate: false, maxPayload: 1 << 30 });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new Inspector(ws);
  }

  send(method: string, params: object = {}): Promise<any> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Frames by their code's location: the nearest such frame on the stack names what a sample was spent for. */
const OWNERS: [RegExp, string][] = [
  [/\/src\/games\/[^/]+\/view\.ts/, 'views'],
  [/\/src\/games\/|\/src\/engine\//, 'engine'],
  [/\/generated\/prisma\/|\/node_modules\/@prisma\/|\/node_modules\/prisma\//, 'Prisma'],
  [/\/node_modules\/(pg|pg-pool|pg-protocol|pg-types|pgpass|postgres-[a-z]+)\//, 'SQL/pg'],
  [/\/node_modules\/(ioredis|redis-parser|@ioredis\/[^/]+|standard-as-callback|cluster-key-slot)\/|\/src\/bus\//, 'Redis'],
  [/\/node_modules\/prom-client\/|\/src\/http\/plugins\/metrics\.ts/, 'metrics'],
  [/\/src\/notify\/|\/src\/http\/routes\/events\.ts/, 'SSE'],
  [/\/node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify\/[^/]+|fast-json-stringify|secure-json-parse|mercurius|pino[^/]*|abstract-logging|toad-cache|fast-querystring|process-warning|rfdc|fast-uri)\/|\/src\/http\//, 'HTTP/fastify'],
  [/\/src\/service\/json\.ts|\/src\/service\/secrets\.ts/, 'JSON'],
  [/\/src\/|\/scripts\/bench-floor-server\.ts/, 'app code'],
  [/\/node_modules\/undici\//, 'HTTP/fastify'],
  [/\/scripts\/bench-(service|client)\.ts/, 'app code'],
  [/^node:(_http|http)|node:internal\/http|_http_/, 'HTTP/fastify'],
];

/** Where samples went: category (what ran) and owner (what it ran for), by share of busy samples. */
function breakdown(profile: { nodes: ProfileNode[]; samples: number[] }): { busy: number; idle: number; rows: [string, number, Map<string, number>][] } {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const memo = new Map<number, { category: string; owner: string }>();
  const ownerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)!.callFrame.url;
      if (!url) continue;
      for (const [re, name] of OWNERS) if (re.test(url)) return name;
    }
    return 'other';
  };
  const classify = (id: number): { category: string; owner: string } => {
    let c = memo.get(id);
    if (c) return c;
    const f = byId.get(id)!.callFrame;
    const owner = ownerOf(id);
    let category: string;
    if (f.functionName === '(idle)') category = 'idle';
    else if (f.functionName === '(garbage collector)') category = 'GC';
    else if (f.functionName === '(program)') category = 'syscalls/native';
    else if (f.url === '' && (f.functionName === 'parse' || f.functionName === 'stringify')) category = 'JSON';
    else if (f.url === '') category = 'syscalls/native';
    else if (/^node:(net|stream|internal\/(stream|net|streams|socket|tcp))/.test(f.url) && owner === 'other') category = 'syscalls/native';
    else category = owner;
    memo.set(id, (c = { category, owner }));
    return c;
  };
  const counts = new Map<string, Map<string, number>>();
  let busy = 0;
  let idle = 0;
  for (const s of profile.samples) {
    const { category, owner } = classify(s);
    if (category === 'idle') {
      idle++;
      continue;
    }
    busy++;
    let m = counts.get(category);
    if (!m) counts.set(category, (m = new Map()));
    m.set(owner, (m.get(owner) ?? 0) + 1);
  }
  const rows: [string, number, Map<string, number>][] = [...counts].map(([c, m]) => [c, [...m.values()].reduce((a, b) => a + b, 0), m]);
  rows.sort((a, b) => b[1] - a[1]);
  return { busy, idle, rows };
}

function printBreakdown(label: string, b: ReturnType<typeof breakdown>, usPerAction: number): void {
  console.log(`  profile (${label}): ${b.busy} busy samples (${((100 * b.busy) / (b.busy + b.idle)).toFixed(0)}% of the main thread's time); share of busy samples and µs per action by category (for whom).`);
  console.log('    JSON.parse/stringify run inside their callers\' frames (V8 does not sample builtins apart): most JSON time is in its caller\'s category.');
  console.log('    µs: the share times this run\'s CPU per action, which includes the profiler\'s own cost (larger for Herald than for the floor): compare servers by shares; perf (BENCH_PERF_DIR) for CPU.');
  for (const [category, n, owners] of b.rows) {
    const split = [...owners].filter(([o]) => o !== category).sort((x, y) => y[1] - x[1]).slice(0, 5)
      .map(([o, k]) => `${o} ${((100 * k) / b.busy).toFixed(1)}%`).join(', ');
    const us = Number.isFinite(usPerAction) ? `${((usPerAction * n) / b.busy).toFixed(0).padStart(6)} µs` : '';
    console.log(`    ${category.padEnd(16)} ${((100 * n) / b.busy).toFixed(1).padStart(5)}% ${us}${split ? `  (${split})` : ''}`);
  }
}

// ─── One run ─────────────────────────────────────────────────────────────────

interface RunResult {
  /** The slot's label: the server's kind (with the client's under --client ab). */
  server: string;
  persisted: number;
  elapsed: number;
  serverUs: number;
  pgUs: number;
  /** PgBouncer's CPU per action (NaN without one), and Postgres's with it. */
  poolerUs: number;
  pgAndPoolerUs: number;
  /** --gc: scavenges per 1,000 actions, kB promoted per action, scavenge pause µs per action, mark-compacts per 1,000 actions (NaN without --gc). */
  scavenges: number;
  promotedKB: number;
  scavengeUs: number;
  markCompacts: number;
  clientUs: number;
  rate: number;
  p50: number;
  p99: number;
  sseP50: number;
  sseP99: number;
  perStatement: number;
}

interface Started {
  dbName: string;
  port: number;
  inspectPort: number;
  pid: number;
  /** The PgBouncer's process (`pooled` runs), else null. */
  poolerPid: number | null;
  /** --gc: the server's collections so far (from its --trace-gc-nvp lines). */
  gc: GcCounts;
  /** The bench client's requests, and its SSE follower. */
  call: Call;
  watch: typeof rawWatch;
  stop(): Promise<void>;
}

interface GcCounts {
  scavenges: number;
  promoted: number;
  scavengeMs: number;
  markCompacts: number;
}

/** Counts the collections in --trace-gc-nvp lines (`gc=s` a scavenge, `gc=mc`/`gc=mmc` a mark-compact) and passes every other line on. */
function countGc(stream: NodeJS.ReadableStream, into: GcCounts): void {
  let rest = '';
  stream.on('data', (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (/ gc=s /.test(line)) {
        into.scavenges++;
        into.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
        into.scavengeMs += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
      } else if (/ gc=(mc|mmc|ms) /.test(line)) into.markCompacts++;
      else if (!/ gc=/.test(line)) process.stdout.write(`${line}\n`);
    }
  });
}

/**
 * BENCH_STRACE_DIR: the server's sockets by file descriptor — `http` (accepted on its port),
 * `postgres` (to 5432), `redis` (to 6379), `other` — from /proc/<pid>/fd and /proc/net/tcp{,6}.
 */
function socketKinds(pid: number, port: number): Map<string, string> {
  const byInode = new Map<string, string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10) continue;
      const local = parseInt(f[1]!.split(':')[1]!, 16);
      const remote = parseInt(f[2]!.split(':')[1]!, 16);
      byInode.set(f[9]!, local === port ? 'http' : remote === 5432 ? 'postgres' : remote === 6379 ? 'redis' : 'other');
    }
  }
  const kinds = new Map<string, string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    const m = /^socket:\[(\d+)\]$/.exec(target);
    kinds.set(fd, m ? (byInode.get(m[1]!) ?? 'other') : 'other');
  }
  return kinds;
}

/** Calls in an strace log by socket kind and syscall (`http write`, `postgres writev`…). */
function countSyscalls(file: string, kinds: Map<string, string>): Map<string, number> {
  const counts = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return counts;
  }
  for (const line of text.split('\n')) {
    const m = /^\d+\s+(?:<\.\.\. )?(\w+)\((\d+)/.exec(line);
    if (!m) continue;
    const key = `${kinds.get(m[2]!) ?? 'other'} ${m[1]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** BENCH_COUNT_DIR: the server's node flags that load the call counter from its own checkout (none if it has none). */
function countCallsPreload(kind: ServerKind): string[] | null {
  if (!process.env.BENCH_COUNT_DIR) return null;
  const file = path.resolve(kind === 'base' ? BASE_DIR! : '.', 'scripts/bench-count-calls.ts');
  if (!existsSync(file)) {
    console.log(`BENCH_COUNT_DIR: ${file} is missing: ${kind} runs without counting`);
    return null;
  }
  return ['--import', file];
}

/** BENCH_COUNT_DIR: the counts of the server since the last call (see scripts/bench-count-calls.ts), or null. */
async function takeCounts(kind: ServerKind, pid: number): Promise<Record<string, number> | null> {
  if (countCallsPreload(kind) === null) return null;
  const file = path.join(process.env.BENCH_COUNT_DIR!, `${pid}.json`);
  const seq = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { seq: number }).seq : 0;
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(file)) continue;
    const d = JSON.parse(readFileSync(file, 'utf8')) as { seq: number; counts: Record<string, number> };
    if (d.seq > seq) return d.counts;
  }
  console.log(`BENCH_COUNT_DIR: ${kind} wrote no counts`);
  return null;
}

/** A server on a fresh database, ready; stop() ends it and drops the database. */
async function startServer(kind: ServerKind, clientKind: 'old' | 'new' = 'new'): Promise<Started> {
  const dbName = `herald_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const port = await freePort();
  const inspectPort = PROFILE ? await freePort() : 0;
  const serverArgs = [
    ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...(kind.endsWith('-b') ? NODE_ARGS_B : []),
    ...(GC ? ['--trace-gc-nvp'] : []),
    ...(PROFILE ? [`--inspect=127.0.0.1:${inspectPort}`] : []),
    ...(countCallsPreload(kind) ?? []),
  ];
  const entry = kind.startsWith('floor') ? 'scripts/bench-floor-server.ts' : 'src/main.ts';
  const pooler = kind === 'pooled' ? await startPgBouncer(dbName) : null;
  const server = spawn(process.execPath, [...serverArgs, '--import', 'tsx', entry], {
    ...(kind === 'base' ? { cwd: BASE_DIR } : {}),
    env: serverEnv(dbName, port, {
      HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
      HERALD_JOBS: JOBS ? 'true' : 'false',
      // Migrations (and what needs a session) go straight to Postgres; the rest through the pooler.
      ...(pooler ? { DATABASE_URL: pooler.url, DATABASE_DIRECT_URL: dbUrl(dbName), DATABASE_POOLER: 'transaction' } : {}),
    }),
    stdio: ['ignore', GC ? 'pipe' : 'inherit', PROFILE ? 'pipe' : 'inherit'],
  });
  const gc: GcCounts = { scavenges: 0, promoted: 0, scavengeMs: 0, markCompacts: 0 };
  if (server.stdout) countGc(server.stdout, gc);
  // With --inspect, node tells on stderr that the debugger listens: not passed on.
  server.stderr?.on('data', (d: Buffer) => {
    const text = d.toString().split('\n').filter((l) => l && !/Debugger listening|For help, see|Debugger attached|Waiting for the debugger/.test(l)).join('\n');
    if (text) process.stderr.write(`${text}\n`);
  });
  const serverExited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const client = clientKind === 'old' ? new LegacyClient(port, 2 * K + 8) : new RawClient(port, 2 * K + 8);
  const call = client.call;
  const watch = clientKind === 'old' ? legacyWatch : rawWatch;
  const stop = async () => {
    await client.destroy().catch(() => {});
    server.kill('SIGTERM');
    await Promise.race([serverExited, new Promise((r) => setTimeout(r, 10_000))]);
    await pooler?.stop();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  };
  try {
    for (let i = 0; ; i++) {
      const code = await Promise.race([serverExited, new Promise<'wait'>((r) => setTimeout(() => r('wait'), 100))]);
      if (code !== 'wait') throw new Error(`the server exited (${code}) before it was ready`);
      const ready = await call('GET', '/readyz', null).then((r) => r.status === 200, () => false);
      if (ready) break;
      if (i > 600) throw new Error('the server was not ready after 60 s');
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { dbName, port, inspectPort, pid: server.pid!, poolerPid: pooler?.pid ?? null, gc, call, watch, stop };
}

/**
 * A PgBouncer in transaction mode in front of database `dbName` (as test/store/pgbouncer.test.ts
 * starts one): as many server connections as Herald's pool has clients, so the pooler adds its
 * own hop and work, not waiting.
 */
async function startPgBouncer(dbName: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-bench-pgbouncer-'));
  chmodSync(dir, 0o777); // PgBouncer runs as postgres when started by root
  const port = await freePort();
  const pgAt = new URL(ADMIN_URL);
  writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    `[databases]\n${dbName} = host=${pgAt.hostname} port=${pgAt.port || 5432} dbname=${dbName} pool_size=10\n` +
      `[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = ${port}\nunix_socket_dir =\nauth_type = trust\n` +
      `auth_file = ${path.join(dir, 'users.txt')}\npool_mode = transaction\nmax_client_conn = 200\nignore_startup_parameters = extra_float_digits\n`,
  );
  const asRoot = process.getuid?.() === 0;
  // Its log (every login) is not passed on.
  const bouncer = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => bouncer.once('exit', () => resolve()));
  const url = `postgresql://postgres@127.0.0.1:${port}/${dbName}`;
  const stop = async () => {
    bouncer.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    const ok = await admin_(url).then(() => true, () => false);
    if (ok) break;
    if (i > 100) {
      await stop();
      throw new Error(`PgBouncer (${PGBOUNCER}) did not answer on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, pid: bouncer.pid!, stop };
}

/** One query through `url` (is the pooler up?). */
async function admin_(url: string): Promise<void> {
  await admin('SELECT 1', url);
}

async function run({ kind, client: clientKind, label }: Slot, round: number): Promise<RunResult> {
  const { dbName, port, inspectPort, pid: serverPid, poolerPid, gc, call, watch, stop: stopServer } = await startServer(kind, clientKind);
  let receiver: http.Server | null = null;
  try {
    // The webhook receiver: counts deliveries, measures commit → receiver from the payload's
    // timestamp (the commit time, server clock, same machine), answers 204.
    let delivered = 0;
    let measuring = true;
    const hookLatencies: number[] = [];
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        delivered++;
        const at = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp?: string }).timestamp ?? '');
        if (measuring && Number.isFinite(at)) hookLatencies.push(Date.now() - at);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;

    async function signup(name: string): Promise<string> {
      const key = (await call('POST', '/players', null, { name, isBot: true })).json.key.key as string;
      if (WEBHOOKS) {
        const r = await call('POST', '/webhooks', key, { url: receiverUrl, events: ['your_turn', 'game_started', 'game_ended'] });
        if (r.status !== 201) throw new Error(`webhook registration: ${r.status} ${JSON.stringify(r.json)}`);
      }
      return key;
    }

    const latencies: number[] = [];
    const eventLatencies: number[] = [];
    const watchers: Promise<void>[] = [];
    let conflicts = 0;
    let legalReads = 0;
    let gamesFinished = 0;
    let stop = false;

    async function bot(n: number): Promise<void> {
      const keys: Record<string, string> = { [FIRST]: await signup(`first-${n}`), [SECOND]: await signup(`second-${n}`) };
      while (!stop) {
        const id = (await call('POST', '/games', keys[FIRST]!, NEW_GAME)).json.id as string;
        const joined = (await call('POST', `/games/${id}/join`, keys[SECOND]!, {})).json;
        if (WATCH) watchers.push(watch(port, id, keys[FIRST]!, eventLatencies, () => stop));
        let version: number = joined.version;
        let active: string[] = joined.activeRoles;
        const legal = new Map<string, { version: number; actions: unknown[] }>();
        while (!stop) {
          const role = active[Math.floor(Math.random() * active.length)]!;
          let known = legal.get(role);
          if (!known || known.version !== version) {
            const r = (await call('GET', `/games/${id}/actions`, keys[role]!, undefined, SKIP_LEGAL_ANSWER)).json;
            legalReads++;
            known = { version: r.version, actions: r.actions };
          }
          const action = known.actions[Math.floor(Math.random() * known.actions.length)];
          const t0 = performance.now();
          const r = await call('POST', `/games/${id}/actions`, keys[role]!, { action, expectedVersion: version }, SKIP_ACTION_ANSWER);
          latencies.push(performance.now() - t0);
          if (r.status === 409) {
            conflicts++;
            const s = (await call('GET', `/games/${id}`, keys[FIRST]!)).json;
            version = s.version;
            active = s.activeRoles;
            continue;
          }
          if (r.status !== 200) throw new Error(`action failed: ${r.status} ${JSON.stringify(r.json)}`);
          version = r.json.version;
          active = r.json.game.activeRoles;
          legal.set(role, { version, actions: r.json.legalActions });
          if (r.json.game.status !== 'active') {
            gamesFinished++;
            break;
          }
        }
      }
    }

    // Group commit (store/group-commit.ts): commit statements and the commits they carried.
    const commitCounts = async () => {
      const text = String((await call('GET', '/metrics', null)).json);
      const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
      return { statements: read('herald_commit_statements_total'), changes: read('herald_commit_changes_total') };
    };
    // The bots start before the window: --warmup seconds of play first, so that the window sees the
    // servers' steady state (code compiled by then, caches filled) rather than their start.
    const bots = Array.from({ length: K }, (_, i) => bot(i));
    if (WARMUP > 0) {
      await new Promise((r) => setTimeout(r, WARMUP * 1000));
      latencies.length = 0;
      eventLatencies.length = 0;
      hookLatencies.length = 0;
      delivered = 0;
      conflicts = 0;
      legalReads = 0;
      gamesFinished = 0;
    }
    const commits0 = await commitCounts();
    const countActions = async () => Number((await admin(`SELECT count(*)::int AS n FROM actions WHERE kind = 'action'`, dbUrl(dbName)))[0].n);
    const before = await countActions();
    const inspector = PROFILE ? await Inspector.open(inspectPort) : null;
    if (inspector) {
      await inspector.send('Profiler.enable');
      await inspector.send('Profiler.setSamplingInterval', { interval: 200 });
    }
    await takeCounts(kind, serverPid); // BENCH_COUNT_DIR: from zero for the window
    const pg0 = await backendCpu(dbName);
    const cpu0 = { server: cpuSeconds(serverPid), bench: process.cpuUsage(), pooler: poolerPid === null ? NaN : cpuSeconds(poolerPid) };
    const gc0 = { ...gc };
    const threads0 = threadCpu(serverPid);
    // BENCH_PERF_DIR: Linux perf records the server (every thread, kernel included) for the window.
    const perf = process.env.BENCH_PERF_DIR
      ? spawn('perf', ['record', '-F', '499', '-g', '-p', String(serverPid), '-o', path.join(process.env.BENCH_PERF_DIR, `${kind}-${round}.data`)], { stdio: 'ignore' })
      : null;
    // perf missing (spawn error) or refused (perf_event_paranoid: it exits at once) loses the recording, not the run.
    perf?.on('error', (err) => console.error(`BENCH_PERF_DIR: perf could not run: ${err.message}`));
    // BENCH_STRACE_DIR: strace logs the server's socket reads and writes (every thread) for the window;
    // counted per persisted action by socket kind below. Its own cost is in that run's CPU figures.
    const straceFile = process.env.BENCH_STRACE_DIR ? path.join(process.env.BENCH_STRACE_DIR, `${kind}-${round}.strace`) : null;
    const sockets0 = straceFile ? socketKinds(serverPid, port) : null;
    const strace = straceFile
      ? spawn('strace', ['-f', '-qq', '-e', 'trace=write,writev,read,readv,sendto,sendmsg,recvfrom,recvmsg', '-e', 'signal=none', '-o', straceFile, '-p', String(serverPid)], { stdio: 'ignore' })
      : null;
    strace?.on('error', (err) => console.error(`BENCH_STRACE_DIR: strace could not run: ${err.message}`));
    if (inspector) await inspector.send('Profiler.start');
    // The client's own profile (in this process), for the same window.
    const self = PROFILE ? new Session() : null;
    if (self) {
      self.connect();
      await self.post('Profiler.enable');
      await self.post('Profiler.setSamplingInterval', { interval: 200 });
      await self.post('Profiler.start');
    }
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    stop = true;
    measuring = false;
    await Promise.all(bots);
    const elapsed = (performance.now() - t0) / 1000;
    const profile = inspector ? ((await inspector.send('Profiler.stop')).profile as { nodes: ProfileNode[]; samples: number[] }) : null;
    const clientProfile = self ? ((await self.post('Profiler.stop')).profile as unknown as { nodes: ProfileNode[]; samples: number[] }) : null;
    self?.disconnect();
    const cpu = {
      server: cpuSeconds(serverPid) - cpu0.server,
      bench: (() => {
        const u = process.cpuUsage(cpu0.bench);
        return (u.user + u.system) / 1e6;
      })(),
      pg: cpuSince(pg0, await backendCpu(dbName)),
      pooler: poolerPid === null ? NaN : cpuSeconds(poolerPid) - cpu0.pooler,
    };
    const threads1 = threadCpu(serverPid);
    const calls = await takeCounts(kind, serverPid);
    if (perf && perf.exitCode === null && perf.signalCode === null && perf.pid !== undefined) {
      perf.kill('SIGINT');
      await new Promise((r) => perf.once('exit', r));
    }
    if (strace && strace.exitCode === null && strace.signalCode === null && strace.pid !== undefined) {
      strace.kill('SIGINT');
      await new Promise((r) => strace.once('exit', r));
    }
    const syscalls = straceFile && sockets0 ? countSyscalls(straceFile, new Map([...sockets0, ...socketKinds(serverPid, port)])) : null;
    const gcs = { scavenges: gc.scavenges - gc0.scavenges, promoted: gc.promoted - gc0.promoted, scavengeMs: gc.scavengeMs - gc0.scavengeMs, markCompacts: gc.markCompacts - gc0.markCompacts };
    inspector?.close();
    await Promise.all(watchers);
    const persisted = (await countActions()) - before;
    const commits1 = await commitCounts();
    console.log(`run ${round} — ${label}: ${K} concurrent bot games of ${GAME_TYPE} (${SCENARIO}) over REST, ${elapsed.toFixed(1)} s after ${WARMUP} s of warm-up, Postgres + Redis, ${os.cpus().length} CPUs, server in its own process`);
    console.log(`  persisted actions: ${persisted} (${(persisted / elapsed).toFixed(1)} actions/s), games finished: ${gamesFinished}, 409 conflicts: ${conflicts}, legal-action reads: ${legalReads}`);
    console.log(`  ${spread('POST /games/{id}/actions latency', latencies)}`);
    if (WATCH) console.log(`  ${spread('commit → SSE subscriber', eventLatencies)}`);
    const per = (s: number) => `${((s / persisted) * 1e6).toFixed(0)} µs/action`;
    // The server's threads: where its CPU per action went (main thread; V8's GC and compiler helpers), user and system time.
    console.log(`  server threads, µs/action (user + system): ${[...threads1].map(([k, t1]) => {
      const t0 = threads0.get(k) ?? { user: 0, sys: 0 };
      return `${k} ${(((t1.user - t0.user) / persisted) * 1e6).toFixed(0)} + ${(((t1.sys - t0.sys) / persisted) * 1e6).toFixed(0)}`;
    }).join(', ')}`);
    console.log(`  CPU: server ${cpu.server.toFixed(1)} s (${per(cpu.server)}), postgres ${cpu.pg.toFixed(1)} s (${per(cpu.pg)}), client ${cpu.bench.toFixed(1)} s (${per(cpu.bench)})${poolerPid === null ? '' : `, PgBouncer ${cpu.pooler.toFixed(1)} s (${per(cpu.pooler)})`}`);
    if (syscalls) {
      console.log(`  syscalls per action (strace, by socket): ${[...syscalls].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} ${(n / persisted).toFixed(2)}`).join(', ')}`);
    }
    if (calls) {
      const per1 = (k: string) => ((calls[k] ?? 0) / persisted).toFixed(2);
      const named = Object.keys(calls).filter((k) => !k.includes('1 in 50')).sort();
      console.log(`  calls per persisted action (BENCH_COUNT_DIR): ${named.map((k) => `${k} ${per1(k)}`).join(', ')}`);
      const from = Object.entries(calls).filter(([k]) => k.includes('1 in 50')).sort(([, a], [, b]) => b - a).slice(0, 12);
      console.log(`  JSON.stringify per action by caller (1 call in 50 sampled, × 50): ${from.map(([k, n]) => `${k.replace(/^JSON.stringify, 1 in 50, (at )?/, '')} ${((n * 50) / persisted).toFixed(2)}`).join('; ')}`);
    }
    if (WEBHOOKS) console.log(`  webhooks: ${delivered} deliveries received (${(delivered / persisted).toFixed(2)} per action)`);
    if (WEBHOOKS) console.log(`  ${spread('commit → webhook receiver', hookLatencies)}`);
    const statements = commits1.statements - commits0.statements;
    const changes = commits1.changes - commits0.changes;
    console.log(`  group commit: ${changes} commits in ${statements} statements (${(changes / statements).toFixed(2)} per statement)`);
    if (GC) console.log(`  GC: ${gcs.scavenges} scavenges promoting ${(gcs.promoted / 1e6).toFixed(1)} MB (${(gcs.promoted / persisted / 1e3).toFixed(1)} kB/action), pauses ${gcs.scavengeMs.toFixed(0)} ms (${((gcs.scavengeMs / persisted) * 1e3).toFixed(0)} µs/action); ${gcs.markCompacts} mark-compacts`);
    if (profile) {
      mkdirSync('bench-profiles', { recursive: true });
      const file = `bench-profiles/${label}-${round}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      const b = breakdown(profile);
      printBreakdown(`${label}, ${file}`, b, (cpu.server / persisted) * 1e6);
      profiles.push({ kind: label, b, us: (cpu.server / persisted) * 1e6 });
    }
    if (clientProfile) {
      const file = `bench-profiles/client-${label}-${round}.cpuprofile`;
      writeFileSync(file, JSON.stringify(clientProfile));
      printBreakdown(`the client, ${file}`, breakdown(clientProfile), (cpu.bench / persisted) * 1e6);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const sse = [...eventLatencies].sort((a, b) => a - b);
    return {
      server: label,
      persisted,
      elapsed,
      serverUs: (cpu.server / persisted) * 1e6,
      pgUs: (cpu.pg / persisted) * 1e6,
      poolerUs: (cpu.pooler / persisted) * 1e6,
      pgAndPoolerUs: ((cpu.pg + (poolerPid === null ? 0 : cpu.pooler)) / persisted) * 1e6,
      clientUs: (cpu.bench / persisted) * 1e6,
      rate: persisted / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      sseP50: percentile(sse, 50),
      sseP99: percentile(sse, 99),
      perStatement: changes / statements,
      scavenges: GC ? (gcs.scavenges / persisted) * 1e3 : NaN,
      promotedKB: GC ? gcs.promoted / persisted / 1e3 : NaN,
      scavengeUs: GC ? (gcs.scavengeMs / persisted) * 1e3 : NaN,
      markCompacts: GC ? (gcs.markCompacts / persisted) * 1e3 : NaN,
    };
  } finally {
    receiver?.close();
    await stopServer();
  }
}

// ─── Spectators: the cost of one more watcher ───────────────────────────────

/** Plays game `id` with random legal actions to its end (or `deadline`); the number of actions. */
async function playGame(call: Call, id: string, keys: Record<string, string>, version: number, active: string[], deadline: number): Promise<number> {
  let played = 0;
  const legal = new Map<string, { version: number; actions: unknown[] }>();
  while (performance.now() < deadline) {
    const role = active[Math.floor(Math.random() * active.length)]!;
    let known = legal.get(role);
    if (!known || known.version !== version) {
      const r = (await call('GET', `/games/${id}/actions`, keys[role]!, undefined, SKIP_LEGAL_ANSWER)).json;
      known = { version: r.version, actions: r.actions };
    }
    const action = known.actions[Math.floor(Math.random() * known.actions.length)];
    const r = await call('POST', `/games/${id}/actions`, keys[role]!, { action, expectedVersion: version }, SKIP_ACTION_ANSWER);
    if (r.status !== 200) throw new Error(`action failed: ${r.status} ${JSON.stringify(r.json)}`);
    played++;
    version = r.json.version;
    active = r.json.game.activeRoles;
    legal.set(role, { version, actions: r.json.legalActions });
    if (r.json.game.status !== 'active') break;
  }
  return played;
}

interface SpectatorResult {
  server: string;
  n: number;
  events: number;
  usPerEvent: number;
  p50: number;
  p99: number;
}

/**
 * For each N: games played one after another by one pair of bots, each game followed from its
 * start by N SSE watchers of the first seat and N of the spectator view; the server's CPU per
 * action (one event to each of the 2N watchers) while the game is played, and each delivery's
 * commit → arrival time.
 */
async function spectatorRun({ kind, client, label }: Slot): Promise<SpectatorResult[]> {
  const { port, pid, call, watch, stop } = await startServer(kind, client);
  const out: SpectatorResult[] = [];
  try {
    const signup = async (name: string) => (await call('POST', '/players', null, { name, isBot: true })).json.key.key as string;
    const keys: Record<string, string> = { [FIRST]: await signup('first'), [SECOND]: await signup('second') };
    for (const n of SPECTATORS) {
      let events = 0;
      let cpu = 0;
      const latencies: number[] = [];
      const t0 = performance.now();
      while (events === 0 || performance.now() - t0 < SECONDS * 1000) {
        const id = (await call('POST', '/games', keys[FIRST]!, NEW_GAME)).json.id as string;
        const joined = (await call('POST', `/games/${id}/join`, keys[SECOND]!, {})).json;
        let seen = 0;
        const mine: number[] = [];
        let giveUp = performance.now() + 600_000;
        const stopped = () => performance.now() > giveUp;
        const streams: Promise<void>[] = [];
        // Opened 50 + 50 at a time (each waiting for its first event): a thousand connects at once
        // overflow the listen backlog and the kernel's SYN retries take seconds.
        for (let i = 0; i < n; i++) {
          streams.push(watch(port, id, keys[FIRST]!, mine, stopped, () => seen++));
          streams.push(watch(port, id, null, mine, stopped, () => seen++));
          if ((i + 1) % 50 === 0 || i === n - 1) {
            const until = performance.now() + 60_000;
            while (seen < 2 * (i + 1)) {
              if (performance.now() > until) throw new Error(`${kind}: ${seen} of ${2 * (i + 1)} watchers got their first event in 60 s`);
              await new Promise((r) => setTimeout(r, 10));
            }
          }
        }
        mine.length = 0;
        const c0 = cpuSeconds(pid);
        // The whole game (a few hundred actions at most): the streams end with it.
        events += await playGame(call, id, keys, joined.version, joined.activeRoles, performance.now() + 300_000);
        // Each stream ends after the game's last version; one left waiting is closed after 30 s.
        giveUp = Math.min(giveUp, performance.now() + 30_000);
        await Promise.all(streams);
        cpu += cpuSeconds(pid) - c0;
        for (const x of mine) latencies.push(x);
      }
      const sorted = latencies.sort((a, b) => a - b);
      const r = { server: label, n, events, usPerEvent: (cpu / events) * 1e6, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
      console.log(`  ${kind}: ${n} seat + ${n} spectator watchers: ${events} actions, server ${r.usPerEvent.toFixed(0)} µs per action, delivery p50 ${r.p50} ms, p99 ${r.p99} ms (n=${sorted.length})`);
      out.push(r);
    }
  } finally {
    await stop();
  }
  return out;
}

if (SPECTATORS.length > 0) {
  const all: SpectatorResult[] = [];
  for (const kind of SCHEDULE) all.push(...(await spectatorRun(kind)));
  const kinds = [...new Set(all.map((r) => r.server))];
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const base = SPECTATORS[0]!;
  console.log(`\nspectators: median of ${SCHEDULE.length / kinds.length} run(s) each; per extra watcher = (µs per action at 2N watchers − at ${2 * base}) / (2N − ${2 * base})`);
  console.log(`| watchers (seat + spectator) | ${kinds.map((k) => `${k} µs/action | ${k} µs per extra watcher | ${k} delivery p99 ms`).join(' | ')} |`);
  console.log(`|---|${kinds.map(() => '---|---|---|').join('')}`);
  for (const n of SPECTATORS) {
    const cells = kinds.map((k) => {
      const at = (m: number) => med(all.filter((r) => r.server === k && r.n === m).map((r) => r.usPerEvent));
      const extra = n === base ? '–' : ((at(n) - at(base)) / (2 * n - 2 * base)).toFixed(1);
      return `${at(n).toFixed(0)} | ${extra} | ${med(all.filter((r) => r.server === k && r.n === n).map((r) => r.p99)).toFixed(0)}`;
    });
    console.log(`| ${n} + ${n} | ${cells.join(' | ')} |`);
  }
  process.exit(0);
}

const profiles: { kind: string; b: ReturnType<typeof breakdown>; us: number }[] = [];
const results: RunResult[] = [];
const perRound = SCHEDULE.length / ROUNDS;
for (const [i, slot] of SCHEDULE.entries()) results.push(await run(slot, Math.floor(i / perRound) + 1));

// ─── Medians, ranges, ratios ─────────────────────────────────────────────────

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const FIGURES: [keyof RunResult, string, number][] = [
  ['serverUs', 'server CPU µs/action', 0],
  ['pgUs', 'Postgres CPU µs/action', 0],
  ...(SERVER_SCHEDULE.includes('pooled') ? ([['poolerUs', 'PgBouncer CPU µs/action', 0], ['pgAndPoolerUs', 'Postgres + PgBouncer CPU µs/action', 0]] as [keyof RunResult, string, number][]) : []),
  ['clientUs', 'client CPU µs/action', 0],
  ['rate', 'persisted actions/s', 0],
  ['p50', 'POST latency p50 ms', 2],
  ['p99', 'POST latency p99 ms', 2],
  ['sseP99', 'commit → SSE p99 ms', 2],
  ['perStatement', 'commits per statement', 2],
  ...(GC
    ? ([['scavenges', 'scavenges per 1,000 actions', 1], ['promotedKB', 'kB promoted per action', 1], ['scavengeUs', 'scavenge pause µs/action', 0], ['markCompacts', 'mark-compacts per 1,000 actions', 2]] as [keyof RunResult, string, number][])
    : []),
];
const kinds = [...new Set(results.map((r) => r.server))];
console.log(`\nsummary: median [min – max] of ${results.length} runs (${SCHEDULE.map((x) => x.label).join(', ')}), ${K} games, ${SECONDS} s each${PROFILE ? ', profiled (CPU includes the profiler)' : ''}`);
// Each server against the last one (the floor, or the pooled Herald); with --node-args-b each
// Herald against the floor with the same flags, and each with the flags against itself without.
const against = kinds.length > 1 ? kinds[kinds.length - 1]! : null;
const pairs: [string, string][] = NODE_ARGS_B.length
  ? [['herald', 'floor'], ['herald-b', 'floor-b'], ['herald-b', 'herald'], ['floor-b', 'floor']]
  : CLIENT === 'ab'
    // Each server's new client against its old one, then the servers against the last, each with the new client.
    ? [...new Set(SERVER_SCHEDULE)].map((k): [string, string] => [`${k}+new-client`, `${k}+old-client`])
      .concat([...new Set(SERVER_SCHEDULE)].slice(0, -1).map((k): [string, string] => [`${k}+new-client`, `${SERVER_SCHEDULE[SERVER_SCHEDULE.length - 1]}+new-client`]))
  : against === null ? [] : kinds.slice(0, -1).map((k) => [k, against]);
if (NODE_ARGS_B.length) console.log(`-b: node ${NODE_ARGS_B.join(' ')}`);
console.log(`| figure | ${kinds.join(' | ')} |${pairs.map(([a, b]) => ` ${a} / ${b} |`).join('')}`);
console.log(`|---|${kinds.map(() => '---|').join('')}${pairs.map(() => '---|').join('')}`);
for (const [key, label, digits] of FIGURES) {
  const cells = kinds.map((k) => {
    const xs = results.filter((r) => r.server === k).map((r) => r[key] as number);
    if (xs.every((x) => Number.isNaN(x))) return '–'; // not measured for this server (PgBouncer without one)
    return `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)} – ${Math.max(...xs).toFixed(digits)}]`;
  });
  const m = (k: string) => median(results.filter((r) => r.server === k).map((r) => r[key] as number));
  const ratio = pairs.map(([a, b]) => {
    const r = m(a) / m(b);
    return Number.isFinite(r) ? ` ${r.toFixed(2)}× |` : ' – |';
  }).join('');
  console.log(`| ${label} | ${cells.join(' | ')} |${ratio}`);
}
// The same ratio of server CPU taken within each round (runs next to each other in time), then its median and range.
for (const [a, b] of pairs) {
  const within: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round = results.slice(r * perRound, (r + 1) * perRound);
    const x = round.find((q) => q.server === a);
    const y = round.find((q) => q.server === b);
    if (x && y) within.push(x.serverUs / y.serverUs);
  }
  if (within.length > 0) console.log(`server CPU ${a} / ${b} within each round: median ${median(within).toFixed(2)}× [${Math.min(...within).toFixed(2)} – ${Math.max(...within).toFixed(2)}] (${within.map((x) => x.toFixed(2)).join(', ')})`);
}
// --client ab: the client's own CPU, new against old, round by round.
if (CLIENT === 'ab') {
  for (const k of new Set(SERVER_SCHEDULE)) {
    const within: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round = results.slice(r * perRound, (r + 1) * perRound);
      const x = round.find((q) => q.server === `${k}+new-client`);
      const y = round.find((q) => q.server === `${k}+old-client`);
      if (x && y) within.push(x.clientUs / y.clientUs);
    }
    if (within.length > 0) console.log(`client CPU new / old against ${k} within each round: median ${median(within).toFixed(2)}× [${Math.min(...within).toFixed(2)} – ${Math.max(...within).toFixed(2)}] (${within.map((x) => x.toFixed(2)).join(', ')})`);
  }
}
if (profiles.length > 0) {
  // All profiled runs of a server together.
  for (const k of kinds) {
    const merged = { busy: 0, idle: 0, rows: new Map<string, [number, Map<string, number>]>() };
    for (const p of profiles.filter((x) => x.kind === k)) {
      merged.busy += p.b.busy;
      merged.idle += p.b.idle;
      for (const [c, n, owners] of p.b.rows) {
        const row = merged.rows.get(c) ?? [0, new Map<string, number>()];
        row[0] += n;
        for (const [o, m] of owners) row[1].set(o, (row[1].get(o) ?? 0) + m);
        merged.rows.set(c, row);
      }
    }
    const rows = [...merged.rows].map(([c, [n, o]]) => [c, n, o] as [string, number, Map<string, number>]).sort((a, b) => b[1] - a[1]);
    printBreakdown(`${k}, all runs`, { busy: merged.busy, idle: merged.idle, rows }, median(profiles.filter((x) => x.kind === k).map((x) => x.us)));
  }
}

// Reference: what this Postgres does with small write transactions at the same concurrency.
if (PGBENCH_SECONDS > 0) {
  const pgbenchDb = `herald_bench_${randomBytes(4).toString('hex')}_pgbench`;
  await admin(`CREATE DATABASE ${pgbenchDb}`);
  try {
    execFileSync('pgbench', ['-i', '-q', '-s', '1', dbUrl(pgbenchDb)], { stdio: 'ignore' });
    const out = execFileSync('pgbench', ['-N', '-c', String(K), '-j', String(Math.min(K, os.cpus().length)), '-T', String(PGBENCH_SECONDS), dbUrl(pgbenchDb)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const tps = /tps = ([\d.]+)/.exec(out)?.[1];
    const lat = /latency average = ([\d.]+ ms)/.exec(out)?.[1];
    console.log(`pgbench -N -c ${K}: ${tps ?? '?'} TPS (latency average ${lat ?? '?'}) — reference for small write transactions`);
  } catch (err) {
    console.log(`pgbench not run: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
  }
}
