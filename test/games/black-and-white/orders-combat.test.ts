/**
 * Orders at combat's timing points (§18.2), each with its command test
 * passed and failed: Motivation, Take Aim and For the Queen! after the
 * declaration; Finish Them and the re-rolls after the roll (A48); Dodge
 * (A40), Defence before a counterattack's roll; Until Death (A46) after it;
 * Withdrawal (A44) before the counterattack; Pursuit (A43) after a retreat;
 * Alexandrus's aiming re-roll. Also: one numbered order a turn, orders only
 * in the army's own turn, and no window where no order is on offer.
 */
import t from 'tap';
import { game, play, unit, withDice } from './fixture-helpers.ts';
import { orderNames, withCommanders } from './orders-helpers.ts';

const cavalryDuel = (player: 'Thargaton' | 'Vesania', c: Parameters<typeof withCommanders>[2], vKind: 'sirens-of-vesania' | 'lions-of-vesania' = 'sirens-of-vesania') =>
  withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
      { army: 'Vesania', kind: vKind, hex: '5,4' },
    ],
    player,
    c,
  );

t.test('Motivation (Baron no. 2): offered after the melee declaration, +1 on a passed test; counted when failed', async (t) => {
  // Lions: Defence 4 + 1 against cavalry = 5. A roll of 3,1 gives 2 + Melee 3 = 5: a miss, a hit with +1.
  let s = cavalryDuel('Thargaton', { Thargaton: 'baron-maximilian' }, 'lions-of-vesania');
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.same(game.legalActions(s, 'Thargaton'), [{ type: 'order', order: 'motivation' }, { type: 'go-on' }], 'the declared attack waits for an order');
  t.same(game.activeRoles(s), ['Thargaton']);
  t.equal(unit(s, 'V01').strength, 3, 'nothing rolled yet');
  const passed = play(withDice(s, [3, 3, 3, 1]), ['Thargaton', { type: 'order', order: 'motivation' }]);
  t.equal(unit(passed, 'V01').strength, 2, 'the +1 made it a hit');
  t.same(passed.orders.issued, [{ army: 'Thargaton', order: 'motivation', unit: 'T01', ok: true }]);
  const failed = play(withDice(s, [6, 6, 3, 1]), ['Thargaton', { type: 'order', order: 'motivation' }]);
  t.equal(unit(failed, 'V01').strength, 3, 'test failed: no bonus, a miss');
  t.same(failed.orders.issued, [{ army: 'Thargaton', order: 'motivation', unit: 'T01', ok: false }], 'counted as issued although it failed');
  const plain = play(withDice(s, [3, 1]), ['Thargaton', { type: 'go-on' }]);
  t.equal(unit(plain, 'V01').strength, 3, 'going on without the order: a miss');
  t.same(plain.orders.issued, []);
});

t.test('one numbered order a turn: after Motivation (even failed) no order window opens again', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '3,3' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '3,4' },
    ],
    'Thargaton',
    { Thargaton: 'baron-maximilian' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  s = play(withDice(s, [6, 6, 2, 2]), ['Thargaton', { type: 'order', order: 'motivation' }]);
  t.equal(unit(s, 'V01').strength, 3, 'the critical failure missed');
  s = play(s, ['Thargaton', { type: 'activate', units: ['T02'] }]);
  s = play(withDice(s, [2, 2]), ['Thargaton', { type: 'melee', unit: 'T02', target: 'V02' }]);
  t.notOk(s.orders.window, 'no window: the turn has had its order');
  t.equal(s.log.some((e) => e.pub.key === 'log.attackMissed'), true, 'the attack was rolled at once');
});

t.test('orders only in the own turn: the Baron offers nothing when Vesania attacks', async (t) => {
  let s = cavalryDuel('Vesania', { Thargaton: 'baron-maximilian', Vesania: 'cardinal-rafael' });
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [5, 4, 2, 3]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'stand' }]);
  t.same(game.legalActions(s, 'Thargaton'), [{ type: 'counterattack' }, { type: 'no-counterattack' }], 'the defender decides as without commanders');
});

