/**
 * The rule options that turn §22's readings A1 (Vesanian counterattacks), A3,
 * A4, A5, A6, A7, A9, A10, A11, A18 (entering a ZOC), A20, A21, A23, A30,
 * A32, A33 and A35 into choices (and the others below, A25's markers' life,
 * A28's counterattack target, A8, A12, A14, A15, A16, A19, A26, A29, A44, A46, A50 and A55 among
 * them): each shown with its default (the proposed reading) and its other
 * value.
 */
import t from 'tap';
import { bombardTargets, helpingMarkers } from '../../../src/games/black-and-white/artillery.ts';
import { Formatter, loadCatalogues } from '../../../src/i18n/index.ts';
import { gridOf, lineOfSight } from '../../../src/games/black-and-white/board.ts';
import { canCounter, defenceValue, meleeValue } from '../../../src/games/black-and-white/combat.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { activated, game, play, position, T, unit, V, withDice, type Placing } from './fixture-helpers.ts';
import { withCommanders } from './orders-helpers.ts';

const formatter = new Formatter(loadCatalogues(game.messagesDir!));

const targetsOf = (s: BWState, type: string): string[] =>
  game.legalActions(s, s.player!).filter((a) => a.type === type).map((a) => (a as { target?: string; hex?: string }).target ?? (a as { hex: string }).hex);

t.test('A3 a3SecondShot: the second shot at the same target only, or at any legal target', async (t) => {
  const units: Placing[] = [V('order-of-virgo', '5,6'), T('regular-cavalry', '5,4'), T('regular-cavalry', '3,5')];
  for (const [value, expected] of [['same', ['T01']], ['any', ['T01', 'T02']]] as const) {
    let s = position('open', units, 'Vesania', { a3SecondShot: value });
    s = activated(s, 'V01');
    t.same(targetsOf(s, 'fire'), ['T01', 'T02'], 'two targets for the first shot');
    s = withDice(s, [2, 2]);
    s = play(s, ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
    t.same(targetsOf(s, 'fire'), expected, `${value}: the second shot's targets`);
  }
});

t.test('A4 a4Sharpshooters: stationary at range 2 or 3, or at 3 only; 2 after moving either way', async (t) => {
  for (const [value, at2] of [['2-or-3', ['V01']], ['3-only', []]] as const) {
    const near = play(position('open', [T('sharpshooters', '5,1'), V('sirens-of-vesania', '5,3')], 'Thargaton', { a4Sharpshooters: value }), ['Thargaton', { type: 'activate', units: ['T01'] }]);
    t.same(targetsOf(near, 'fire'), at2, `${value}: range 2 when stationary`);
    const far = play(position('open', [T('sharpshooters', '5,1'), V('sirens-of-vesania', '5,4')], 'Thargaton', { a4Sharpshooters: value }), ['Thargaton', { type: 'activate', units: ['T01'] }]);
    t.same(targetsOf(far, 'fire'), ['V01'], `${value}: range 3 when stationary`);
    t.same(targetsOf(play(far, ['Thargaton', { type: 'move', to: '5,2' }]), 'fire'), ['V01'], `${value}: range 2 after moving`);
  }
});

t.test('A6 a6Brotherhood: −1 Defence against artillery fire and the Scorpion too, or only against other ranged attacks', async (t) => {
  const units: Placing[] = [T('brotherhood-of-the-sword', '5,4'), V('order-of-capricorn', '5,7'), V('order-of-the-scorpion', '5,6'), V('order-of-virgo', '3,5')];
  for (const [value, vsArtillery] of [['all-ranged', 2], ['not-artillery', 3]] as const) {
    const s = position('open', units, 'Vesania', { a6Brotherhood: value });
    const bro = unit(s, 'T01');
    t.equal(defenceValue(s, bro, unit(s, 'V01'), 'artillery'), vsArtillery, `${value}: artillery fire`);
    t.equal(defenceValue(s, bro, unit(s, 'V02'), 'ranged'), vsArtillery, `${value}: the Scorpion`);
    t.equal(defenceValue(s, bro, unit(s, 'V03'), 'ranged'), 2, `${value}: an infantry ranged attack`);
    t.equal(defenceValue(s, bro, unit(s, 'V03'), 'melee'), 3 + 1, `${value}: not in melee (army bonus +1)`);
  }
});

t.test('A7 a7LineInfantry: Ranged added to melee attacks and counterattacks, or to melee attacks only', async (t) => {
  for (const [value, counter] of [['melee-and-counter', 4], ['melee-only', 2]] as const) {
    const s = position('open', [T('line-infantry', '5,3'), V('sirens-of-vesania', '5,4')], 'Thargaton', { a7LineInfantry: value });
    t.equal(meleeValue(s, unit(s, 'T01'), unit(s, 'V01'), false), 4, `${value}: melee 2 + ranged 2`);
    t.equal(meleeValue(s, unit(s, 'T01'), unit(s, 'V01'), false, true), counter, `${value}: counterattack`);
  }
  // Through the engine: hit by a 7, the Line Infantry stands (2+3) and counterattacks rolling 3,2:
  // 1 + 4 > Defence 3 hits (the default), 1 + 2 does not (melee-only).
  for (const [value, after] of [['melee-and-counter', 2], ['melee-only', 3]] as const) {
    let s = position('open', [V('sirens-of-vesania', '5,4'), T('line-infantry', '5,3')], 'Vesania', { a7LineInfantry: value });
    s = activated(s, 'V01');
    s = withDice(s, [3, 4, 2, 3, 3, 2]);
    s = play(s, ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'stand' }], ['Thargaton', { type: 'counterattack' }]);
    t.equal(unit(s, 'V01').strength, after, `${value}: the counterattack's result`);
  }
});

t.test('A9 a9ScorpionZoc: the Scorpion fires from an enemy ZOC, or is barred', async (t) => {
  for (const [value, expected] of [['exempt', ['T01']], ['barred', []]] as const) {
    let s = position('open', [V('order-of-the-scorpion', '5,5'), T('regular-cavalry', '5,4')], 'Vesania', { a9ScorpionZoc: value });
    s = activated(s, 'V01');
    t.same(targetsOf(s, 'fire'), expected, value);
  }
});

t.test('A10 a10ArtilleryCounter: artillery with a Melee value may counterattack, or never', async (t) => {
  for (const [value, expected] of [['melee-value', true], ['never', false]] as const) {
    const s = position('open', [T('special-artillery', '5,3'), T('regular-artillery', '4,3'), V('sirens-of-vesania', '5,4')], 'Vesania', { a10ArtilleryCounter: value });
    t.equal(canCounter(s, unit(s, 'T01'), unit(s, 'V01')), expected, `${value}: Special Artillery (Melee 1)`);
    t.notOk(canCounter(s, unit(s, 'T02'), unit(s, 'V01')), `${value}: Regular Artillery has no Melee value`);
  }
});

