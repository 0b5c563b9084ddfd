/**
 * Orders of the turn and the activation (§18.2), passed and failed: Idle
 * Move and Forced March (A16), Reconnaissance and Rafael's look (for that
 * seat only, A54), Surge of Strength, Recovery (A42), Dominic's second
 * activation (A41, once a turn, not counted), Battle Frenzy (A31),
 * Paralysis and Fear (the enemy must fail, A47), the Baron's Discipline;
 * undo stops at an order's command test.
 */
import t from 'tap';
import { game, play, unit, withDice } from './fixture-helpers.ts';
import { orderNames, ordersOf, withCommanders } from './orders-helpers.ts';
import { discipline } from '../../../src/games/black-and-white/command-test.ts';

t.test('Idle Move (Alexandrus no. 4, A16): before the activation, one hex not closer to the enemy row; then the activation', async (t) => {
  const s = withCommanders([{ army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' }, { army: 'Vesania', kind: 'sirens-of-vesania', hex: '9,8' }], 'Thargaton', { Thargaton: 'lord-alexandrus' });
  const to = ordersOf(s, 'Thargaton').map((a) => (a.type === 'order' ? a.to : ''));
  t.same(to.sort(), ['4,2', '4,3', '5,2', '6,2', '6,3'].sort(), 'back or sideways, never towards row 8');
  const passed = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'idle-move', unit: 'T01', to: '5,2' }]);
  t.equal(unit(passed, 'T01').hex, '5,2');
  t.same(passed.act?.units, ['T01'], 'its activation begins');
  t.equal(passed.act?.moved, 0, 'the idle hex is not part of its movement');
  t.equal(passed.markersLeft, 2);
  const failed = play(withDice(s, [6, 6]), ['Thargaton', { type: 'order', order: 'idle-move', unit: 'T01', to: '5,2' }]);
  t.equal(unit(failed, 'T01').hex, '5,3', 'failed: it stays');
  t.same(failed.act?.units, ['T01']);
  t.same(failed.orders.issued, [{ army: 'Thargaton', order: 'idle-move', unit: 'T01', ok: false }]);
});

t.test('Forced March (Alexandrus no. 2, A16): one more hex after the move, no attack; undo stops at its test', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,1' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '4,5' },
    ],
    'Thargaton',
    { Thargaton: 'lord-alexandrus' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }], ['Thargaton', { type: 'move', to: '5,3' }]);
  t.ok(s.act, 'the activation stays open while the order is on offer');
  t.same(orderNames(s, 'Thargaton'), ['forced-march']);
  t.ok(game.legalActions(s, 'Thargaton').some((a) => a.type === 'undo'), 'plain moves can be undone');
  const passed = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'forced-march' }]);
  t.notOk(game.legalActions(passed, 'Thargaton').some((a) => a.type === 'undo'), 'no undo across the command test');
  t.ok(game.legalActions(passed, 'Thargaton').some((a) => a.type === 'move' && a.to === '5,4'), 'a third hex');
  const moved = play(passed, ['Thargaton', { type: 'move', to: '5,4' }]);
  t.notOk(game.legalActions(moved, 'Thargaton').some((a) => a.type === 'melee'), 'no attack afterwards, although next to an enemy');
  const failed = play(withDice(s, [6, 6]), ['Thargaton', { type: 'order', order: 'forced-march' }]);
  t.equal(failed.act, null, 'failed: nothing left, the activation ended');
});

