/**
 * Movement and activations (§5, §8–§13): stacking (§5.1 examples, A15),
 * terrain (§11, A11), ZOC tests (§13, A18), "moved the maximum" (A12),
 * charge (§10.4, A13), the turn's limits (§8), special actions (A2, §12,
 * A34) and undo.
 */
import t from 'tap';
import { stackingOk } from '../../../src/games/black-and-white/board.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { game, play, position, unit, withDice } from './fixture-helpers.ts';

const moves = (s: BWState): string[] =>
  game.legalActions(s, s.player!).filter((a) => a.type === 'move').map((a) => (a as { to: string }).to).sort();
const has = (s: BWState, type: string): boolean => game.legalActions(s, s.player!).some((a) => a.type === type);

t.test('§5.1 stacking: the allowed mixes and the rulebook\'s illegal examples', async (t) => {
  for (const ok of [['infantry'], ['infantry', 'infantry', 'infantry'], ['cavalry', 'cavalry'], ['artillery'], ['cavalry', 'infantry'], ['artillery', 'infantry']] as const) {
    t.ok(stackingOk(ok), ok.join('+'));
  }
  for (const bad of [['cavalry', 'artillery'], ['infantry', 'infantry', 'cavalry'], ['artillery', 'artillery'], ['infantry', 'infantry', 'infantry', 'infantry'], ['cavalry', 'cavalry', 'cavalry'], ['artillery', 'infantry', 'infantry']] as const) {
    t.notOk(stackingOk(bad), bad.join('+'));
  }
});

t.test('A15: a move may not pass through a hex where the stack would break the limit; never into enemies', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,2' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,3' },
    { army: 'Thargaton', kind: 'heavy-cavalry', hex: '5,3' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '6,2' },
  ]);
  s = withDice(s, [1, 1]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.notOk(moves(s).includes('5,3'), 'two cavalry already there');
  t.notOk(moves(s).includes('6,2'), 'enemy hex');
});

t.test('§11 terrain: forest ends the move (A11), stream stops infantry not cavalry, river is closed, swamp only for Light Cavalry (and reveals it)', async (t) => {
  // skirmish terrain: forest 3,4 4,4; swamp 7,5; stream 8,4; river 2,5
  let s = position('skirmish', [{ army: 'Thargaton', kind: 'regular-infantry', hex: '4,3' }]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,4' }]);
  t.notOk(has(s, 'move'), 'entering forest ends the move');
  let f = position('skirmish', [{ army: 'Thargaton', kind: 'regular-cavalry', hex: '4,4' }]);
  f = play(f, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '4,5' }]);
  t.notOk(has(f, 'move'), 'starting in forest: one hex only');
  let st = position('skirmish', [
    { army: 'Thargaton', kind: 'regular-infantry', hex: '8,3' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '9,4' },
  ]);
  st = play(st, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '8,4' }]);
  t.notOk(has(st, 'move'), 'infantry stops in the stream');
  t.equal(st.act, null, 'nothing left to do: the activation ended by itself');
  st = play(st, ['Thargaton', { type: 'activate', units: ['T02'] }], ['Thargaton', { type: 'move', to: '8,4' }]);
  t.ok(moves(st).length > 0, 'cavalry goes on');
  let r = position('skirmish', [{ army: 'Thargaton', kind: 'regular-infantry', hex: '2,4' }]);
  r = play(r, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.notOk(moves(r).includes('2,5'), 'river');
  let sw = position('skirmish', [
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '7,4' },
    { army: 'Thargaton', kind: 'light-cavalry', hex: '6,4' },
  ]);
  sw = play(sw, ['Thargaton', { type: 'activate', units: ['T01'] }]);
  t.notOk(moves(sw).includes('7,5'), 'swamp closed to Regular Cavalry');
  sw = play(sw, ['Thargaton', { type: 'end-activation' }], ['Thargaton', { type: 'activate', units: ['T02'] }]);
  t.ok(moves(sw).includes('7,5'), 'Light Cavalry may enter swamp');
  sw = play(sw, ['Thargaton', { type: 'move', to: '7,5' }]);
  t.ok(unit(sw, 'T02').revealed, 'a move only its kind can make reveals it (§9.4)');
  const v = game.view(sw, 'Vesania') as { armies: { Thargaton: { units: { id: string; kind?: string }[] } } };
  t.equal(v.armies.Thargaton.units.find((u) => u.id === 'T02')!.kind, 'light-cavalry');
  t.equal(v.armies.Thargaton.units.find((u) => u.id === 'T01')!.kind, undefined);
});

