/**
 * 6.4 battle hits (W11) and defensive bonuses (2.2–2.6, 6.4; W12 crown and shield ).
 */
import t from 'tap';
import { act, actors, battle, bf, frame, ix, legal, stepsOf, where, withDice } from './battle-helpers.ts';
import { firepowerOf } from '../../../src/games/richard-iii/defence.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';
import type { Position } from '../../../src/games/richard-iii/position.ts';

const passAll = (s: R3State, side: string): R3State => {
  while (frame(s).s === 'battle' && frame(s).side === side) s = act(s, { type: 'pass', block: actors(s)[0]! });
  return s;
};

// Lancaster's Stanley (B2, strength 3) attacks Rutland from Lincoln.
const w11 = (york: Position['blocks']): R3State =>
  battle({
    blocks: { 'stanley-l': { loc: 'rutland', steps: 3 }, ...york },
    attacks: { rutland: { attacker: 'Lancaster', main: 'lincoln', entries: { Lancaster: ['lincoln'] } } },
  });

t.test('W11 — hits go to the strongest block; the owner chooses among ties', (t) => {
  let s = w11({ norfolk: { loc: 'rutland', steps: 4 }, suffolk: { loc: 'rutland', steps: 3 }, hastings: { loc: 'rutland', steps: 1 } });
  s = passAll(s, 'York'); // York's B blocks defend first
  t.same(actors(s), ['stanley-l']);
  s = withDice(s, 3, (d) => d[0]! <= 2 && d[1]! <= 2 && d[2]! > 2);
  s = act(s, { type: 'fire', block: 'stanley-l' });
  t.ok(s.log.some((l) => /^Lancaster: Stanley \(3\) fires at B2: [12] [12] [3-6] — 2 hits\.$/.test(l.pub)), 'roll logged with the name and side');
  t.equal(stepsOf(s, 'norfolk'), 3, 'first hit on Norfolk, the strongest');
  t.equal(frame(s).s, 'battle_hits', 'Norfolk and Suffolk now tie at 3: York chooses');
  t.equal(frame(s).side, 'York');
  t.same(legal(s).map((a) => a['block']).sort(), ['norfolk', 'suffolk']);
  t.same(legal(s, 'Lancaster'), []);
  s = act(s, { type: 'hit', block: 'suffolk' });
  t.equal(stepsOf(s, 'suffolk'), 2);
  t.equal(stepsOf(s, 'norfolk'), 3);
  t.equal(frame(s).s, 'battle', 'back to the battle');
  t.equal(bf(s).round, 2);
  t.end();
});

t.test('W11 — excess passes on after an elimination; no choice when all die; beyond the last block hits are lost', (t) => {
  let s = w11({ hastings: { loc: 'rutland', steps: 2 }, worcester: { loc: 'rutland', steps: 1 } });
  s = passAll(s, 'York');
  s = withDice(s, 3, (d) => d.every((x) => x <= 2));
  s = act(s, { type: 'fire', block: 'stanley-l' });
  t.equal(where(s, 'hastings'), 'dead');
  t.equal(where(s, 'worcester'), 'dead', 'the third hit went on to Worcester without a prompt (all die anyway)');
  t.equal(frame(s).s, 'regroup', 'Lancaster won at once (G-2)');
  t.equal(frame(s).side, 'Lancaster');

  s = w11({ worcester: { loc: 'rutland', steps: 2 } });
  s = passAll(s, 'York');
  s = withDice(s, 3, (d) => d.every((x) => x <= 2));
  s = act(s, { type: 'fire', block: 'stanley-l' });
  t.equal(where(s, 'worcester'), 'dead', 'two hits eliminate Worcester, the third is lost');
  t.equal(stepsOf(s, 'stanley-l'), 3);
  t.end();
});

t.test('6.3 — Reserves are never hit in round 1', (t) => {
  let s = battle({
    blocks: { 'stanley-l': { loc: 'rutland', steps: 3 }, worcester: { loc: 'rutland', steps: 1 }, norfolk: { loc: 'rutland' } },
    attacks: { rutland: { attacker: 'Lancaster', main: 'lincoln', entries: { Lancaster: ['lincoln'], York: ['east-anglia'] }, reserves: ['norfolk'] } },
  });
  s = passAll(s, 'York');
  s = withDice(s, 3, (d) => d.every((x) => x <= 2));
  s = act(s, { type: 'fire', block: 'stanley-l' });
  t.equal(where(s, 'worcester'), 'dead');
  t.equal(stepsOf(s, 'norfolk'), 4, 'the York reserve is untouched');
  t.equal(frame(s).s, 'battle', 'the battle goes on: York still has its reserve');
  t.end();
});

