/**
 * The Political Turn (8.0–8.5) in its fixed order (INTERPRETATIONS 42, §L4):
 * disband, usurpation (and the end of the last campaign, 9.0 ), Pretender
 * goes home and his exile limits, King goes home and his exile limits, Campaign
 * Reset.
 */
import t from 'tap';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { ownerOf, top } from '../../../src/games/richard-iii/state.ts';
import {
  campaignReset, disband, handlers, startPoliticalTurn, usurpation, usurpationCount,
} from '../../../src/games/richard-iii/political-turn.ts';
import { act, B, blockActs, legal, pubLog } from './political-turn-helpers.ts';

t.test('8.1: levies, Bombards and the Welsh to the pool; other mercenaries home; the Rebel removed', async (t) => {
  const s = buildPosition({
    blocks: {
      'london-levy': { loc: 'middlesex' }, 'bombard-l': { loc: 'warwick' }, 'welsh-mercenary': { loc: 'powys' },
      'irish-mercenary': { loc: 'kent' }, 'french-mercenary': { loc: 'cornwall' }, rebel: { loc: 'sussex' },
      'burgundian-mercenary': { loc: 'calais', down: true },
    },
  });
  disband(s);
  t.equal(s.loc[B('london-levy')], 'pool');
  t.equal(s.loc[B('bombard-l')], 'pool');
  t.equal(s.loc[B('welsh-mercenary')], 'pool', 'the Welsh disband too');
  t.equal(s.loc[B('irish-mercenary')], 'ireland');
  t.equal(s.loc[B('french-mercenary')], 'france');
  t.equal(s.loc[B('rebel')], 'off', 'disbanded until the Campaign Reset');
  t.equal(s.loc[B('burgundian-mercenary')], 'calais');
  t.ok(s.down[B('burgundian-mercenary')], 'stays face-down until the reset');
  t.notMatch(pubLog(s), /London|Irish|Welsh/, 'public text does not name hidden blocks');
  t.match(s.log.find((l) => l.own?.side === 'York')?.own?.text ?? '', /London/, 'owner text does');
});

/** Lancaster (King): Henry VI in Middlesex, Exeter in Cornwall, Somerset in Dorset; York heirs in exile. */
const countBase = () => buildPosition({
  clear: true,
  blocks: {
    norfolk: { loc: 'east-anglia' }, suffolk: { loc: 'oxford' }, 'canterbury-church-y': { loc: 'kent' },
    march: { loc: 'essex' }, 'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'hereford' },
    'stanley-y': { loc: 'isle-of-man' }, 'london-levy': { loc: 'sussex' }, 'irish-mercenary': { loc: 'ireland' },
  },
});

t.test('8.2: usurpation counts nobles, church and heirs on the map, +1 for London', async (t) => {
  const s = countBase();
  t.equal(usurpationCount(s, 'York'), 4,
    'Norfolk, Suffolk, Canterbury (church = noble), March; not Stanley on the Isle of Man, levies, exiles');
  t.equal(usurpationCount(s, 'Lancaster'), 5,
    'Henry VI, Exeter, Somerset, the defected Clarence, +1 for occupying Middlesex');
  s.loc[B('henry-vi')] = 'lancaster';
  t.equal(usurpationCount(s, 'Lancaster'), 4, 'no London bonus when Middlesex is empty');
  s.loc[B('arundel')] = 'middlesex';
  t.equal(usurpationCount(s, 'York'), 6, 'York gets Arundel and the London bonus');
});

t.test('8.2: ties favour the King; a strict majority crowns the Pretender\'s senior heir', async (t) => {
  const s = countBase();
  s.loc[B('arundel')] = 'sussex';
  usurpation(s);
  t.equal(s.king, 'Lancaster', '5 against 5: the King keeps the throne');
  s.loc[B('essex')] = 'essex';
  usurpation(s);
  t.equal(s.king, 'York', '6 against 5');
  t.equal(s.crown.York, B('duke-of-york'), 'the Duke of York (in Ireland) becomes King');
  t.equal(s.crown.Lancaster, B('henry-vi'), 'Henry VI is now the Pretender');
  t.match(pubLog(s), /Usurpation! York takes the throne/);
});

