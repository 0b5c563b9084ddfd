/**
 * Land moves (5.2), border limits (5.21), pinning (5.22) and battle entries (6.3):
 * worked examples W4, W5, W6 (land part), W8, W9, plus the per-player border
 * limits and the group-move events (Force March, Surprise, Treason).
 */
import t from 'tap';
import { act, apLeft, frame, has, legal, move, phase, selectable, stepsOffered, where, ix } from './action-phase-helpers.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';
import { restoreSnapshot } from '../../../src/games/richard-iii/undo.ts';

// Heirs stay on the map after `clear`; park them in exile so they do not get in the way.
const HEIRS_AWAY = {
  'henry-vi': { loc: 'france' }, 'exeter-l': { loc: 'france' }, somerset: { loc: 'scotland' },
  'duke-of-york': { loc: 'ireland' }, rutland: { loc: 'ireland' }, march: { loc: 'calais' },
};
const at = (area: string) => ({ loc: area });

const count = (s: R3State, area: string, ids: string[]) => ids.filter((id) => where(s, id) === area).length;

t.test('W4 — border limit: a 5th block cannot cross Middlesex–Oxford (yellow 4) directly, only via Leicester or Sussex', async (t) => {
  const five = ['oxford', 'beaumont', 'wiltshire', 'clifford', 'devon'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(five.map((b) => [b, at('middlesex')])) },
    played: { Lancaster: 'ap2-1', York: 'ap2-2' } }, 'Lancaster');
  for (const b of five.slice(0, 4)) s = move(s, b, 'oxford');
  t.equal(count(s, 'oxford', five), 4);
  t.equal(s.borderUse['middlesex|oxford|Lancaster'], 4);
  s = act(s, { type: 'select', block: 'devon' });
  t.notOk(stepsOffered(s).includes('oxford'), '5th direct crossing not offered');
  t.ok(stepsOffered(s).includes('leicester') && stepsOffered(s).includes('sussex'));
  s = act(s, { type: 'step', area: 'leicester' });
  t.ok(stepsOffered(s).includes('oxford'));
  s = act(s, { type: 'step', area: 'oxford' });
  t.equal(frame(s).s, 'action_phase', 'two areas: the move ends by itself');
  t.equal(count(s, 'oxford', five), 5);
  t.equal(apLeft(s), 1, 'one AP for the whole group');
});

t.test('W5 — group move from East Anglia: destinations and six blocks into Rutland for 1 AP', async (t) => {
  const six = ['norfolk', 'suffolk', 'essex', 'hastings', 'herbert', 'worcester'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(six.map((b) => [b, at('east-anglia')])) },
    played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  s = act(s, { type: 'select', block: 'norfolk' });
  t.same(stepsOffered(s), ['essex', 'rutland']);
  const viaEssex = act(s, { type: 'step', area: 'essex' });
  t.same(stepsOffered(viaEssex), ['leicester', 'middlesex', 'rutland'], 'no stepping straight back (INTERPRETATIONS 6)');
  const viaRutland = act(s, { type: 'step', area: 'rutland' });
  t.same(stepsOffered(viaRutland), ['essex', 'leicester', 'lincoln']);
  s = act(s, { type: 'cancel' });
  for (const b of six.slice(0, 3)) s = move(s, b, 'rutland');
  t.equal(s.borderUse['east-anglia|rutland|York'], 3);
  s = act(s, { type: 'select', block: 'herbert' });
  t.same(stepsOffered(s), ['essex'], 'river limit 3 reached: Rutland only through Essex');
  s = act(s, { type: 'cancel' });
  for (const b of six.slice(3)) s = move(s, b, 'essex', 'rutland');
  t.equal(count(s, 'rutland', six), 6);
  t.equal(apLeft(s), 1);
});

