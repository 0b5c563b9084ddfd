/**
 * Service throughput on real Postgres and Redis:
 *
 *   npm run bench:service [-- --games 8 --seconds 20 --pgbench-seconds 10 --watch 1]
 *
 * Starts the server as its own process (`src/main.ts`, as `npm start` does) on
 * a fresh database herald_bench_<random> (dropped at the end) and the
 * machine's Redis, then plays K concurrent games over real HTTP from this
 * process, as a bot client would: each game has two players; the bot picks an
 * active role, takes that seat's legal actions from the last action's answer
 * (or asks GET /games/{id}/actions when the turn passed), and posts a random
 * one with expectedVersion. A finished game is replaced by a new one until the
 * time is up. With --watch 1 (default) each game also has an SSE subscriber
 * (GET /games/{id}/events, a seat's view) that measures commit → delivery
 * from each event's `at` (the commit time, server clock, same machine).
 *
 * Prints persisted actions/s (rows committed in the window, counted in the
 * database), POST /games/{id}/actions latency p50/p95/p99 as the client sees
 * it, commit-to-subscriber latency p50/p95/p99, the CPU time each process
 * used, how many commits each commit statement carried (group commit), and then `pgbench -N` (simple-update TPC-B) at the same concurrency
 * on a scratch database, for reference.
 *
 * With --webhooks 1 every player also registers a webhook endpoint for
 * your_turn, game_started and game_ended, pointing at a receiver in this
 * process (answers 204; the server runs with HERALD_WEBHOOK_ALLOW_PRIVATE=1):
 * the outbox rows are written by each commit and the server's delivery job
 * signs and sends them, so the server's and Postgres's CPU per action include
 * the whole cost of webhooks. Compare with --webhooks 0 (alternate the runs).
 *
 * Addresses: BENCH_DATABASE_ADMIN_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import pg from 'pg';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const K = arg('games', 8);
const WEBHOOKS = arg('webhooks', 0) > 0;
const SECONDS = arg('seconds', 20);
const PGBENCH_SECONDS = arg('pgbench-seconds', 10);
const WATCH = arg('watch', 1) !== 0;
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin(sql: string, url = ADMIN_URL): Promise<any[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function spread(name: string, values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  return `${name}: p50 ${percentile(s, 50).toFixed(2)} ms, p95 ${percentile(s, 95).toFixed(2)} ms, p99 ${percentile(s, 99).toFixed(2)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(2)} ms (n=${s.length})`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return NaN;
  }
}

/** CPU seconds of each postgres process now, by pid (a backend that appears later counts from 0). */
function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    // no pgrep or no postgres here (remote database): reported as NaN
  }
  for (const p of pids) out.set(Number(p), cpuSeconds(Number(p)));
  return out;
}

function postgresCpuSince(before: Map<number, number>): number {
  const now = postgresCpu();
  if (now.size === 0) return NaN;
  let total = 0;
  for (const [pid, s] of now) total += s - (before.get(pid) ?? 0);
  return total;
}

const dbName = `herald_bench_${randomBytes(4).toString('hex')}`;
await admin(`CREATE DATABASE ${dbName}`);
const port = await freePort();
// BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const serverArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const server = spawn(process.execPath, [...serverArgs, '--import', 'tsx', 'src/main.ts'], {
  env: {
    ...process.env,
    DATABASE_URL: dbUrl(dbName),
    REDIS_URL,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    BUS_PREFIX: `bench:${dbName}:`,
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_ANONYMOUS_MAX: '0',
    RATE_LIMIT_APP_MAX: '0',
    HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const serverExited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 * K + 8 });

function call(method: string, path: string, key: string | null, body?: unknown): Promise<{ status: number; json: any }> {
  const payload = body === undefined ? null : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(payload !== null ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const isJson = String(res.headers['content-type'] ?? '').includes('json');
          resolve({ status: res.statusCode ?? 0, json: text && isJson ? JSON.parse(text) : text || null });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== null) req.write(payload);
    req.end();
  });
}