t.test('8.2: a vacant Pretender crown goes to his senior heir in play on usurpation', async (t) => {
  const s = countBase();
  s.loc[B('duke-of-york')] = 'dead';
  s.crown.York = null;
  s.loc[B('essex')] = 'essex';
  s.loc[B('arundel')] = 'sussex';
  usurpation(s);
  t.equal(s.king, 'York');
  t.equal(s.crown.York, B('march'));
});

t.test('9.0 [R-39]: after the last campaign the Political Turn stops at Usurpation; the King wins', async (t) => {
  const s = buildPosition({ scenario: 'richard-iii' });
  startPoliticalTurn(s);
  t.same(s.result, { winner: 'York', reason: 'York holds the throne after the Usurpation step of the last campaign (9.0).' });
  t.equal(top(s).s, 'game_over');

  // Lancaster lands in force: a strict majority usurps and wins.
  const u = buildPosition({
    scenario: 'richard-iii',
    blocks: {
      richmond: { loc: 'pembroke' }, oxford: { loc: 'essex' }, pembroke: { loc: 'pembroke' },
      'shrewsbury-l': { loc: 'south-yorks' }, norfolk: { loc: 'pool' }, suffolk: { loc: 'pool' }, essex: { loc: 'pool' },
    },
  });
  t.equal(usurpationCount(u, 'York'), 5, 'Gloucester, Stanley, Northumberland, Arundel, +1 London');
  t.equal(usurpationCount(u, 'Lancaster'), 6);
  startPoliticalTurn(u);
  t.equal(u.result?.winner, 'Lancaster');
  t.equal(u.king, 'Lancaster');
});

t.test('9.0: a tie after the last campaign leaves the King the winner', async (t) => {
  const s = buildPosition({
    scenario: 'richard-iii',
    blocks: {
      richmond: { loc: 'pembroke' }, oxford: { loc: 'essex' }, pembroke: { loc: 'pembroke' },
      norfolk: { loc: 'pool' }, suffolk: { loc: 'pool' }, essex: { loc: 'pool' },
    },
  });
  startPoliticalTurn(s);
  t.equal(s.result?.winner, 'York', '5 against 5');
});

/** A campaign-1 position for going home: Lancaster King. */
const homeBase = () => buildPosition({
  clear: true,
  blocks: {
    march: { loc: 'kent' }, 'warwick-y': { loc: 'warwick' }, 'kent-y': { loc: 'kent' }, norfolk: { loc: 'east-anglia' },
    clifford: { loc: 'east-yorks' },
  },
});