t.test('Reconnaissance (Vlad no. 3): the kind of an enemy 2–3 hexes away in LOS, to that seat only', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,2' },
      { army: 'Vesania', kind: 'lions-of-vesania', hex: '5,4' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,8' },
    ],
    'Thargaton',
    { Thargaton: 'vlad-kristofferson' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(ordersOf(s, 'Thargaton'), [{ type: 'order', order: 'reconnaissance', unit: 'T01', target: 'V01' }], 'only the unit 2–3 hexes away');
  const passed = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'reconnaissance', unit: 'T01', target: 'V01' }]);
  t.notOk(unit(passed, 'V01').revealed, 'not revealed to the table');
  const mine = game.view(passed, 'Thargaton') as { orders: { learned: Record<string, string> } };
  const theirs = game.view(passed, 'Vesania') as { orders: { learned: Record<string, string> } };
  const table = game.view(passed, null) as { orders: { learned: Record<string, string> } };
  t.same(mine.orders.learned, { V01: 'lions-of-vesania' }, 'Thargaton learns the kind');
  t.same(theirs.orders.learned, {});
  t.same(table.orders.learned, {});
  t.notOk(JSON.stringify({ ...(game.view(passed, null) as object), kinds: undefined }).includes('"lions-of-vesania"'), "a spectator's view does not name it");
  t.notOk(JSON.stringify({ ...(game.view(passed, 'Thargaton') as object), kinds: undefined, orders: undefined }).includes('"lions-of-vesania"'), "Thargaton's units list does not either");
  const line = passed.log.find((e) => e.pub.key === 'log.lookedAt')!;
  t.equal(game.logMessage!(line, 'Thargaton')!.key, 'log.learned', "Thargaton's log names the kind");
  t.equal(game.logMessage!(line, 'Vesania')!.key, 'log.lookedAt');
  t.notOk(JSON.stringify(game.logMessage!(line, 'Vesania')).includes('lions'), "Vesania's log does not");
  const failed = play(withDice(s, [6, 6]), ['Thargaton', { type: 'order', order: 'reconnaissance', unit: 'T01', target: 'V01' }]);
  t.same((game.view(failed, 'Thargaton') as { orders: { learned: object } }).orders.learned, {});
});

t.test("Rafael's special order: look at an enemy in the ZOC of an activated unit, no test, any number of times", async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' },
      { army: 'Thargaton', kind: 'sappers', hex: '5,5' },
    ],
    'Vesania',
    { Vesania: 'cardinal-rafael' },
  );
  t.same(orderNames(s, 'Vesania'), [], 'not before the unit is activated');
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  t.same(
    ordersOf(s, 'Vesania').filter((a) => a.type === 'order' && a.order === 'look'),
    [
      { type: 'order', order: 'look', unit: 'V01', target: 'T01' },
      { type: 'order', order: 'look', unit: 'V01', target: 'T02' },
    ],
  );
  s = play(s, ['Vesania', { type: 'order', order: 'look', unit: 'V01', target: 'T01' }], ['Vesania', { type: 'order', order: 'look', unit: 'V01', target: 'T02' }]);
  t.same((game.view(s, 'Vesania') as { orders: { learned: object } }).orders.learned, { T01: 'regular-infantry', T02: 'sappers' });
  t.same((game.view(s, 'Thargaton') as { orders: { learned: object } }).orders.learned, {});
  t.ok(orderNames(s, 'Vesania').includes('battle-frenzy') || orderNames(s, 'Vesania').includes('paralysis'), 'special orders are not counted');
});

t.test('Surge of Strength (Vlad no. 4): melee after a full move into an enemy ZOC', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,1' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
    ],
    'Thargaton',
    { Thargaton: 'vlad-kristofferson' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }], ['Thargaton', { type: 'move', to: '5,3' }]);
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'melee'), 'a full move forbids the attack');
  t.same(orderNames(s, 'Thargaton'), ['surge-of-strength']);
  const passed = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'surge-of-strength', unit: 'T01' }]);
  t.ok(game.legalActions(passed, 'Thargaton').some((a) => a.type === 'melee'));
  const failed = play(withDice(s, [6, 6]), ['Thargaton', { type: 'order', order: 'surge-of-strength', unit: 'T01' }]);
  t.equal(failed.act, null, 'failed: no attack, the activation ended');
});

t.test('Recovery (Dominic no. 2, A42): a whole activation, +1 strength up to the maximum', async (t) => {
  const s = withCommanders(
    [
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,6', strength: 2 },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '3,6' },
    ],
    'Vesania',
    { Vesania: 'inquisitor-dominic' },
  );
  t.same(ordersOf(s, 'Vesania'), [{ type: 'order', order: 'recovery', unit: 'V01' }], 'only a damaged unit not yet activated');
  const passed = play(withDice(s, [1, 1]), ['Vesania', { type: 'order', order: 'recovery', unit: 'V01' }]);
  t.equal(unit(passed, 'V01').strength, 3);
  t.equal(passed.markersLeft, 2, 'a marker spent');
  t.ok(passed.activated.includes('V01'));
  t.notOk(game.legalActions(passed, 'Vesania').some((a) => a.type === 'activate' && a.units.includes('V01')), 'activated');
  const failed = play(withDice(s, [6, 6]), ['Vesania', { type: 'order', order: 'recovery', unit: 'V01' }]);
  t.equal(unit(failed, 'V01').strength, 2);
  t.equal(failed.markersLeft, 2);
});

