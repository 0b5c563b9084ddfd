/**
 * The Plague event (card text, R-16; INTERPRETATIONS 20): an Enemy area with a
 * city; every block there loses a step; eliminations per 6.8; instant victory.
 */
import t from 'tap';
import { act, frame, legal, phase, where, stepsOf, ix } from './action-phase-helpers.ts';
import { handlers } from '../../../src/games/richard-iii/action-phase.ts';

const HEIRS_AWAY = {
  'henry-vi': { loc: 'france' }, 'exeter-l': { loc: 'france' }, somerset: { loc: 'scotland' },
  'duke-of-york': { loc: 'ireland' }, rutland: { loc: 'ireland' }, march: { loc: 'calais' },
};
const at = (area: string) => ({ loc: area });

t.test('Plague — targets are Enemy areas containing a city (any colour); not Contested, not Friendly', async (t) => {
  const s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'henry-vi': at('middlesex'), beaumont: at('wilts'),
    'bristol-levy': at('somerset'), norfolk: at('somerset'), suffolk: at('east-anglia') },
  played: { York: 'plague', Lancaster: 'ap2-2' }, p1: 'York' }, 'York');
  t.equal(frame(s).s, 'plague_event');
  t.ok(legal(s).some((a) => a.type === 'end'), 'or pass');
  const areas = legal(s).filter((a) => a.type === 'plague').map((a) => a['area']).sort();
  t.same(areas, ['middlesex', 'wilts']);
});

t.test('Plague — every block loses a step; a 1-step block is eliminated; not undoable; then Player 2 acts', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'henry-vi': at('middlesex'), 'rivers-l': { loc: 'middlesex', steps: 1 },
    'bombard-l': at('middlesex') },
  played: { York: 'plague', Lancaster: 'ap2-2' }, p1: 'York' }, 'York');
  t.notOk(handlers['plague_event']!.undoable!(s, frame(s), { type: 'plague', area: 'middlesex' }));
  s = act(s, { type: 'plague', area: 'middlesex' });
  t.equal(stepsOf(s, 'henry-vi'), 3);
  t.equal(stepsOf(s, 'bombard-l'), 2);
  t.equal(where(s, 'rivers-l'), 'pool');
  t.ok(s.down[ix('rivers-l')], 'face-down in the pool (6.83)');
  t.equal(s.undo.length, 0);
  t.ok(s.log.some((l) => l.pub.includes('Plague')));
  t.equal(frame(s).s, 'action_phase');
  t.equal(frame(s).side, 'Lancaster');
});

t.test('Plague — killing the last heir ends the game at once (9.0)', async (t) => {
  let s = phase({ scenario: 'richard-iii', blocks: { gloucester: { loc: 'middlesex', steps: 1 } },
    played: { Lancaster: 'plague', York: 'ap2-2' }, p1: 'Lancaster' }, 'Lancaster');
  s = act(s, { type: 'plague', area: 'middlesex' });
  t.equal(s.result?.winner, 'Lancaster');
  t.equal(where(s, 'gloucester'), 'dead');
});

t.test('Plague — the whole event is applied before the game ends (9.0): every loss taken and logged, then game over', async (t) => {
  // Gloucester (block 4) is York's only heir in this scenario and dies first in
  // block order; Norfolk and Hastings stand with him and must still lose their step.
  let s = phase({ scenario: 'richard-iii', clear: true, blocks: {
    gloucester: { loc: 'middlesex', steps: 1 }, hastings: { loc: 'middlesex', steps: 1 }, norfolk: { loc: 'middlesex', steps: 3 },
  }, played: { Lancaster: 'plague', York: 'ap2-2' }, p1: 'Lancaster' }, 'Lancaster');
  const from = s.log.length;
  s = act(s, { type: 'plague', area: 'middlesex' });
  t.equal(s.result?.winner, 'Lancaster', 'York has no heir left');
  t.equal(frame(s).s, 'game_over');
  t.equal(where(s, 'gloucester'), 'dead');
  t.equal(stepsOf(s, 'norfolk'), 2, 'Norfolk loses his step although the game is already won');
  t.equal(where(s, 'hastings'), 'dead', 'Hastings is eliminated too (a rose noble, 6.83)');
  t.equal(stepsOf(s, 'hastings'), 0);
  const lines = s.log.slice(from);
  t.equal(lines.filter((l) => l.pub === 'York loses a step in Middlesex (Plague).').length, 3, 'one public line per loss');
  t.same(lines.filter((l) => l.own).map((l) => l.own!.text), [
    'Gloucester loses a step in Middlesex (Plague).',
    'Hastings loses a step in Middlesex (Plague).',
    'Norfolk loses a step in Middlesex (Plague).',
  ], 'the owner sees which block lost each step');
  t.ok(lines.some((l) => /Hastings is eliminated by Plague/.test(l.pub)));
  t.match(lines[lines.length - 1]!.pub, /^Game over: York has no living heir left/, 'the game ends after the last loss');
  t.equal(lines.filter((l) => l.pub.startsWith('Game over')).length, 1);
});

t.test('Plague — passing ends the phase', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'henry-vi': at('middlesex') },
    played: { York: 'plague', Lancaster: 'ap2-2' }, p1: 'York' }, 'York');
  s = act(s, { type: 'end' });
  t.equal(frame(s).side, 'Lancaster');
  t.equal(stepsOf(s, 'henry-vi'), 4);
});