t.test('8.3/8.4: a whole Political Turn — Pretender goes home, King goes home, Campaign Reset', async (t) => {
  let s = homeBase();
  startPoliticalTurn(s);
  t.equal(s.king, 'Lancaster', 'York 4 (March, Warwick, Kent, Norfolk) against Lancaster 5');
  t.equal(top(s).s, 'pretender_goes_home');
  t.equal(s.loc[B('kent-y')], 'calais', 'R-29: East Yorks Enemy-occupied, Calais his only home: moved automatically');
  t.same(blockActs(s, 'York'), ['march', 'norfolk', 'warwick-y'],
    'March must go to exile; Warwick and Norfolk, already home, may move to another home');
  t.notOk(legal(s, 'York').some((a) => a.type === 'end'), 'not before March has gone home');
  t.same(legal(s, 'Lancaster'), [], 'only the Pretender acts');

  s = act(t, s, 'York', { type: 'block', block: 'march' });
  t.equal(top(s).s, 'pretender_goes_home_to');
  t.same(legal(s, 'York'), [{ type: 'area', area: 'calais' }, { type: 'area', area: 'ireland' }, { type: 'cancel' }],
    '8.3: the Pretender\'s heirs go to his own exile areas');
  s = act(t, s, 'York', { type: 'cancel' });
  t.equal(top(s).s, 'pretender_goes_home', 'cancel returns to the block choice');
  s = act(t, s, 'York', { type: 'block', block: 'march' });
  s = act(t, s, 'York', { type: 'area', area: 'ireland' });
  t.equal(s.loc[B('march')], 'ireland');
  t.ok(legal(s, 'York').some((a) => a.type === 'end'));
  t.notMatch(pubLog(s), /March/, 'go-home moves are public only as areas');

  s = act(t, s, 'York', { type: 'block', block: 'norfolk' });
  t.same(legal(s, 'York'), [{ type: 'area', area: 'caernarvon' }, { type: 'area', area: 'glamorgan' }, { type: 'cancel' }],
    'another home of his, not the one he stands in');
  s = act(t, s, 'York', { type: 'area', area: 'glamorgan' });
  t.equal(s.loc[B('norfolk')], 'glamorgan');
  t.same(blockActs(s, 'York'), ['warwick-y'], 'a block is sent home once');

  s = act(t, s, 'York', { type: 'end' });
  t.equal(s.loc[B('march')], 'ireland', 'G-7: Ireland holds 3 heirs against a limit of 2, but heirs never go to the pool');
  t.equal(top(s).s, 'king_goes_home', 'no exile choice for York: on to the King');
  t.equal(top(s).side, 'Lancaster');
  t.same(blockActs(s, 'Lancaster'), ['clifford', 'exeter-l', 'henry-vi', 'somerset']);
  s = act(t, s, 'Lancaster', { type: 'block', block: 'clifford' });
  t.same(legal(s, 'Lancaster').map((a) => a.area ?? a.type), ['cumbria', 'north-yorks', 'cancel']);
  s = act(t, s, 'Lancaster', { type: 'area', area: 'north-yorks' });
  t.equal(s.loc[B('clifford')], 'north-yorks');
  s = act(t, s, 'Lancaster', { type: 'end' });

  t.equal(s.campaign, 2, '8.5: the next campaign');
  t.equal(s.hands.York.length, 7, 'cards are dealt');
  t.equal(s.hands.Lancaster.length, 7);
  t.equal(top(s).s, 'redeal_offer', 'the redeal option (5.1) follows the deal');
  t.equal(s.loc[B('rebel')], 'pool', 'the Rebel is in the (York) Pretender\'s pool');
});

t.test('8.4/8.3: go-home choices are undoable (INTERPRETATIONS 54); "end" is not', async (t) => {
  const s0 = homeBase();
  startPoliticalTurn(s0);
  const h = handlers[top(s0).s]!;
  t.ok(h.undoable?.(s0, top(s0), { type: 'block', block: 'march' }));
  t.notOk(h.undoable?.(s0, top(s0), { type: 'end' }));
  // Through the game module: send March to Calais, then take it back.
  let s = richardIII.apply(s0, 'York', { type: 'block', block: 'march' });
  s = richardIII.apply(s, 'York', { type: 'area', area: 'calais' });
  t.equal(s.loc[B('march')], 'calais');
  t.ok(richardIII.legalActions(s, 'York').some((a) => a.type === 'undo'));
  s = richardIII.apply(s, 'York', { type: 'undo' });
  s = richardIII.apply(s, 'York', { type: 'undo' });
  t.equal(s.loc[B('march')], 'kent', 'back where he stood');
  t.equal(top(s).s, 'pretender_goes_home');
  t.throws(() => richardIII.apply(s, 'York', { type: 'end' }), 'no "end" while March must go home');
  t.same(richardIII.activeRoles(s), ['York']);
});

t.test('8.4: Royal heirs go to their own shields or any crown area; the King may relocate', async (t) => {
  let s = homeBase();
  s.loc[B('somerset')] = 'essex'; // not a home of his: he must go
  startPoliticalTurn(s);
  s = act(t, s, 'York', { type: 'block', block: 'march' });
  s = act(t, s, 'York', { type: 'area', area: 'calais' });
  s = act(t, s, 'York', { type: 'end' });
  t.equal(top(s).s, 'king_goes_home');
  t.notOk(legal(s, 'Lancaster').some((a) => a.type === 'end'), 'Somerset and Clifford must still go home');
  s = act(t, s, 'Lancaster', { type: 'block', block: 'somerset' });
  const areas = legal(s, 'Lancaster').filter((a) => a.type === 'area').map((a) => a.area as string);
  t.ok(areas.includes('dorset') && areas.includes('lancaster') && areas.includes('lincoln'), 'his own shields');
  t.ok(areas.includes('middlesex') && areas.includes('chester'), 'any crown area');
  t.notOk(areas.includes('east-anglia'), 'Norfolk holds East Anglia (and it has no crown)');
  s = act(t, s, 'Lancaster', { type: 'area', area: 'chester' });
  t.equal(s.loc[B('somerset')], 'chester');
});

