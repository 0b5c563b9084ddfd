/**
 * Combat (§16): the rulebook's worked examples (§16.2, §16.3, §16.5), the
 * criticals, the defender's decisions and counterattack, fortified positions
 * (A24), A22, the infantry shield (§16.8) and the modifiers of §16.9.
 */
import t from 'tap';
import { defenceValue, meleeValue, rangedValue, succeeds } from '../../../src/games/black-and-white/combat.ts';
import { activated, game, play, position, T, unit, V, withDice } from './fixture-helpers.ts';

t.test('§16.1/§16.2 worked example: 5 and 4 add 1; against Defence 3 an attack value of 3 succeeds, 2 does not', async (t) => {
  t.ok(succeeds({ a: 5, b: 4 }, 3, 3));
  t.notOk(succeeds({ a: 5, b: 4 }, 2, 3));
  t.ok(succeeds({ a: 3, b: 4 }, 0, 20), 'a total of 7 is a critical success whatever the values');
  t.notOk(succeeds({ a: 6, b: 6 }, 20, 0), 'a double is a critical failure whatever the values');
});

t.test('§16.2 melee through the engine: hit, the defender stands, passes and counterattacks (§16.3)', async (t) => {
  let s = position('open', [T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')]);
  s = activated(s, 'T01');
  t.ok(game.legalActions(s, 'Thargaton').some((a) => a.type === 'melee' && a.target === 'V01'));
  // 5,4: 1 + Melee 3 = 4 > Defence 3. Then the stand test 2+3 ≤ 7; the counter 5,3: 2 + 3 = 5 > 3.
  s = withDice(s, [5, 4, 2, 3, 5, 3]);
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(unit(s, 'V01').strength, 2, 'the defender lost a step');
  t.ok(unit(s, 'V01').revealed && unit(s, 'T01').revealed, 'attacker and defender revealed');
  t.same(game.activeRoles(s), ['Vesania'], "the defender's decision is the other seat's");
  const choices = game.legalActions(s, 'Vesania');
  t.ok(choices.some((a) => a.type === 'stand'));
  t.notOk(choices.some((a) => a.type === 'retreat' && ['6,3', '4,3'].includes(a.to)), 'no retreat next to the attacker');
  s = play(s, ['Vesania', { type: 'stand' }]);
  t.same(game.legalActions(s, 'Vesania'), [{ type: 'counterattack' }, { type: 'no-counterattack' }]);
  s = play(s, ['Vesania', { type: 'counterattack' }]);
  t.equal(unit(s, 'T01').strength, 2, 'the counterattack hit the attacker (A28)');
  t.equal(unit(s, 'T01').hex, '5,3', 'the attacker neither retreats nor tests');
  t.same(game.activeRoles(s), ['Thargaton']);
});

t.test('§16.3 worked example: 5 and 3 and a final value of 3 mean Melee 1', async (t) => {
  const s = position('open', [
    T('sharpshooters', '5,3'), // Melee 1
    V('sirens-of-vesania', '5,4'),
  ]);
  t.equal(meleeValue(s, unit(s, 'T01'), unit(s, 'V01'), false), 1);
  t.ok(succeeds({ a: 5, b: 3 }, 1, 2));
  t.notOk(succeeds({ a: 5, b: 3 }, 1, 3));
});

t.test('a failed stand test forces the retreat; with nowhere to go the unit loses one more step (§16.4)', async (t) => {
  let s = position('open', [T('regular-cavalry', '5,3'), T('regular-cavalry', '4,4'), T('regular-cavalry', '6,4'), V('sirens-of-vesania', '5,4')]);
  s = activated(s, 'T01');
  s = withDice(s, [5, 4, 6, 5]);
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  // 5,5 is next to 4,4 and 6,4: no retreat hex at all.
  t.same(game.legalActions(s, 'Vesania'), [{ type: 'stand' }]);
  s = play(s, ['Vesania', { type: 'stand' }]);
  t.equal(unit(s, 'V01').strength, 1, 'hit, then failed the test and could not retreat');
  t.equal(unit(s, 'V01').hex, '5,4');
});

t.test('a retreat after melee leaves the ZOC; after a ranged attack it goes farther away (A23)', async (t) => {
  let s = position('open', [T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')]);
  s = activated(s, 'T01');
  s = withDice(s, [5, 4]);
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  const to = game.legalActions(s, 'Vesania').filter((a) => a.type === 'retreat').map((a) => (a as { to: string }).to).sort();
  t.same(to, ['4,4', '5,5', '6,4'], 'the hexes of 5,4 not next to 5,3');
  s = play(s, ['Vesania', { type: 'retreat', to: '5,5' }]);
  t.equal(unit(s, 'V01').hex, '5,5');

  let r = position('open', [T('sharpshooters', '5,2'), V('sirens-of-vesania', '5,4')]);
  r = play(r, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  r = withDice(r, [3, 4]);
  r = play(r, ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }]);
  const far = game.legalActions(r, 'Vesania').filter((a) => a.type === 'retreat').map((a) => (a as { to: string }).to).sort();
  t.same(far, ['4,4', '5,5', '6,4'], 'only hexes farther from the shooter (not 4,3, 6,3)');
  t.notOk(game.legalActions(r, 'Vesania').some((a) => a.type === 'counterattack'), 'no counterattack against a ranged attack');
});

t.test('§16.5 worked example: 5 and 3 add 2, Ranged 3 beats Defence 4 (3 + forest); the target passes and stays', async (t) => {
  let s = position('skirmish', [T('sharpshooters', '3,2'), V('order-of-aquarius', '3,4')]);
  t.equal(defenceValue(s, unit(s, 'V01'), unit(s, 'T01'), 'ranged'), 4);
  t.equal(rangedValue(s, unit(s, 'T01')), 3);
  s = activated(s, 'T01');
  s = withDice(s, [5, 3, 2, 2]);
  s = play(s, ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }, ], ['Vesania', { type: 'stand' }]);
  t.equal(unit(s, 'V01').strength, 2);
  t.equal(unit(s, 'V01').hex, '3,4');
});

t.test('A24: in a bunker a non-critical hit never forces the retreat; option "forced" makes a critical one do so', async (t) => {
  const units = [
    T('regular-cavalry', '5,4'),
    V('order-of-aquarius', '5,5'), // bunker: Defence 3 + 1
  ];
  let s = position('skirmish', units);
  s = activated(s, 'T01');
  s = withDice(s, [6, 4, 6, 6]); // 2 + 3 = 5 > 4; the test 12 fails
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }], ['Vesania', { type: 'stand' }]);
  t.equal(unit(s, 'V01').hex, '5,5', 'failed the test but stays (A24)');
  t.same(game.activeRoles(s), ['Thargaton']);

  let f = position('skirmish', units, 'Thargaton', { a24Fortified: 'forced' });
  f = play(f, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  f = withDice(f, [6, 1]);
  f = play(f, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.ok(game.legalActions(f, 'Vesania').every((a) => a.type === 'retreat'), 'a critical success forces the retreat');
});