t.test('W6 — routes: Glamorgan to Somerset needs three areas (Force March), no land border Kent–Essex / East Yorks–Lincoln', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, herbert: at('glamorgan'), arundel: at('kent'), essex: at('east-yorks') },
    played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
  s = act(s, { type: 'select', block: 'arundel' });
  t.notOk(stepsOffered(s).includes('essex'));
  s = act(s, { type: 'cancel' });
  s = act(s, { type: 'select', block: 'essex' });
  t.notOk(stepsOffered(s).includes('lincoln'));
  s = act(s, { type: 'cancel' });
  s = act(s, { type: 'select', block: 'herbert' });
  t.notOk(stepsOffered(s).includes('somerset'));
  s = act(s, { type: 'step', area: 'hereford' });
  s = act(s, { type: 'step', area: 'gloucester' });
  t.equal(frame(s).s, 'action_phase', 'a normal move ends after two areas');
  t.equal(where(s, 'herbert'), 'gloucester');

  let f = phase({ clear: true, blocks: { ...HEIRS_AWAY, herbert: at('glamorgan') }, played: { York: 'force-march', Lancaster: 'ap2-2' } }, 'York');
  f = move(f, 'herbert', 'hereford', 'gloucester', 'somerset');
  t.equal(where(f, 'herbert'), 'somerset', 'Force March: up to three areas');
});

t.test('5.2 — must stop on entering an Enemy area; the first border is the Main Attack', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('essex'), beaumont: at('middlesex') },
    played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  s = act(s, { type: 'select', block: 'norfolk' });
  s = act(s, { type: 'step', area: 'middlesex' });
  t.equal(frame(s).s, 'action_phase', 'stopped in the Enemy area');
  t.same(s.attacks['middlesex'], { attacker: 'York', main: 'essex', entries: { York: ['essex'], Lancaster: [] }, reserves: [], pirates: [] });
  t.match(s.log[s.log.length - 1]!.pub, 'York moves a block from Essex to Middlesex (battle).');
  t.notMatch(s.log[s.log.length - 1]!.pub, 'Norfolk', 'public log does not name the block');
  t.match(s.log[s.log.length - 1]!.own!.text, 'Norfolk');
});

t.test('5.21 — a red border stops the block; York may never enter Scotland, Lancaster may', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, clifford: at('cumbria') }, played: { Lancaster: 'ap2-1', York: 'ap2-2' } }, 'Lancaster');
  s = act(s, { type: 'select', block: 'clifford' });
  t.ok(stepsOffered(s).includes('scotland'));
  s = act(s, { type: 'step', area: 'north-yorks' });
  t.equal(frame(s).s, 'action_phase', 'red border crossed: stop');
  let y = phase({ clear: true, blocks: { ...HEIRS_AWAY, somerset: at('dorset'), norfolk: at('cumbria') }, played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  y = act(y, { type: 'select', block: 'norfolk' });
  t.notOk(stepsOffered(y).includes('scotland'), 'enemy exile (2.7)');
});

t.test('5.21 — border limits count per player: both sides may cross Oxford–Middlesex four times', async (t) => {
  const york = ['norfolk', 'suffolk', 'essex', 'hastings'];
  const lanc = ['oxford', 'beaumont', 'wiltshire', 'clifford'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(york.map((b) => [b, at('oxford')])),
    ...Object.fromEntries(lanc.map((b) => [b, at('leicester')])) },
  played: { York: 'ap3-1', Lancaster: 'ap2-2' }, p1: 'York' }, 'York');
  for (const b of york) s = move(s, b, 'middlesex', 'essex');
  t.equal(s.borderUse['middlesex|oxford|York'], 4);
  s = act(s, { type: 'end' });
  t.equal(frame(s).s, 'action_phase');
  t.equal(frame(s).side, 'Lancaster', 'Player 2 acts next');
  for (const b of lanc) s = move(s, b, 'middlesex', 'oxford');
  t.equal(s.borderUse['middlesex|oxford|Lancaster'], 4);
  t.equal(count(s, 'oxford', lanc), 4);
});