t.test('§13/A18: leaving an enemy ZOC takes a test; a failure forbids moving but not attacking', async (t) => {
  const units = [
    { army: 'Thargaton' as const, kind: 'regular-cavalry' as const, hex: '5,3' },
    { army: 'Vesania' as const, kind: 'sirens-of-vesania' as const, hex: '5,4' },
  ];
  let s = play(position('open', units), ['Thargaton', { type: 'activate', units: ['T01'] }]);
  s = withDice(s, [6, 6]);
  s = play(s, ['Thargaton', { type: 'move', to: '5,2' }]);
  t.equal(unit(s, 'T01').hex, '5,3', 'failed: stays');
  t.notOk(has(s, 'move'));
  t.ok(has(s, 'melee'), 'may still attack');
  let p = play(position('open', units), ['Thargaton', { type: 'activate', units: ['T01'] }]);
  p = withDice(p, [1, 2]);
  p = play(p, ['Thargaton', { type: 'move', to: '6,3' }], ['Thargaton', { type: 'move', to: '6,4' }]);
  t.equal(unit(p, 'T01').hex, '6,4', 'a pass covers the whole activation, ZOC to ZOC included');
});

t.test('A18 "each": a detachment\'s units test one by one, and those that fail stay', async (t) => {
  const units = [
    { army: 'Thargaton' as const, kind: 'regular-infantry' as const, hex: '5,3' },
    { army: 'Thargaton' as const, kind: 'regular-infantry' as const, hex: '5,3' },
    { army: 'Vesania' as const, kind: 'sirens-of-vesania' as const, hex: '5,4' },
  ];
  let s = play(position('open', units, 'Thargaton', { a18ZocTest: 'each' }), ['Thargaton', { type: 'activate', units: ['T01', 'T02'] }]);
  s = withDice(s, [1, 1, 6, 6]);
  s = play(s, ['Thargaton', { type: 'move', to: '5,2' }]);
  t.equal(unit(s, 'T01').hex, '5,2');
  t.equal(unit(s, 'T02').hex, '5,3');
});

t.test('A12: infantry that moved 2 may not attack; Order of Aquarius may', async (t) => {
  for (const [kind, army, expect] of [['regular-infantry', 'Thargaton', false], ['order-of-aquarius', 'Vesania', true]] as const) {
    let s = position('open', [
      { army, kind, hex: '5,1' },
      { army: army === 'Thargaton' ? 'Vesania' : 'Thargaton', kind: army === 'Thargaton' ? 'sirens-of-vesania' : 'regular-cavalry', hex: '5,4' },
    ], army);
    const id = `${army[0]}01`;
    s = play(s, [army, { type: 'activate', units: [id] }], [army, { type: 'move', to: '5,2' }], [army, { type: 'move', to: '5,3' }]);
    t.equal(game.legalActions(s, army).some((a) => a.type === 'melee'), expect, kind);
  }
});

t.test('§10.4/A13 charge: exactly three hexes in a row to an enemy, +2 for Heavy Cavalry, not through forest or smoke', async (t) => {
  const units = [
    { army: 'Thargaton' as const, kind: 'heavy-cavalry' as const, hex: '5,1' },
    { army: 'Vesania' as const, kind: 'sirens-of-vesania' as const, hex: '5,5' },
  ];
  let s = position('open', units);
  const charges = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'charge');
  t.same(charges, [{ type: 'charge', unit: 'T01', to: '5,4' }]);
  s = play(s, ['Thargaton', { type: 'charge', unit: 'T01', to: '5,4' }]);
  t.equal(unit(s, 'T01').hex, '5,4');
  t.ok(unit(s, 'T01').revealed, 'a charge reveals the kind');
  t.same(game.legalActions(s, 'Thargaton').filter((a) => a.type !== 'end-activation'), [{ type: 'melee', unit: 'T01', target: 'V01' }], 'moved 3 and may still attack, melee only');
  // 6,6: a double fails whatever; with 4,3 1 + 4 + 2 = 7 > 3
  const hit = play(withDice(s, [4, 3]), ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.equal(unit(hit, 'V01').strength, 2);
  t.equal(game.legalActions(position('open', units, 'Thargaton', {}, { '5,3': ['smoke'] }), 'Thargaton').filter((a) => a.type === 'charge').length, 0, 'smoke on the path');
  const forest = position('skirmish', [
    { army: 'Thargaton', kind: 'heavy-cavalry', hex: '4,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '4,5' },
  ]);
  t.equal(game.legalActions(forest, 'Thargaton').filter((a) => a.type === 'charge').length, 0, 'forest (4,4) on the path');
  t.equal(game.legalActions(position('open', [units[0]!]), 'Thargaton').filter((a) => a.type === 'charge').length, 0, 'no enemy at the end: no charge');
  t.equal(game.legalActions(position('open', [{ ...units[0]!, kind: 'regular-cavalry' }, units[1]!]), 'Thargaton').filter((a) => a.type === 'charge').length, 0, 'only charging kinds');
});

t.test('§8: each unit once a turn, one artillery activation a turn, as many activations as markers, unused markers allowed (A17)', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-artillery', hex: '2,1' },
    { army: 'Thargaton', kind: 'regular-artillery', hex: '4,1' },
    { army: 'Thargaton', kind: 'regular-infantry', hex: '6,1' },
    { army: 'Thargaton', kind: 'regular-infantry', hex: '8,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,8' },
  ]);
  t.equal(s.markersLeft, 3);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '2,2' }]);
  const acts = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'activate').map((a) => (a as { units: string[] }).units.join());
  t.same(acts, ['T03', 'T04'], 'neither T01 again nor the other artillery');
  s = play(s, ['Thargaton', { type: 'activate', units: ['T03'] }], ['Thargaton', { type: 'end-activation' }]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T04'] }], ['Thargaton', { type: 'end-activation' }]);
  t.equal(s.player, 'Vesania', 'the third activation ended the turn');
  s = play(s, ['Vesania', { type: 'end-turn' }]);
  t.equal(s.player, 'Thargaton', 'a turn may end with markers unused');
  t.equal(s.markersLeft, 3);
});