t.test('Finish Them (Baron no. 3): after a critical success, 2 steps on a passed test', async (t) => {
  let s = cavalryDuel('Thargaton', { Thargaton: 'baron-maximilian' });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  s = play(withDice(s, [3, 4]), ['Thargaton', { type: 'go-on' }]);
  t.same(orderNames(s, 'Thargaton'), ['finish-them'], 'a window after the critical success');
  t.equal(unit(s, 'V01').strength, 3, 'the result waits');
  t.equal(unit(play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'finish-them' }]), 'V01').strength, 1, 'two steps');
  t.equal(unit(play(withDice(s, [6, 6]), ['Thargaton', { type: 'order', order: 'finish-them' }]), 'V01').strength, 2, 'failed: one step');
  t.equal(unit(play(s, ['Thargaton', { type: 'go-on' }]), 'V01').strength, 2);
});

t.test('Dodge (Baron no. 4, A40): after the counterattack is declared, the cavalry unit takes no damage', async (t) => {
  let s = cavalryDuel('Thargaton', { Thargaton: 'baron-maximilian' });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  s = play(withDice(s, [5, 4, 2, 3]), ['Thargaton', { type: 'go-on' }], ['Vesania', { type: 'stand' }], ['Vesania', { type: 'counterattack' }]);
  t.same(game.activeRoles(s), ['Thargaton'], 'the attacker may issue an order before the counterattack roll');
  t.same(orderNames(s, 'Thargaton'), ['dodge']);
  t.equal(unit(play(withDice(s, [1, 1, 5, 3]), ['Thargaton', { type: 'order', order: 'dodge' }]), 'T01').strength, 3, 'dodged');
  t.equal(unit(play(withDice(s, [6, 6, 5, 3]), ['Thargaton', { type: 'order', order: 'dodge' }]), 'T01').strength, 2, 'failed: hit');
});

t.test('Defence (Alexandrus no. 3): +1 Defence against the counterattack', async (t) => {
  let s = cavalryDuel('Thargaton', { Thargaton: 'lord-alexandrus' });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = play(withDice(s, [5, 4, 2, 3]), ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }], ['Vesania', { type: 'stand' }], ['Vesania', { type: 'counterattack' }]);
  t.same(orderNames(s, 'Thargaton'), ['defence']);
  // 2,1: 1 + Melee 3 = 4 > Defence 3, not > 4.
  t.equal(unit(play(withDice(s, [1, 1, 2, 1]), ['Thargaton', { type: 'order', order: 'defence' }]), 'T01').strength, 3);
  t.equal(unit(play(withDice(s, [6, 6, 2, 1]), ['Thargaton', { type: 'order', order: 'defence' }]), 'T01').strength, 2);
  t.equal(unit(play(withDice(s, [2, 1]), ['Thargaton', { type: 'go-on' }]), 'T01').strength, 2);
});

t.test("Vlad's special order: re-roll a critical failure once, no test, not counted", async (t) => {
  let s = cavalryDuel('Thargaton', { Thargaton: 'vlad-kristofferson' });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.same(orderNames(s, 'Thargaton'), ['for-the-queen'], 'For the Queen! is offered at the declaration (adjacent enemy)');
  s = play(withDice(s, [3, 3]), ['Thargaton', { type: 'go-on' }]);
  t.same(orderNames(s, 'Thargaton'), ['reroll']);
  s = play(withDice(s, [5, 4]), ['Thargaton', { type: 'order', order: 'reroll' }]);
  t.equal(unit(s, 'V01').strength, 2, 'the second roll hit');
  t.same(s.orders.issued, [{ army: 'Thargaton', order: 'reroll', unit: null, ok: true }]);
  t.ok(s.log.some((e) => e.pub.key === 'log.rerolled'));
});

