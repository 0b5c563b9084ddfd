/**
 * Supply Phase (7.0 [G-10]): minor heirs enter (6.82), succession (6.81), executions
 * of a defected Clarence/Exeter (9.1), supply limits (7.1) and exile limits (7.2),
 * including worked example W15.
 */
import t from 'tap';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { buildPosition, type Position } from '../../../src/games/richard-iii/position.ts';
import { BLOCK_INDEX, type Side } from '../../../src/games/richard-iii/data.ts';
import { top, type R3State } from '../../../src/games/richard-iii/state.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';
import { excessAreas, startSupplyPhase } from '../../../src/games/richard-iii/supply.ts';

const act = (s: R3State, side: Side, a: Action): R3State => richardIII.apply(s, side, a);
const legal = (s: R3State, side: Side): Action[] => richardIII.legalActions(s, side);
const B = (id: string): number => BLOCK_INDEX[id]!;
const reduce = (block: string): Action => ({ type: 'reduce', block });
const pubLog = (s: R3State): string => s.log.map((e) => e.pub).join('\n');

const SIX_Y = ['ap4-1', 'ap4-2', 'ap3-1', 'ap3-2', 'ap2-1', 'ap2-2'];
const SIX_L = ['ap4-3', 'ap4-4', 'ap3-3', 'ap3-4', 'ap2-3', 'ap2-4'];

/** A 1460 position after the Battle Phase of Game Turn 1 (6 cards left each), entering the Supply Phase. */
function supply(p: Position = {}): R3State {
  const s = buildPosition({ turn: 1, hands: { York: SIX_Y, Lancaster: SIX_L }, ...p });
  startSupplyPhase(s);
  return s;
}

/** Runs the Supply Phase again on a state that finished one (a later Game Turn). */
function nextSupply(s: R3State): R3State {
  const c = structuredClone(s);
  c.flow = [];
  startSupplyPhase(c);
  return c;
}

t.test('W16: the 1460 setup is within every limit; the next Game Turn starts', async (t) => {
  const s = supply();
  t.equal(top(s).s, 'play_card');
  t.equal(s.turn, 2);
  t.same(excessAreas(s, 'York'), []);
  t.same(excessAreas(s, 'Lancaster'), []);
});

t.test('W15 / 7.2 [R-28]: three York blocks in Ireland without the Irish mercenary: one loses a step', async (t) => {
  // The Irish mercenary lies face-down at home (eliminated): not counted, and frees no slot.
  let s = supply({ blocks: { march: { loc: 'ireland' }, 'irish-mercenary': { loc: 'ireland', down: true, steps: 0 } } });
  t.equal(top(s).s, 'supply_limits');
  t.equal(top(s).side, 'York');
  t.same(legal(s, 'York'), [reduce('duke-of-york'), reduce('march'), reduce('rutland')], 'York chooses which');
  t.same(legal(s, 'Lancaster'), []);
  s = act(s, 'York', reduce('rutland'));
  const reduced = s; // its log lines: those of the reduction
  t.equal(s.steps[B('rutland')], 2);
  t.same(legal(s, 'York'), [{ type: 'end_supply_limits' }, { type: 'undo' }], 'one loss only; confirm or undo');
  const undone = act(s, 'York', { type: 'undo' });
  t.equal(undone.steps[B('rutland')], 3, 'the reduction is undoable');
  t.equal(top(undone).s, 'supply_limits');
  s = act(s, 'York', { type: 'end_supply_limits' });
  t.equal(top(s).s, 'play_card');
  t.match(pubLog(reduced), /York loses a step in Ireland \(exile limit, 7\.2\)/);
  t.notMatch(pubLog(reduced), /Rutland loses/, 'the public log does not name the block');
  const yorkLog = (richardIII.view(reduced, 'York') as { log: string[] }).log.join('\n');
  t.match(yorkLog, /Rutland loses a step in Ireland/, 'York\'s own log names it');
  t.notMatch((richardIII.view(reduced, 'Lancaster') as { log: string[] }).log.join('\n'), /Rutland/);
  // "... and again in each later Supply Phase while the excess lasts."
  const later = nextSupply(s);
  t.equal(top(later).s, 'supply_limits');
  t.equal(legal(later, 'York').length, 3);
});

