/**
 * The Muster event (card text; INTERPRETATIONS 19): name a Friendly or Vacant
 * area, then blocks from any areas make normal 1–2 area moves ending there.
 */
import t from 'tap';
import { act, frame, legal, phase, where } from './action-phase-helpers.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';

const HEIRS_AWAY = {
  'henry-vi': { loc: 'france' }, 'exeter-l': { loc: 'france' }, somerset: { loc: 'scotland' },
  'duke-of-york': { loc: 'ireland' }, rutland: { loc: 'ireland' }, march: { loc: 'calais' },
};
const at = (area: string) => ({ loc: area });
const of = (s: R3State, type: string, field: string) => legal(s).filter((a) => a.type === type).map((a) => a[field] as string).sort();

function start(): R3State {
  return phase({ clear: true, blocks: { ...HEIRS_AWAY,
    norfolk: at('essex'), suffolk: at('essex'), hastings: at('oxford'), worcester: at('rutland'), herbert: at('lincoln'),
    arundel: at('kent'), essex: at('kent'), 'canterbury-church-y': at('kent'), 'london-levy': at('kent'),
    oxford: at('leicester') },
  played: { York: 'muster', Lancaster: 'ap2-2' }, p1: 'York' }, 'York');
}

t.test('Muster — the muster area is Friendly or Vacant and reachable; Enemy areas are not offered', async (t) => {
  const s = start();
  t.equal(frame(s).s, 'muster_event');
  const areas = of(s, 'muster', 'area');
  t.ok(areas.includes('middlesex') && areas.includes('essex'));
  t.notOk(areas.includes('leicester'), 'Enemy area');
  t.notOk(areas.includes('calais') , 'no sea moves: Calais is out of reach by land');
  t.ok(legal(s).some((a) => a.type === 'end'), 'the card may go unused');
});

t.test('Muster — blocks from several areas end in the muster area; normal stops, border limits, no AP', async (t) => {
  let s = act(start(), { type: 'muster', area: 'middlesex' });
  t.equal(frame(s).s, 'muster_who');
  t.same(of(s, 'select', 'block'), ['arundel', 'canterbury-church-y', 'essex', 'hastings', 'london-levy', 'norfolk', 'suffolk', 'worcester'],
    'Lincoln cannot reach Middlesex: Leicester is Enemy (would stop the block)');
  s = act(s, { type: 'select', block: 'worcester' });
  t.same(of(s, 'step', 'area'), ['essex'], 'Rutland → Essex → Middlesex');
  s = act(s, { type: 'step', area: 'essex' });
  t.same(legal(s), [{ type: 'step', area: 'middlesex' }], 'the move must end in the muster area');
  s = act(s, { type: 'step', area: 'middlesex' });
  t.equal(where(s, 'worcester'), 'middlesex');
  for (const b of ['arundel', 'essex', 'canterbury-church-y']) {
    s = act(s, { type: 'select', block: b });
    s = act(s, { type: 'step', area: 'middlesex' });
  }
  t.equal(s.borderUse['kent|middlesex|York'], 3, 'blue border: 3');
  s = act(s, { type: 'select', block: 'london-levy' });
  t.same(of(s, 'step', 'area'), ['sussex'], 'the 4th Kent block goes round through Sussex');
  s = act(s, { type: 'step', area: 'sussex' });
  s = act(s, { type: 'step', area: 'middlesex' });
  t.equal(where(s, 'london-levy'), 'middlesex');
  t.notOk(of(s, 'select', 'block').includes('worcester'), 'a block moves once');
  t.equal(s.acted.filter((x) => x === 1).length, 5);
  t.equal(s.undo.length, 8, 'the muster choice and every step are undoable (1 + 2 + 3 + 2)');
  s = act(s, { type: 'end' });
  t.equal(frame(s).side, 'Lancaster');
});