/* ----------------------------------------------------- defensive bonuses */

const fp = (s: R3State, id: string): number => firepowerOf(s, bf(s), ix(id));

t.test('W12 — Exeter alone defending Cornwall fires A3; with a more senior Royal heir A2', (t) => {
  let s = battle({
    blocks: { herbert: { loc: 'cornwall' } },
    attacks: { cornwall: { attacker: 'York', main: 'somerset', entries: { York: ['somerset'] } } },
  });
  t.equal(fp(s, 'exeter-l'), 3, 'A1 +1 own shield +1 crown');
  t.equal(fp(s, 'herbert'), 2, 'the attacker gets no bonus');
  t.same(actors(s), ['exeter-l'], 'defending A before attacking A');
  s = act(s, { type: 'fire', block: 'exeter-l' });
  t.ok(s.log.some((l) => /^Lancaster: Exeter \(3\) fires at A3: /.test(l.pub)));

  s = battle({
    blocks: { herbert: { loc: 'cornwall' }, 'henry-vi': { loc: 'cornwall' } },
    attacks: { cornwall: { attacker: 'York', main: 'somerset', entries: { York: ['somerset'] } } },
  });
  t.equal(fp(s, 'exeter-l'), 2, 'Exeter keeps only his own shield');
  t.equal(fp(s, 'henry-vi'), 3, 'the King (B2) takes the crown');
  t.end();
});

t.test('2.3 [R-4] — the senior Royal heir on his shield and a crown gets +2; juniors nothing; Pretender heirs no crown', (t) => {
  const pos = (king: 'York' | 'Lancaster'): R3State =>
    battle({
      king,
      crown: { York: 'duke-of-york', Lancaster: 'henry-vi' },
      blocks: { 'duke-of-york': { loc: 'south-yorks' }, march: { loc: 'south-yorks' }, 'york-levy': { loc: 'south-yorks' } },
      attacks: { 'south-yorks': { attacker: 'Lancaster', main: 'lincoln', entries: { Lancaster: ['lincoln'] } } },
    });
  let s = pos('York');
  t.equal(fp(s, 'duke-of-york'), 5, 'King Duke of York B3 on a York shield and a crown: B5');
  t.equal(fp(s, 'march'), 3, 'March (A3) gets neither: both symbols go to the senior heir');
  t.equal(fp(s, 'york-levy'), 3, 'a levy attacking its own city gets nothing (C3 printed)');
  s = pos('Lancaster');
  t.equal(fp(s, 'duke-of-york'), 4, 'the Pretender gets his shield only, never the crown');
  t.end();
});

t.test('6.4 — noble shield, cathedral, city levy, Welsh in Wales: +1 for the defender only', (t) => {
  let s = battle({
    blocks: { 'rivers-l': { loc: 'leicester' }, hastings: { loc: 'leicester' } },
    attacks: { leicester: { attacker: 'York', main: 'derby', entries: { York: ['derby'] } } },
  });
  t.equal(fp(s, 'rivers-l'), 3, 'Rivers on his Leicester shield');
  t.equal(fp(s, 'hastings'), 2, 'Hastings also has a Leicester shield but attacks');
  s = battle({
    blocks: { 'york-church-l': { loc: 'south-yorks' }, 'york-levy': { loc: 'south-yorks' }, herbert: { loc: 'south-yorks' } },
    attacks: { 'south-yorks': { attacker: 'York', main: 'derby', entries: { York: ['derby'] } } },
  });
  t.equal(fp(s, 'york-church-l'), 3, 'church on its cathedral');
  t.equal(fp(s, 'york-levy'), 4, 'levy in its own city');
  s = battle({
    blocks: { 'welsh-mercenary': { loc: 'powys' }, 'coventry-levy': { loc: 'powys' }, herbert: { loc: 'powys' } },
    attacks: { powys: { attacker: 'York', main: 'hereford', entries: { York: ['hereford'] } } },
  });
  t.equal(fp(s, 'welsh-mercenary'), 3, 'Welsh in Wales');
  t.equal(fp(s, 'coventry-levy'), 2, 'a levy outside its city');
  t.end();
});