t.test('W8 — pinning: 3 Main Attack blocks pin 3 of 5 defenders; the others may not leave across Derby or Warwick', async (t) => {
  const defenders = ['oxford', 'beaumont', 'wiltshire', 'clifford', 'devon'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(defenders.map((b) => [b, at('chester')])),
    norfolk: at('derby'), suffolk: at('derby'), essex: at('derby'), hastings: at('warwick') },
  played: { York: 'ap2-1', Lancaster: 'ap2-2' }, p1: 'York' }, 'York');
  for (const b of ['norfolk', 'suffolk', 'essex']) s = move(s, b, 'chester');
  s = move(s, 'hastings', 'chester');
  const a = s.attacks['chester']!;
  t.equal(a.attacker, 'York');
  t.equal(a.main, 'derby', 'Derby is the Main Attack');
  t.same(a.entries.York, ['derby', 'warwick']);
  t.same(a.reserves, [ix('hastings')], 'the Warwick block is a Reserve');
  s = act(s, { type: 'end' });
  t.same(selectable(s).filter((b) => where(s, b) === 'chester'), [...defenders].sort(), 'the defender picks which blocks leave by moving them');
  s = act(s, { type: 'select', block: 'oxford' });
  t.same(stepsOffered(s), ['caernarvon', 'hereford', 'lancaster', 'powys'], 'not across Chester–Derby or Chester–Warwick (R-11, R-21)');
  s = act(s, { type: 'step', area: 'lancaster' });
  s = act(s, { type: 'stop' });
  s = move(s, 'beaumont', 'powys');
  t.same(selectable(s).filter((b) => where(s, b) === 'chester'), [], 'the other 3 are pinned (no land or sea move)');
  t.equal(apLeft(s), 1, 'AP would allow a sea move, but pinned blocks cannot sea-move');
});

t.test('W9 Ex. 1 — Kent declared Main Attack (moved first), the Wilts blocks are Reserves', async (t) => {
  const kent = ['norfolk', 'suffolk', 'essex', 'hastings'], wilts = ['herbert', 'worcester'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(kent.map((b) => [b, at('kent')])),
    ...Object.fromEntries(wilts.map((b) => [b, at('wilts')])), oxford: at('sussex') },
  played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  for (const b of kent) s = move(s, b, 'sussex');
  for (const b of wilts) s = move(s, b, 'sussex');
  t.equal(s.attacks['sussex']!.main, 'kent');
  t.same([...s.attacks['sussex']!.reserves].sort(), wilts.map(ix).sort());
});

t.test('W9 Ex. 2 — three groups across the same Oxford/Sussex border are all Main Attack', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, oxford: at('middlesex'), beaumont: at('oxford'), wiltshire: at('gloucester'),
    norfolk: at('sussex'), suffolk: at('sussex') }, played: { Lancaster: 'ap3-1', York: 'ap2-2' } }, 'Lancaster');
  s = move(s, 'oxford', 'oxford', 'sussex');
  s = move(s, 'wiltshire', 'oxford', 'sussex');
  s = move(s, 'beaumont', 'sussex');
  const a = s.attacks['sussex']!;
  t.equal(a.main, 'oxford');
  t.same(a.reserves, [], 'no Reserves');
  t.equal(apLeft(s), 0);
  t.equal(s.borderUse['oxford|sussex|Lancaster'], 3);
});

t.test('W9 Ex. 3 / R-20 — Player 2 reinforcements are Reserves, at most two borders', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY,
    norfolk: at('rutland'), suffolk: at('rutland'), essex: at('rutland'), hastings: at('middlesex'), herbert: at('middlesex'),
    oxford: at('essex'), beaumont: at('essex'),
    wiltshire: at('east-anglia'), clifford: at('east-anglia'), devon: at('east-anglia'),
    pembroke: at('leicester'), 'rivers-l': at('lincoln') },
  played: { York: 'ap2-1', Lancaster: 'ap4-1' }, p1: 'York' }, 'York');
  for (const b of ['norfolk', 'suffolk', 'essex']) s = move(s, b, 'essex');
  for (const b of ['hastings', 'herbert']) s = move(s, b, 'essex');
  t.equal(s.attacks['essex']!.main, 'rutland');
  s = act(s, { type: 'end' });
  t.notOk(selectable(s).includes('oxford') || selectable(s).includes('beaumont'), 'both Essex defenders pinned (2 ≤ 3)');
  for (const b of ['wiltshire', 'clifford', 'devon']) s = move(s, b, 'essex');
  let a = s.attacks['essex']!;
  t.same(a.entries.Lancaster, ['east-anglia']);
  t.ok(['wiltshire', 'clifford', 'devon'].every((b) => a.reserves.includes(ix(b))), 'reinforcements are Reserves');
  t.ok(['hastings', 'herbert'].every((b) => a.reserves.includes(ix(b))));
  s = move(s, 'pembroke', 'essex');
  a = s.attacks['essex']!;
  t.same(a.entries.Lancaster, ['east-anglia', 'leicester']);
  s = act(s, { type: 'select', block: 'rivers-l' });
  s = act(s, { type: 'step', area: 'rutland' });
  t.notOk(stepsOffered(s).includes('essex'), 'a third reinforcement border is refused (R-20)');
});

