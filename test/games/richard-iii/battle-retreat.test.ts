/**
 * 6.6 retreats (R-42 entry borders, R-22 per-round border limits, exile areas,
 * Piracy R-41) and 6.7 regroup (R-23 fresh border limits) and the hand-over to
 * the Supply Phase.
 */
import t from 'tap';
import { act, actors, battle, bf, frame, legal, where, withDice } from './battle-helpers.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';

const pass = (s: R3State): R3State => act(s, { type: 'pass', block: actors(s)[0]! });
const retreatsOf = (s: R3State, block: string): string[] =>
  legal(s).filter((a) => a.type === 'retreat' && a['block'] === block).map((a) => a['to'] as string);
const upTo = (s: R3State, block: string): R3State => {
  while (!actors(s).includes(block)) s = pass(s);
  return s;
};

// Cumbria: York attacked from North Yorks; York holds Northumbria and Lancaster (area); Scotland is vacant.
const cumbria = (): R3State =>
  battle({
    blocks: {
      herbert: { loc: 'cumbria' }, hastings: { loc: 'cumbria' },
      clifford: { loc: 'cumbria' }, pembroke: { loc: 'cumbria' }, wiltshire: { loc: 'cumbria' },
      norfolk: { loc: 'northumbria' }, suffolk: { loc: 'lancaster' },
    },
    attacks: { cumbria: { attacker: 'York', main: 'north-yorks', entries: { York: ['north-yorks'] } } },
  });

t.test('6.6 — no retreat across the enemy\'s entry border; Scotland for Lancaster only; red border limit per round [R-22]', (t) => {
  let s = cumbria();
  t.equal(retreatsOf(s, 'clifford').length, 0, 'round 1: no retreat');
  while (bf(s).round === 1) s = pass(s);
  t.same(actors(s), ['clifford']);
  t.same(retreatsOf(s, 'clifford'), ['scotland'], 'Lancaster: not North Yorks (York entered there), not York-held areas; Scotland yes');
  s = act(s, { type: 'retreat', block: 'clifford', to: 'scotland' });
  t.equal(where(s, 'clifford'), 'scotland');
  t.same(actors(s), ['herbert']);
  t.same(retreatsOf(s, 'herbert'), ['lancaster', 'north-yorks', 'northumbria'], 'York: never into Scotland (Lancaster exile)');
  s = pass(s);
  s = upTo(s, 'pembroke');
  s = act(s, { type: 'retreat', block: 'pembroke', to: 'scotland' });
  s = upTo(s, 'wiltshire');
  t.same(retreatsOf(s, 'wiltshire'), [], 'the red border took two blocks this round');
  s = pass(s);
  while (bf(s).round === 2) s = pass(s);
  s = upTo(s, 'wiltshire');
  t.same(retreatsOf(s, 'wiltshire'), ['scotland'], 'border limits are counted afresh each round');
  s = act(s, { type: 'retreat', block: 'wiltshire', to: 'scotland' });
  t.equal(frame(s).s, 'regroup', 'York holds Cumbria');
  t.equal(frame(s).side, 'York');
  t.end();
});

t.test('6.6 [R-42] — a border both sides used is open to Player 2 only', (t) => {
  let s = battle({
    p1: 'York',
    blocks: { herbert: { loc: 'leicester' }, 'rivers-l': { loc: 'leicester' }, 'stanley-l': { loc: 'leicester' } },
    attacks: {
      leicester: { attacker: 'York', main: 'derby', entries: { York: ['derby'], Lancaster: ['derby'] }, reserves: ['stanley-l'] },
    },
  });
  while (bf(s).round === 1) s = pass(s);
  s = upTo(s, 'herbert');
  t.notOk(retreatsOf(s, 'herbert').includes('derby'), 'York (Player 1) may not use Derby');
  s = pass(s);
  s = upTo(s, 'rivers-l');
  t.ok(retreatsOf(s, 'rivers-l').includes('derby'), 'Lancaster (Player 2) may');
  t.ok(retreatsOf(s, 'rivers-l').includes('middlesex'), 'a Friendly area is open');
  t.end();
});

t.test('Piracy [R-41] — pirates retreat only by sea, to Friendly/Vacant coasts of the same sea zone', (t) => {
  let s = battle({
    blocks: { 'french-mercenary': { loc: 'kent' }, herbert: { loc: 'kent' } },
    attacks: {
      kent: { attacker: 'Lancaster', main: 'english-channel', entries: { Lancaster: ['english-channel'] }, pirates: ['french-mercenary'] },
    },
  });
  while (bf(s).round === 1) s = pass(s);
  s = upTo(s, 'french-mercenary');
  // English Channel coasts: Cornwall (Exeter), Dorset (Somerset) friendly; Sussex vacant; France own exile; Calais York exile.
  t.same(retreatsOf(s, 'french-mercenary').sort(), ['cornwall', 'dorset', 'france', 'sussex']);
  s = act(s, { type: 'retreat', block: 'french-mercenary', to: 'france' });
  t.equal(where(s, 'french-mercenary'), 'france');
  t.ok(s.log.some((l) => /French.* retreats from Kent to France by sea/.test(l.pub)));
  t.end();
});