t.test("Dominic's special order (A41): a second activation of one unit, once a turn, not counted", async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'order-of-virgo', hex: '5,6' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '3,6', strength: 2 },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,4' },
    ],
    'Vesania',
    { Vesania: 'inquisitor-dominic' },
  );
  const first = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  // A41: the double shot is a special ability, usable in one of the two activations only.
  s = play(withDice(first, [2, 2, 2, 2]), ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }], ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
  t.equal(s.act, null, 'both shots missed; the activation is over');
  t.ok(ordersOf(s, 'Vesania').some((a) => a.type === 'order' && a.order === 'second-activation' && a.unit === 'V01'));
  s = play(s, ['Vesania', { type: 'order', order: 'second-activation', unit: 'V01' }]);
  t.same(s.act?.units, ['V01']);
  t.equal(s.markersLeft, 1, 'another marker');
  s = play(withDice(s, [2, 2]), ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
  t.equal(s.act, null, 'no second shot in the second activation');
  t.notOk(orderNames(s, 'Vesania').includes('second-activation'), 'once a turn');
  t.ok(orderNames(s, 'Vesania').includes('recovery'), 'not counted toward the one-order limit');
  // Its first activation used no ability: the second may.
  let plain = play(first, ['Vesania', { type: 'end-activation' }], ['Vesania', { type: 'order', order: 'second-activation', unit: 'V01' }]);
  plain = play(withDice(plain, [2, 2]), ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
  t.ok(game.legalActions(plain, 'Vesania').some((a) => a.type === 'fire'), 'the second shot is there');
});

t.test('Battle Frenzy (Rafael no. 2, A31): two melee attacks in one activation', async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'order-of-aquarius', hex: '5,4' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,5' },
    ],
    'Vesania',
    { Vesania: 'cardinal-rafael' },
  );
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  t.ok(orderNames(s, 'Vesania').includes('battle-frenzy'));
  const passed = play(withDice(s, [1, 1, 2, 2]), ['Vesania', { type: 'order', order: 'battle-frenzy', unit: 'V01' }], ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  t.ok(game.legalActions(passed, 'Vesania').some((a) => a.type === 'melee' && a.target === 'T02'), 'a second melee attack, at another unit');
  const twice = play(withDice(passed, [2, 2]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T02' }]);
  t.notOk(game.legalActions(twice, 'Vesania').some((a) => a.type === 'melee'), 'not a third');
  const failed = play(withDice(s, [6, 6, 2, 2]), ['Vesania', { type: 'order', order: 'battle-frenzy', unit: 'V01' }], ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  t.notOk(game.legalActions(failed, 'Vesania').some((a) => a.type === 'melee'), 'failed: one attack');
});

t.test('Dodge (Rafael no. 3): the infantry unit takes no damage from the counterattack', async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'order-of-aquarius', hex: '5,4' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
    ],
    'Vesania',
    { Vesania: 'cardinal-rafael' },
  );
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [5, 4, 2, 3]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'stand' }], ['Thargaton', { type: 'counterattack' }]);
  t.same(orderNames(s, 'Vesania'), ['dodge']);
  t.equal(unit(play(withDice(s, [1, 1, 5, 3]), ['Vesania', { type: 'order', order: 'dodge' }]), 'V01').strength, 3);
  t.equal(unit(play(withDice(s, [6, 6, 5, 3]), ['Vesania', { type: 'order', order: 'dodge' }]), 'V01').strength, 2);
});

