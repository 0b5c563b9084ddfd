/**
 * 6.1–6.2 battle sequence and order of battle turns (W10), round 4 (6.2, 6.6,
 * INTERPRETATIONS 24), Bombard initiative, the end of the battle [G-2]
 * and the end of the Battle Phase.
 */
import t from 'tap';
import { act, actors, battle, bf, frame, has, legal, where } from './battle-helpers.ts';
import { BLOCKS } from '../../../src/games/richard-iii/data.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';

// W10: Herbert (A2) and Clarence (B2) attack Rivers (B2) in Leicester from Derby.
const w10 = (): R3State =>
  battle({
    blocks: { herbert: { loc: 'leicester' }, 'clarence-y': { loc: 'leicester' }, 'rivers-l': { loc: 'leicester' } },
    attacks: { leicester: { attacker: 'York', main: 'derby', entries: { York: ['derby'] } } },
  });

const pass = (s: R3State): R3State => act(s, { type: 'pass', block: actors(s)[0]! });

t.test('W10 — order Herbert, Rivers, Clarence in every round; no retreat in round 1', (t) => {
  let s = w10();
  t.equal(frame(s).s, 'battle', 'the only battle starts without asking');
  t.same(bf(s).revealed.map((b) => BLOCKS[b]!.id).sort(), ['clarence-y', 'herbert', 'rivers-l'], 'all three blocks revealed');
  t.ok(s.log.some((l) => /Battle of Leicester: York attacks/.test(l.pub)), 'battle announced with names');
  for (let round = 1; round <= 3; round++) {
    t.equal(bf(s).round, round);
    t.same(actors(s), ['herbert'], `round ${round}: Herbert (attacking A) first`);
    t.equal(frame(s).side, 'York');
    const h = legal(s);
    t.equal(h.some((a) => a.type === 'retreat'), round >= 2, `round ${round}: retreat ${round >= 2 ? 'allowed' : 'not allowed'}`);
    s = pass(s);
    t.same(actors(s), ['rivers-l'], `round ${round}: Rivers (defending B) second`);
    t.equal(frame(s).side, 'Lancaster');
    s = pass(s);
    t.same(actors(s), ['clarence-y'], `round ${round}: Clarence (attacking B) last`);
    t.ok(has(legal(s), { type: 'charge', block: 'clarence-y', target: 'rivers-l' }), 'the senior heir present may charge');
    s = pass(s);
  }
  // Round 4: attackers may only retreat; Rivers fires between them.
  t.equal(bf(s).round, 4);
  t.same(actors(s), ['herbert']);
  t.ok(legal(s).every((a) => a.type === 'retreat'), 'round 4: Herbert may only retreat');
  t.notOk(has(legal(s), { type: 'pass', block: 'herbert' }));
  s = act(s, { type: 'retreat', block: 'herbert', to: 'derby' });
  t.equal(where(s, 'herbert'), 'derby');
  t.same(actors(s), ['rivers-l'], 'Rivers acts between them');
  s = pass(s);
  t.same(actors(s), ['clarence-y']);
  t.ok(legal(s).every((a) => a.type === 'retreat'), 'round 4: Clarence may only retreat (no charge, no pass)');
  s = act(s, { type: 'retreat', block: 'clarence-y', to: 'derby' });
  t.equal(frame(s).s, 'regroup', 'Lancaster won and may regroup');
  t.equal(frame(s).side, 'Lancaster');
  t.notOk(s.attacks['leicester'], 'the battle record is consumed');
  t.end();
});

t.test('6.2 — a round-4 attacker with no legal retreat is eliminated', (t) => {
  // York attacks Kent from Sussex; Middlesex and Sussex hold Lancaster blocks: no way out.
  let s = battle({
    blocks: {
      herbert: { loc: 'kent' }, 'buckingham-l': { loc: 'kent' }, oxford: { loc: 'sussex' },
    },
    attacks: { kent: { attacker: 'York', main: 'sussex', entries: { York: ['sussex'] } } },
  });
  // henry-vi stands in Middlesex (scenario), Oxford in Sussex.
  for (let i = 0; i < 6; i++) s = pass(s);
  // Herbert (A) comes up first in round 4 and cannot retreat: eliminated, battle over.
  t.equal(where(s, 'herbert'), 'dead', 'Herbert (rose noble) is eliminated');
  t.ok(s.log.some((l) => /Herbert is eliminated unable to retreat/.test(l.pub)));
  t.not(frame(s).s, 'battle');
  t.end();
});

t.test('6.2 [R-18] — Bombard A3 in round 1, D3 later; from the Reserves never A3', (t) => {
  let s = battle({
    blocks: { 'bombard-l': { loc: 'essex' }, 'coventry-levy': { loc: 'essex' }, herbert: { loc: 'essex' } },
    attacks: { essex: { attacker: 'Lancaster', main: 'leicester', entries: { Lancaster: ['leicester', 'middlesex'] }, reserves: ['coventry-levy'] } },
  });
  // Round 1: defending Herbert (A2) first, then the attacking Bombard as A3.
  t.same(actors(s), ['herbert']);
  s = pass(s);
  t.same(actors(s), ['bombard-l'], 'the Bombard acts with the A blocks in round 1');
  s = pass(s);
  t.equal(bf(s).round, 2, 'the reserve levy did not act in round 1');
  t.same(actors(s), ['herbert']);
  s = pass(s);
  t.same(actors(s), ['coventry-levy'], 'round 2: the levy (C) joined');
  s = pass(s);
  t.same(actors(s), ['bombard-l'], 'round 2: the Bombard is D3, last');
  t.end();
});

t.test('6.1 — Player 1 chooses among several battles; none left → Supply Phase', (t) => {
  let s = battle({
    p1: 'Lancaster',
    blocks: {
      herbert: { loc: 'essex' }, oxford: { loc: 'essex' },
      norfolk: { loc: 'lincoln' }, beaumont: { loc: 'lincoln' },
    },
  });
  t.equal(frame(s).s, 'battle_phase');
  t.equal(frame(s).side, 'Lancaster');
  t.same(legal(s).map((a) => a['area']).sort(), ['essex', 'lincoln']);
  t.same(legal(s, 'York'), [], 'Player 2 has nothing to choose');
  s = act(s, { type: 'battle', area: 'essex' });
  t.equal(bf(s).area, 'essex');
  t.end();
});
