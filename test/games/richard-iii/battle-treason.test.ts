/**
 * 6.9 treason rolls (W14), 6.91 Warwick, 9.1 Clarence/Exeter, the
 * Treason card and defectors sitting out the round (G-3).
 */
import t from 'tap';
import { act, actors, battle, bf, frame, has, ix, legal, stepsOf, where, withDice } from './battle-helpers.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';

const even = (d: number[]): boolean => d.every((x) => x % 2 === 0);
const someOdd = (d: number[]): boolean => d.some((x) => x % 2 === 1);
const pass = (s: R3State): R3State => act(s, { type: 'pass', block: actors(s)[0]! });
const diceOfLastRoll = (s: R3State): number => {
  const l = [...s.log].reverse().find((x) => /treason roll/.test(x.pub))!.pub;
  return l.split(': ')[2]!.split(' — ')[0]!.trim().split(' ').length;
};

// York is King (Duke of York). York attacks Derby; Lancaster defends with Northumberland, Beaumont and Henry VI.
const w14 = (): R3State =>
  battle({
    king: 'York',
    crown: { York: 'duke-of-york', Lancaster: 'henry-vi' },
    blocks: {
      'duke-of-york': { loc: 'derby' }, 'london-levy': { loc: 'derby' },
      'northumberland-l': { loc: 'derby', steps: 3 }, beaumont: { loc: 'derby' }, 'henry-vi': { loc: 'derby' },
    },
    attacks: { derby: { attacker: 'York', main: 'warwick', entries: { York: ['warwick'] } } },
  });

/** Passes until the Duke of York is up. */
const toDuke = (s: R3State): R3State => {
  while (!actors(s).includes('duke-of-york')) s = pass(s);
  return s;
};

t.test('W14 — the King targets Northumberland (loyalty 2): both even → he defects to the King\'s Reserves', (t) => {
  let s = toDuke(w14());
  t.ok(has(legal(s), { type: 'treachery', block: 'duke-of-york', target: 'northumberland-l' }));
  t.notOk(legal(s).some((a) => a.type === 'treachery' && a['target'] === 'henry-vi'), 'the Pretender cannot be targeted');
  t.notOk(legal(s).some((a) => a.type === 'treachery' && a['target'] === 'beaumont'), 'a rose noble cannot be targeted');
  s = withDice(s, 2, even);
  s = act(s, { type: 'treachery', block: 'duke-of-york', target: 'northumberland-l' });
  t.equal(diceOfLastRoll(s), 2, 'two dice');
  t.equal(where(s, 'northumberland-l'), 'off');
  t.equal(where(s, 'northumberland-y'), 'derby', 'the York version replaces him');
  t.equal(stepsOf(s, 'northumberland-y'), 3, 'at the same strength');
  t.ok(bf(s).reserves.includes(ix('northumberland-y')), "in the King's Reserves");
  t.ok(bf(s).revealed.includes(ix('northumberland-y')), 'still face-up');
  t.equal(bf(s).round, 1);
  t.same(actors(s), ['london-levy'], 'G-3: the defector (B3) sits out the rest of the round');
  s = pass(s);
  t.equal(bf(s).round, 2);
  // Round 2: the defector joins; the King's roll is used; Lancaster may not win him back.
  while (!actors(s).includes('duke-of-york')) {
    if (actors(s).includes('henry-vi')) {
      t.notOk(legal(s).some((a) => a.type === 'treachery' && a['target'] === 'northumberland-y'), 'no winning back a defector');
    }
    s = pass(s);
  }
  t.ok(actors(s).includes('northumberland-y'), 'the defector acts for York from round 2');
  t.notOk(legal(s).some((a) => a.type === 'treachery' && a['block'] === 'duke-of-york'), 'one roll per battle');
  t.end();
});

t.test('W14 — any odd die: no effect, the King\'s turn is used', (t) => {
  let s = toDuke(w14());
  s = withDice(s, 2, someOdd);
  s = act(s, { type: 'treachery', block: 'duke-of-york', target: 'northumberland-l' });
  t.equal(where(s, 'northumberland-l'), 'derby');
  t.ok(s.log.some((l) => /Northumberland stays loyal/.test(l.pub)));
  t.notOk(actors(s).includes('duke-of-york'), 'his battle turn is used');
  t.end();
});