t.test('6.3 — an attacker may use at most three different borders into one area', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, oxford: at('leicester'),
    norfolk: at('derby'), suffolk: at('lincoln'), essex: at('oxford'), hastings: at('warwick') },
  played: { York: 'ap4-1', Lancaster: 'ap2-2' } }, 'York');
  s = move(s, 'norfolk', 'leicester');
  s = move(s, 'suffolk', 'leicester');
  s = move(s, 'essex', 'leicester');
  s = act(s, { type: 'select', block: 'hastings' });
  t.notOk(stepsOffered(s).includes('leicester'), 'a fourth border is forbidden');
  t.same(s.attacks['leicester']!.entries.York, ['derby', 'lincoln', 'oxford']);
});

t.test('5.2 — blocks act once per turn; an activated area moves on at 0 AP; other areas need AP', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('essex'), suffolk: at('essex'), hastings: at('kent') },
    played: { York: 'force-march', Lancaster: 'ap2-2' } }, 'York');
  s = move(s, 'norfolk', 'middlesex');
  t.equal(apLeft(s), 0);
  t.same(selectable(s), ['suffolk'], 'Force March: one group; Norfolk has moved; Kent needs an AP');
  s = move(s, 'suffolk', 'middlesex', 'sussex');
  t.same(selectable(s), []);
  t.ok(has(legal(s), { type: 'end' }));
});

t.test('Surprise — border limits +1 for its group (5 across yellow, 3 across red); no recruit', async (t) => {
  const five = ['oxford', 'beaumont', 'wiltshire', 'clifford', 'devon'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(five.map((b) => [b, at('middlesex')])) },
    played: { Lancaster: 'surprise', York: 'ap2-2' } }, 'Lancaster');
  t.notOk(legal(s).some((a) => a.type === 'recruit'));
  for (const b of five) s = move(s, b, 'oxford');
  t.equal(count(s, 'oxford', five), 5);

  const three = ['oxford', 'beaumont', 'wiltshire', 'clifford'];
  let r = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(three.map((b) => [b, at('cumbria')])) },
    played: { Lancaster: 'surprise', York: 'ap2-2' } }, 'Lancaster');
  for (const b of three.slice(0, 3)) r = move(r, b, 'north-yorks');
  t.equal(count(r, 'north-yorks', three), 3);
  r = act(r, { type: 'select', block: 'clifford' });
  t.notOk(stepsOffered(r).includes('north-yorks'), 'red 2+1 = 3');
});

t.test('Treason — one group move, no sea move, no recruit; the roll is kept for the Battle Phase', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('essex'), suffolk: at('kent') },
    played: { York: 'treason', Lancaster: 'ap2-2' } }, 'York');
  t.equal(s.treason, 'York');
  t.notOk(legal(s).some((a) => a.type === 'recruit'));
  s = act(s, { type: 'select', block: 'suffolk' });
  t.notOk(legal(s).some((a) => a.type === 'sea'), 'no sea move with Treason');
  s = act(s, { type: 'step', area: 'sussex' });
  s = act(s, { type: 'stop' });
  t.same(selectable(s), [], 'one group only');
});

t.test('Undo — steps and stops are undoable, selecting is not', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('essex') }, played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  s = act(s, { type: 'select', block: 'norfolk' });
  t.equal(s.undo.length, 0);
  s = act(s, { type: 'step', area: 'middlesex' });
  t.equal(s.undo.length, 1);
  const back = restoreSnapshot(s);
  t.equal(where(back, 'norfolk'), 'essex');
  t.equal(apLeft(back), 2);
});