t.test('Paralysis (Rafael no. 4, A47): the ordering unit passes and the enemy fails; it sits out its next turn only', async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
    ],
    'Vesania',
    { Vesania: 'cardinal-rafael' },
  );
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  t.ok(ordersOf(s, 'Vesania').some((a) => a.type === 'order' && a.order === 'paralysis' && a.target === 'T01'), 'at the beginning of the activation');
  const resisted = play(withDice(s, [1, 1, 1, 1]), ['Vesania', { type: 'order', order: 'paralysis', unit: 'V01', target: 'T01' }]);
  t.same(resisted.orders.paralysed, [], 'the enemy passed its test: no effect');
  t.same(resisted.orders.issued, [{ army: 'Vesania', order: 'paralysis', unit: 'V01', ok: false }], 'but the order was issued');
  let p = play(withDice(s, [1, 1, 6, 6]), ['Vesania', { type: 'order', order: 'paralysis', unit: 'V01', target: 'T01' }]);
  t.same(p.orders.paralysed, [{ unit: 'T01', turn: 2 }]);
  t.same((game.view(p, 'Thargaton') as { orders: { paralysed: unknown[] } }).orders.paralysed, [{ unit: 'T01', turn: 2 }], 'public');
  p = play(p, ['Vesania', { type: 'end-activation' }], ['Vesania', { type: 'end-turn' }]);
  t.equal(p.player, 'Thargaton');
  t.notOk(game.legalActions(p, 'Thargaton').some((a) => a.type === 'activate'), 'T01 may not be activated');
  p = play(p, ['Thargaton', { type: 'end-turn' }], ['Vesania', { type: 'end-turn' }]);
  t.ok(game.legalActions(p, 'Thargaton').some((a) => a.type === 'activate'), 'in the turn after, it may');
});

t.test('Fear (Anastasia no. 4, A47): the enemy fails its test and retreats from the ordering unit; also from a fort with the default', async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' },
    ],
    'Vesania',
    { Vesania: 'sister-anastasia' },
  );
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  const feared = play(withDice(s, [1, 1, 6, 6]), ['Vesania', { type: 'order', order: 'fear', unit: 'V01', target: 'T01' }]);
  t.same(game.activeRoles(feared), ['Thargaton']);
  const choices = game.legalActions(feared, 'Thargaton');
  t.ok(choices.length > 0 && choices.every((a) => a.type === 'retreat'), 'it must retreat');
  const resisted = play(withDice(s, [1, 1, 1, 1]), ['Vesania', { type: 'order', order: 'fear', unit: 'V01', target: 'T01' }]);
  t.same(resisted.pending, []);
  const fortified = withCommanders(
    [
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' },
    ],
    'Vesania',
    { Vesania: 'sister-anastasia' },
    { a47FearFortified: 'no' },
  );
  fortified.features = { '5,3': ['trench'] };
  t.notOk(orderNames(play(fortified, ['Vesania', { type: 'activate', units: ['V01'] }]), 'Vesania').includes('fear'), "a47FearFortified 'no': not at a unit in a trench");
});

t.test("Baron's special order: +1 Discipline for the units activated this turn, in his own turn only", async (t) => {
  let s = withCommanders([{ army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' }], 'Thargaton', { Thargaton: 'baron-maximilian' });
  t.equal(discipline(s, unit(s, 'T01')), 7, 'not yet activated');
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.equal(discipline(s, unit(s, 'T01')), 8);
  s = play(s, ['Thargaton', { type: 'end-activation' }], ['Thargaton', { type: 'end-turn' }]);
  t.equal(discipline(s, unit(s, 'T01')), 7, "not in the opponent's turn");
});

t.test('A19: a detachment receiving an order tests with its lowest Discipline', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,1' },
      { army: 'Thargaton', kind: 'sharpshooters', hex: '5,1' },
    ],
    'Thargaton',
    { Thargaton: 'lord-alexandrus' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01', 'T02'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
  // Regular Infantry 7 + 2 (A1, two infantry) = 9; Sharpshooters 8 + 2 = 10.
  t.same(play(withDice(s, [5, 5]), ['Thargaton', { type: 'order', order: 'forced-march' }]).orders.issued[0]?.ok, false, '10 fails on the lowest, 9');
  t.same(play(withDice(s, [4, 5]), ['Thargaton', { type: 'order', order: 'forced-march' }]).orders.issued[0]?.ok, true);
});

t.test("A54 'hide': what a seat looked at is forgotten at the end of the turn, like revealed kinds", async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,2' },
      { army: 'Vesania', kind: 'lions-of-vesania', hex: '5,4' },
    ],
    'Thargaton',
    { Thargaton: 'vlad-kristofferson' },
    { a54Revealed: 'hide' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'reconnaissance', unit: 'T01', target: 'V01' }]);
  t.same((game.view(s, 'Thargaton') as { orders: { learned: object } }).orders.learned, { V01: 'lions-of-vesania' });
  s = play(s, ['Thargaton', { type: 'end-activation' }], ['Thargaton', { type: 'end-turn' }]);
  t.same((game.view(s, 'Thargaton') as { orders: { learned: object } }).orders.learned, {});
});

