// Leak-scan soak: plays N complete games of one game type (default 10,000 of
// Richard III, its scenarios in turn) with the REST example bot against a Herald listening on a
// real port, scans every payload each seat received, and prints games, actions,
// payloads scanned and findings. Exits 1 on any finding or failed game.
//
// The server runs in this process on a fresh database on
// TEST_DATABASE_ADMIN_URL's server (dropped at the end); the bots and the scan
// run in `--workers` child processes (scripts/soak-worker.ts), each playing
// `--concurrency` games at once, so that the server, the bots and Postgres
// share the machine's cores. Workers take game numbers from here one at a time,
// so N is exact and `--minutes` stops new games from starting.
//
//   npm run soak -- [--type richard-iii] [--games N] [--workers W] [--concurrency C] [--scenario S|all] [--minutes M]
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openTestStore, testConfig } from '../test/helpers/services.ts';
import { listen } from '../test/examples/harness-helpers.ts';
import type { Finding } from '../examples/leak-scan/index.ts';
import { games as installed } from '../src/games/index.ts';
import type { FromWorker, ToWorker } from './soak-worker.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
};
const gameType = arg('type', 'richard-iii');
if (!installed[gameType]) {
  console.error(`unknown game type ${gameType}; expected one of ${Object.keys(installed).join(', ')}`);
  process.exit(2);
}
const SCENARIOS = installed[gameType].scenarios.map((s) => s.id);
const games = Number(arg('games', '10000'));
const workers = Number(arg('workers', '2'));
const concurrency = Number(arg('concurrency', '4'));
const scenarioArg = arg('scenario', 'all');
const scenarios = scenarioArg === 'all' ? SCENARIOS : [scenarioArg];
const minutes = Number(arg('minutes', '0')); // stop starting games after this long (0: no limit)

const teardowns: Array<() => unknown> = [];
const t = { teardown: (fn: () => unknown) => teardowns.push(fn) };
const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl }), { store });
teardowns.push(() => app.close());

const started = Date.now();
const stopAt = minutes > 0 ? started + minutes * 60_000 : Infinity;
const seedPrefix = `soak-${started}`;
const total = { games: 0, actions: 0, payloads: 0, findings: [] as Finding[], failures: [] as string[] };
const perScenario = new Map<string, { games: number; actions: number }>(scenarios.map((s) => [s, { games: 0, actions: 0 }]));
let next = 0;
let workerCpu = 0;
let lastPrint = started;

const report = () => {
  const secs = (Date.now() - started) / 1000;
  return `games ${total.games}, actions ${total.actions}, payloads scanned ${total.payloads}, findings ${total.findings.length}, failed games ${total.failures.length}, ${secs.toFixed(0)} s (${(total.games / Math.max(secs, 1)).toFixed(2)} games/s)`;
};

function run(child: ChildProcess): Promise<void> {
  const send = (m: ToWorker) => child.send(m);
  child.on('message', (raw) => {
    const m = raw as FromWorker;
    if (m.type === 'next') {
      if (next < games && Date.now() < stopAt && total.failures.length === 0) {
        const i = next++;
        send({ type: 'game', slot: m.slot, index: i, gameType, scenario: scenarios[i % scenarios.length]!, seed: `${seedPrefix}-${i}` });
      } else send({ type: 'none', slot: m.slot });
    } else if (m.type === 'result') {
      total.games++;
      total.actions += m.actions;
      total.payloads += m.payloads;
      const s = perScenario.get(m.scenario)!;
      s.games++;
      s.actions += m.actions;
      for (const f of m.findings) if (total.findings.length < 100) total.findings.push(f);
      if (Date.now() - lastPrint > 30_000) {
        lastPrint = Date.now();
        console.log(`${new Date().toISOString()} ${report()}`);
      }
    } else if (m.type === 'failed') {
      total.failures.push(`game ${m.index} (${m.scenario}, seed ${m.seed}): ${m.error}`);
    } else if (m.type === 'cpu') {
      workerCpu += m.seconds;
    }
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`soak worker exited with ${code}`))));
    child.on('error', reject);
  });
}

const worker = fileURLToPath(new URL('./soak-worker.ts', import.meta.url));
const children = Array.from({ length: workers }, () =>
  fork(worker, [], {
    execArgv: ['--import', 'tsx', ...(process.env.SOAK_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.SOAK_PROF] : [])],
    env: { ...process.env, SOAK_BASE_URL: baseUrl, SOAK_DATABASE_URL: databaseUrl, SOAK_CONCURRENCY: String(concurrency) },
  }),
);
let crashed: unknown = null;
await Promise.all(children.map(run)).catch((err) => {
  crashed = err;
  for (const c of children) c.kill();
});

const secs = (Date.now() - started) / 1000;
const cpu = process.cpuUsage();
console.log(`soak: ${total.games} games of ${gameType} (${scenarios.join(', ')}), ${total.actions} actions, ${total.payloads} payloads scanned, ${total.findings.length} findings, ${total.failures.length} failed games in ${secs.toFixed(0)} s${total.games < games ? ` (stopped early: ${games} asked)` : ''}`);
for (const [s, x] of perScenario) console.log(`  ${s}: ${x.games} games, ${x.actions} actions (${(x.actions / Math.max(x.games, 1)).toFixed(0)} per game)`);
console.log(`  CPU: server ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s, ${workers} bot workers ${workerCpu.toFixed(0)} s; ${workers}×${concurrency} games at once`);
for (const f of total.findings.slice(0, 20)) console.log('finding', JSON.stringify(f));
for (const f of total.failures.slice(0, 20)) console.log('failed', f);
if (crashed) console.log('worker crash:', crashed);
for (const fn of teardowns.reverse()) await fn();
process.exit(total.findings.length || total.failures.length || crashed ? 1 : 0);