/** Follows a game's SSE stream until it ends; records commit → arrival for each version event. */
function watch(gameId: string, key: string, eventLatencies: number[], stopped: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/games/${gameId}/events`, agent: false, headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const now = Date.now();
          buffer += chunk;
          let i;
          while ((i = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, i);
            buffer = buffer.slice(i + 2);
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (!data || !block.includes('event: version')) continue;
            const at = (JSON.parse(data.slice(6)) as { at?: string }).at;
            if (at && !stopped()) eventLatencies.push(now - Date.parse(at));
          }
        });
        res.on('end', resolve);
        res.on('close', resolve);
        res.on('error', () => resolve());
      },
    );
    req.on('error', () => resolve());
    const timer = setInterval(() => {
      if (stopped()) {
        clearInterval(timer);
        req.destroy();
        resolve();
      }
    }, 200);
  });
}

try {
  for (let i = 0; ; i++) {
    const code = await Promise.race([serverExited, new Promise<'wait'>((r) => setTimeout(() => r('wait'), 100))]);
    if (code !== 'wait') throw new Error(`the server exited (${code}) before it was ready`);
    const ready = await call('GET', '/readyz', null).then((r) => r.status === 200, () => false);
    if (ready) break;
    if (i > 600) throw new Error('the server was not ready after 60 s');
  }

  // The webhook receiver: counts deliveries, measures commit → receiver from the payload's
  // timestamp (the commit time, server clock, same machine), answers 204.
  let delivered = 0;
  const hookLatencies: number[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      delivered++;
      const at = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp?: string }).timestamp ?? '');
      if (!stop && Number.isFinite(at)) hookLatencies.push(Date.now() - at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
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
    const keys: Record<string, string> = { York: await signup(`york-${n}`), Lancaster: await signup(`lancaster-${n}`) };
    while (!stop) {
      const id = (await call('POST', '/games', keys.York!, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json.id as string;
      const joined = (await call('POST', `/games/${id}/join`, keys.Lancaster!, {})).json;
      if (WATCH) watchers.push(watch(id, keys.York!, eventLatencies, () => stop));
      let version: number = joined.version;
      let active: string[] = joined.activeRoles;
      const legal = new Map<string, { version: number; actions: unknown[] }>();
      while (!stop) {
        const role = active[Math.floor(Math.random() * active.length)]!;
        let known = legal.get(role);
        if (!known || known.version !== version) {
          const r = (await call('GET', `/games/${id}/actions`, keys[role]!)).json;
          legalReads++;
          known = { version: r.version, actions: r.actions };
        }
        const action = known.actions[Math.floor(Math.random() * known.actions.length)];
        const t0 = performance.now();
        const r = await call('POST', `/games/${id}/actions`, keys[role]!, { action, expectedVersion: version });
        latencies.push(performance.now() - t0);
        if (r.status === 409) {
          conflicts++;
          const s = (await call('GET', `/games/${id}`, keys.York!)).json;
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
  const commits0 = await commitCounts();
  const countActions = async () => Number((await admin(`SELECT count(*)::int AS n FROM actions WHERE kind = 'action'`, dbUrl(dbName)))[0].n);
  const before = await countActions();
  const cpu0 = { server: cpuSeconds(server.pid!), bench: process.cpuUsage(), pg: postgresCpu() };
  const t0 = performance.now();
  const bots = Array.from({ length: K }, (_, i) => bot(i));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  stop = true;
  await Promise.all(bots);
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = {
    server: cpuSeconds(server.pid!) - cpu0.server,
    bench: (() => {
      const u = process.cpuUsage(cpu0.bench);
      return (u.user + u.system) / 1e6;
    })(),
    pg: postgresCpuSince(cpu0.pg),
  };
  await Promise.all(watchers);
  const persisted = (await countActions()) - before;
  const commits1 = await commitCounts();
  console.log(`bench:service — ${K} concurrent bot games over REST, ${elapsed.toFixed(1)} s, Postgres + Redis, ${os.cpus().length} CPUs, server in its own process`);
  console.log(`  persisted actions: ${persisted} (${(persisted / elapsed).toFixed(1)} actions/s), games finished: ${gamesFinished}, 409 conflicts: ${conflicts}, legal-action reads: ${legalReads}`);
  console.log(`  ${spread('POST /games/{id}/actions latency', latencies)}`);
  if (WATCH) console.log(`  ${spread('commit → SSE subscriber', eventLatencies)}`);
  const per = (s: number) => `${((s / persisted) * 1e6).toFixed(0)} µs/action`;
  console.log(`  CPU: server ${cpu.server.toFixed(1)} s (${per(cpu.server)}), bots ${cpu.bench.toFixed(1)} s (${per(cpu.bench)}), postgres ${cpu.pg.toFixed(1)} s (${per(cpu.pg)})`);
  console.log(`  webhooks: ${WEBHOOKS ? `on, ${delivered} deliveries received (${(delivered / persisted).toFixed(2)} per action)` : 'off'}`);
  if (WEBHOOKS) console.log(`  ${spread('commit → webhook receiver', hookLatencies)}`);
  receiver.close();
  const statements = commits1.statements - commits0.statements;
  const changes = commits1.changes - commits0.changes;
  console.log(`  group commit: ${changes} commits in ${statements} statements (${(changes / statements).toFixed(2)} per statement)`);
} finally {
  agent.destroy();
  server.kill('SIGTERM');
  await Promise.race([serverExited, new Promise((r) => setTimeout(r, 10_000))]);
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}

// Reference: what this Postgres does with small write transactions at the same concurrency
// (--pgbench-seconds 0: not run).
const pgbenchDb = `${dbName}_pgbench`;
if (PGBENCH_SECONDS > 0) await admin(`CREATE DATABASE ${pgbenchDb}`);
if (PGBENCH_SECONDS > 0) try {
  execFileSync('pgbench', ['-i', '-q', '-s', '1', dbUrl(pgbenchDb)], { stdio: 'ignore' });
  const out = execFileSync('pgbench', ['-N', '-c', String(K), '-j', String(Math.min(K, os.cpus().length)), '-T', String(PGBENCH_SECONDS), dbUrl(pgbenchDb)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const tps = /tps = ([\d.]+)/.exec(out)?.[1];
  const lat = /latency average = ([\d.]+ ms)/.exec(out)?.[1];
  console.log(`  pgbench -N -c ${K}: ${tps ?? '?'} TPS (latency average ${lat ?? '?'}) — reference for small write transactions`);
} catch (err) {
  console.log(`  pgbench not run: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
} finally {
  await admin(`DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
}