t.test('A2 group move: every Regular Infantry may move one hex, each counts as activated and is revealed', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-infantry', hex: '2,1' },
    { army: 'Thargaton', kind: 'regular-infantry', hex: '4,1' },
    { army: 'Thargaton', kind: 'sappers', hex: '6,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,8' },
  ]);
  s = play(s, ['Thargaton', { type: 'special', unit: 'T01', what: 'group-move' }]);
  const movers = new Set(game.legalActions(s, 'Thargaton').filter((a) => a.type === 'move-unit').map((a) => (a as { unit: string }).unit));
  t.same([...movers].sort(), ['T01', 'T02']);
  const v = game.view(s, 'Vesania') as { activation: { groupMove: unknown } };
  t.equal(v.activation.groupMove, null, 'the opponent does not see which units may join');
  s = play(s, ['Thargaton', { type: 'move-unit', unit: 'T01', to: '2,2' }], ['Thargaton', { type: 'move-unit', unit: 'T02', to: '4,2' }]);
  t.ok(unit(s, 'T02').revealed);
  t.equal(s.markersLeft, 2);
  t.same(s.activated.sort(), ['T01', 'T02']);
});

t.test('§12.1/§12.2/A34: Sappers build trench or wire in their hex (not with cavalry there), up to the markers; any infantry removes wire', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'sappers', hex: '5,2' },
    { army: 'Thargaton', kind: 'sappers', hex: '6,2' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '6,2' },
    { army: 'Thargaton', kind: 'regular-infantry', hex: '7,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,8' },
  ], 'Thargaton', {}, { '7,2': ['wire'] });
  const specials = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'special').map((a) => `${(a as { unit: string }).unit}:${(a as { what: string }).what}`);
  t.same(specials.sort(), ['T01:trench', 'T01:wire', 'T04:group-move', 'T04:remove-wire'], 'not T02 (cavalry in its hex, A34)');
  s = play(s, ['Thargaton', { type: 'special', unit: 'T01', what: 'trench' }], ['Thargaton', { type: 'special', unit: 'T04', what: 'remove-wire' }]);
  t.same(s.features, { '5,2': ['trench'] });
  t.ok(unit(s, 'T01').revealed && unit(s, 'T04').revealed, 'special actions reveal');
});

t.test('undo: a plain move can be undone; not once a ZOC test was rolled', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,5' },
  ]);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,3' }]);
  t.ok(game.legalActions(s, 'Thargaton').some((a) => a.type === 'undo'));
  const back = play(s, ['Thargaton', { type: 'undo' }]);
  t.equal(unit(back, 'T01').hex, '5,2');
  t.equal(game.logChange(back).entries.length, 0);
  t.ok(game.legalActions(back, 'Thargaton').some((a) => a.type === 'undo'), 'the activation itself can be undone too');
  s = play(s, ['Thargaton', { type: 'move', to: '5,4' }]);
  s = withDice(s, [1, 1]);
  s = play(s, ['Thargaton', { type: 'move', to: '6,4' }]);
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'undo'), 'no undo across a roll');
  t.notOk(game.legalActions(s, 'Vesania').some((a) => a.type === 'undo'));
});

t.test('§12.3/A32: every entry into a burning hex costs a step, passing through included', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,1' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '9,8' },
  ], 'Thargaton', {}, { '5,2': ['fire'] });
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }], ['Thargaton', { type: 'move', to: '5,3' }]);
  t.equal(unit(s, 'T01').strength, 2);
});