t.test('A22: by default a missed defender does not counterattack; the option lets it, without a test', async (t) => {
  const units = [T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')];
  for (const [opt, expect] of [[false, ['Thargaton']], [true, ['Vesania']]] as const) {
    let s = position('open', units, 'Thargaton', { a22CounterAfterMiss: opt });
    s = activated(s, 'T01');
    s = withDice(s, [3, 3]);
    s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
    t.same(game.activeRoles(s), expect, `a22CounterAfterMiss ${opt}`);
  }
});

t.test('§16.8: a melee attack on infantry and artillery together must target the infantry', async (t) => {
  let s = position('open', [T('regular-cavalry', '5,3'), V('order-of-aquarius', '5,4'), V('order-of-capricorn', '5,4')]);
  s = activated(s, 'T01');
  const targets = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'melee').map((a) => (a as { target: string }).target);
  t.same(targets, ['V01']);
});

t.test('§16.9 modifiers: A1 army bonuses, Lions against cavalry (A5), Brotherhood at range (A6), hills, forest, Line Infantry (A7)', async (t) => {
  const s = position('skirmish', [
    T('regular-infantry', '5,2'),
    T('regular-infantry', '5,2'),
    T('line-infantry', '5,2'),
    V('order-of-aquarius', '5,3'),
    V('lions-of-vesania', '5,3'),
    T('heavy-cavalry', '7,4'),
    V('brotherhood-of-the-sword', '6,5'), // hills
  ]);
  const [t1, , t3, v1, v2, t4, v3] = ['T01', 'T02', 'T03', 'V01', 'V02', 'T04', 'V03'].map((id) => unit(s, id));
  t.equal(defenceValue(s, t1!, v1!, 'melee'), 3 + 3, 'three infantry: +3 Defence against melee (A1 self)');
  t.equal(defenceValue(s, t1!, v1!, 'ranged'), 3, 'no bonus at range');
  t.equal(meleeValue(s, v1!, t1!, false), 3 + 2, 'Vesanian pair: +2 Melee');
  t.equal(meleeValue(s, t3!, v1!, false), 2 + 2, 'Line Infantry adds its Ranged');
  t.equal(defenceValue(s, v2!, t4!, 'melee'), 4 + 1, 'Lions +1 against cavalry');
  t.equal(defenceValue(s, v3!, t3!, 'ranged'), 3 - 1, 'Brotherhood -1 at range');
  t.equal(meleeValue(s, t4!, v3!, true), 4 + 2 - 1, 'charge +2, hills -1');
  const o = position('skirmish', [T('regular-infantry', '5,2'), T('regular-infantry', '5,2'), V('order-of-aquarius', '5,3')], 'Thargaton', { a1StackBonus: 'others' });
  t.equal(defenceValue(o, unit(o, 'T01'), unit(o, 'V01'), 'melee'), 3 + 1, 'A1 "others": a pair gives +1');
});

t.test('§16.1 through the engine: a 7 hits a fort, a double misses the weakest', async (t) => {
  const s0 = position('defence', [
    T('sharpshooters', '5,5'), // Melee 1
    V('lions-of-vesania', '5,6'), // fort: Defence 4 + 2
  ]);
  let s = play(s0, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = withDice(s, [1, 6]);
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(unit(s, 'V01').strength, 2, 'critical success');
  t.same(game.activeRoles(s), ['Vesania'], 'after a critical the fort gives no shelter: the usual choice');
  const weak = position('open', [T('heavy-cavalry', '5,3'), V('order-of-capricorn', '5,4')]);
  let w = play(weak, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  w = withDice(w, [1, 1]);
  w = play(w, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(unit(w, 'V01').strength, 2, 'critical failure');
});

t.test('A24: a fortified unit hit at range without a critical stands without a test', async (t) => {
  let s = position('skirmish', [
    T('sharpshooters', '5,3'),
    V('order-of-aquarius', '5,5'), // bunker: Defence 4
  ]);
  s = activated(s, 'T01');
  s = withDice(s, [6, 3]); // 3 + 3 = 6 > 4, not a 7
  s = play(s, ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }]);
  const before = s.rng.slice();
  s = play(s, ['Vesania', { type: 'stand' }]);
  t.same(s.rng, before, 'no dice rolled');
  t.equal(unit(s, 'V01').hex, '5,5');
});
