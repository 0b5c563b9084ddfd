// Hidden information: the scanner's control — it does find planted leaks (the
// games themselves are scanned by leak-scan-1/2.test.ts).
import t from 'tap';
import { games } from '../../src/games/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { listen, collector, scanStored } from './harness-helpers.ts';
import { playRestGame } from '../../examples/rest-bot.ts';
import { STREAM_FILE_TIMEOUT_MS, whileProgressing } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);

const { store, databaseUrl } = await openTestStore(t);
const { app, baseUrl } = await listen(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());

t.test('the scanner finds planted leaks', async (t) => {
  const c = collector();
  const r = await whileProgressing('the control game', (progress) =>
    playRestGame({ baseUrl, scenario: 'richard-iii', seed: 'control', onPayload: (...p) => (progress(), c.hook(...p)), maxActions: 5000 }),
  );
  t.same((await scanStored(app, r.gameId, c.received)).findings, [], 'the real payloads are clean');
  const m = games['richard-iii']!;
  const state = (await app.store.prisma.game.findUnique({ where: { id: r.gameId } }))!;
  // Plant: the opponent's view, at version 2 (game start), given to York; the seed, mid-game; the raw state.
  const s = m.setup({ scenario: 'richard-iii', seed: state.seed });
  const planted = [
    { role: 'York', version: 2, source: 'planted:enemy-view', payload: { view: m.view(s, 'Lancaster') } },
    { role: 'York', version: 2, source: 'planted:seed', payload: { note: `seed ${state.seed}` } },
    { role: 'Lancaster', version: 2, source: 'planted:state', payload: s },
    { role: 'York', version: 2, source: 'planted:hand', payload: { text: `Lancaster holds ${(s as { hands: Record<string, string[]> }).hands.Lancaster![0]}` } },
    { role: 'York', version: 2, source: 'planted:strength', payload: { blocks: [{ id: 'henry-vi', steps: 7 }] } },
    // York's own view names every Lancaster block in its whereabouts (public by design): that
    // must not count as shown, or no enemy block id would ever be found.
    { role: 'York', version: 2, source: 'planted:named', payload: { view: m.view(s, 'York'), text: 'Lancaster recruits welsh-mercenary' } },
  ];
  const found = (await scanStored(app, r.gameId, planted)).findings;
  t.ok(found.some((f) => f.source === 'planted:enemy-view' && /enemy block/.test(f.problem)), 'enemy block ids');
  t.ok(found.some((f) => f.source === 'planted:seed' && f.problem === 'the seed'), 'the seed');
  t.ok(found.some((f) => f.source === 'planted:state' && /key "(rng|deck|hands)"/.test(f.problem)), 'engine internals');
  t.ok(found.some((f) => f.source === 'planted:state' && /enemy (block|hand)/.test(f.problem)), 'enemy blocks or hand in the state');
  t.ok(found.some((f) => f.source === 'planted:hand' && /^enemy hand card /.test(f.problem)), 'a card of the enemy hand');
  t.ok(found.some((f) => f.source === 'planted:strength' && f.problem === 'enemy strength henry-vi|steps|7'), 'a strength the seat was never shown');
  t.same(found.filter((f) => f.source === 'planted:named').map((f) => f.problem), ['enemy block welsh-mercenary not revealed'], 'an enemy block named beside the seat\'s own whereabouts');
  t.ok((m.view(s, 'York') as { whereabouts?: Record<string, string[]> }).whereabouts?.['welsh-mercenary'], 'which name it');
  // The same payload twice for the same seat and version is one finding, not two.
  const twice = (await scanStored(app, r.gameId, [planted[1]!, { ...planted[1]!, source: 'planted:again' }])).findings;
  t.same(twice.map((f) => f.source), ['planted:seed'], 'an identical payload is scanned once');
});