t.test('For the Queen! (Vlad no. 2, A45): the unit is sacrificed, the enemy takes 1 damage and may not counterattack', async (t) => {
  let s = cavalryDuel('Thargaton', { Thargaton: 'vlad-kristofferson' });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  const passed = play(withDice(s, [1, 1, 2, 3]), ['Thargaton', { type: 'order', order: 'for-the-queen' }]);
  t.equal(unit(passed, 'T01').hex, null, 'the unit is removed');
  t.equal(passed.vp.Vesania, 3, 'and Vesania scores it (A49)');
  t.equal(unit(passed, 'V01').strength, 2, 'the enemy took 1 damage');
  t.same(game.activeRoles(passed), ['Vesania']);
  const after = play(passed, ['Vesania', { type: 'stand' }]);
  t.same(after.pending, [], 'the stand test passed, but no counterattack follows');
  const failed = play(withDice(s, [6, 6, 5, 4]), ['Thargaton', { type: 'order', order: 'for-the-queen' }]);
  t.equal(unit(failed, 'T01').hex, '5,3', 'failed: the attack is made as declared');
  t.equal(unit(failed, 'V01').strength, 2);
});

t.test('Take Aim (Anastasia no. 3) +1 on a ranged attack; her special order re-rolls a failed ranged attack (A48)', async (t) => {
  const base = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,4' },
      { army: 'Vesania', kind: 'order-of-virgo', hex: '5,6' },
    ],
    'Vesania',
    { Vesania: 'sister-anastasia' },
  );
  const s = play(base, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
  t.same(orderNames(s, 'Vesania'), ['take-aim']);
  // 2,1: 1 + Ranged 2 = 3, not > Defence 3; +1 hits.
  t.equal(unit(play(withDice(s, [1, 1, 2, 1]), ['Vesania', { type: 'order', order: 'take-aim' }]), 'T01').strength, 2);
  t.equal(unit(play(withDice(s, [6, 6, 2, 1, 2, 1]), ['Vesania', { type: 'order', order: 'take-aim' }], ['Vesania', { type: 'go-on' }]), 'T01').strength, 3, 'failed test: a miss (re-roll declined)');
  const missed = play(withDice(s, [2, 1]), ['Vesania', { type: 'go-on' }]);
  t.same(orderNames(missed, 'Vesania'), ['ranged-reroll'], 'a failed ranged attack may be re-rolled');
  t.equal(unit(play(withDice(missed, [6, 1]), ['Vesania', { type: 'order', order: 'ranged-reroll' }]), 'T01').strength, 2);
  t.equal(unit(play(missed, ['Vesania', { type: 'go-on' }]), 'T01').strength, 3);
});

t.test('Until Death (Anastasia no. 2, A46): about to be eliminated by the counterattack, the unit attacks first', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4', strength: 1 },
    ],
    'Vesania',
    { Vesania: 'sister-anastasia' },
  );
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [5, 4, 2, 3, 5, 3]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'stand' }], ['Thargaton', { type: 'counterattack' }]);
  t.same(orderNames(s, 'Vesania'), ['until-death'], 'offered after the counterattack hit');
  const passed = play(withDice(s, [1, 2, 5, 4]), ['Vesania', { type: 'order', order: 'until-death' }]);
  t.equal(unit(passed, 'T01').strength, 1, 'the last attack hit');
  t.equal(unit(passed, 'V01').hex, null, 'then the unit is removed');
  t.same(passed.pending.map((p) => [p.unit, p.step, p.mayCounter]), [['T01', 'after-hit', false]], 'no counterattack on that attack');
  const failed = play(withDice(s, [6, 6]), ['Vesania', { type: 'order', order: 'until-death' }]);
  t.equal(unit(failed, 'V01').hex, null);
  t.equal(unit(failed, 'T01').strength, 2);
});

t.test('Withdrawal (Dominic no. 4, A44): before the counterattack the attacker retreats and none follows', async (t) => {
  let s = cavalryDuel('Vesania', { Vesania: 'inquisitor-dominic' });
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [5, 4, 2, 3]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'stand' }]);
  t.same(game.activeRoles(s), ['Vesania'], 'before the defender chooses its counterattack');
  t.same(orderNames(s, 'Vesania'), ['withdrawal']);
  const passed = play(withDice(s, [1, 1]), ['Vesania', { type: 'order', order: 'withdrawal' }]);
  t.same(passed.pending.map((p) => [p.army, p.unit, p.step]), [['Vesania', 'V01', 'must-retreat']]);
  const to = game.legalActions(passed, 'Vesania').find((a) => a.type === 'retreat')!;
  const gone = play(passed, ['Vesania', to]);
  t.same(gone.pending, [], 'no counterattack');
  t.not(unit(gone, 'V01').hex, '5,4');
  const failed = play(withDice(s, [6, 6]), ['Vesania', { type: 'order', order: 'withdrawal' }]);
  t.same(game.legalActions(failed, 'Thargaton'), [{ type: 'counterattack' }, { type: 'no-counterattack' }]);
});