t.test('W14 / 6.91 [R-27] — Kent: 2 dice against the King, 1 against a Lancastrian Warwick; Warwick never rolls on Northumberland or Westmoreland', (t) => {
  const pos = (roller: string): R3State =>
    battle({
      blocks: {
        [roller]: { loc: 'north-yorks' },
        'kent-y': { loc: 'north-yorks' }, 'northumberland-y': { loc: 'north-yorks' }, 'westmoreland-y': { loc: 'north-yorks' },
      },
      attacks: { 'north-yorks': { attacker: 'Lancaster', main: 'cumbria', entries: { Lancaster: ['cumbria'] } } },
    });
  let s = pos('henry-vi');
  while (!actors(s).includes('henry-vi')) s = pass(s);
  t.same(legal(s).filter((a) => a.type === 'treachery').map((a) => a['target']).sort(), ['kent-y', 'northumberland-y', 'westmoreland-y']);
  s = act(s, { type: 'treachery', block: 'henry-vi', target: 'kent-y' });
  t.equal(diceOfLastRoll(s), 2, 'the King rolls 2 dice on Kent');

  s = pos('warwick-l');
  while (!actors(s).includes('warwick-l')) s = pass(s);
  t.same(legal(s).filter((a) => a.type === 'treachery').map((a) => a['target']), ['kent-y'], 'Warwick: Kent only');
  s = act(s, { type: 'treachery', block: 'warwick-l', target: 'kent-y' });
  t.equal(diceOfLastRoll(s), 1, 'Warwick rolls 1 die on Kent');
  t.end();
});

t.test('9.1 — Clarence may be targeted, but not while he is the Pretender', (t) => {
  const pos = (crown: string): R3State =>
    battle({
      crown: { York: crown, Lancaster: 'henry-vi' },
      blocks: { 'clarence-y': { loc: 'oxford' }, 'henry-vi': { loc: 'oxford' } },
      attacks: { oxford: { attacker: 'Lancaster', main: 'middlesex', entries: { Lancaster: ['middlesex'] } } },
    });
  let s = pos('duke-of-york');
  while (!actors(s).includes('henry-vi')) s = pass(s);
  t.ok(has(legal(s), { type: 'treachery', block: 'henry-vi', target: 'clarence-y' }));
  s = withDice(s, 1, even);
  s = act(s, { type: 'treachery', block: 'henry-vi', target: 'clarence-y' });
  t.equal(where(s, 'clarence-l'), 'oxford', 'Clarence defects (1 die)');
  t.equal(frame(s).s, 'regroup', 'York has no block left: Lancaster wins at once');

  s = pos('clarence-y');
  while (!actors(s).includes('henry-vi')) s = pass(s);
  t.notOk(legal(s).some((a) => a.type === 'treachery'), 'not while he is the Pretender');
  t.end();
});

t.test('Treason card [R-17] — one roll before round 1 of a chosen battle; pass keeps it; defector joins at round 2', (t) => {
  const pos = (): R3State =>
    battle({
      treason: 'Lancaster',
      blocks: {
        'stanley-y': { loc: 'chester' }, herbert: { loc: 'chester' }, beaumont: { loc: 'chester' },
        hastings: { loc: 'lincoln' }, clifford: { loc: 'lincoln' },
      },
      attacks: {
        chester: { attacker: 'Lancaster', main: 'derby', entries: { Lancaster: ['derby'] } },
        lincoln: { attacker: 'Lancaster', main: 'derby', entries: { Lancaster: ['derby'] } },
      },
    });
  let s = pos();
  // Lincoln: no legal target (Hastings is a rose noble) → no prompt.
  s = act(s, { type: 'battle', area: 'lincoln' });
  t.equal(frame(s).s, 'battle', 'no Treason prompt without a target');
  t.equal(s.treason, 'Lancaster');

  s = pos();
  s = act(s, { type: 'battle', area: 'chester' });
  t.equal(frame(s).s, 'treason_event');
  t.equal(frame(s).side, 'Lancaster');
  t.same(legal(s), [{ type: 'treason', target: 'stanley-y' }, { type: 'pass' }]);
  const kept = act(s, { type: 'pass' });
  t.equal(kept.treason, 'Lancaster', 'passing keeps the roll for a later battle');
  t.equal(frame(kept).s, 'battle');

  s = withDice(s, 1, even);
  s = act(s, { type: 'treason', target: 'stanley-y' });
  t.equal(s.treason, null, 'one roll per card');
  t.equal(where(s, 'stanley-l'), 'chester');
  t.ok(bf(s).reserves.includes(ix('stanley-l')), 'the defector joins the roller\'s Reserves');
  t.notOk(actors(s).includes('stanley-l'));
  while (bf(s).round === 1) s = pass(s);
  t.ok(!bf(s).reserves.includes(ix('stanley-l')), 'joined at the start of round 2');
  t.end();
});
