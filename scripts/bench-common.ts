/**
 * What the benchmarks share: the machine's Postgres and Redis addresses, a
 * scratch database's URL, CPU time of processes from /proc (Linux), free
 * ports, medians and percentiles.
 *
 * Addresses: BENCH_DATABASE_ADMIN_URL (default
 * postgresql://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';

export const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** One statement on its own connection (CREATE / DROP DATABASE, or a query on `url`); its rows. */
export async function admin(sql: string, url = ADMIN_URL, values: unknown[] = []): Promise<any[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, values)).rows;
  } finally {
    await c.end();
  }
}

/** The URL of database `name` on the admin URL's server. */
export function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The p-th percentile of values sorted ascending (NaN for none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** A TCP port free on 127.0.0.1 just now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux); NaN when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds so far of a process's threads by kind: the main thread, V8's helper threads (GC,
 * concurrent compilation: "V8Worker"), libuv's pool and the rest; each as user and system time.
 */
export function threadCpu(pid: number): Map<string, { user: number; sys: number }> {
  const out = new Map<string, { user: number; sys: number }>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const kind = Number(tid) === pid ? 'main' : name.startsWith('V8Worker') ? 'v8' : name.startsWith('libuv') ? 'libuv' : 'other';
      const t = out.get(kind) ?? { user: 0, sys: 0 };
      t.user += Number(f[11]) / 100;
      t.sys += Number(f[12]) / 100;
      out.set(kind, t);
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** CPU seconds so far of every local postgres process, by pid (empty without pgrep or a local Postgres). */
export function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>();
  let pids: string[] = [];
  try {
    pids = execFileSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    // no pgrep or no local postgres
  }
  for (const p of pids) out.set(Number(p), cpuSeconds(Number(p)));
  return out;
}

/**
 * The environment of a server under benchmark (`src/main.ts` or the floor): database `dbName` on
 * the admin URL's server, the machine's Redis under a prefix of its own, `port` on 127.0.0.1,
 * warnings only, production mode, no rate limits; `extra` on top.
 */
export function serverEnv(dbName: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
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
    // The watchers are many streams from one address (and key).
    STREAMS_PER_KEY: '0',
    ...extra,
  };
}
