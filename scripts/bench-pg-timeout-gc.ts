/**
 * What pg's `query_timeout` costs the young generation (issue 18): the same queries with large
 * parameters (30 kB of JSON each, as Herald's commit statements carry a game's state), three ways.
 *
 *   node --import tsx scripts/bench-pg-timeout-gc.ts [seconds]   (default 15; Postgres at BENCH_DATABASE_ADMIN_URL)
 *
 * - `none`: no query timeout;
 * - `pg`: pg's own `query_timeout` (10 s), as src/store/store.ts sets it;
 * - `outside`: no `query_timeout`, and a 10 s timer per query armed and cleared around pool.query
 *   by a function of this script (a timer that holds nothing of the query's parameters).
 *
 * 16 concurrent workers on a pool of 10, each in a fresh process with --trace-gc-nvp; prints the
 * queries made, the CPU time and the bytes the scavenges promoted per query. With pg 8.23.1,
 * `pg` promotes about the whole parameter of every query and `outside` about what `none` does:
 * pg's Client.query wraps the callback in a closure made inside query() (lib/client.js, "if
 * (readTimeout)"), whose context holds the query with its values, and that closure outlives the
 * query long enough to be promoted (the same with the timer taken out and the wrapper kept; gone
 * with the wrapper made by a function outside query()).
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { ADMIN_URL } from './bench-common.ts';

const mode = process.argv[2];
const SECONDS = Number(process.argv[mode === undefined ? 2 : 3] ?? 15);

if (mode === undefined || /^\d+$/.test(mode)) {
  for (const m of ['none', 'pg', 'outside']) {
    const out = execFileSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', process.argv[1]!, m, String(SECONDS)], { encoding: 'utf8' });
    let promoted = 0;
    let scavenges = 0;
    for (const line of out.split('\n')) {
      if (!/\bgc=s\b/.test(line)) continue;
      scavenges++;
      promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0);
    }
    const r = /^done (\d+) (\d+)/m.exec(out);
    const n = Number(r?.[1] ?? 0);
    console.log(`${m.padEnd(8)}: ${n} queries, ${((Number(r?.[2] ?? 0) / n) * 1000).toFixed(0)} µs CPU per query, ${scavenges} scavenges, ${(promoted / 1e6).toFixed(1)} MB promoted (${(promoted / n / 1e3).toFixed(2)} kB per query)`);
  }
} else {
  const pool = new pg.Pool({ connectionString: ADMIN_URL, max: 10, ...(mode === 'pg' ? { query_timeout: 10_000 } : {}) });
  const param = () => JSON.stringify({ state: 'x'.repeat(30_000), r: Math.random() });
  // The timer of `outside`: made here, so that its closures hold the timer and the promise only.
  const timed = <T>(run: () => Promise<T>): Promise<T> => {
    const timer = setTimeout(() => {}, 10_000);
    return run().finally(() => clearTimeout(timer));
  };
  const query = { name: 'bench-pg-timeout-gc', text: 'SELECT length($1::text) AS n' };
  let n = 0;
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  const worker = async () => {
    while (Date.now() - t0 < SECONDS * 1000) {
      const values = [param()];
      if (mode === 'outside') await timed(() => pool.query({ ...query, values }));
      else await pool.query({ ...query, values });
      n++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  const u = process.cpuUsage(cpu0);
  await pool.end();
  console.log(`done ${n} ${Math.round((u.user + u.system) / 1000)}`);
}
