/**
 * The commander behind the screen (§7.7, A37): the 'commanders' option
 * (off by default: no choice, no orders), the choice among the army's three
 * from the data before 'done', hidden from the other seat until deployment
 * ends ('public') or until its first order ('first-order').
 */
import t from 'tap';
import type { Army } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { game, play, T, V, withDice } from './fixture-helpers.ts';
import { withCommanders } from './orders-helpers.ts';

const commanderSeen = (s: BWState, seat: Army | null, army: Army): string | null =>
  (game.view(s, seat) as { orders: { commander: Record<Army, string | null> } }).orders.commander[army];

/** Both seats buy one Regular Infantry / Sirens, choose (when on), deploy and finish (armies too small to win: 'play-on', else a draw). */
function setUp(options: Record<string, unknown>): BWState {
  let s = game.setup({ scenario: 'open', seed: 'cmd', options: { noWinPossible: 'play-on', ...options } });
  s = play(s, ['Thargaton', { type: 'buy', kind: 'regular-infantry' }], ['Vesania', { type: 'buy', kind: 'sirens-of-vesania' }]);
  return s;
}

t.test('without the option nothing changes: no commander choice, no orders view', async (t) => {
  const s = setUp({});
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'commander'));
  t.ok(game.legalActions(s, 'Thargaton').some((a) => a.type === 'done'));
  t.equal((game.view(s, 'Thargaton') as { orders: unknown }).orders, null);
});

t.test("A37 'public': chosen behind the screen from the army's three, shown when deployment ends", async (t) => {
  let s = setUp({ commanders: true });
  const choices = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'commander');
  t.same(choices, [
    { type: 'commander', commander: 'baron-maximilian' },
    { type: 'commander', commander: 'lord-alexandrus' },
    { type: 'commander', commander: 'vlad-kristofferson' },
  ]);
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'done'), 'no done before a commander is chosen');
  s = play(s, ['Thargaton', { type: 'commander', commander: 'vlad-kristofferson' }], ['Vesania', { type: 'commander', commander: 'sister-anastasia' }]);
  t.equal(commanderSeen(s, 'Thargaton', 'Thargaton'), 'vlad-kristofferson', 'the own choice is seen');
  t.equal(commanderSeen(s, 'Vesania', 'Thargaton'), null, 'not by the other seat');
  t.equal(commanderSeen(s, null, 'Vesania'), null, 'nor by spectators');
  s = play(s, ['Thargaton', { type: 'done' }], ['Vesania', { type: 'done' }]);
  t.equal(commanderSeen(s, 'Vesania', 'Thargaton'), null, 'hidden during deployment');
  s = play(s, ['Thargaton', { type: 'place', index: 0, hex: '1,1' }], ['Vesania', { type: 'place', index: 0, hex: '1,8' }], ['Thargaton', { type: 'done' }], ['Vesania', { type: 'done' }]);
  t.equal(s.phase, 'play');
  t.equal(commanderSeen(s, 'Vesania', 'Thargaton'), 'vlad-kristofferson', 'public once the screen is removed');
  t.equal(commanderSeen(s, null, 'Thargaton'), 'vlad-kristofferson');
  t.ok(s.log.some((e) => e.pub.key === 'log.commander'));
});

t.test("A37 'first-order': the commander stays secret until its army's first order", async (t) => {
  let s = withCommanders(
    [T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')],
    'Thargaton',
    { Thargaton: 'baron-maximilian', Vesania: 'cardinal-rafael' },
    { a37Commander: 'first-order' },
  );
  s.orders.shown = { Thargaton: false, Vesania: false };
  t.equal(commanderSeen(s, 'Vesania', 'Thargaton'), null);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(commanderSeen(s, 'Vesania', 'Thargaton'), null, 'an order on offer does not show it');
  s = play(withDice(s, [1, 1, 5, 4]), ['Thargaton', { type: 'order', order: 'motivation' }]);
  t.equal(commanderSeen(s, 'Vesania', 'Thargaton'), 'baron-maximilian', 'its first order shows it');
  t.equal(commanderSeen(s, 'Thargaton', 'Vesania'), null, "Vesania's is still secret");
});

t.test("views: the order window in full to its player, only that one is open to others; an activation's order effects; orders issued this turn", async (t) => {
  let s = withCommanders([T('regular-infantry', '5,1'), V('sirens-of-vesania', '9,8')], 'Thargaton', { Thargaton: 'lord-alexandrus' });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
  s = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'forced-march' }]);
  type V = { orders: { activation: unknown; issued: unknown[]; window: unknown } };
  t.same((game.view(s, 'Vesania') as V).orders.activation, { extraMove: 1 });
  t.same((game.view(s, null) as V).orders.issued, [{ army: 'Thargaton', order: 'forced-march', unit: 'T01', ok: true }]);
  let w = withCommanders([T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')], 'Thargaton', { Thargaton: 'baron-maximilian' });
  w = play(w, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.match((game.view(w, 'Thargaton') as V).orders.window, { at: 'declared', attack: { attacker: 'T01', target: 'V01' } });
  t.same((game.view(w, 'Vesania') as V).orders.window, { at: 'declared' });
  t.same((game.view(w, null) as V).orders.window, { at: 'declared' });
  // A new turn forgets the orders issued.
  const next = play(withDice(w, [6, 6, 2, 2]), ['Thargaton', { type: 'order', order: 'motivation' }], ['Thargaton', { type: 'end-turn' }]);
  t.same((game.view(next, null) as V).orders.issued, []);
});
