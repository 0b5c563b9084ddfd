/**
 * Ranged attacks and artillery (§16.5–§16.8): ranges (A4, A8, A9), ZOC,
 * double shots (A3), the hidden shooter, aiming and its markers (A25, A27,
 * D5), a hit on a whole hex (A26), incendiary and smoke (A32, A33, A36).
 */
import t from 'tap';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { game, play, position, unit, withDice, type Placing } from './fixture-helpers.ts';

const targetsOf = (s: BWState, type: string): string[] =>
  game.legalActions(s, s.player!).filter((a) => a.type === type).map((a) => (a as { target?: string; hex?: string }).target ?? (a as { hex: string }).hex);

t.test('§16.5 ranges: exactly 2; Sharpshooters also 3 when they have not moved (A4); not from an enemy ZOC except Line Infantry (A8)', async (t) => {
  const foes: Placing[] = [
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' }, // 3 from 5,1, 2 from 5,2
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '7,4' }, // out of range of both
  ];
  let s = position('open', [{ army: 'Thargaton', kind: 'sharpshooters', hex: '5,1' }, ...foes]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(targetsOf(s, 'fire'), ['V01'], 'distance 3 when stationary');
  const moved = play(s, ['Thargaton', { type: 'move', to: '5,2' }]);
  t.same(targetsOf(moved, 'fire'), ['V01'], 'distance 2 after moving');
  let l = position('open', [
    { army: 'Thargaton', kind: 'line-infantry', hex: '5,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,3' },
    { army: 'Vesania', kind: 'iron-order', hex: '7,3' },
  ]);
  l = play(l, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(targetsOf(l, 'fire'), ['V02'], 'Line Infantry fires from a ZOC, at 2 only (A8)');
  let r = position('open', [
    { army: 'Thargaton', kind: 'sharpshooters', hex: '5,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,3' },
    { army: 'Vesania', kind: 'iron-order', hex: '7,3' },
  ]);
  r = play(r, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.same(targetsOf(r, 'fire'), [], 'others may not fire from an enemy ZOC');
});

t.test('A3: Order of Virgo that has not moved fires twice at the same target', async (t) => {
  let s = position('open', [
    { army: 'Vesania', kind: 'order-of-virgo', hex: '5,6' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,4' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '3,5' },
  ], 'Vesania');
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }]);
  s = withDice(s, [2, 2]);
  s = play(s, ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
  t.same(game.legalActions(s, 'Vesania'), [{ type: 'fire', unit: 'V01', target: 'T01' }, { type: 'end-activation' }], 'a second shot, same target only');
  s = withDice(s, [2, 2]);
  s = play(s, ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }]);
  t.equal(s.act, null, 'no third shot: the activation ended');
  // Hit, the target retreats out of range: the second shot is not made.
  let r = position('open', [
    { army: 'Vesania', kind: 'order-of-virgo', hex: '5,6' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,4' },
  ], 'Vesania');
  r = play(r, ['Vesania', { type: 'activate', units: ['V01'] }]);
  r = withDice(r, [3, 4]);
  r = play(r, ['Vesania', { type: 'fire', unit: 'V01', target: 'T01' }], ['Thargaton', { type: 'retreat', to: '5,3' }]);
  t.equal(r.act, null, 'out of range: the activation ended without a second shot');
});

t.test('§16.8.3: a shot from a stack names the hex and the kind, not the block', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'sharpshooters', hex: '5,2' },
    { army: 'Thargaton', kind: 'regular-infantry', hex: '5,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
  ]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01', 'T02'] }]);
  s = withDice(s, [2, 2]);
  s = play(s, ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }]);
  t.notOk(unit(s, 'T01').revealed, 'the block stays unrevealed');
  const lines = game.logChange(s).entries.map((e) => game.logLine(e, 'Vesania')).join(' | ');
  t.match(lines, /A unit in 5,2 fires: Sharpshooters/);
  t.notMatch(lines, /T01/);
});

t.test('§16.6 aiming: a miss lays a marker that helps later (A25), a hit clears them; the artillery moving takes its markers away', async (t) => {
  const units: Placing[] = [
    { army: 'Thargaton', kind: 'regular-artillery', hex: '5,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,5' }, // distance 4: needs 5
  ];
  let s = position('open', units);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.ok(targetsOf(s, 'bombard').includes('5,5'));
  t.notOk(targetsOf(s, 'bombard').includes('5,2'), 'not at distance 1');
  s = withDice(s, [4]);
  s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,5', ammo: 'normal' }]);
  t.same(s.aimingMarkers, [{ hex: '5,5', army: 'Thargaton', by: 'T01', target: 'V01' }]);
  s = play(s, ['Thargaton', { type: 'end-turn' }], ['Vesania', { type: 'end-turn' }], ['Thargaton', { type: 'activate', units: ['T01'] }]);
  // 4 + 1 marker = 5 hits the aim; then 5,4: 1 + 4 > 3
  s = withDice(s, [4, 5, 4]);
  s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,5', ammo: 'normal' }]);
  t.same(s.aimingMarkers, []);
  t.equal(unit(s, 'V01').strength, 2);
  let m = position('open', units);
  m.aimingMarkers = [{ hex: '5,5', army: 'Thargaton', by: 'T01', target: 'V01' }];
  m = play(m, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
  t.same(m.aimingMarkers, [], 'A25: the artillery moved');
  let tm = position('open', units, 'Vesania', { a25MarkersRemoved: 'target-moves' });
  tm.aimingMarkers = [{ hex: '5,5', army: 'Thargaton', by: 'T01', target: 'V01' }];
  tm = play(tm, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'move', to: '5,6' }]);
  t.same(tm.aimingMarkers, [], 'A25 "target-moves": the target moved');
});