t.test('W15: two York blocks plus the Irish mercenary in Ireland: no loss', async (t) => {
  const s = supply();
  t.same(excessAreas(s, 'York'), []);
  t.equal(top(s).s, 'play_card');
});

t.test('7.2 [R-28]: another exile\'s mercenary counts against the limit; the local one is free', async (t) => {
  const s = supply({ blocks: { 'burgundian-mercenary': { loc: 'ireland' } } });
  // Ireland: York, Rutland, Irish (free), Burgundian (counts): 3 counted, limit 2.
  t.same(legal(s, 'York'), [reduce('duke-of-york'), reduce('rutland'), reduce('burgundian-mercenary')]);
  t.notOk(legal(s, 'York').some((a) => a.block === 'irish-mercenary'), 'the Irish are free in Ireland');
});

t.test('7.2: Calais holds 4 blocks plus the Calais and Burgundian mercenaries', async (t) => {
  const s = supply({ blocks: { norfolk: { loc: 'calais' } } });
  // Calais: March, Warwick, Salisbury, Kent, Norfolk + 2 own mercenaries: 5 counted, limit 4.
  const ids = legal(s, 'York').map((a) => a.block);
  t.same(ids, ['march', 'warwick-y', 'kent-y', 'salisbury-y', 'norfolk']);
});

t.test('7.1: 4 blocks per area, 5 with a city; each excess block loses one step (owner\'s choice)', async (t) => {
  let s = supply({
    blocks: {
      // Middlesex (London, limit 5): 6 Lancaster blocks → 1 excess.
      'buckingham-l': { loc: 'middlesex' }, 'northumberland-l': { loc: 'middlesex' },
      'shrewsbury-l': { loc: 'middlesex' }, 'westmoreland-l': { loc: 'middlesex' }, 'stanley-l': { loc: 'middlesex' },
      // Lincoln (no city, limit 4): 6 Lancaster blocks → 2 excess.
      oxford: { loc: 'lincoln' }, clifford: { loc: 'lincoln' }, wiltshire: { loc: 'lincoln' },
      pembroke: { loc: 'lincoln' }, 'rivers-l': { loc: 'lincoln' },
    },
  });
  t.equal(top(s).side, 'Lancaster');
  t.same(richardIII.activeRoles(s), ['Lancaster']);
  t.equal(legal(s, 'Lancaster').length, 12, 'any block in either over-stacked area');
  s = act(s, 'Lancaster', reduce('oxford'));
  const afterOne = legal(s, 'Lancaster').map((a) => a.block);
  t.notOk(afterOne.includes('oxford'), 'a reduced block is not reduced twice for the same excess');
  t.ok(afterOne.includes('clifford'), 'Lincoln still has one excess block');
  s = act(s, 'Lancaster', reduce('clifford'));
  t.same(legal(s, 'Lancaster').filter((a) => a.type === 'reduce').map((a) => a.block).sort(),
    ['buckingham-l', 'henry-vi', 'northumberland-l', 'shrewsbury-l', 'stanley-l', 'westmoreland-l'],
    'only Middlesex is left');
  s = act(s, 'Lancaster', reduce('stanley-l'));
  t.same(legal(s, 'Lancaster'), [{ type: 'end_supply_limits' }, { type: 'undo' }]);
  s = act(s, 'Lancaster', { type: 'end_supply_limits' });
  t.equal(s.steps[B('oxford')], 2);
  t.equal(s.steps[B('clifford')], 2);
  t.equal(s.steps[B('stanley-l')], 3);
  t.equal(s.steps[B('beaumont')], 3, 'unchosen blocks keep their strength');
  t.equal(top(s).s, 'play_card');
  t.same(s.undo, [], 'undo history does not outlive the phase');
});