t.test('8.3: after a usurpation the deposed King\'s side goes home first, as Pretender', async (t) => {
  let s = buildPosition({
    clear: true,
    blocks: {
      march: { loc: 'middlesex' }, norfolk: { loc: 'east-anglia' }, suffolk: { loc: 'oxford' }, arundel: { loc: 'sussex' },
      'henry-vi': { loc: 'lancaster' }, 'exeter-l': { loc: 'cornwall' }, somerset: { loc: 'dorset' }, oxford: { loc: 'essex' },
    },
  });
  startPoliticalTurn(s);
  t.equal(s.king, 'York', 'York 5 (with London) against Lancaster 4');
  t.equal(top(s).s, 'pretender_goes_home');
  t.equal(top(s).side, 'Lancaster');
  t.same(blockActs(s, 'Lancaster'), ['exeter-l', 'henry-vi', 'somerset'], 'heirs to exile; Oxford has one home, already there');
  s = act(t, s, 'Lancaster', { type: 'block', block: 'henry-vi' });
  t.same(legal(s, 'Lancaster').map((a) => a.area ?? a.type), ['france', 'scotland', 'cancel']);
});

t.test('8.3 [G-6]: a noble with no free home goes to the pool automatically', async (t) => {
  const s = buildPosition({
    clear: true,
    blocks: { march: { loc: 'calais' }, suffolk: { loc: 'kent' }, oxford: { loc: 'east-anglia' }, beaumont: { loc: 'oxford' } },
  });
  startPoliticalTurn(s);
  t.equal(s.loc[B('suffolk')], 'pool');
  t.equal(s.down[B('suffolk')], false, 'upright: recruitable next campaign');
  t.match(pubLog(s), /a block in Kent has no home free and goes to the pool/);
});

t.test('9.1 [R-31]: a Lancastrian Clarence goes home to a Vacant York shield area', async (t) => {
  let s = buildPosition({
    clear: true,
    blocks: {
      'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'kent' }, worcester: { loc: 'rutland' },
      'exeter-l': { loc: 'france' }, somerset: { loc: 'france' }, 'henry-vi': { loc: 'scotland' },
    },
  });
  startPoliticalTurn(s);
  t.equal(s.king, 'Lancaster', '1 against 1: the King keeps the throne');
  t.equal(top(s).s, 'king_goes_home', 'York had nothing to decide: Worcester is home, the heirs in exile stay');
  t.same(blockActs(s, 'Lancaster'), ['clarence-l'], '8.4: blocks in exile stay in exile');
  s = act(t, s, 'Lancaster', { type: 'block', block: 'clarence-l' });
  t.same(legal(s, 'Lancaster').map((a) => a.area ?? a.type), ['hereford', 'south-yorks', 'cancel'],
    'Rutland is Enemy-occupied, so not Vacant');
  s = act(t, s, 'Lancaster', { type: 'area', area: 'south-yorks' });
  t.equal(s.loc[B('clarence-l')], 'south-yorks');
  t.equal(s.campaign, 2, 'nothing else to decide: Campaign Reset and the next deal');
});

