/**
 * Elimination and VP (§17, A49) and the victory of every family (§6, §19,
 * A50–A52).
 */
import t from 'tap';
import { activated, game, play, position, T, unit, V, withDice, type Placing } from './fixture-helpers.ts';

const cav = (army: 'Thargaton' | 'Vesania', hex: string, strength?: number): Placing =>
  army === 'Thargaton' ? { army, kind: 'regular-cavalry', hex, strength } : { army, kind: 'sirens-of-vesania', hex, strength };

t.test('§17/A49: a unit at strength 1 that is hit is eliminated and the opponent scores its value (or cost)', async (t) => {
  let s = position('open', [cav('Thargaton', '5,3'), cav('Vesania', '5,4', 1)]);
  s = activated(s, 'T01');
  s = withDice(s, [5, 4]);
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(unit(s, 'V01').hex, null);
  t.equal(s.vp.Thargaton, 3, 'the cost, as the fixture gives no value');
  t.ok(unit(s, 'V01').revealed);
});

t.test('§19 Skirmish and Training: 10 VP wins at once', async (t) => {
  for (const sc of ['skirmish', 'training']) {
    let s = position(sc, [cav('Thargaton', '5,2'), cav('Vesania', '5,3', 1)]);
    s.vp.Thargaton = 8;
    s = activated(s, 'T01');
    s = withDice(s, [5, 4]);
    s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
    t.same(game.status(s), { over: true, winner: 'Thargaton', reason: 'vp' }, sc);
    t.same(game.activeRoles(s), []);
    t.same(game.legalActions(s, 'Thargaton'), []);
  }
});

t.test('§19 Defence (A50): the attacker wins on entering the fort; the defender at 15 VP or when time runs out', async (t) => {
  // defence: fort 5,6, attacker Thargaton, limit 10
  let s = position('defence', [T('regular-infantry', '5,4'), cav('Vesania', '9,8')]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,5' }], ['Thargaton', { type: 'move', to: '5,6' }]);
  t.same(game.status(s), { over: true, winner: 'Thargaton', reason: 'fort' });
  let d = position('defence', [cav('Thargaton', '1,1'), cav('Vesania', '9,8')]);
  d.attackerTurns = 9;
  d = play(d, ['Thargaton', { type: 'end-turn' }]);
  t.same(game.status(d), { over: true, winner: 'Vesania', reason: 'time' });
  let v = position('defence', [cav('Thargaton', '5,4', 1), cav('Vesania', '5,5')], 'Vesania');
  v.vp.Vesania = 12;
  v = play(v, ['Vesania', { type: 'activate', units: ['V01'] }]);
  v = withDice(v, [5, 4]);
  v = play(v, ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  t.same(game.status(v), { over: true, winner: 'Vesania', reason: 'vp' });
  let a = position('defence', [cav('Thargaton', '5,4'), cav('Vesania', '5,5', 1)]);
  a.vp.Thargaton = 14;
  a = play(a, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  a = withDice(a, [5, 4]);
  a = play(a, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(game.status(a).over, false, 'the attacker does not win on VP');
});

t.test('§19 Domination (A52): holding 2 forts at the start of its own turn wins', async (t) => {
  // forts 3,4 5,4 8,5
  let s = position('domination', [
    V('order-of-aquarius', '3,4'),
    V('order-of-aquarius', '5,4'),
    cav('Thargaton', '1,1'),
  ]);
  s = play(s, ['Thargaton', { type: 'end-turn' }]);
  t.same(game.status(s), { over: true, winner: 'Vesania', reason: 'forts' });
  let one = position('domination', [V('order-of-aquarius', '3,4'), cav('Thargaton', '1,1')]);
  one = play(one, ['Thargaton', { type: 'end-turn' }]);
  t.equal(game.status(one).over, false);
});

t.test('§19 Behind Enemy Lines (A51): three units on arrow hexes at once; "cumulative" counts each that ever got there', async (t) => {
  // arrows 1,8 2,8 3,8, attacker Thargaton
  const units: Placing[] = [
    T('regular-infantry', '1,7'),
    T('regular-infantry', '2,8'),
    T('regular-infantry', '3,8'),
    cav('Vesania', '9,1'),
  ];
  let s = position('bel', units);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '1,8' }], ['Thargaton', { type: 'end-activation' }]);
  t.same(game.status(s), { over: true, winner: 'Thargaton', reason: 'breakthrough' });
  const two = units.filter((u) => u.hex !== '3,8');
  let c = position('bel', two, 'Thargaton', { a51Breakthrough: 'cumulative' });
  c.brokeThrough = ['T09'];
  c = play(c, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '1,8' }], ['Thargaton', { type: 'move', to: '1,7' }]);
  t.same(game.status(c), { over: true, winner: 'Thargaton', reason: 'breakthrough' }, 'T09 earlier, T01 passing through, T02 there now');
  let sim = position('bel', two);
  sim = play(sim, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '1,8' }], ['Thargaton', { type: 'move', to: '1,7' }]);
  t.equal(game.status(sim).over, false, 'simultaneous: only T02 stands on an arrow');
  let n = position('bel', units);
  n = play(n, ['Thargaton', { type: 'activate', units: ['T02'] }], ['Thargaton', { type: 'move', to: '2,7' }], ['Thargaton', { type: 'end-activation' }]);
  t.equal(game.status(n).over, false, 'simultaneous: only one stands on an arrow');
});

t.test('§12.3 fire at the end of the own turn can eliminate, and scores', async (t) => {
  let s = position('open', [cav('Thargaton', '5,3', 1), cav('Vesania', '9,8')], 'Thargaton', {}, { '5,3': ['fire'] });
  s = play(s, ['Thargaton', { type: 'end-turn' }]);
  t.equal(unit(s, 'T01').hex, null);
  t.equal(s.vp.Vesania, 3);
});
