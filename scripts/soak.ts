// Leak-scan soak: plays N complete games (default 10,000; 'richard-iii'
// scenario) with the REST example bot against a Herald listening on a real port
// (a fresh database on TEST_DATABASE_ADMIN_URL's server, dropped at the end),
// scans every payload each seat received, and prints games, payloads scanned
// and findings. Exits 1 on any finding.
//
//   npm run soak -- [--games N] [--concurrency C] [--scenario S] [--minutes M]
import { openTestStore, testConfig } from '../test/helpers/services.ts';
import { listen, playMany } from '../test/examples/harness-helpers.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
};
const games = Number(arg('games', '10000'));
const concurrency = Number(arg('concurrency', '8'));
const scenario = arg('scenario', 'richard-iii');
const minutes = Number(arg('minutes', '0')); // stop starting games after this long (0: no limit)

const teardowns: Array<() => unknown> = [];
const t = { teardown: (fn: () => unknown) => teardowns.push(fn) };
const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl }), { store });
teardowns.push(() => app.close());

const started = Date.now();
const stopAt = minutes > 0 ? started + minutes * 60_000 : Infinity;
let lastPrint = 0;
const result = await playMany(app, baseUrl, {
  n: games,
  concurrency,
  scenario,
  seedPrefix: `soak-${started}`,
  onGame: (r) => {
    if (Date.now() - lastPrint > 10_000) {
      lastPrint = Date.now();
      console.log(`${new Date().toISOString()} games ${r.games}, actions ${r.actions}, payloads scanned ${r.payloads}, findings ${r.findings.length}`);
    }
  },
  shouldStop: () => Date.now() > stopAt,
});
const secs = (Date.now() - started) / 1000;
console.log(`soak: ${result.games} games (${scenario}), ${result.actions} actions, ${result.payloads} payloads scanned, ${result.findings.length} findings in ${secs.toFixed(0)} s${result.games < games ? ` (stopped early: ${games} asked)` : ''}`);
for (const f of result.findings.slice(0, 20)) console.log('finding', JSON.stringify(f));
for (const fn of teardowns.reverse()) await fn();
process.exit(result.findings.length ? 1 : 0);