t.test('7.2/8.5 [G-7]: the owner sends exile excess to the pool, never an heir', async (t) => {
  let s = buildPosition({
    clear: true,
    blocks: {
      'warwick-y': { loc: 'calais' }, 'salisbury-y': { loc: 'calais' }, 'kent-y': { loc: 'calais' },
      norfolk: { loc: 'calais' }, suffolk: { loc: 'calais' }, 'calais-mercenary': { loc: 'calais' },
      'burgundian-mercenary': { loc: 'calais' },
    },
  });
  startPoliticalTurn(s);
  t.equal(top(s).s, 'exile_limits_pretender', 'Calais: March + 5 nobles against a limit of 4');
  t.same(blockActs(s, 'York'), ['kent-y', 'norfolk', 'salisbury-y', 'suffolk', 'warwick-y'],
    'not March (an heir), not the Calais mercenaries (R-28)');
  s = act(t, s, 'York', { type: 'block', block: 'norfolk' });
  t.equal(s.loc[B('norfolk')], 'pool');
  t.equal(top(s).s, 'exile_limits_pretender', 'still one too many');
  s = act(t, s, 'York', { type: 'block', block: 'suffolk' });
  t.equal(s.loc[B('suffolk')], 'pool');
  t.not(top(s).s, 'exile_limits_pretender', 'Calais is within its limit');
  t.match(pubLog(s), /a block in Calais exceeds the exile limit and goes to the pool/);
});

t.test('7.2/8.5: a forced exile excess goes to the pool automatically', async (t) => {
  const s = buildPosition({
    clear: true,
    blocks: { norfolk: { loc: 'ireland' }, 'irish-mercenary': { loc: 'ireland' } },
  });
  startPoliticalTurn(s);
  t.equal(s.loc[B('norfolk')], 'pool', 'Ireland: two heirs and Norfolk against a limit of 2');
  t.equal(s.loc[B('irish-mercenary')], 'ireland', 'its own mercenary is not counted');
});

t.test('8.5: Campaign Reset — face-down blocks stand up, full strength, the Rebel to the Pretender', async (t) => {
  const s = buildPosition({
    king: 'York',
    crown: { York: 'duke-of-york', Lancaster: 'henry-vi' },
    blocks: {
      'stanley-y': { loc: 'pool', down: true, steps: 0 }, 'burgundian-mercenary': { loc: 'calais', down: true, steps: 0 },
      norfolk: { loc: 'east-anglia', steps: 1 }, 'duke-of-york': { loc: 'ireland', steps: 2 }, rebel: { loc: 'off' },
      'oxford': { loc: 'dead', steps: 0 },
    },
  });
  campaignReset(s);
  t.equal(s.down[B('stanley-y')], false);
  t.equal(s.steps[B('stanley-y')], 4);
  t.equal(s.down[B('burgundian-mercenary')], false, 'G-9: face-down mercenaries stand up at home');
  t.equal(s.steps[B('burgundian-mercenary')], 3);
  t.equal(s.steps[B('norfolk')], 4, 'every block on the map at full strength');
  t.equal(s.steps[B('duke-of-york')], 4);
  t.equal(s.loc[B('rebel')], 'pool', 'the Rebel is in the pool...');
  t.equal(ownerOf(s, B('rebel')), 'Lancaster', '...of the Pretender, Lancaster (3.26)');
  t.equal(s.down[B('rebel')], false);
  t.equal(s.loc[B('oxford')], 'dead', 'the dead stay dead');
  t.equal(s.campaign, 2);
  t.equal(top(s).s, 'redeal_offer');
});

t.test('Kingmaker (INTERPRETATIONS 44/51): the prisoner Henry VI counts for Lancaster but does not hold London', async (t) => {
  const s = buildPosition({ scenario: 'kingmaker' });
  t.equal(usurpationCount(s, 'Lancaster'), 1, 'Henry VI in the Tower; the rest of Lancaster is in France');
  t.equal(usurpationCount(s, 'York'), 11, '10 York heirs and nobles on the map, +1 for London (March in Middlesex)');
  s.loc[B('march')] = 'essex';
  t.equal(usurpationCount(s, 'York'), 10, 'the face-down prisoner alone does not occupy Middlesex for anyone');
  t.equal(usurpationCount(s, 'Lancaster'), 1);
  startPoliticalTurn(s);
  t.equal(s.result?.winner, 'York', 'Kingmaker is a single campaign: the game ends after Usurpation');
});
