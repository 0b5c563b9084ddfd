// Hidden information: complete 'richard-iii' games played by the REST bot on a
// real port (both seats, SSE, random legal actions), every payload each seat
// received scanned against the engine's view for that seat at that version.
// Zero findings. Up to LEAK_SCAN_GAMES games (default 200), no new game started
// after LEAK_SCAN_SECONDS (default 45: a game costs ~2 CPU-seconds, so on a
// loaded 2-core CI machine fewer than 200 fit the file's time budget; the
// number played is printed). `npm run soak` plays thousands.
// Plus a control: the scanner does find planted leaks.
import t from 'tap';
import { games } from '../../src/games/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { listen, playMany, collector, scanStored } from './harness.ts';
import { playRestGame } from '../../examples/rest-bot.ts';

const GAMES = Number(process.env.LEAK_SCAN_GAMES ?? 200);
const SECONDS = Number(process.env.LEAK_SCAN_SECONDS ?? 45);
const MIN_GAMES = Math.min(GAMES, 4);
const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());

t.test('the scanner finds planted leaks', async (t) => {
  const c = collector();
  const r = await playRestGame({ baseUrl, scenario: 'richard-iii', seed: 'control', onPayload: c.hook, maxActions: 5000 });
  t.same((await scanStored(app, r.gameId, c.received)).findings, [], 'the real payloads are clean');
  const m = games['richard-iii']!;
  const state = (await app.store.prisma.game.findUnique({ where: { id: r.gameId } }))!;
  // Plant: the opponent's view, at version 2 (game start), given to York; the seed, mid-game; the raw state.
  const s = m.setup({ scenario: 'richard-iii', seed: state.seed });
  const planted = [
    { role: 'York', version: 2, source: 'planted:enemy-view', payload: { view: m.view(s, 'Lancaster') } },
    { role: 'York', version: 2, source: 'planted:seed', payload: { note: `seed ${state.seed}` } },
    { role: 'Lancaster', version: 2, source: 'planted:state', payload: s },
  ];
  const found = (await scanStored(app, r.gameId, planted)).findings;
  t.ok(found.some((f) => f.source === 'planted:enemy-view' && /enemy block/.test(f.problem)), 'enemy block ids');
  t.ok(found.some((f) => f.source === 'planted:seed' && f.problem === 'the seed'), 'the seed');
  t.ok(found.some((f) => f.source === 'planted:state' && /key "(rng|deck|hands)"/.test(f.problem)), 'engine internals');
  t.ok(found.some((f) => f.source === 'planted:state' && /enemy (block|hand)/.test(f.problem)), 'enemy blocks or hand in the state');
});

t.test(`up to ${GAMES} complete games, every payload scanned: zero findings`, async (t) => {
  const stopAt = Date.now() + SECONDS * 1000;
  const r = await playMany(app, baseUrl, { n: GAMES, concurrency: 8, seedPrefix: 'ci-leak', shouldStop: () => Date.now() > stopAt });
  t.ok(r.games >= MIN_GAMES, `${r.games} games played to the end (at least ${MIN_GAMES})`);
  t.ok(r.payloads > r.games * 50, `${r.payloads} payloads scanned`);
  t.same(r.findings, [], 'no finding');
  t.comment(`${r.games} games, ${r.actions} actions, ${r.payloads} payloads scanned, ${r.findings.length} findings`);
});
