// Black & White in CI, on the invented data file (src/games/black-and-white/
// data/invented-data.json, what HERALD_BLACK_AND_WHITE_DATA names here):
//  1. the random-play fuzz: BW_FUZZ_GAMES (default 300) complete games, the
//     scenarios in turn, the rule options drawn from each seed, played through
//     the module alone with the playout adapter (test/helpers/games/
//     black-and-white.ts): the GameModule contract checked after every action,
//     then every seat's view and log lines at every version scanned with
//     Black & White's leak rules (examples/leak-scan/black-and-white.ts), which
//     is what the service sends a seat; a game that reaches a position no seat
//     can win from any more (a dead end) stops there and is counted;
//  2. the leak scan through the real service: BW_SERVICE_GAMES (default 8)
//     games played by the REST bot on a real port and real Postgres (both
//     seats, SSE, the adapter's choice made from each seat's view), every
//     payload each seat received scanned against the replayed record.
// Many engine games, few service games: a service game costs ~25 times an
// engine game (HTTP, SSE, Postgres), and what the service adds to a view is the
// same for every game type (Richard III's shards and leak-scan-games.test.ts).
// The service games play Defence (always ends: the attacker's turn limit) and
// Skirmish, with options drawn from the seed.
import t from 'tap';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { allGameModules, fuzzGame, inventedDataFiles, playoutAdapter } from '../helpers/games/index.ts';
import { chooseFromView, optionsFromSeed } from '../helpers/games/black-and-white.ts';
import { listen, playMany } from './harness-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';

t.setTimeout(Math.max(STREAM_FILE_TIMEOUT_MS, 600_000));

const modules = allGameModules();
const m = modules['black-and-white']!;

t.test('fuzz: random games through the module, views and log lines scanned', async (t) => {
  const n = Number(process.env.BW_FUZZ_GAMES ?? 300);
  const adapter = playoutAdapter(m.id);
  const failures: string[] = [];
  let decisions = 0, dead = 0;
  const wins: Record<string, number> = {};
  for (let g = 0; g < n; g++) {
    const sc = m.scenarios[g % m.scenarios.length]!;
    const r = fuzzGame(m, { scenario: sc.id, seed: `ci-bw-${g}`, endWeight: adapter.fuzzEndWeights[g % adapter.fuzzEndWeights.length]! });
    decisions += r.decisions;
    if (r.failure) failures.push(r.failure);
    else if (r.deadEnd) dead++;
    else wins[r.winner ?? 'none'] = (wins[r.winner ?? 'none'] ?? 0) + 1;
  }
  t.same(failures.slice(0, 5), [], `no failure in ${n} games`);
  t.ok(dead <= n / 10, `${dead} of ${n} games stopped at a dead end`);
  if (n >= 20) t.ok((wins.Thargaton ?? 0) > 0 && (wins.Vesania ?? 0) > 0, `both armies win some: ${JSON.stringify(wins)}`);
  t.comment(`black-and-white fuzz: ${n} games, ${decisions} decisions, wins ${JSON.stringify(wins)}, ${dead} dead ends`);
});

t.test('leak scan through the service (REST, SSE) on the invented data', async (t) => {
  const n = Number(process.env.BW_SERVICE_GAMES ?? 8);
  const { store, databaseUrl } = await openTestStore(t);
  const { app, baseUrl } = await listen(testConfig({ databaseUrl, gameDataFiles: inventedDataFiles() }), { store });
  t.teardown(() => app.close());
  const r = await playMany(app, baseUrl, {
    n,
    concurrency: 4,
    gameType: 'black-and-white',
    games: modules,
    scenarios: ['s06', 's01'],
    seedPrefix: 'ci-leak-bw',
    choose: chooseFromView,
    options: (i) => optionsFromSeed(`ci-leak-bw-${i}`),
  });
  t.equal(r.games, n, `${r.games} games played to the end`);
  t.ok(r.payloads > r.games * 50, `${r.payloads} payloads scanned`);
  t.same(r.findings, [], 'no finding');
  t.comment(`leak scan black-and-white: ${r.games} games, ${r.actions} actions, ${r.payloads} payloads scanned`);
});