t.test('Piracy [R-41] — a victorious pirate regroups only by sea', (t) => {
  let s = battle({
    blocks: { 'french-mercenary': { loc: 'kent' }, 'devon': { loc: 'kent' }, herbert: { loc: 'kent', steps: 1 } },
    attacks: {
      kent: {
        attacker: 'Lancaster', main: 'english-channel', entries: { Lancaster: ['english-channel', 'sussex'] },
        pirates: ['french-mercenary'],
      },
    },
  });
  s = pass(s); // Herbert
  s = withDice(s, 4, (d) => d[0]! <= 3);
  s = act(s, { type: 'fire', block: 'french-mercenary' });
  t.equal(frame(s).s, 'regroup');
  const to = (b: string): string[] => legal(s).filter((a) => a['block'] === b).map((a) => a['to'] as string).sort();
  t.same(to('french-mercenary'), ['cornwall', 'dorset', 'france', 'sussex'], 'English Channel coasts only');
  t.same(to('devon'), ['middlesex', 'sussex'], 'a block that came by land regroups by land');
  t.end();
});

t.test('6.7 [R-23] — the victor regroups with border limits counted afresh; then the next battle / Supply Phase', (t) => {
  let s = battle({
    blocks: {
      herbert: { loc: 'leicester' }, hastings: { loc: 'leicester' }, worcester: { loc: 'leicester' },
      essex: { loc: 'leicester' }, suffolk: { loc: 'leicester' }, 'rivers-l': { loc: 'leicester', steps: 1 },
    },
    attacks: { leicester: { attacker: 'York', main: 'derby', entries: { York: ['derby', 'rutland'] } } },
  });
  s.borderUse['leicester|warwick|York'] = 4; // the movement limit is used up; regroups do not count it
  s = withDice(s, 3, (d) => d[0]! <= 2);
  s = act(s, { type: 'fire', block: 'herbert' });
  t.equal(where(s, 'rivers-l'), 'pool');
  t.equal(frame(s).s, 'regroup');
  t.equal(s.undo.length, 0, 'undo cleared at the end of the battle');
  const opts = legal(s);
  t.ok(opts.some((a) => a.type === 'regroup' && a['to'] === 'warwick'), 'Warwick open despite the Game Turn count');
  t.notOk(opts.some((a) => a['to'] === 'middlesex'), 'never into an Enemy area (Henry VI in Middlesex)');
  t.ok(opts.some((a) => a['to'] === 'derby'), 'entry borders do not restrict a regroup');
  for (const b of ['herbert', 'hastings', 'worcester', 'essex']) s = act(s, { type: 'regroup', block: b, to: 'warwick' });
  t.equal(s.undo.length, 4, 'regroup moves are undoable');
  t.notOk(legal(s).some((a) => a['block'] === 'suffolk' && a['to'] === 'warwick'), 'the yellow border takes four');
  t.ok(legal(s).some((a) => a['block'] === 'suffolk' && a['to'] === 'oxford'));
  s = act(s, { type: 'end_regroup' });
  t.notOk(s.flow.some((f) => f.s === 'battle_phase' || f.s === 'battle' || f.s === 'regroup'), 'the Battle Phase is over');
  t.ok(s.log.some((l) => /York regroups Herbert from Leicester to Warwick/.test(l.pub)));
  t.ok(s.log.some((l) => /^Supply Phase/.test(l.pub)), 'startSupplyPhase was called');
  t.end();
});

t.test('6.7 — an unrevealed Reserve regrouping is not named publicly', (t) => {
  let s = battle({
    blocks: { herbert: { loc: 'leicester' }, hastings: { loc: 'leicester' }, 'rivers-l': { loc: 'leicester', steps: 1 } },
    attacks: { leicester: { attacker: 'York', main: 'derby', entries: { York: ['derby', 'rutland'] }, reserves: ['hastings'] } },
  });
  s = withDice(s, 3, (d) => d[0]! <= 2);
  s = act(s, { type: 'fire', block: 'herbert' });
  s = act(s, { type: 'regroup', block: 'hastings', to: 'oxford' });
  const l = s.log[s.log.length - 1]!;
  t.equal(l.pub, 'York regroups a block from Leicester to Oxford.');
  t.equal(l.own?.text, 'York regroups Hastings from Leicester to Oxford.');
  t.end();
});
