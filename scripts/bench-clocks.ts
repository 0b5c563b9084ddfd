/**
 * Micro-benchmark of the clocks' cost on the write path (issue 15: at most +5% per action):
 * the same games (same seed, same moves) played through the service's submitAction with and
 * without a time control, interleaved, on real Postgres. Prints this process's CPU time and
 * the wall time per action for each, and the difference. Printed figures, not a test.
 *
 *   npx tsx scripts/bench-clocks.ts [-- --games 40 --moves 40]
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createMemoryBus } from '../src/bus/index.ts';
import { createGameService, type Caller } from '../src/service/api.ts';
import { openStore } from '../src/store/store.ts';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const GAMES = arg('games', 40);
const MOVES = arg('moves', 40);

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

try {
  const a: Caller = await svc.authenticate((await svc.createPlayer(null, { name: 'A' })).key!.key);
  const b: Caller = await svc.authenticate((await svc.createPlayer(null, { name: 'B' })).key!.key);
  const holder = (role: string) => (role === 'York' ? a : b);
  const totals = { clock: { cpu: 0, wall: 0, n: 0 }, none: { cpu: 0, wall: 0, n: 0 } };
  for (let i = 0; i < GAMES; i++) {
    const seed = `bench-${i}`;
    const pair: Record<'clock' | 'none', string> = { clock: '', none: '' };
    for (const kind of ['clock', 'none'] as const) {
      const g = await svc.createGame(a, { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York'], ...(kind === 'clock' && !process.env.BENCH_NO_CLOCK ? { timeControl: { kind: 'correspondence', daysPerMove: 14 } } : {}) });
      await svc.join(b, g.id, {});
      pair[kind] = g.id;
    }
    for (let m = 0; m < MOVES; m++) {
      now += 60_000;
      // Alternate which one goes first so that neither always meets a warm cache.
      const order = (m + i) % 2 === 0 ? (['clock', 'none'] as const) : (['none', 'clock'] as const);
      let over = false;
      for (const kind of order) {
        const g = await svc.getGame(a, pair[kind]);
        if (g.status !== 'active') { over = true; continue; }
        const role = g.activeRoles[0]!;
        const legal = await svc.getLegalActions(holder(role), g.id, { role });
        const action = legal.actions.find((x) => (x as { type?: string }).type !== 'undo') ?? legal.actions[0];
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        await svc.submitAction(holder(role), g.id, { role, action: action as never });
        const w = performance.now() - w0;
        const c = process.cpuUsage(c0);
        totals[kind].cpu += (c.user + c.system) / 1000;
        totals[kind].wall += w;
        totals[kind].n++;
      }
      if (over) break;
    }
  }
  const per = (k: 'clock' | 'none') => ({ cpu: totals[k].cpu / totals[k].n, wall: totals[k].wall / totals[k].n });
  const c = per('clock');
  const n = per('none');
  console.log(`actions: with clock ${totals.clock.n}, without ${totals.none.n}`);
  console.log(`per action without clock: CPU ${n.cpu.toFixed(3)} ms, wall ${n.wall.toFixed(3)} ms`);
  console.log(`per action with clock:    CPU ${c.cpu.toFixed(3)} ms, wall ${c.wall.toFixed(3)} ms`);
  console.log(`difference: CPU ${(((c.cpu - n.cpu) / n.cpu) * 100).toFixed(1)}%, wall ${(((c.wall - n.wall) / n.wall) * 100).toFixed(1)}%`);
} finally {
  await store.close();
  await bus.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