t.test('Pursuit (Dominic no. 3, A43): after the enemy retreats, into the vacated hex and attack again', async (t) => {
  let s = cavalryDuel('Vesania', { Vesania: 'inquisitor-dominic' });
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [5, 4]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  s = play(s, ['Thargaton', { type: 'retreat', to: '5,2' }]);
  t.same(orderNames(s, 'Vesania'), ['pursuit']);
  const passed = play(withDice(s, [1, 1, 5, 4]), ['Vesania', { type: 'order', order: 'pursuit' }]);
  t.equal(unit(passed, 'V01').hex, '5,3', 'into the vacated hex');
  t.equal(unit(passed, 'T01').strength, 1, 'and hit again');
  t.same(game.activeRoles(passed), ['Thargaton'], 'the defender decides again');
  const failed = play(withDice(s, [6, 6]), ['Vesania', { type: 'order', order: 'pursuit' }]);
  t.equal(unit(failed, 'V01').hex, '5,4');
});

t.test("Alexandrus's special order: a missed aiming die is re-rolled once (no test, not counted)", async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-artillery', hex: '5,1' },
      { army: 'Thargaton', kind: 'regular-infantry', hex: '8,1' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
    ],
    'Thargaton',
    { Thargaton: 'lord-alexandrus' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  // Distance 3 needs 4 on the aiming die.
  s = play(withDice(s, [2]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]);
  t.same(orderNames(s, 'Thargaton'), ['aiming-reroll']);
  const again = play(withDice(s, [5, 4, 1]), ['Thargaton', { type: 'order', order: 'aiming-reroll' }]);
  t.equal(unit(again, 'V01').strength, 2, 'aimed on the re-roll; 3 + 4 > 3');
  t.equal(again.aimingMarkers.length, 0);
  const declined = play(s, ['Thargaton', { type: 'go-on' }]);
  t.equal(declined.aimingMarkers.length, 1, 'a miss lays an aiming marker');
  // Not counted: Idle Move (a numbered order) is still on offer for the next activation.
  const next = play(withDice(again, [1, 1]), ['Vesania', { type: 'stand' }]);
  t.equal(next.act, null, 'the activation is over');
  t.ok(orderNames(next, 'Thargaton').includes('idle-move'));
});

