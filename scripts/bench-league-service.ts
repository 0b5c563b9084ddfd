/**
 * Benchmark of the league service on real Postgres (printed figures, not a test): a Swiss of
 * 256 and of 1,024 players run through the service — the start (seeding, pairing round 1,
 * creating and starting its games in one transaction), recording every result of the round
 * (the last one pairs and publishes round 2), and reading the standings. CPU time of this
 * process (service) and of the Postgres processes, per step and per board.
 *
 *   npm run bench:league-service [-- --sizes 256,1024]
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createMemoryBus } from '../src/bus/index.ts';
import { createGameService, type Caller } from '../src/service/api.ts';
import { openStore } from '../src/store/store.ts';
import { ADMIN_URL, postgresCpu } from './bench-common.ts';

const sizesArg = process.argv.indexOf('--sizes');
const SIZES = (sizesArg > 0 ? process.argv[sizesArg + 1]! : '256,1024').split(',').map(Number);

async function measure<T>(label: string, per: number, unit: string, fn: () => Promise<T>): Promise<T> {
  const pg0 = postgresCpu();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  let pgCpu = 0;
  for (const [pid, s] of postgresCpu()) pgCpu += s - (pg0.get(pid) ?? 0);
  const svc = (c.user + c.system) / 1000;
  console.log(
    `${label}: wall ${wall.toFixed(0)} ms; CPU service ${svc.toFixed(0)} ms, Postgres ${(pgCpu * 1000).toFixed(0)} ms` +
      (per > 0 ? ` → per ${unit}: service ${(svc / per).toFixed(2)} ms, Postgres ${((pgCpu * 1000) / per).toFixed(2)} ms` : ''),
  );
  return out;
}

const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
const dbName = `herald_bench_${randomBytes(4).toString('hex')}`;
await admin.query(`CREATE DATABASE ${dbName}`);
const url = new URL(ADMIN_URL);
url.pathname = `/${dbName}`;
const store = await openStore({ databaseUrl: url.toString(), dataDir: '/nonexistent' }, { info: () => {} });
const bus = createMemoryBus();
const svc = createGameService({ store, bus });
console.log(`bench:league-service — Node ${process.version}, Postgres at ${url.host}`);
try {
  const organiser = await svc.authenticate((await svc.createPlayer(null, { name: 'organiser' })).key!.key);
  for (const n of SIZES) {
    console.log(`\nSwiss of ${n} players, 10 rounds, games on Herald`);
    const ids = Array.from({ length: n }, (_, i) => ({ id: crypto.randomUUID(), name: `bench-${n}-${i}` }));
    await store.prisma.player.createMany({ data: ids });
    const league = await svc.createLeague(organiser, { name: `Bench ${n}`, gameType: 'richard-iii', format: 'swiss', rounds: 10 });
    await measure(`  ${n} entries`, n, 'entry', async () => {
      for (const p of ids) await svc.addEntrant(organiser, league.id, { playerId: p.id });
    });
    await measure(`  start: seed, pair and publish round 1 (${n / 2} games created)`, n / 2, 'game', () => svc.startLeague(organiser, league.id));
    const r1 = await svc.getRound(null, league.id, 1);
    let i = 0;
    await measure(`  record ${r1.pairings.length} results (the last pairs and publishes round 2)`, r1.pairings.length, 'result', async () => {
      for (const p of r1.pairings) {
        await svc.setResult(organiser as Caller, league.id, p.id, { result: i++ % 3 === 0 ? 'draw' : 'first', reason: 'bench' });
      }
    });
    const rounds = await svc.listRounds(null, league.id);
    console.log(`  rounds now: ${rounds.map((r) => `${r.number}:${r.status}`).join(' ')}`);
    await measure(`  standings of ${n} players`, 0, '', () => svc.getStandings(null, league.id));
  }
} finally {
  await store.close();
  await bus.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