t.test('A11 a11Forest: entering a forest ends the move, or only a start in forest limits the move', async (t) => {
  // skirmish terrain: forest 3,4 and 4,4.
  for (const [value, goesOn] of [['entering-ends', false], ['start-only', true]] as const) {
    let s = position('skirmish', [T('regular-infantry', '4,3')], 'Thargaton', { a11Forest: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,4' }]);
    t.equal(targetsOf(s, 'move').length > 0, goesOn, `${value}: after entering the forest`);
    let f = position('skirmish', [T('regular-cavalry', '4,4')], 'Thargaton', { a11Forest: value });
    f = play(f, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,5' }]);
    t.same(targetsOf(f, 'move'), [], `${value}: a start in forest allows one hex`);
  }
});

t.test('A20 a20Hills: two units on hills see over hills between them, or hills always block', async (t) => {
  for (const [value, sees] of [['see-over', true], ['block', false]] as const) {
    const s = position('open', [], 'Thargaton', { a20Hills: value });
    s.scenario = { ...s.scenario, terrain: { '5,2': 'hills', '5,3': 'hills', '5,5': 'hills' } };
    t.equal(lineOfSight(s, '5,2', '5,5'), sees, value);
    s.scenario = { ...s.scenario, terrain: { '5,3': 'hills' } };
    t.notOk(lineOfSight(s, '5,2', '5,5'), `${value}: from the plain, a hill blocks`);
  }
});

t.test('A33 a33SmokeArtillery: artillery fire and the Scorpion may target a unit in smoke, or not', async (t) => {
  for (const [value, may] of [['may-target', true], ['may-not', false]] as const) {
    const s = position('open', [V('order-of-capricorn', '5,7'), V('order-of-the-scorpion', '3,6'), T('regular-infantry', '5,4')], 'Vesania', { a33SmokeArtillery: value }, { '5,4': ['smoke'] });
    t.equal(bombardTargets(s, unit(s, 'V01')).some((b) => b.hex === '5,4'), may, `${value}: artillery fire`);
    const sc = play(s, ['Vesania', { type: 'activate', units: ['V02'] }]);
    t.equal(targetsOf(sc, 'fire').includes('T01'), may, `${value}: the Scorpion`);
  }
});

t.test('A35 a35Trench: all modifiers add up, or a trench adds nothing on terrain that gives a Defence bonus', async (t) => {
  const units: Placing[] = [
    T('line-infantry', '5,5'), // skirmish: bunker
    T('line-infantry', '5,3'),
    V('order-of-virgo', '5,7'),
  ];
  for (const [value, inBunker] of [['cumulative', 5], ['not-on-terrain', 4]] as const) {
    const s = position('skirmish', units, 'Vesania', { a35Trench: value }, { '5,5': ['trench'], '5,3': ['trench'] });
    t.equal(defenceValue(s, unit(s, 'T01'), unit(s, 'V01'), 'ranged'), inBunker, `${value}: bunker +1 and trench`);
    t.equal(defenceValue(s, unit(s, 'T02'), unit(s, 'V01'), 'ranged'), 4, `${value}: a trench in the open counts`);
  }
});

t.test('A1 a1VesaniaCounter: the Vesanian infantry bonus on counterattacks too, or on melee attacks only', async (t) => {
  for (const [value, counter] of [['yes', 4], ['no', 3]] as const) {
    const s = position('open', [V('order-of-aquarius', '5,4'), T('regular-cavalry', '5,3')], 'Thargaton', { a1VesaniaCounter: value });
    t.equal(meleeValue(s, unit(s, 'V01'), unit(s, 'T01'), false), 4, `${value}: melee 3 + 1`);
    t.equal(meleeValue(s, unit(s, 'V01'), unit(s, 'T01'), false, true), counter, `${value}: counterattack`);
  }
});

t.test('A5 a5Lions: the Lions\' bonus against every cavalry attack, or against cavalry melee only', async (t) => {
  for (const [value, ranged] of [['any-attack', 5], ['melee', 4]] as const) {
    const s = position('open', [V('lions-of-vesania', '5,4'), T('regular-cavalry', '5,2')], 'Thargaton', { a5Lions: value });
    const lions = unit(s, 'V01');
    const cav = { ...unit(s, 'T01'), kind: 'light-cavalry' as const };
    t.equal(defenceValue(s, lions, cav, 'ranged'), ranged, `${value}: a cavalry ranged attack`);
    t.equal(defenceValue(s, lions, unit(s, 'T01'), 'melee'), 4 + 1, `${value}: cavalry melee`);
    t.equal(defenceValue(s, lions, unit(s, 'T01'), 'counter'), 4 + 1, `${value}: cavalry counterattack`);
  }
});

t.test('A18 a18EnterZoc: entering an enemy ZOC does not stop the move, or ends it', async (t) => {
  for (const [value, goesOn] of [['goes-on', true], ['stops', false]] as const) {
    let s = position('open', [T('regular-cavalry', '5,2'), V('sirens-of-vesania', '5,4')], 'Thargaton', { a18EnterZoc: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,3' }]);
    t.equal(targetsOf(s, 'move').length > 0, goesOn, `${value}: more moves`);
    t.same(targetsOf(s, 'melee'), ['V01'], `${value}: it may attack`);
  }
});

t.test('A20 a20HillPenalty: −1 melee whenever the defender is on a hill, or not from a hill', async (t) => {
  for (const [value, fromHill] of [['always', 2], ['not-from-hill', 3]] as const) {
    const s = position('open', [T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')], 'Thargaton', { a20HillPenalty: value });
    s.scenario = { ...s.scenario, terrain: { '5,4': 'hills' } };
    t.equal(meleeValue(s, unit(s, 'T01'), unit(s, 'V01'), false), 2, `${value}: from the plain`);
    s.scenario = { ...s.scenario, terrain: { '5,3': 'hills', '5,4': 'hills' } };
    t.equal(meleeValue(s, unit(s, 'T01'), unit(s, 'V01'), false), fromHill, `${value}: from a hill`);
  }
});

t.test('A21 a21Edge: a line along an edge is blocked only if both hexes block, or if either does', async (t) => {
  for (const [value, oneBlocks] of [['both', true], ['either', false]] as const) {
    const s = position('open', [], 'Thargaton', { a21Edge: value });
    // 2,2 → 4,2 runs along the edge between 3,2 and 3,3.
    s.scenario = { ...s.scenario, terrain: { '3,2': 'forest' } };
    t.equal(lineOfSight(s, '2,2', '4,2'), oneBlocks, `${value}: one side blocks`);
    s.scenario = { ...s.scenario, terrain: { '3,2': 'forest', '3,3': 'hills' } };
    t.notOk(lineOfSight(s, '2,2', '4,2'), `${value}: both sides block`);
    s.scenario = { ...s.scenario, terrain: {} };
    t.ok(lineOfSight(s, '1,1', '3,1'), `${value}: along the border, the board hex is clear`);
  }
});

t.test('A23 a23RangedRetreat: after a ranged hit, retreat farther from the attacker, or only not next to it', async (t) => {
  for (const value of ['farther', 'not-adjacent'] as const) {
    let s = position('open', [V('order-of-virgo', '5,6'), T('regular-cavalry', '5,4')], 'Vesania', { a23RangedRetreat: value });
    s = activated(s, 'V01');
    s = withDice(s, [3, 4]);
    s = play(s, ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
    const g = gridOf(s);
    const to = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'retreat').map((a) => g.distance((a as { to: string }).to, '5,6'));
    t.ok(to.length > 0, `${value}: somewhere to go`);
    if (value === 'farther') t.ok(to.every((d) => d === 3), 'farther: every hex at 3');
    else t.ok(to.includes(2) && to.every((d) => d >= 2), 'not-adjacent: hexes at 2 too, none next to the attacker');
  }
});

t.test('A30 a30Shield: infantry shields artillery in melee only, or against ranged attacks too', async (t) => {
  for (const [value, expected] of [['melee', ['T01', 'T02']], ['melee-and-ranged', ['T02']]] as const) {
    let s = position('open', [T('regular-artillery', '5,4'), T('regular-infantry', '5,4'), V('order-of-virgo', '5,6')], 'Vesania', { a30Shield: value });
    s = activated(s, 'V01');
    t.same(targetsOf(s, 'fire'), expected, value);
  }
});

t.test('A32 a32FireEscape: a unit passing the test when fire lands may leave or stay, or must leave', async (t) => {
  for (const [value, mayStay] of [['may-leave', true], ['must-leave', false]] as const) {
    let s = position('open', [T('special-artillery', '5,1'), V('order-of-aquarius', '5,3')], 'Thargaton', { a32FireEscape: value });
    s = activated(s, 'T01');
    // aim 3; V01 tests 1+1 and passes.
    s = withDice(s, [3, 1, 1]);
    s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,3', ammo: 'incendiary' }]);
    const acts = game.legalActions(s, 'Vesania');
    t.ok(acts.some((a) => a.type === 'retreat'), `${value}: it may leave`);
    t.equal(acts.some((a) => a.type === 'stay'), mayStay, `${value}: staying`);
  }
});

t.test('A52 a52Domination: the forts are counted at the start of the holder\'s turn, or after every activation', async (t) => {
  // domination forts: 3,4 5,4 8,5; two needed.
  for (const [value, overAtOnce] of [['turn-start', false], ['after-activation', true]] as const) {
    let s = position('domination', [V('order-of-aquarius', '3,4'), V('order-of-aquarius', '5,3'), T('regular-cavalry', '1,1')], 'Vesania', { a52Domination: value });
    s = play(s, ['Vesania', { type: 'activate', units: ['V02'] }], ['Vesania', { type: 'move', to: '5,4' }], ['Vesania', { type: 'end-activation' }]);
    t.equal(game.status(s).over, overAtOnce, `${value}: right after the activation`);
    if (!overAtOnce) {
      s = play(s, ['Vesania', { type: 'end-turn' }], ['Thargaton', { type: 'end-turn' }]);
      t.same(game.status(s), { over: true, winner: 'Vesania', reason: 'forts' }, `${value}: at the start of its next turn`);
    } else t.same(game.status(s), { over: true, winner: 'Vesania', reason: 'forts' });
  }
});

t.test('A32 a32FriendlyTest: the firer\'s own units where fire lands do not test, or test too', async (t) => {
  for (const [value, tests] of [['no', false], ['yes', true]] as const) {
    let s = position('open', [T('special-artillery', '5,1'), T('regular-cavalry', '5,3')], 'Thargaton', { a32FriendlyTest: value });
    s = activated(s, 'T01');
    t.ok(bombardTargets(s, unit(s, 'T01')).some((b) => b.hex === '5,3' && b.ammo === 'incendiary'), `${value}: fire on its own unit's hex (A36)`);
    // aim 3; then T02 tests 6+6 and fails (with 'yes').
    s = withDice(s, [3, 6, 6]);
    s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,3', ammo: 'incendiary' }]);
    t.same(s.features['5,3'], ['fire']);
    t.equal(unit(s, 'T02').strength, tests ? 2 : 3, `${value}: its own unit ${tests ? 'failed the test' : 'did not test'}`);
  }
});

t.test('A34 a34Building: Sappers build only where every unit is infantry, or in any hex', async (t) => {
  for (const [value, may] of [['all-infantry', false], ['any-hex', true]] as const) {
    const s = position('open', [T('sappers', '5,2'), T('regular-cavalry', '5,2')], 'Thargaton', { a34Building: value });
    const specials = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'special' && (a as { unit: string }).unit === 'T01').map((a) => (a as { what: string }).what);
    t.equal(specials.includes('trench') && specials.includes('wire'), may, `${value}: with cavalry in the hex`);
  }
});

t.test('A36 a36OwnHex: fire or smoke on a hex of the firer\'s own units, or not', async (t) => {
  for (const [value, may] of [['allowed', true], ['not', false]] as const) {
    const s = position('open', [T('special-artillery', '5,1'), T('regular-cavalry', '5,3'), V('order-of-aquarius', '5,4')], 'Thargaton', { a36OwnHex: value });
    const at = (hex: string) => bombardTargets(s, unit(s, 'T01')).filter((b) => b.hex === hex).map((b) => b.ammo);
    t.equal(at('5,3').length > 0, may, `${value}: its own unit's hex`);
    t.same(at('5,4'), ['normal', 'incendiary', 'smoke'], `${value}: an enemy hex`);
  }
});

t.test('A13 a13ChargeZoc: a charge may pass next to enemies, or only outside enemy ZOCs', async (t) => {
  for (const [value, charges] of [['allowed', 1], ['not', 0]] as const) {
    const probe = position('open', [], 'Thargaton');
    // An enemy next to 5,3 (passed through) but off the path.
    const beside = gridOf(probe).neighbours('5,3').find((h) => !['5,2', '5,4'].includes(h) && gridOf(probe).distance(h, '5,1') >= 2)!;
    const s = position('open', [
      T('heavy-cavalry', '5,1'),
      V('sirens-of-vesania', '5,5'),
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: beside },
    ], 'Thargaton', { a13ChargeZoc: value });
    t.equal(game.legalActions(s, 'Thargaton').filter((a) => a.type === 'charge' && (a as { to: string }).to === '5,4').length, charges, value);
  }
});

t.test('A24 a24Voluntary: a fortified unit hit without a critical may retreat of its own will, or stays', async (t) => {
  for (const [value, may] of [['may-retreat', true], ['stays', false]] as const) {
    let s = position('skirmish', [
      T('sharpshooters', '5,3'),
      V('order-of-aquarius', '5,5'), // bunker: Defence 4
    ], 'Thargaton', { a24Voluntary: value });
    s = activated(s, 'T01');
    s = withDice(s, [6, 3]); // 3 + 3 = 6 > 4, not a 7
    s = play(s, ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }]);
    const acts = game.legalActions(s, 'Vesania');
    t.equal(acts.some((a) => a.type === 'retreat'), may, `${value}: retreating`);
    t.ok(acts.some((a) => a.type === 'stand'), `${value}: standing`);
  }
});

t.test('A45 a45SacrificeVp: the unit sacrificed by For the Queen! scores for the opponent, or not', async (t) => {
  for (const [value, vp] of [['scores', 3], ['none', 0]] as const) {
    let s = withCommanders([T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')], 'Thargaton', { Thargaton: 'vlad-kristofferson' }, { a45SacrificeVp: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
    s = play(withDice(s, [1, 1, 2, 3]), ['Thargaton', { type: 'order', order: 'for-the-queen' }]);
    t.equal(unit(s, 'T01').hex, null, `${value}: the unit is removed`);
    t.equal(unit(s, 'V01').strength, 2, `${value}: the enemy took 1 damage`);
    t.equal(s.vp.Vesania, vp, `${value}: Vesania's VP`);
  }
});

t.test('A42 a42RecoveryCap: Recovery up to the starting strength, or up to 4', async (t) => {
  for (const [value, offered, after] of [['starting', false, 3], ['four', true, 4]] as const) {
    const s = withCommanders([
      V('sirens-of-vesania', '5,6'), // full: strength 3
      V('sirens-of-vesania', '3,6', { strength: 2 }),
    ], 'Vesania', { Vesania: 'inquisitor-dominic' }, { a42RecoveryCap: value });
    const units = game.legalActions(s, 'Vesania').filter((a) => a.type === 'order' && a.order === 'recovery').map((a) => (a as { unit: string }).unit);
    t.equal(units.includes('V01'), offered, `${value}: a unit at its starting strength`);
    t.ok(units.includes('V02'), `${value}: a damaged unit`);
    if (offered) t.equal(unit(play(withDice(s, [1, 1]), ['Vesania', { type: 'order', order: 'recovery', unit: 'V01' }]), 'V01').strength, after, `${value}: recovered above its start`);
  }
});

t.test('A17 a17Unused: the turn may end with markers unused, or only when no unit can be activated', async (t) => {
  for (const [value, mayEnd] of [['allowed', true], ['every-marker', false]] as const) {
    let s = position('open', [T('regular-cavalry', '5,2'), T('regular-cavalry', '3,2'), V('sirens-of-vesania', '5,7')], 'Thargaton', { a17Unused: value });
    const ends = (x: BWState) => game.legalActions(x, 'Thargaton').some((a) => a.type === 'end-turn');
    t.equal(ends(s), mayEnd, `${value}: two units to activate, three markers`);
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'end-activation' }]);
    t.equal(ends(s), mayEnd, `${value}: one unit left`);
    s = play(s, ['Thargaton', { type: 'activate', units: ['T02'] }], ['Thargaton', { type: 'end-activation' }]);
    t.ok(s.markersLeft > 0, `${value}: a marker is left`);
    t.ok(ends(s), `${value}: no unit left to activate, the turn may end`);
  }
});

t.test('A2 a2GroupMove: in the group move each Regular Infantry may move, or all that can must', async (t) => {
  for (const [value, mayStop] of [['may', true], ['all-must', false]] as const) {
    let s = position('open', [T('regular-infantry', '2,1'), T('regular-infantry', '4,1'), V('sirens-of-vesania', '5,8')], 'Thargaton', { a2GroupMove: value });
    const ends = (x: BWState) => game.legalActions(x, 'Thargaton').some((a) => a.type === 'end-activation');
    s = play(s, ['Thargaton', { type: 'special', unit: 'T01', what: 'group-move' }]);
    t.equal(ends(s), mayStop, `${value}: before any has moved`);
    s = play(s, ['Thargaton', { type: 'move-unit', unit: 'T01', to: '2,2' }]);
    t.equal(ends(s), mayStop, `${value}: one left to move`);
    s = play(s, ['Thargaton', { type: 'move-unit', unit: 'T02', to: '4,2' }]);
    t.equal(s.act, null, `${value}: all moved, the activation is over`);
  }
});

t.test('A43 a43PursuitZoc: the Pursuit move ignores ZOC tests, or tests when in an enemy ZOC', async (t) => {
  for (const [value, hex] of [['ignores', '5,3'], ['tests', '5,4']] as const) {
    let s = withCommanders([
      T('regular-cavalry', '5,3'),
      T('regular-cavalry', '5,5'), // keeps V01 in a ZOC after T01 retreats
      V('sirens-of-vesania', '5,4'),
    ], 'Vesania', { Vesania: 'inquisitor-dominic' }, { a43PursuitZoc: value });
    s = activated(s, 'V01');
    s = play(withDice(s, [5, 4]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
    s = play(s, ['Thargaton', { type: 'retreat', to: '5,2' }]);
    // The order test passes (1,1); then 6,6: the ZOC test fails with 'tests', the new attack's roll with 'ignores'.
    s = play(withDice(s, [1, 1, 6, 6]), ['Vesania', { type: 'order', order: 'pursuit' }]);
    t.equal(unit(s, 'V01').hex, hex, `${value}: where the pursuer stands`);
  }
});

t.test('A41 a41SecondWhen: the second activation later in the turn, or only right after the first', async (t) => {
  for (const [value, expected] of [['later', ['V01', 'V02']], ['right-after', ['V02']]] as const) {
    let s = withCommanders([V('sirens-of-vesania', '5,6'), V('sirens-of-vesania', '3,6'), T('regular-cavalry', '5,1')], 'Vesania', { Vesania: 'inquisitor-dominic' }, { a41SecondWhen: value });
    s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'end-activation' }]);
    s = play(s, ['Vesania', { type: 'activate', units: ['V02'] }], ['Vesania', { type: 'end-activation' }]);
    const units = [...new Set(game.legalActions(s, 'Vesania').filter((a) => a.type === 'order' && a.order === 'second-activation').map((a) => (a as { unit: string }).unit))].sort();
    t.same(units, expected, value);
  }
});

t.test('A28 a28CounterTarget: the counterattack hits the attacker, or any unit of the attacking hex the defender chooses', async (t) => {
  const counters = (s: BWState) => game.legalActions(s, 'Vesania').filter((a) => a.type === 'counterattack');
  // T01 (cavalry) attacks from a hex it shares with T02 (infantry): 5,4 hits (1 + 3 > 3), the stand test 2+3 passes.
  const hit = (value: string) => {
    let s = position('open', [
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
      { army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' },
      { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
    ], 'Thargaton', { a28CounterTarget: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
    s = withDice(s, [5, 4, 2, 3]);
    return play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }], ['Vesania', { type: 'stand' }]);
  };
  const attacker = hit('attacker');
  t.same(counters(attacker), [{ type: 'counterattack' }], 'attacker: one counterattack, at the attacker');
  const any = hit('any-unit');
  t.same(counters(any), [{ type: 'counterattack', target: 'T01' }, { type: 'counterattack', target: 'T02' }], 'any-unit: either unit of the hex');
  t.notOk(unit(any, 'T02').revealed, 'the other unit is not revealed by being offered');
  const label = formatter.format('en', game.describeAction!(any, 'Vesania', { type: 'counterattack', target: 'T02' }));
  t.match(label, /T02/, label);
  t.match(label, /5,3/, 'the hex is named');
  t.notMatch(label, /Regular Infantry/, 'an unrevealed unit is named by its type, not its kind');
  // The counter at T02: 5,3 gives 2 + Melee 3 = 5 > Defence 3 + 1 (Thargaton infantry bonus, A1 'self').
  const after = play(withDice(any, [5, 3]), ['Vesania', { type: 'counterattack', target: 'T02' }]);
  t.equal(unit(after, 'T02').strength, 2, 'the chosen unit lost a step');
  t.equal(unit(after, 'T01').strength, 3, 'the attacker did not');
  t.ok(unit(after, 'T02').revealed, 'the target is revealed after the roll, as an attack\'s defender (§16.8.1)');
  t.equal(unit(after, 'T02').hex, '5,3', 'it neither retreats nor tests');
  const v = game.view(after, 'Vesania') as { armies: Record<string, { units: { id: string; kind?: string; strength?: number }[] }> };
  const seen = v.armies.Thargaton!.units.find((u) => u.id === 'T02')!;
  t.equal(seen.kind, 'regular-infantry', "Vesania's view shows the revealed kind");
  t.notOk('strength' in seen, 'never its strength');
  t.throws(() => play(withDice(attacker, [5, 3]), ['Vesania', { type: 'counterattack', target: 'T02' }]), /not a legal action/, 'attacker: no other target');
  // Infantry shields artillery (§16.8.2): a counterattack may not pick the artillery of an infantry hex.
  let shield = position('open', [
    { army: 'Thargaton', kind: 'regular-infantry', hex: '5,3' },
    { army: 'Thargaton', kind: 'regular-artillery', hex: '5,3' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
  ], 'Thargaton', { a28CounterTarget: 'any-unit' });
  shield = play(shield, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  // 6,1: 5 + 2 > 3; the stand test 2+3 passes.
  shield = play(withDice(shield, [6, 1, 2, 3]), ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }], ['Vesania', { type: 'stand' }]);
  t.same(counters(shield), [{ type: 'counterattack', target: 'T01' }], 'any-unit: the artillery is shielded');
});

t.test('A25 a25MarkersLast: an aiming marker helps in any later turn, or in its army\'s next turn only', async (t) => {
  const units: Placing[] = [
    { army: 'Thargaton', kind: 'regular-artillery', hex: '5,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' }, // distance 3: the aim needs 4
  ];
  const endTurns = (s: BWState) => play(s, ['Thargaton', { type: 'end-turn' }], ['Vesania', { type: 'end-turn' }]);
  for (const [value, atTurn5] of [['later', 1], ['next-turn', 0]] as const) {
    let s = position('open', units, 'Thargaton', { a25MarkersLast: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
    s = play(withDice(s, [1]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]);
    t.equal(s.aimingMarkers.length, 1, `${value}: the miss lays a marker`);
    t.equal(s.aimingMarkers[0]!.turn, value === 'next-turn' ? 1 : undefined, `${value}: the turn it was laid in is recorded for next-turn only`);
    t.equal(helpingMarkers(s, '5,4', 'Thargaton'), value === 'later' ? 1 : 0, `${value}: in the turn it was laid`);
    s = endTurns(s);
    t.equal(s.turn, 3);
    t.equal(helpingMarkers(s, '5,4', 'Thargaton'), 1, `${value}: in the army's next turn`);
    const next = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
    // 3 + 1 marker = 4: aimed, then the damage roll 5,4: 1 + 4 > 3.
    t.equal(unit(play(withDice(next, [3, 5, 4]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]), 'V01').strength, 2, `${value}: the marker makes the aim`);
    s = play(s, ['Thargaton', { type: 'end-turn' }]);
    t.equal(JSON.stringify(s.log).includes('log.markersExpired'), value === 'next-turn', `${value}: its removal at the end of that turn, logged`);
    s = play(s, ['Vesania', { type: 'end-turn' }]);
    t.equal(s.turn, 5);
    t.equal(s.aimingMarkers.length, atTurn5, `${value}: the marker in the turn after`);
    t.equal(helpingMarkers(s, '5,4', 'Thargaton'), atTurn5, `${value}: its help then`);
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
    s = play(withDice(s, [3, 5, 4]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]);
    t.equal(unit(s, 'V01').strength, value === 'later' ? 2 : 3, `${value}: a 3 aims only with the marker`);
  }
});

t.test('A8 a8LineInfantryRange: in an enemy ZOC Line Infantry shoots at exactly 2, or at the adjacent enemy too', async (t) => {
  for (const [value, expected] of [['exactly-2', ['V02']], ['adjacent-in-zoc', ['V01', 'V02']]] as const) {
    let s = position('open', [T('line-infantry', '5,3'), V('sirens-of-vesania', '5,4'), V('order-of-virgo', '3,3')], 'Thargaton', { a8LineInfantryRange: value });
    s = activated(s, 'T01');
    t.same(targetsOf(s, 'fire'), expected, `${value}: in the Sirens' ZOC`);
    t.same(targetsOf(s, 'melee'), ['V01'], `${value}: the adjacent enemy in melee`);
    if (value === 'adjacent-in-zoc') {
      // 6,2: 4 + Ranged 2 > Defence 3 hits; no counterattack follows a ranged attack (§16.5).
      s = play(withDice(s, [6, 2]), ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }]);
      t.equal(unit(s, 'V01').strength, 2, 'the adjacent shot hits');
      t.notOk(game.legalActions(s, 'Vesania').some((a) => a.type === 'counterattack'), 'no counterattack after a ranged attack');
    }
    const away = activated(position('open', [T('line-infantry', '5,3'), V('sirens-of-vesania', '5,5')], 'Thargaton', { a8LineInfantryRange: value }), 'T01');
    t.same(targetsOf(away, 'fire'), ['V01'], `${value}: out of any ZOC, range 2`);
  }
});

t.test('A12 a12Maximum: "moved the maximum" is the base allowance, or as far as the activation allowed', async (t) => {
  // skirmish terrain: forest 3,4 and 4,4, stream 8,4.
  for (const [value, attacks] of [['allowance', true], ['as-far-as-allowed', false]] as const) {
    const opts = { a12Maximum: value };
    let forest = position('skirmish', [T('regular-infantry', '4,3'), V('sirens-of-vesania', '4,5')], 'Thargaton', opts);
    forest = play(forest, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,4' }]);
    t.same(targetsOf(forest, 'move'), [], `${value}: entering the forest ends the move`);
    t.equal(targetsOf(forest, 'melee').length > 0, attacks, `${value}: an attack after one hex into forest`);
    let stream = position('skirmish', [T('regular-infantry', '8,3'), V('sirens-of-vesania', '8,5')], 'Thargaton', opts);
    stream = play(stream, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '8,4' }]);
    t.equal(targetsOf(stream, 'melee').length > 0, attacks, `${value}: an attack after one hex into a stream`);
    let start = position('skirmish', [T('regular-cavalry', '4,4'), V('sirens-of-vesania', '4,6')], 'Thargaton', opts);
    start = play(start, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,5' }]);
    t.equal(targetsOf(start, 'melee').length > 0, attacks, `${value}: an attack after the one hex a forest start allows`);
    let open = position('open', [T('regular-infantry', '4,3'), V('sirens-of-vesania', '4,5')], 'Thargaton', opts);
    open = play(open, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,4' }]);
    t.same(targetsOf(open, 'melee'), ['V01'], `${value}: one hex of two in the open`);
    open = play(open, ['Thargaton', { type: 'move', to: '3,5' }]);
    t.same(targetsOf(open, 'melee'), [], `${value}: none after the full two hexes`);
  }
});

t.test('A19 a19OrderTest: a detachment takes an order with one test at its lowest Discipline, or each unit tests', async (t) => {
  // Regular Infantry 7 + 2 (A1, two infantry) = 9; Sharpshooters 8 + 2 = 10.
  for (const [value, dice, ok, goes] of [
    ['lowest', [5, 5], false, []],
    ['each', [5, 5, 6, 6], false, []],
    ['lowest', [4, 5], true, ['T01', 'T02']],
    ['each', [4, 4, 4, 5], true, ['T01', 'T02']],
    ['each', [5, 5, 4, 5], true, ['T02']], // 10 fails the Regular Infantry's 9, passes the Sharpshooters' 10
  ] as const) {
    let s = withCommanders([T('regular-infantry', '5,1'), T('sharpshooters', '5,1'), V('sirens-of-vesania', '5,8')], 'Thargaton', { Thargaton: 'lord-alexandrus' }, { a19OrderTest: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01', 'T02'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
    s = play(withDice(s, [...dice]), ['Thargaton', { type: 'order', order: 'forced-march' }]);
    const label = `${value} ${dice.join(',')}`;
    t.equal(s.orders.issued[0]?.ok, ok, `${label}: the order works`);
    t.equal(s.log.filter((e) => JSON.stringify(e).includes('log.test')).length, value === 'each' ? 2 : 1, `${label}: tests rolled`);
    if (goes.length === 0) continue;
    t.same(s.act!.units, goes, `${label}: the units the order works for`);
    s = play(s, ['Thargaton', { type: 'move', to: '5,3' }], ['Thargaton', { type: 'move', to: '5,4' }]);
    t.same(s.units.filter((u) => u.army === 'Thargaton').map((u) => u.hex), goes.length === 2 ? ['5,4', '5,4'] : ['5,2', '5,4'], `${label}: three hexes for those, the rest stays`);
  }
});

t.test('A16 a16IdleMove: the Idle Move hex is apart from the activation\'s movement, or its first hex', async (t) => {
  for (const [value, moved, more] of [['apart', 0, true], ['first-hex', 1, false]] as const) {
    let s = withCommanders([T('regular-infantry', '5,3'), V('sirens-of-vesania', '5,8')], 'Thargaton', { Thargaton: 'lord-alexandrus' }, { a16IdleMove: value });
    t.ok(game.legalActions(s, 'Thargaton').some((a) => a.type === 'order' && a.order === 'idle-move' && (a as { to: string }).to === '5,2'), `${value}: backward is offered`);
    s = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'idle-move', unit: 'T01', to: '5,2' }]);
    t.equal(unit(s, 'T01').hex, '5,2', `${value}: the unit moved back`);
    t.equal(s.act!.moved, moved, `${value}: hexes of the activation's movement`);
    s = play(s, ['Thargaton', { type: 'move', to: '5,3' }]);
    t.equal(targetsOf(s, 'move').length > 0, more, `${value}: a second hex of the activation`);
  }
});

t.test('A26 a26Rolls: artillery fire on several units is one damage roll, or a roll per unit', async (t) => {
  const units: Placing[] = [
    T('regular-artillery', '5,1'),
    V('order-of-aquarius', '5,4'), // distance 3: the aim needs 4
    V('iron-order', '5,4'),
  ];
  const fire = (s: BWState) => play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]);
  const rolls = (s: BWState) => s.log.filter((e) => /log\.attack(Hit|Missed)/.test(JSON.stringify(e))).length;
  // Aim 4; then 6,1 (a 7: a critical success) and, with 'per-unit', 2,2 (a double: a critical failure).
  for (const [value, strengths] of [['one', [2, 2]], ['per-unit', [2, 3]]] as const) {
    const s = fire(withDice(position('open', units, 'Thargaton', { a26Rolls: value }), [4, 6, 1, 2, 2]));
    t.same([unit(s, 'V01').strength, unit(s, 'V02').strength], strengths, `${value}: the units' strength (3 each before)`);
    t.equal(rolls(s), 2, `${value}: a result for each unit`);
  }
  // With orders: Vlad's re-roll of a critical failure acts on the one unit's roll.
  let s = withCommanders(units, 'Thargaton', { Thargaton: 'vlad-kristofferson' }, { a26Rolls: 'per-unit' });
  s = fire(withDice(s, [4, 6, 1, 2, 2, 6, 1]));
  t.equal(unit(s, 'V01').strength, 2, 'per-unit: the first roll hit the first unit');
  t.same(s.orders.window && { at: s.orders.window.at, target: (s.orders.window as { target?: string }).target }, { at: 'damage-rolled', target: 'V02' }, 'per-unit: the window is on the second unit\'s roll');
  s = play(s, ['Thargaton', { type: 'order', order: 'reroll' }]);
  t.equal(unit(s, 'V02').strength, 2, 'per-unit: the re-roll (a 7) hit the second unit');
  t.equal(unit(s, 'V01').strength, 2, 'per-unit: the first unit is not hit again');
});