t.test('A13: a stream may only be the last hex of an infantry charge', async (t) => {
  const units = (stream: string) => {
    const s = position('open', [
      { army: 'Vesania', kind: 'brotherhood-of-the-sword', hex: '5,1' },
      { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,5' },
    ], 'Vesania');
    s.scenario = { ...s.scenario, terrain: { [stream]: 'stream' } };
    return game.legalActions(s, 'Vesania').filter((a) => a.type === 'charge').length;
  };
  t.equal(units('5,4'), 1, 'stream as the third hex');
  t.equal(units('5,3'), 0, 'stream as the second hex');
});

t.test('§9.2 example: an infantry unit that can charge may move 1 and melee, move 2 and stop, or charge', async (t) => {
  const s = position('open', [
    { army: 'Vesania', kind: 'brotherhood-of-the-sword', hex: '5,1' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,5' },
  ], 'Vesania');
  t.ok(game.legalActions(s, 'Vesania').some((a) => a.type === 'charge' && a.to === '5,4'), 'charge');
  let one = play(s, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'move', to: '5,2' }], ['Vesania', { type: 'move', to: '5,3' }]);
  t.notOk(game.legalActions(one, 'Vesania').some((a) => a.type === 'melee'), 'after 2 hexes: no attack');
  t.equal(one.act, null, 'and the activation is over');
  const near = position('open', [
    { army: 'Vesania', kind: 'brotherhood-of-the-sword', hex: '5,3' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,5' },
  ], 'Vesania');
  one = play(near, ['Vesania', { type: 'activate', units: ['V01'] }], ['Vesania', { type: 'move', to: '5,4' }]);
  t.ok(game.legalActions(one, 'Vesania').some((a) => a.type === 'melee'), 'after 1 hex: melee');
});

t.test('§9.3 detachment: moves as one, then one of its units may attack if it did not use all its movement', async (t) => {
  let s = position('open', [
    { army: 'Thargaton', kind: 'regular-infantry', hex: '5,2' },
    { army: 'Thargaton', kind: 'line-infantry', hex: '5,2' },
    { army: 'Thargaton', kind: 'sappers', hex: '5,2' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '5,4' },
  ]);
  const dets = game.legalActions(s, 'Thargaton').filter((a) => a.type === 'activate' && a.units.length > 1);
  t.equal(dets.length, 4, 'three pairs and the whole stack');
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01', 'T02'] }]);
  s = play(s, ['Thargaton', { type: 'move', to: '4,2' }]);
  t.same([s.units[0]!.hex, s.units[1]!.hex, s.units[2]!.hex], ['4,2', '4,2', '5,2'], 'the two move together, the third stays');
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'special'), 'no special action in an activation');
  s = play(s, ['Thargaton', { type: 'move', to: '4,3' }]);
  t.notOk(game.legalActions(s, 'Thargaton').some((a) => a.type === 'melee' || a.type === 'fire'), 'moved 2: no attack');
});

t.test('§11/A11: a unit in a forest hex moves one hex at most, so it cannot charge (three hexes) out of it', async (t) => {
  // skirmish terrain: forest 3,4 and 4,4; 4,5 4,6 4,7 are open.
  const s = position('skirmish', [
    { army: 'Thargaton', kind: 'heavy-cavalry', hex: '4,4' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '4,8' },
  ]);
  t.same(game.legalActions(s, 'Thargaton').filter((a) => a.type === 'charge'), [], 'no charge out of the forest');
  const start = position('skirmish', [
    { army: 'Thargaton', kind: 'heavy-cavalry', hex: '4,4' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '4,8' },
  ], 'Thargaton', { a11Forest: 'start-only' });
  t.same(game.legalActions(start, 'Thargaton').filter((a) => a.type === 'charge'), [], "nor with A11 'start-only'");
  const open = position('skirmish', [
    { army: 'Thargaton', kind: 'heavy-cavalry', hex: '4,5' },
    { army: 'Vesania', kind: 'sirens-of-vesania', hex: '4,9' },
  ]);
  open.board = { ...open.board, rows: 9 };
  t.ok(game.legalActions(open, 'Thargaton').some((a) => a.type === 'charge'), 'the same charge from the open hex next to it');
});

t.test('§12.2: infantry that charges into barbed wire stops there and may not attack after that move', async (t) => {
  const s = position('open', [
    { army: 'Vesania', kind: 'brotherhood-of-the-sword', hex: '5,1' },
    { army: 'Thargaton', kind: 'regular-cavalry', hex: '5,5' },
  ], 'Vesania', {}, { '5,4': ['wire'] });
  const c = play(s, ['Vesania', { type: 'charge', unit: 'V01', to: '5,4' }]);
  t.equal(unit(c, 'V01').hex, '5,4');
  t.notOk(game.legalActions(c, 'Vesania').some((a) => a.type === 'melee'), 'no melee after entering the wire');
  t.equal(c.act, null, 'the activation is over');
});