t.test('7.1/6.83: a block reduced to 0 is eliminated; the phase goes on without a confirmation', async (t) => {
  let s = supply({
    blocks: { oxford: { loc: 'lincoln' }, clifford: { loc: 'lincoln' }, wiltshire: { loc: 'lincoln' },
      'rivers-l': { loc: 'lincoln', steps: 1 } },
  });
  s = act(s, 'Lancaster', reduce('rivers-l'));
  t.equal(s.loc[B('rivers-l')], 'pool', 'Rivers goes face-down to the Lancaster pool');
  t.ok(s.down[B('rivers-l')]);
  t.equal(top(s).s, 'play_card', 'nothing left to undo or confirm');
});

t.test('7.0 / INTERPRETATIONS L3: the Pretender side applies its limits first, then the King side', async (t) => {
  let s = supply({
    blocks: { march: { loc: 'ireland' }, oxford: { loc: 'lincoln' }, clifford: { loc: 'lincoln' },
      wiltshire: { loc: 'lincoln' }, pembroke: { loc: 'lincoln' } },
  });
  t.equal(top(s).side, 'York', 'York (Pretender) first');
  s = act(s, 'York', reduce('march'));
  t.same(legal(s, 'Lancaster'), [], 'Lancaster waits');
  s = act(s, 'York', { type: 'end_supply_limits' });
  t.equal(top(s).side, 'Lancaster');
  t.same(legal(s, 'York'), []);
  t.notOk(legal(s, 'Lancaster').some((a) => a.type === 'undo'), 'York\'s undo history is not Lancaster\'s');
  s = act(s, 'Lancaster', reduce('pembroke'));
  s = act(s, 'Lancaster', { type: 'end_supply_limits' });
  t.equal(top(s).s, 'play_card');
});

t.test('7.1: the Kingmaker prisoner (face-down) is not counted in the York stack', async (t) => {
  const s = buildPosition({
    scenario: 'kingmaker', turn: 1, hands: { York: SIX_Y, Lancaster: SIX_L },
    blocks: { norfolk: { loc: 'middlesex' }, suffolk: { loc: 'middlesex' }, essex: { loc: 'middlesex' },
      hastings: { loc: 'middlesex' } },
  });
  // Middlesex: March + 4 York nobles = 5 (limit 5) and the prisoner Henry VI.
  t.same(excessAreas(s, 'York'), []);
  t.same(excessAreas(s, 'Lancaster').map((e) => e.area), ['france'], 'Kingmaker: France starts one over (5 of 4)');
});

t.test('6.81 / 4.5: Henry VI dies while Prince Edward is a minor: Prince Edward enters and becomes King', async (t) => {
  let s = supply({
    blocks: { 'henry-vi': { loc: 'dead', steps: 0 }, 'norfolk': { loc: 'sussex' } },
    crown: { Lancaster: null }, heirsToEnter: { Lancaster: 1 },
  });
  t.equal(top(s).s, 'enter_heir');
  t.equal(top(s).side, 'Lancaster');
  const areas = legal(s, 'Lancaster').map((a) => a.area);
  t.same(areas, ['cumbria', 'south-yorks', 'caernarvon', 'chester', 'derby', 'pembroke', 'warwick', 'gloucester',
    'middlesex', 'cornwall'], 'Friendly or Vacant crown areas (Sussex is Enemy)');
  t.ok(legal(s, 'Lancaster').every((a) => a.heir === 'prince-edward'), 'the most senior minor');
  s = act(s, 'Lancaster', { type: 'enter_heir', heir: 'prince-edward', area: 'middlesex' });
  t.equal(s.loc[B('prince-edward')], 'middlesex');
  t.equal(s.steps[B('prince-edward')], 3);
  t.equal(s.crown.Lancaster, B('prince-edward'), 'Prince Edward (no. 2) is King, not Exeter (no. 3)');
  t.equal(s.heirsToEnter.Lancaster, 0);
  t.match(pubLog(s), /Prince Edward comes of age and enters play in Middlesex/);
  t.match(pubLog(s), /Prince Edward \(heir no\. 2\) is now the Lancaster King, in Middlesex/);
  t.equal(top(s).s, 'play_card');
});