t.test('§16.8.3: an order to a hidden shooter names its hex, not its block', async (t) => {
  let s = withCommanders(
    [
      { army: 'Vesania', kind: 'order-of-virgo', hex: '5,6' },
      { army: 'Vesania', kind: 'order-of-virgo', hex: '5,6' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,4' },
    ],
    'Vesania',
    { Vesania: 'sister-anastasia' },
  );
  s = play(s, ['Vesania', { type: 'activate', units: ['V02'] }], ['Vesania', { type: 'fire', unit: 'V02', target: 'T01' }]);
  s = play(withDice(s, [1, 1, 2, 1]), ['Vesania', { type: 'order', order: 'take-aim' }]);
  t.same(s.orders.issued, [{ army: 'Vesania', order: 'take-aim', unit: null, ok: true }]);
  for (const e of s.log) t.notOk(JSON.stringify(game.logMessage!(e, 'Thargaton')).includes('V02'), `Thargaton's line ${e.pub.key} does not name V02`);
  const v = game.view(s, 'Thargaton') as { activated: string[]; orders: { issued: { unit: string | null }[] } };
  t.notOk(v.orders.issued.some((o) => o.unit === 'V02') || v.activated.includes('V02'), "Thargaton's view does not name it");
});

t.test("A41: Dominic's second activation may be a charge if the first activation used no special ability, not after a charge", async (t) => {
  const units = [
    { army: 'Vesania' as const, kind: 'iron-order' as const, hex: '5,7' },
    { army: 'Thargaton' as const, kind: 'regular-cavalry' as const, hex: '5,3' },
  ];
  let s = withCommanders(units, 'Vesania', { Vesania: 'inquisitor-dominic' });
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'end-activation' }]);
  t.ok(ordersOf(s, 'Vesania').some((a) => a.type === 'order' && a.order === 'second-activation' && a.to === '5,4'), 'a charge is on offer');
  s = play(s, ['Vesania', { type: 'order', order: 'second-activation', unit: 'V01', to: '5,4' }]);
  t.equal(unit(s, 'V01').hex, '5,4');
  t.ok(s.act?.charge, 'the charge bonus applies to its attack');
  t.ok(game.legalActions(s, 'Vesania').some((a) => a.type === 'melee' && a.target === 'T01'));
  let c = withCommanders(units, 'Vesania', { Vesania: 'inquisitor-dominic' });
  c = play(c, ['Vesania', { type: 'charge', unit: 'V01', to: '5,4' }]);
  c = play(withDice(c, [2, 2]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  t.same(orderNames(c, 'Vesania'), ['withdrawal'], 'the missed attack may be followed by Withdrawal');
  c = play(c, ['Vesania', { type: 'go-on' }]);
  t.equal(c.act, null);
  t.same(
    ordersOf(c, 'Vesania').filter((a) => a.type === 'order' && a.order === 'second-activation'),
    [{ type: 'order', order: 'second-activation', unit: 'V01' }],
    'after a charge, only a plain second activation',
  );
});

t.test('Paralysis (Rafael no. 4): a paralysed Regular Infantry may not join the group move either (it would count as activated, A2)', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '2,1' },
      { army: 'Thargaton', kind: 'regular-infantry', hex: '4,1' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,8' },
    ],
    'Thargaton',
    { Vesania: 'cardinal-rafael' },
  );
  s.orders.paralysed = [{ unit: 'T02', turn: s.turn }];
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'activate' && a.units.includes('T02')), 'T02 may not be activated');
  s = play(s, ['Thargaton', { type: 'special', unit: 'T01', what: 'group-move' }]);
  const movers = new Set(game.legalActions(s, 'Thargaton').filter((a) => a.type === 'move-unit').map((a) => (a as { unit: string }).unit));
  t.same([...movers], ['T01'], 'only the one not paralysed moves');
});