t.test('A27: aiming markers come from the spare special markers unless unlimited', async (t) => {
  const units: Placing[] = [
    { army: 'Thargaton', kind: 'regular-artillery', hex: '5,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,5' },
  ];
  for (const [opt, n] of [['spare', 0], ['unlimited', 1]] as const) {
    let s = position('open', units, 'Thargaton', { a27AimingSupply: opt });
    // 9 special markers - 3 - 3 = 3 spare; three already on the board.
    s.aimingMarkers = ['1,8', '2,8', '3,8'].map((hex) => ({ hex, army: 'Thargaton' as const, by: 'T09', target: null }));
    s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
    s = withDice(s, [1]);
    s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,5', ammo: 'normal' }]);
    t.equal(s.aimingMarkers.filter((m) => m.hex === '5,5').length, n, opt);
  }
});

t.test('A26: one damage roll against each unit of the hex, each decides for itself', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-artillery', hex: '5,1' },
    { army: 'Vesania', kind: 'order-of-aquarius', hex: '5,3' }, // Defence 3
    { army: 'Vesania', kind: 'lions-of-vesania', hex: '5,3' }, // Defence 4
  ]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  // aim 6 ≥ 3; damage 4,1: 3 + 4 = 7 beats both
  s = withDice(s, [6, 4, 1]);
  s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,3', ammo: 'normal' }]);
  t.equal(unit(s, 'V01').strength, 2);
  t.equal(unit(s, 'V02').strength, 2);
  t.same(s.pending.map((p) => p.unit), ['V01', 'V02']);
  t.same(game.activeRoles(s), ['Vesania']);
  s = play(s, ['Vesania', { type: 'retreat', to: '5,4' }]);
  t.equal(s.pending[0]!.unit, 'V02');
});

t.test('§12.3/§12.4/A32/A33/A36: incendiary and smoke from Special Artillery, on empty hexes too', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'special-artillery', hex: '5,1' },
    { army: 'Vesania', kind: 'order-of-aquarius', hex: '5,3' },
    { army: 'Vesania', kind: 'lions-of-vesania', hex: '5,3' },
  ]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  const acts = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'bombard');
  t.ok(acts.some((a) => a.type === 'bombard' && a.hex === '7,3' && a.ammo === 'smoke'), 'smoke on an empty hex');
  t.notOk(acts.some((a) => a.type === 'bombard' && a.hex === '7,3' && a.ammo === 'normal'), 'A36: not normal ammunition on an empty hex');
  // aim 3; V01 tests 1+1 (passes), V02 tests 6+6 (fails, loses a step)
  s = withDice(s, [3, 1, 1, 6, 6]);
  s = play(s, ['Thargaton', { type: 'bombard', unit: 'T01', hex: '5,3', ammo: 'incendiary' }]);
  t.same(s.features['5,3'], ['fire']);
  t.equal(unit(s, 'V02').strength, 2);
  t.equal(unit(s, 'V01').strength, 3);
  t.ok(game.legalActions(s, 'Vesania').some((a) => a.type === 'stay'));
  s = play(s, ['Vesania', { type: 'stay' }]);
  s = play(s, ['Thargaton', { type: 'end-turn' }], ['Vesania', { type: 'end-turn' }]);
  t.equal(unit(s, 'V01').strength, 2, "end of its own turn on fire: -1");
  // Smoke: units in it cannot be attacked in melee or at range (A33).
  let m = position('open', [
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,3' },
  ], 'Thargaton', {}, { '5,3': ['smoke'] });
  m = play(m, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.notOk(game.legalActions(m, 'Thargaton').some((a) => a.type === 'melee'));
});

t.test('A9: the Order of the Scorpion moves then fires at 1–3 hexes with LOS, from an enemy ZOC too', async (t) => {
  let s = position('open', [
    { army: 'Vesania', kind: 'order-of-the-scorpion', hex: '5,6' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,4' },
  ], 'Vesania');
  s = play(s, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'move', to: '5,5' }]);
  t.same(targetsOf(s, 'fire'), ['T01']);
  t.same(targetsOf(s, 'bombard'), [], 'no aimed fire');
});

t.test('§9.4: a unit escaping from fire into swamp shows it is the kind that may enter swamp (the Scorpion, Light Cavalry)', async (t) => {
  // skirmish terrain: swamp 7,5. Aim at 3 hexes needs 4; the Scorpion tests 1+1 ≤ 6 and may leave.
  let s = position('skirmish', [
    { army: 'Thargaton', kind: 'special-artillery', hex: '7,1' },
    { army: 'Vesania', kind: 'order-of-the-scorpion', hex: '7,4' },
  ]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = play(withDice(s, [4, 1, 1]), ['Thargaton', { type: 'bombard', unit: 'T01', hex: '7,4', ammo: 'incendiary' }]);
  t.notOk(unit(s, 'V01').revealed, 'the fire test reveals nothing');
  t.ok(game.legalActions(s, 'Vesania').some((a) => a.type === 'retreat' && a.to === '7,5'));
  s = play(s, ['Vesania', { type: 'retreat', to: '7,5' }]);
  t.ok(unit(s, 'V01').revealed, 'revealed by the move into swamp');
  const v = game.view(s, 'Thargaton') as { armies: { Vesania: { units: { id: string; kind?: string }[] } } };
  t.equal(v.armies.Vesania.units.find((u) => u.id === 'V01')!.kind, 'order-of-the-scorpion');
});