t.test('6.81/G-5: the Pretender dies: his minor enters in exile [R-25], the senior heir in play becomes Pretender', async (t) => {
  let s = supply({
    blocks: { 'duke-of-york': { loc: 'dead', steps: 0 } },
    crown: { York: null }, heirsToEnter: { York: 1 },
  });
  t.same(legal(s, 'York'), [
    { type: 'enter_heir', heir: 'clarence-y', area: 'calais' },
    { type: 'enter_heir', heir: 'clarence-y', area: 'ireland' },
  ], 'Clarence (no. 4) enters in one of York\'s own exile areas');
  s = act(s, 'York', { type: 'enter_heir', heir: 'clarence-y', area: 'ireland' });
  t.equal(s.loc[B('clarence-y')], 'ireland');
  t.equal(s.crown.York, B('march'), 'March (no. 2, in Calais) becomes Pretender where he stands');
  t.equal(s.loc[B('march')], 'calais');
  t.match(pubLog(s), /March \(heir no\. 2\) is now the York Pretender, in Calais/);
  // Ireland now holds York, Rutland, Clarence (+ Irish): Supply limits follow succession in the same phase.
  t.equal(top(s).s, 'play_card', 'Duke of York is dead: Ireland holds Rutland, Clarence and the Irish');
});

t.test('6.81: a vacant crown with no heir in play brings the senior minor in even with no entry pending', async (t) => {
  let s = supply({
    blocks: { 'duke-of-york': { loc: 'dead' }, march: { loc: 'dead' }, rutland: { loc: 'dead' } },
    crown: { York: null }, heirsToEnter: { York: 0 },
  });
  t.equal(top(s).s, 'enter_heir');
  s = act(s, 'York', { type: 'enter_heir', heir: 'clarence-y', area: 'calais' });
  t.equal(s.crown.York, B('clarence-y'));
  t.equal(s.loc[B('gloucester')], 'minor', 'only one enters');
});

t.test('6.82: two pending heir deaths bring in two minors, most senior first', async (t) => {
  let s = supply({
    blocks: { 'duke-of-york': { loc: 'dead' }, rutland: { loc: 'dead' } },
    crown: { York: null }, heirsToEnter: { York: 2 },
  });
  t.equal(top(s).heir, 'clarence-y');
  s = act(s, 'York', { type: 'enter_heir', heir: 'clarence-y', area: 'calais' });
  t.equal(top(s).heir, 'gloucester');
  s = act(s, 'York', { type: 'enter_heir', heir: 'gloucester', area: 'ireland' });
  t.equal(s.crown.York, B('march'));
  // Calais: March, Warwick, Salisbury, Kent, Clarence = 5 of 4: the limits step follows.
  t.equal(top(s).s, 'supply_limits');
  t.equal(top(s).side, 'York');
});

t.test('6.82 [G-11]: a royal minor with no Friendly or Vacant crown area enters in his side\'s exile', async (t) => {
  const york = ['norfolk', 'suffolk', 'arundel', 'essex', 'worcester', 'hastings', 'herbert',
    'canterbury-church-y', 'london-levy', 'norwich-levy', 'salisbury-levy'];
  const crowns = ['cumbria', 'south-yorks', 'caernarvon', 'chester', 'derby', 'pembroke', 'warwick', 'gloucester',
    'middlesex', 'sussex', 'cornwall'];
  const blocks: Position['blocks'] = {
    'henry-vi': { loc: 'dead' }, 'exeter-l': { loc: 'dorset' }, devon: { loc: 'dorset' }, pembroke: { loc: 'wilts' },
  };
  york.forEach((id, i) => { blocks[id] = { loc: crowns[i]! }; });
  const s = supply({ blocks, crown: { Lancaster: null }, heirsToEnter: { Lancaster: 1 } });
  t.same(legal(s, 'Lancaster').map((a) => a.area), ['france', 'scotland']);
});