t.test('without commanders (the default) no order window ever opens', async (t) => {
  let s = cavalryDuel('Thargaton', {});
  s.options.commanders = false;
  s.orders.commander.Thargaton = 'baron-maximilian';
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = play(withDice(s, [3, 4]), ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(s.orders.window, null);
  t.equal(unit(s, 'V01').strength, 2);
});

t.test('Withdrawal (A44) also after a melee attack that settled with no counterattack to come (a miss)', async (t) => {
  let s = cavalryDuel('Vesania', { Vesania: 'inquisitor-dominic' });
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [3, 3]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  t.same(orderNames(s, 'Vesania'), ['withdrawal']);
  const passed = play(withDice(s, [1, 1]), ['Vesania', { type: 'order', order: 'withdrawal' }]);
  t.same(passed.pending.map((p) => [p.army, p.unit, p.step]), [['Vesania', 'V01', 'must-retreat']]);
  const declined = play(s, ['Vesania', { type: 'go-on' }]);
  t.equal(declined.act, null, 'going on: the activation ends');
});

t.test("A48: Anastasia's special order re-rolls artillery fire's missed damage roll; not with a48ReRoll 'not-artillery'", async (t) => {
  const units = [
    { army: 'Vesania' as const, kind: 'order-of-capricorn' as const, hex: '5,8' },
    { army: 'Thargaton' as const, kind: 'regular-cavalry' as const, hex: '5,5' },
  ];
  let s = withCommanders(units, 'Vesania', { Vesania: 'sister-anastasia' });
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = play(withDice(s, [5, 3, 3]), ['Vesania', { type: 'bombard', unit: 'V01', hex: '5,5', ammo: 'normal' }]);
  t.same(orderNames(s, 'Vesania'), ['ranged-reroll'], 'aimed, then the damage roll missed');
  t.ok(unit(s, 'T01').revealed, 'the target is revealed after the roll');
  t.equal(unit(play(withDice(s, [5, 4]), ['Vesania', { type: 'order', order: 'ranged-reroll' }]), 'T01').strength, 2);
  t.equal(unit(play(s, ['Vesania', { type: 'go-on' }]), 'T01').strength, 3);
  let off = withCommanders(units, 'Vesania', { Vesania: 'sister-anastasia' }, { a48ReRoll: 'not-artillery' });
  off = play(off, ['Vesania', { type: 'activate', units: ['V01'] }]);
  off = play(withDice(off, [5, 3, 3]), ['Vesania', { type: 'bombard', unit: 'V01', hex: '5,5', ammo: 'normal' }]);
  t.equal(off.orders.window, null, 'no window');
});

t.test("artillery fire's damage roll is an attack roll too: Finish Them after a critical success costs every unit hit 2 steps", async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-artillery', hex: '5,1' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
    ],
    'Thargaton',
    { Thargaton: 'baron-maximilian' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = play(withDice(s, [5, 3, 4]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]);
  t.same(orderNames(s, 'Thargaton'), ['finish-them']);
  t.equal(unit(play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'finish-them' }]), 'V01').strength, 1);
  t.equal(unit(play(s, ['Thargaton', { type: 'go-on' }]), 'V01').strength, 2);
});

t.test("A40 'after-roll': the Baron's Dodge comes once the counterattack has hit", async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
    ],
    'Thargaton',
    { Thargaton: 'baron-maximilian' },
    { a40BaronDodge: 'after-roll' },
  );
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  s = play(withDice(s, [5, 4, 2, 3, 5, 3]), ['Thargaton', { type: 'go-on' }], ['Vesania', { type: 'stand' }], ['Vesania', { type: 'counterattack' }]);
  t.ok(s.log.some((e) => e.pub.key === 'log.counterHit'), 'no window before the roll: the counterattack was rolled and hit');
  t.same(orderNames(s, 'Thargaton'), ['dodge']);
  t.equal(unit(s, 'T01').strength, 3, 'the loss waits');
  t.equal(unit(play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'dodge' }]), 'T01').strength, 3, 'dodged');
  t.equal(unit(play(withDice(s, [6, 6]), ['Thargaton', { type: 'order', order: 'dodge' }]), 'T01').strength, 2, 'failed');
  t.equal(unit(play(s, ['Thargaton', { type: 'go-on' }]), 'T01').strength, 2);
});

t.test('Pursuit (A43) and §12.2: infantry pursuing into a barbed-wire hex stops there and may not attack after that move', async (t) => {
  let s = withCommanders(
    [
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' },
      { army: 'Vesania', kind: 'order-of-aquarius', hex: '5,4' },
    ],
    'Vesania',
    { Vesania: 'inquisitor-dominic' },
  );
  s.features = { '5,3': ['wire'] };
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  // 5,4: 1 + Melee 3 + 1 (A1) = 5 > Defence 3 + 1 (A1) = 4.
  s = play(withDice(s, [5, 4]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  s = play(s, ['Thargaton', { type: 'retreat', to: '5,2' }]);
  t.same(orderNames(s, 'Vesania'), ['pursuit']);
  s = play(withDice(s, [1, 1, 5, 4]), ['Vesania', { type: 'order', order: 'pursuit' }]);
  t.equal(unit(s, 'V01').hex, '5,3', 'into the vacated wire hex');
  t.equal(unit(s, 'T01').strength, 2, 'no second attack');
  t.same(game.activeRoles(s), ['Vesania'], 'no decision for the defender');
});
