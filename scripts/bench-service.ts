/**
 * Service throughput on real Postgres and Redis:
 *
 *   npm run bench:service [-- --games 8 --seconds 20 --pgbench-seconds 10]
 *
 * Starts the server (buildApp + listen on a free port) on a fresh database
 * herald_bench_<random> (dropped at the end) and the machine's Redis, then runs
 * K concurrent bot games over real HTTP: each game has two players; a bot
 * reads the summary, picks an active role, fetches that seat's legal actions
 * and posts a random one with expectedVersion. A finished game is replaced by
 * a new one until the time is up. Prints persisted actions/s (rows committed
 * in the window, counted in the database) and the latency of POST
 * /games/{id}/actions (p50/p95/p99); then `pgbench -N` (simple-update TPC-B)
 * at the same concurrency on a scratch database, for reference.
 *
 * The clients run in the server's process (one Node thread for both), so the
 * numbers are a floor for the server. Addresses: BENCH_DATABASE_ADMIN_URL
 * (default postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL
 * (default redis://127.0.0.1:6379).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { buildApp } from '../src/http/app.ts';
import { loadConfig } from '../src/config.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const K = arg('games', 8);
const SECONDS = arg('seconds', 20);
const PGBENCH_SECONDS = arg('pgbench-seconds', 10);
const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
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

const dbName = `herald_bench_${randomBytes(4).toString('hex')}`;
await admin(`CREATE DATABASE ${dbName}`);
const config = {
  ...loadConfig({ DATABASE_URL: dbUrl(dbName), REDIS_URL: REDIS_URL, LOG_LEVEL: 'silent', BUS_PREFIX: `bench:${dbName}:`, PORT: '0', RATE_LIMIT_MAX: '0', RATE_LIMIT_ANONYMOUS_MAX: '0' }),
};
const app = await buildApp(config);
try {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;

  async function call(method: string, path: string, key: string | null, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(base + path, {
      method,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }

  async function signup(name: string): Promise<string> {
    return (await call('POST', '/players', null, { name, isBot: true })).json.key.key;
  }

  const latencies: number[] = [];
  let conflicts = 0;
  let gamesFinished = 0;
  let stop = false;

  async function bot(n: number): Promise<void> {
    const keys: Record<string, string> = { York: await signup(`york-${n}`), Lancaster: await signup(`lancaster-${n}`) };
    while (!stop) {
      const id = (await call('POST', '/games', keys.York!, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json.id;
      await call('POST', `/games/${id}/join`, keys.Lancaster!, {});
      while (!stop) {
        const s = (await call('GET', `/games/${id}`, keys.York!)).json;
        if (s.status !== 'active') {
          gamesFinished++;
          break;
        }
        const role = s.activeRoles[Math.floor(Math.random() * s.activeRoles.length)];
        const legal = (await call('GET', `/games/${id}/actions`, keys[role]!)).json.actions;
        const action = legal[Math.floor(Math.random() * legal.length)];
        const t0 = performance.now();
        const r = await call('POST', `/games/${id}/actions`, keys[role]!, { action, expectedVersion: s.version });
        latencies.push(performance.now() - t0);
        if (r.status === 409) conflicts++;
        else if (r.status !== 200) throw new Error(`action failed: ${r.status} ${JSON.stringify(r.json)}`);
      }
    }
  }

  const countActions = async () => Number((await app.store.prisma.action.count({ where: { kind: 'action' } })));
  const before = await countActions();
  const t0 = performance.now();
  const bots = Array.from({ length: K }, (_, i) => bot(i));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  stop = true;
  await Promise.all(bots);
  const elapsed = (performance.now() - t0) / 1000;
  const persisted = (await countActions()) - before;
  latencies.sort((a, b) => a - b);
  console.log(`bench:service — ${K} concurrent bot games over REST, ${elapsed.toFixed(1)} s, Postgres + Redis, ${os.cpus().length} CPUs`);
  console.log(`  persisted actions: ${persisted} (${(persisted / elapsed).toFixed(1)} actions/s), games finished: ${gamesFinished}, 409 conflicts: ${conflicts}`);
  console.log(
    `  POST /games/{id}/actions latency: p50 ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms (n=${latencies.length})`,
  );
} finally {
  await app.close();
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
}

// Reference: what this Postgres does with small write transactions at the same concurrency.
const pgbenchDb = `${dbName}_pgbench`;
await admin(`CREATE DATABASE ${pgbenchDb}`);
try {
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