t.test('6.82: a pending entry with no minor left is dropped', async (t) => {
  const s = supply({
    blocks: { 'clarence-y': { loc: 'dead' }, gloucester: { loc: 'dead' } },
    heirsToEnter: { York: 1 },
  });
  t.equal(s.heirsToEnter.York, 0);
  t.equal(top(s).s, 'play_card');
});

t.test('9.1 [R-32, R-33]: Lancaster may execute a defected Clarence; York\'s minor enters at the next Supply Phase', async (t) => {
  const pos: Position = { blocks: { 'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'lincoln' } } };
  let s = supply(pos);
  t.equal(top(s).s, 'execute_defector');
  t.same(legal(s, 'Lancaster'), [{ type: 'execute', block: 'clarence-l' }, { type: 'pass' }]);
  t.same(legal(s, 'York'), []);
  const passed = act(s, 'Lancaster', { type: 'pass' });
  t.equal(passed.loc[B('clarence-l')], 'lincoln');
  t.equal(top(passed).s, 'play_card');
  s = act(s, 'Lancaster', { type: 'execute', block: 'clarence-l' });
  t.equal(s.loc[B('clarence-l')], 'dead');
  t.equal(s.loc[B('clarence-y')], 'dead', 'he can never return');
  t.equal(s.heirsToEnter.York, 1, 'his death counts as a York heir death (R-33)');
  t.equal(s.loc[B('gloucester')], 'minor', 'not in this Supply Phase');
  t.match(pubLog(s), /Lancaster executes Duke of Clarence/);
  t.equal(top(s).s, 'play_card');
  const later = nextSupply(s);
  t.same(legal(later, 'York').map((a) => a.heir), ['gloucester', 'gloucester'], 'Gloucester enters next time');
});

t.test('9.1: York may execute a defected Exeter, even from its pool', async (t) => {
  let s = supply({ blocks: { 'exeter-l': { loc: 'off' }, 'exeter-y': { loc: 'pool' } } });
  t.equal(top(s).side, 'York');
  t.same(legal(s, 'York'), [{ type: 'execute', block: 'exeter-y' }, { type: 'pass' }]);
  s = act(s, 'York', { type: 'execute', block: 'exeter-y' });
  t.equal(s.loc[B('exeter-y')], 'dead');
  t.equal(s.heirsToEnter.Lancaster, 1);
});

t.test('7.0 [G-10]: heirs enter, then executions, then limits', async (t) => {
  let s = supply({
    blocks: {
      'duke-of-york': { loc: 'dead' }, 'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'lincoln' },
      oxford: { loc: 'lincoln' }, clifford: { loc: 'lincoln' }, wiltshire: { loc: 'lincoln' },
    },
    crown: { York: null }, heirsToEnter: { York: 1 },
  });
  t.equal(top(s).s, 'enter_heir');
  t.same(legal(s, 'York').map((a) => a.heir), ['gloucester', 'gloucester'], 'Clarence has defected: Gloucester enters');
  s = act(s, 'York', { type: 'enter_heir', heir: 'gloucester', area: 'calais' });
  t.equal(s.crown.York, B('march'));
  t.equal(top(s).s, 'execute_defector');
  s = act(s, 'Lancaster', { type: 'pass' });
  t.equal(top(s).s, 'supply_limits', 'York: Calais 5 of 4');
  t.equal(top(s).side, 'York');
  s = act(s, 'York', reduce('gloucester'));
  s = act(s, 'York', { type: 'end_supply_limits' });
  t.equal(top(s).side, 'Lancaster', 'Lincoln: Beaumont, Oxford, Clifford, Wiltshire, Clarence = 5 of 4');
  t.ok(legal(s, 'Lancaster').some((a) => a.block === 'clarence-l'), 'a defector counts like any block');
});

t.test('7.0: after the seventh Game Turn the Political Turn follows, not an eighth turn', async (t) => {
  const s = buildPosition({ turn: 7, hands: { York: [], Lancaster: [] } });
  startSupplyPhase(s);
  t.not(top(s).s, 'play_card');
});
