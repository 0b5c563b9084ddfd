// Black & White's leak scan through the real service, on the invented data
// file (HERALD_BLACK_AND_WHITE_DATA = src/games/black-and-white/data/
// invented-data.json, test/helpers/games inventedDataFiles): BW_SERVICE_GAMES
// (default 8) games played by the REST bot on a real port and real Postgres
// (both seats, SSE, the playout adapter's choice made from each seat's view),
// every payload each seat received scanned against the replayed record with
// Black & White's leak rules; and one game by the GraphQL bot (subscriptions).
// Defence (always ends: the attacker's turn limit) and Skirmish, with rule
// options drawn from the seed. A Skirmish where neither side can reach 10 VP
// any more ends as a draw (the engine's noWinPossible 'draw'), but with
// 'play-on', or random play that wanders, a game could go on for long: after
// BW_SERVICE_RESIGN_AFTER actions (default 1,000; a game averages ~250) the
// seat to act resigns through the API (counted, printed), and the game's
// payloads are scanned all the same. The many games are the engine fuzz
// (fuzz-black-and-white.test.ts): what the service adds to a view is the same
// for every game type (Richard III's shards).
import t from 'tap';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { allGameModules, inventedDataFiles } from '../helpers/games/index.ts';
import { chooseFromView, optionsFromSeed } from '../helpers/games/black-and-white.ts';
import { collector, listen, playMany, scanStored, seeded } from './harness-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS, whileProgressing } from '../helpers/streams.ts';
import { playGraphqlGame } from '../../examples/graphql-bot.ts';

t.setTimeout(Math.max(STREAM_FILE_TIMEOUT_MS, 600_000));

const modules = allGameModules();

t.test('leak scan through the service (REST, SSE, GraphQL) on the invented data', async (t) => {
  const n = Number(process.env.BW_SERVICE_GAMES ?? 8);
  const resignAfter = Number(process.env.BW_SERVICE_RESIGN_AFTER ?? 1_000);
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
    resignAfter,
  });
  t.equal(r.games, n, `${r.games} games played to the end`);
  t.ok(r.payloads > r.games * 50, `${r.payloads} payloads scanned`);
  t.same(r.findings, [], 'no finding');
  t.comment(`leak scan black-and-white: ${r.games} games (${r.resigned} resigned after ${resignAfter} actions), ${r.actions} actions, ${r.payloads} payloads scanned`);

  // The cap itself: a game ended by a seat's resignation, its payloads scanned all the same.
  const cut = await playMany(app, baseUrl, {
    n: 1, concurrency: 1, gameType: 'black-and-white', games: modules, scenarios: ['s01'], seedPrefix: 'ci-leak-bw-cap', choose: chooseFromView, options: (i) => optionsFromSeed(`ci-leak-bw-cap-${i}`), resignAfter: 25,
  });
  t.same([cut.games, cut.resigned], [1, 1], 'a game resigned after 25 actions');
  t.same(cut.findings, [], `the resigned game: ${cut.payloads} payloads scanned, no finding`);

  // And one game by the GraphQL bot (queries, mutations, subscriptions).
  const c = collector();
  const seed = 'ci-leak-bw-gql';
  const g = await whileProgressing('GraphQL bot', (progress) =>
    playGraphqlGame({ baseUrl, gameType: 'black-and-white', scenario: 's06', seed, options: optionsFromSeed(seed), onPayload: (...p) => (progress(), c.hook(...p)), random: seeded(99), choose: chooseFromView }),
  );
  t.equal(g.status, 'finished', `GraphQL bot: played to the end (${g.actions} actions)`);
  const s = await scanStored(app, g.gameId, c.received, modules);
  t.same(s.findings, [], `GraphQL bot: ${s.scanned} payloads scanned, no finding`);
});
