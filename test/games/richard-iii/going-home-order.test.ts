/**
 * Going home (8.3/8.4): the order in which blocks go home is the owner's choice
 * whenever one block's move can change another's homes (Calais's room, 7.2
 * a Vacant area for a defected Clarence, [R-31]). The engine moves a
 * block with one home (or none) by itself only when that move cannot change
 * any other block's options nor be changed by another move (homes.ts
 * pendingHomes).
 */
import t from 'tap';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { exileCount } from '../../../src/games/richard-iii/homes.ts';
import { startPoliticalTurn } from '../../../src/games/richard-iii/political-turn.ts';
import { top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { act, B, blockActs, legal, pubLog } from './political-turn-helpers.ts';

const where = (s: R3State, id: string): string => s.loc[B(id)]!;

/**
 * Lancaster King, York Pretender. `inCalais` York heirs fill Calais (limit 4);
 * Kent (East Yorks held by Clifford) can go home only to Calais;
 * Warwick stands in Kent and may go to Calais or his two shield areas.
 */
const calaisPosition = (inCalais: string[], warwick = 'kent') => buildPosition({
  clear: true,
  blocks: {
    'duke-of-york': { loc: 'ireland' }, rutland: { loc: 'ireland' }, march: { loc: 'ireland' },
    ...Object.fromEntries(inCalais.map((id) => [id, { loc: 'calais' }])),
    'kent-y': { loc: 'kent' }, 'warwick-y': { loc: warwick }, clifford: { loc: 'east-yorks' },
  },
});

t.test('8.3 [R-29]: a forced move to Calais no longer takes the last room the owner wanted for another block', async (t) => {
  const s0 = calaisPosition(['duke-of-york', 'rutland', 'march']);
  t.equal(exileCount(s0, 'calais'), 3, 'one place left in Calais');
  startPoliticalTurn(s0);
  t.equal(s0.king, 'Lancaster');
  t.equal(top(s0).s, 'pretender_goes_home');
  t.equal(where(s0, 'kent-y'), 'kent', 'Kent is not sent to Calais on his own: Warwick could take that place');
  t.same(blockActs(s0, 'York'), ['kent-y', 'warwick-y'], 'the owner orders them');

  // Kent is chosen like any other block, with his one destination.
  let s = act(t, s0, 'York', { type: 'block', block: 'kent-y' });
  t.same(legal(s, 'York'), [{ type: 'area', area: 'calais' }, { type: 'cancel' }]);
  s = act(t, s, 'York', { type: 'cancel' });

  // Warwick takes the last place; Kent, left with no home, then goes to the pool by himself.
  s = act(t, s, 'York', { type: 'block', block: 'warwick-y' });
  t.same(legal(s, 'York').map((a) => a.area ?? a.type), ['glamorgan', 'warwick', 'calais', 'cancel']);
  s = act(t, s, 'York', { type: 'area', area: 'calais' });
  t.equal(where(s, 'warwick-y'), 'calais');
  t.equal(where(s, 'kent-y'), 'pool', 'Calais full (7.2): no home free');
  t.match(pubLog(s), /a block in Kent has no home free and goes to the pool/);
  t.equal(exileCount(s, 'calais'), 4, 'never over the limit');
  t.equal(top(s).s, 'king_goes_home', 'nothing left to decide for York');

  // The other order stays open: Kent to Calais first, then Warwick to a shield area.
  let o = act(t, s0, 'York', { type: 'block', block: 'kent-y' });
  o = act(t, o, 'York', { type: 'area', area: 'calais' });
  t.equal(where(o, 'kent-y'), 'calais');
  t.same(blockActs(o, 'York'), ['warwick-y'], 'Warwick must still go');
  o = act(t, o, 'York', { type: 'block', block: 'warwick-y' });
  t.same(legal(o, 'York').map((a) => a.area ?? a.type), ['glamorgan', 'warwick', 'cancel'], 'Calais is full now');
});

t.test('8.3 [R-29]: the forced move to Calais is still automatic when it cannot affect another block', async (t) => {
  // Room for two: Kent and Warwick both fit, so Kent goes at once.
  let s = calaisPosition(['duke-of-york', 'rutland']);
  startPoliticalTurn(s);
  t.equal(where(s, 'kent-y'), 'calais', 'Calais has room for every block that could go there');
  t.same(blockActs(s, 'York'), ['warwick-y']);
  s = act(t, s, 'York', { type: 'block', block: 'warwick-y' });
  t.ok(legal(s, 'York').some((a) => a.area === 'calais'), 'the last place is still Warwick\'s to take');

  // Room for one, but no other block could go there (Warwick is in the pool).
  const one = calaisPosition(['duke-of-york', 'rutland', 'march'], 'pool');
  startPoliticalTurn(one);
  t.equal(where(one, 'kent-y'), 'calais', 'no other block could choose Calais');
  t.equal(exileCount(one, 'calais'), 4);
});

t.test('8.3: a York heir going to Calais competes for its room too', async (t) => {
  // March (an heir: Calais or Ireland) stands in Kent; one place left. Heirs may always enter
  // exile, but they fill it: sending March to Calais first would close it to Kent.
  const s0 = calaisPosition(['duke-of-york', 'rutland', 'salisbury-y'], 'pool');
  s0.loc[B('march')] = 'kent';
  startPoliticalTurn(s0);
  t.equal(where(s0, 'kent-y'), 'kent');
  t.same(blockActs(s0, 'York'), ['kent-y', 'march']);
  let s = act(t, s0, 'York', { type: 'block', block: 'march' });
  s = act(t, s, 'York', { type: 'area', area: 'calais' });
  t.equal(where(s, 'kent-y'), 'pool', 'Calais filled by March');
  t.equal(exileCount(s, 'calais'), 4);
});

/**
 * York King, Lancaster Pretender (goes home first) with a defected Clarence in
 * Kent: Hereford and Rutland hold York blocks, so of his three York-shield areas
 * only South Yorks can be Vacant.
 */
const clarencePosition = (extra: Record<string, { loc: string }>) => buildPosition({
  clear: true,
  king: 'York',
  blocks: {
    'clarence-y': { loc: 'off' }, 'clarence-l': { loc: 'kent' },
    'henry-vi': { loc: 'france' }, 'exeter-l': { loc: 'france' }, somerset: { loc: 'scotland' },
    march: { loc: 'middlesex' }, norfolk: { loc: 'hereford' }, suffolk: { loc: 'rutland' },
    ...extra,
  },
});

t.test('9.1 [R-31]: Clarence is not sent to the pool while a block that must leave still holds his Vacant area', async (t) => {
  // Oxford stands in South Yorks and has one home (Essex): he leaves, then South Yorks is Vacant.
  const s = clarencePosition({ oxford: { loc: 'south-yorks' } });
  startPoliticalTurn(s);
  t.equal(s.king, 'York');
  t.equal(where(s, 'oxford'), 'essex', 'Oxford\'s forced move affects nobody else: automatic');
  t.equal(where(s, 'clarence-l'), 'south-yorks', 'then Clarence has one home, and nobody can take it');
  t.equal(top(s).s, 'king_goes_home', 'Lancaster had nothing to decide');
});

t.test('9.1 [R-31]: with no home yet but one that may open, Clarence waits for the owner — who may send him to the pool', async (t) => {
  // Stanley stands in South Yorks and must go home to the Isle of Man or Lancaster (owner's choice).
  const s0 = clarencePosition({ 'stanley-l': { loc: 'south-yorks' } });
  startPoliticalTurn(s0);
  t.equal(top(s0).s, 'pretender_goes_home');
  t.equal(where(s0, 'clarence-l'), 'kent', 'not sent to the pool before Stanley has moved');
  t.same(blockActs(s0, 'Lancaster'), ['clarence-l', 'stanley-l']);

  let s = act(t, s0, 'Lancaster', { type: 'block', block: 'clarence-l' });
  t.same(legal(s, 'Lancaster'), [{ type: 'pool' }, { type: 'cancel' }], 'no home now: the pool');
  s = act(t, s, 'Lancaster', { type: 'pool' });
  t.equal(where(s, 'clarence-l'), 'pool');
  t.same(blockActs(s, 'Lancaster'), ['stanley-l']);

  s = act(t, s0, 'Lancaster', { type: 'block', block: 'stanley-l' });
  s = act(t, s, 'Lancaster', { type: 'area', area: 'lancaster' });
  t.equal(where(s, 'clarence-l'), 'south-yorks', 'South Yorks is Vacant now: his one home, taken at once');
});

t.test('9.1 [R-31]: a forced move into Clarence\'s one Vacant area is the owner\'s to order', async (t) => {
  // The (Lancastrian) Archbishop of York's only home is his cathedral in South Yorks,
  // which is also Clarence's only Vacant York-shield area.
  const s0 = clarencePosition({ 'york-church-y': { loc: 'off' }, 'york-church-l': { loc: 'kent' } });
  startPoliticalTurn(s0);
  t.equal(top(s0).s, 'pretender_goes_home');
  t.same(blockActs(s0, 'Lancaster'), ['clarence-l', 'york-church-l'], 'neither is moved for the owner');

  let s = act(t, s0, 'Lancaster', { type: 'block', block: 'york-church-l' });
  s = act(t, s, 'Lancaster', { type: 'area', area: 'south-yorks' });
  t.equal(where(s, 'clarence-l'), 'pool', 'South Yorks is no longer Vacant: Clarence goes to the pool');

  s = act(t, s0, 'Lancaster', { type: 'block', block: 'clarence-l' });
  s = act(t, s, 'Lancaster', { type: 'area', area: 'south-yorks' });
  t.equal(where(s, 'clarence-l'), 'south-yorks');
  t.equal(where(s, 'york-church-l'), 'south-yorks', 'the cathedral needs no vacancy: he follows by himself');
});