t.test('A15 a15Stacking: the limit holds in every hex entered, or only where a move ends', async (t) => {
  const full = (): Placing[] => [T('regular-infantry', '5,3'), T('regular-infantry', '5,3'), T('regular-infantry', '5,3')];
  const movesTo = (s: BWState) => game.legalActions(s, 'Thargaton').flatMap((a) => (a.type === 'move' ? [a.to] : []));
  const acts = (s: BWState) => game.legalActions(s, 'Thargaton').map((a) => a.type);
  for (const [value, through] of [['every-hex', false], ['end-only', true]] as const) {
    let s = position('open', [...full(), T('line-infantry', '5,2'), V('sirens-of-vesania', '5,8')], 'Thargaton', { a15Stacking: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T04'] }]);
    t.equal(movesTo(s).includes('5,3'), through, `${value}: into the full hex with two hexes to go`);
    if (through) {
      s = play(s, ['Thargaton', { type: 'move', to: '5,3' }]);
      t.equal(s.units.filter((u) => u.hex === '5,3').length, 4, 'four units there while passing');
      t.same([...new Set(acts(s))], ['move', 'undo'], 'it must step on: nothing but moves (or taking the step back)');
      s = play(s, ['Thargaton', { type: 'move', to: '5,4' }]);
      t.equal(unit(s, 'T04').hex, '5,4', 'it passed through');
      t.equal(s.act, null, 'its allowance spent, the activation is over');
    }
    // One hex of allowance left: no passing through.
    let late = position('open', [...full(), T('line-infantry', '5,1'), V('sirens-of-vesania', '5,8')], 'Thargaton', { a15Stacking: value });
    late = play(late, ['Thargaton', { type: 'activate', units: ['T04'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
    t.notOk(movesTo(late).includes('5,3'), `${value}: not with the last hex of the allowance`);
    // A forced stop there (a stream, §11): no passing through.
    const stream = position('open', [...full(), T('line-infantry', '5,2'), V('sirens-of-vesania', '5,8')], 'Thargaton', { a15Stacking: value });
    stream.scenario = { ...stream.scenario, terrain: { '5,3': 'stream' } };
    t.notOk(movesTo(play(stream, ['Thargaton', { type: 'activate', units: ['T04'] }])).includes('5,3'), `${value}: not where the move would have to stop`);
  }
});

t.test('A15 a15Stacking: a charge through a full friendly hex', async (t) => {
  for (const [value, charges] of [['every-hex', 0], ['end-only', 1]] as const) {
    const s = position('open', [
      T('heavy-cavalry', '5,1'),
      T('regular-cavalry', '5,2'),
      T('regular-cavalry', '5,2'),
      V('sirens-of-vesania', '5,5'),
    ], 'Thargaton', { a15Stacking: value });
    t.equal(game.legalActions(s, 'Thargaton').filter((a) => a.type === 'charge' && (a as { to: string }).to === '5,4').length, charges, value);
  }
});

t.test('A50 a50FortTaken: the fort is taken when an attacker unit is in it after an activation, or the moment one enters it', async (t) => {
  // defence: Thargaton attacks the fort 5,6.
  for (const [value, atOnce] of [['after-activation', false], ['on-entering', true]] as const) {
    let s = position('defence', [T('regular-infantry', '5,5'), V('sirens-of-vesania', '1,8')], 'Thargaton', { a50FortTaken: value });
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,6' }]);
    t.equal(game.status(s).over, atOnce, `${value}: on entering the fort`);
    if (atOnce) {
      t.same(game.status(s), { over: true, winner: 'Thargaton', reason: 'fort' }, `${value}: the attacker wins`);
      continue;
    }
    // Passing through: on to 5,7, the fort empty again after the activation.
    s = play(s, ['Thargaton', { type: 'move', to: '5,7' }]);
    t.notOk(game.status(s).over, `${value}: passing through takes nothing`);
    let stay = position('defence', [T('regular-infantry', '5,5'), V('sirens-of-vesania', '1,8')], 'Thargaton', { a50FortTaken: value });
    stay = play(stay, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,6' }], ['Thargaton', { type: 'end-activation' }]);
    t.same(game.status(stay), { over: true, winner: 'Thargaton', reason: 'fort' }, `${value}: in the fort after the activation`);
  }
});

t.test('A29 a29ArtilleryStack: artillery fire hits every enemy unit of the hex, or the one unit the attacker chose', async (t) => {
  const units: Placing[] = [
    T('regular-artillery', '5,1'),
    V('order-of-aquarius', '5,4'), // distance 3: the aim needs 4
    V('iron-order', '5,4'),
  ];
  const bombards = (s: BWState) => game.legalActions(s, 'Thargaton').filter((a) => a.type === 'bombard' && a.hex === '5,4' && a.ammo === 'normal');
  const rolls = (s: BWState) => s.log.filter((e) => /log\.attack(Hit|Missed)/.test(JSON.stringify(e))).length;
  // Aim 4, then 6,1: a 7, a critical success whatever the Defence.
  const whole = play(position('open', units, 'Thargaton', { a29ArtilleryStack: 'whole-hex' }), ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(bombards(whole), [{ type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }], 'whole-hex: the hex is the target');
  const wholeHit = play(withDice(whole, [4, 6, 1]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]);
  t.same([unit(wholeHit, 'V01').strength, unit(wholeHit, 'V02').strength], [2, 2], 'whole-hex: both units hit');

  const chosen = play(position('open', units, 'Thargaton', { a29ArtilleryStack: 'chosen-unit' }), ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(bombards(chosen).map((a) => (a as { target?: string }).target), ['V01', 'V02'], 'chosen-unit: one action per unit of the hex');
  const label = formatter.format('en', game.describeAction!(chosen, 'Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal', target: 'V02' }));
  t.match(label, /V02/, label);
  t.notMatch(label, /Iron Order/, 'the unit is named by its type, its kind unknown');
  t.throws(() => play(chosen, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal' }]), /not a legal action/, 'chosen-unit: a target must be named');
  const hit = play(withDice(chosen, [4, 6, 1]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal', target: 'V02' }]);
  t.same([unit(hit, 'V01').strength, unit(hit, 'V02').strength], [3, 2], 'chosen-unit: only the chosen unit is hit');
  t.equal(rolls(hit), 1, 'chosen-unit: one result, against it');
  t.ok(unit(hit, 'V02').revealed && !unit(hit, 'V01').revealed, 'only the chosen unit is revealed');
  // A miss lays the aiming marker on the hex, recording the unit aimed at (A25 'target-moves' removes it when that unit moves).
  const missed = play(withDice(chosen, [1]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal', target: 'V02' }]);
  t.match(missed.aimingMarkers, [{ hex: '5,4', target: 'V02' }], 'chosen-unit: the marker on the hex, the chosen unit recorded');
  // Lord Alexandrus's re-roll of the aiming die keeps the chosen target: 1 misses, the re-roll 4 aims, 6,1 hits V02 alone.
  let alex = withCommanders(units, 'Thargaton', { Thargaton: 'lord-alexandrus' }, { a29ArtilleryStack: 'chosen-unit' });
  alex = play(withDice(alex, [1, 4, 6, 1]), ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,4', ammo: 'normal', target: 'V02' }]);
  t.equal(alex.orders.window?.at, 'aim-missed');
  alex = play(alex, ['Thargaton', { type: 'order', order: 'aiming-reroll' }]);
  t.same([unit(alex, 'V01').strength, unit(alex, 'V02').strength], [3, 2], 'after the re-roll: still only the chosen unit');
  // Incendiary and smoke land on the hex: no unit is named.
  const special = play(position('open', [T('special-artillery', '5,1'), ...units.slice(1)], 'Thargaton', { a29ArtilleryStack: 'chosen-unit' }), ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.ok(game.legalActions(special, 'Thargaton').some((a) => a.type === 'bombard' && a.ammo === 'incendiary' && !('target' in a)), 'incendiary: the hex');
  // A30 'melee-and-ranged': infantry shields its hex's artillery from a chosen artillery shot too.
  const shielded = (a30: string) => play(position('open', [
    T('regular-artillery', '5,1'), V('order-of-aquarius', '5,4'), V('order-of-capricorn', '5,4'),
  ], 'Thargaton', { a29ArtilleryStack: 'chosen-unit', a30Shield: a30 }), ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(bombards(shielded('melee')).map((a) => (a as { target?: string }).target), ['V01', 'V02'], 'A30 melee: the artillery may be chosen');
  t.same(bombards(shielded('melee-and-ranged')).map((a) => (a as { target?: string }).target), ['V01'], 'A30 melee-and-ranged: only the infantry');
});

t.test('A46 a46Target: Until Death attacks the counterattacking unit, or any enemy the unit could attack in melee', async (t) => {
  // V01 (strength 1) attacks T01; T02 stands next to it too. 5,4 hits, T01's stand test 2,3 passes, its counterattack 5,3 hits.
  const hit = (value: string) => {
    let s = withCommanders([T('regular-cavalry', '5,3'), T('regular-infantry', '6,4'), V('sirens-of-vesania', '5,4', { strength: 1 })], 'Vesania', { Vesania: 'sister-anastasia' }, { a46Target: value });
    s = activated(s, 'V01');
    return play(withDice(s, [5, 4, 2, 3, 5, 3]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'stand' }], ['Thargaton', { type: 'counterattack' }]);
  };
  const orders = (s: BWState) => game.legalActions(s, 'Vesania').filter((a) => a.type === 'order');
  const fixed = hit('counterattacker');
  t.ok(gridOf(fixed).neighbours('5,4').includes('6,4'), 'T02 is next to V01');
  t.same(orders(fixed), [{ type: 'order', order: 'until-death' }], 'counterattacker: the one order, at T01');
  t.throws(() => play(fixed, ['Vesania', { type: 'order', order: 'until-death', unit: 'V01', target: 'T02' }]), /not a legal action/);
  const any = hit('any-adjacent');
  t.same(orders(any), [
    { type: 'order', order: 'until-death', unit: 'V01', target: 'T01' },
    { type: 'order', order: 'until-death', unit: 'V01', target: 'T02' },
  ], 'any-adjacent: the counterattacker or the other adjacent enemy');
  // The test 1,2 passes; 6,1 is a critical success.
  const other = play(withDice(any, [1, 2, 6, 1]), ['Vesania', { type: 'order', order: 'until-death', unit: 'V01', target: 'T02' }]);
  t.same([unit(other, 'T01').strength, unit(other, 'T02').strength], [2, 2], 'any-adjacent: T02 took the last attack (T01 only the first)');
  t.equal(unit(other, 'V01').hex, null, 'then the unit is removed');
  t.same(other.pending.map((p) => [p.unit, p.mayCounter]), [['T02', false]], 'no counterattack on that attack');
  const label = formatter.format('en', game.describeAction!(any, 'Vesania', { type: 'order', order: 'until-death', unit: 'V01', target: 'T02' }));
  t.match(label, /T02/, label);
});

t.test('A44 a44Withdrawal: Withdrawal after the defender\'s retreat or test, or right after the roll and the loss', async (t) => {
  // V01 (Dominic's) attacks T01: 5,4 hits (1 + 3 > 3); T01's stand test 2,3 passes.
  const attack = (value: string) => {
    let s = withCommanders([T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')], 'Vesania', { Vesania: 'inquisitor-dominic' }, { a44Withdrawal: value });
    s = activated(s, 'V01');
    return play(withDice(s, [5, 4]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
  };
  const orders = (s: BWState) => game.legalActions(s, 'Vesania').filter((a) => a.type === 'order').map((a) => (a as { order: string }).order);
  const after = attack('after-defender');
  t.equal(unit(after, 'T01').strength, 2, 'the loss is taken');
  t.same(game.activeRoles(after), ['Thargaton'], 'after-defender: the defender retreats or tests first');
  const stood = play(withDice(after, [2, 3]), ['Thargaton', { type: 'stand' }]);
  t.same(orders(stood), ['withdrawal'], 'after-defender: offered before the counterattack choice');

  const early = attack('after-roll');
  t.same(game.activeRoles(early), ['Vesania'], 'after-roll: the attacker may withdraw before the defender decides');
  t.same(orders(early), ['withdrawal']);
  t.equal(early.orders.window?.at, 'melee-resolved');
  // The test 1,1 passes: V01 retreats first (A23 from the defender), then T01 decides, with no counterattack.
  let w = play(withDice(early, [1, 1]), ['Vesania', { type: 'order', order: 'withdrawal' }]);
  t.same(w.pending.map((p) => [p.unit, p.step, p.mayCounter]), [['V01', 'must-retreat', false], ['T01', 'after-hit', false]]);
  w = play(w, ['Vesania', game.legalActions(w, 'Vesania').find((a) => a.type === 'retreat')!]);
  t.not(unit(w, 'V01').hex, '5,4', 'the attacker withdrew');
  w = play(withDice(w, [2, 3]), ['Thargaton', { type: 'stand' }]);
  t.same(w.pending, [], 'the defender stood (test passed) and may not counterattack');
  // Declined: the defender decides as usual, counterattack included; no second window later.
  let declined = play(early, ['Vesania', { type: 'go-on' }]);
  declined = play(withDice(declined, [2, 3]), ['Thargaton', { type: 'stand' }]);
  t.same(game.legalActions(declined, 'Thargaton'), [{ type: 'counterattack' }, { type: 'no-counterattack' }], 'after-roll declined: the counterattack choice, no Withdrawal before it');
  t.equal(declined.orders.window, null);
  // A miss (2,2, a double) is resolved by its roll too: Withdrawal either way, at once with 'after-roll'.
  for (const value of ['after-defender', 'after-roll']) {
    let s = withCommanders([T('regular-cavalry', '5,3'), V('sirens-of-vesania', '5,4')], 'Vesania', { Vesania: 'inquisitor-dominic' }, { a44Withdrawal: value });
    s = play(withDice(activated(s, 'V01'), [2, 2]), ['Vesania', { type: 'melee', unit: 'V01', target: 'T01' }]);
    t.same(orders(s), ['withdrawal'], `${value}: after a miss`);
    t.equal(s.orders.window?.at, value === 'after-roll' ? 'melee-resolved' : 'melee-settled');
  }
});

t.test('A14 a14Split: a detachment moves along one path, or may leave units behind on the way', async (t) => {
  const g = gridOf(position('open', [T('regular-cavalry', '5,1')], 'Thargaton'));
  // An enemy next to both 5,2 and 5,3.
  const both = g.neighbours('5,2').find((h) => g.neighbours('5,3').includes(h))!;
  const start = (value: string) => play(position('open', [
    T('regular-cavalry', '5,1'), T('regular-cavalry', '5,1'), V('order-of-aquarius', both),
  ], 'Thargaton', { a14Split: value }), ['Thargaton', { type: 'activate', units: ['T01', 'T02'] }]);
  const leaves = (s: BWState) => game.legalActions(s, 'Thargaton').filter((a) => a.type === 'leave');
  const one = start('one-path');
  t.same(leaves(play(one, ['Thargaton', { type: 'move', to: '5,2' }])), [], 'one-path: no leaving');

  const split = start('leave-on-the-way');
  const markers = split.markersLeft;
  t.same(leaves(split), [], 'leave-on-the-way: not before the first hex (a unit not taken along is simply not chosen)');
  let s = play(split, ['Thargaton', { type: 'move', to: '5,2' }]);
  t.same(leaves(s), [{ type: 'leave', unit: 'T01' }, { type: 'leave', unit: 'T02' }], 'after a hex: either may stay');
  const label = formatter.format('en', game.describeAction!(s, 'Thargaton', { type: 'leave', unit: 'T01' }));
  t.match(label, /T01.*5,2/, label);
  s = play(s, ['Thargaton', { type: 'leave', unit: 'T01' }]);
  t.same(s.act?.units, ['T02'], 'T02 goes on alone');
  t.ok(game.legalActions(s, 'Thargaton').some((a) => a.type === 'undo'), 'leaving rolls nothing: it may be taken back');
  t.same(leaves(s), [], 'a lone unit has nobody to leave');
  s = play(s, ['Thargaton', { type: 'move', to: '5,3' }]);
  t.same([unit(s, 'T01').hex, unit(s, 'T02').hex], ['5,2', '5,3'], 'one stays, the other moved on');
  t.ok(s.activated.includes('T01') && s.activated.includes('T02'), 'both activated');
  t.equal(s.markersLeft, markers, 'for one marker');
  const melee = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'melee').map((a) => (a as { unit: string }).unit);
  t.same(melee, ['T02'], 'only the unit still moving may attack, though the enemy is next to both');
  t.match(game.logLine(game.logChange(play(split, ['Thargaton', { type: 'move', to: '5,2' }], ['Thargaton', { type: 'leave', unit: 'T01' }])).entries.at(-1), 'Vesania'), /T01 .*5,2/, 'the log says who stayed');
});

t.test('A55 a55Budget: buy up to the budget and stop at will, or go on while any unit can still be bought', async (t) => {
  const done = (s: BWState) => game.legalActions(s, 'Thargaton').some((a) => a.type === 'done');
  for (const [value, early] of [['up-to', true], ['spend-down', false]] as const) {
    let s = game.setup({ scenario: 'open', seed: 'a55', options: { a55Budget: value, noWinPossible: 'play-on' } });
    s = play(s, ['Thargaton', { type: 'buy', kind: 'heavy-cavalry' }]);
    t.equal(done(s), early, `${value}: done with 16 of 20 points left`);
    if (!early) t.throws(() => play(s, ['Thargaton', { type: 'done' }]), /not done while a unit can still be bought/, 'the refusal says why');
    // 4 + 5 + 4 + 4 + 3 = 20: nothing left to buy.
    s = play(s,
      ['Thargaton', { type: 'buy', kind: 'special-artillery' }],
      ['Thargaton', { type: 'buy', kind: 'regular-artillery' }],
      ['Thargaton', { type: 'buy', kind: 'heavy-cavalry' }],
      ['Thargaton', { type: 'buy', kind: 'line-infantry' }],
    );
    t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'buy'), 'the budget is spent');
    t.ok(done(s), `${value}: done once nothing can be bought`);
  }
  // 'spend-down' with a point left that buys nothing: 5 + 4 + 4 + 4 + 2 = 19, the cheapest kind costs 2.
  let s = game.setup({ scenario: 'open', seed: 'a55', options: { a55Budget: 'spend-down', noWinPossible: 'play-on' } });
  s = play(s,
    ['Thargaton', { type: 'buy', kind: 'special-artillery' }],
    ['Thargaton', { type: 'buy', kind: 'regular-artillery' }],
    ['Thargaton', { type: 'buy', kind: 'heavy-cavalry' }],
    ['Thargaton', { type: 'buy', kind: 'heavy-cavalry' }],
    ['Thargaton', { type: 'buy', kind: 'sappers' }],
  );
  t.ok(done(s), 'spend-down: 1 point left and nothing costs 1: done');
  // And with points left but no room on the first row (one open hex, a cavalry there): done.
  let full = game.setup({ scenario: 'open', seed: 'a55', options: { a55Budget: 'spend-down', noWinPossible: 'play-on' } });
  full.scenario = { ...full.scenario, firstRows: { ...full.scenario.firstRows, Thargaton: ['1,1'] } };
  full = play(full, ['Thargaton', { type: 'buy', kind: 'regular-cavalry' }], ['Thargaton', { type: 'buy', kind: 'regular-cavalry' }]);
  t.ok(done(full), 'spend-down: 14 points left but the first row is full: done');
});
