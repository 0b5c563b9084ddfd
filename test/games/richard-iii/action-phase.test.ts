/**
 * The Action Phase as a whole (1.2, 5.0, 5.1, 5.4): AP spending (W1), recruiting
 * (W13 and the placement table), the sample game turn's actions (W16), the order
 * of the two players' phases, logging without naming hidden blocks.
 */
import t from 'tap';
import { act, apLeft, frame, has, legal, move, phase, recruit, seaMove, selectable, where, ix, stepsOf } from './action-phase-helpers.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { startActionPhase } from '../../../src/games/richard-iii/action-phase.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';

const HEIRS_AWAY = {
  'henry-vi': { loc: 'france' }, 'exeter-l': { loc: 'france' }, somerset: { loc: 'scotland' },
  'duke-of-york': { loc: 'ireland' }, rutland: { loc: 'ireland' }, march: { loc: 'calais' },
};
const at = (area: string) => ({ loc: area });
const MINE = ['action_phase', 'move_to', 'sea_move_to', 'recruit_where', 'muster_event', 'muster_who', 'muster_move', 'plague_event'];
const recruitsOffered = (s: R3State) => legal(s).filter((a) => a.type === 'recruit').map((a) => a['block'] as string);
const placesOffered = (s: R3State) => legal(s).filter((a) => a.type === 'place').map((a) => a['area'] as string).sort();

function w1(): R3State {
  return phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('essex'), suffolk: at('kent'), hastings: at('wilts') },
    played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
}

t.test('W1 — AP3: 3 moves, 2 moves + 1 recruit, 1 move + 2 recruits, or 3 recruits', async (t) => {
  let a = w1();
  a = move(a, 'norfolk', 'middlesex');
  a = move(a, 'suffolk', 'sussex');
  a = move(a, 'hastings', 'oxford');
  t.equal(apLeft(a), 0);
  t.same(recruitsOffered(a), [], 'no AP left to recruit');
  t.same(selectable(a), [], 'every block has moved');

  let b = w1();
  b = move(b, 'norfolk', 'middlesex');
  b = move(b, 'suffolk', 'sussex');
  b = recruit(b, 'arundel', 'sussex');
  t.equal(apLeft(b), 0);
  t.notOk(selectable(b).includes('hastings'), 'a third area needs an AP');

  let c = w1();
  c = move(c, 'norfolk', 'middlesex');
  c = recruit(c, 'essex', 'essex');
  c = recruit(c, 'london-levy', 'middlesex');
  t.equal(apLeft(c), 0);

  let d = w1();
  d = recruit(d, 'arundel', 'sussex');
  d = recruit(d, 'essex', 'essex');
  d = recruit(d, 'worcester', 'rutland');
  t.equal(apLeft(d), 0);
  t.same(recruitsOffered(d), []);
  t.same(selectable(d), [], 'no AP to activate an area');
});

t.test('5.1 — an event card\'s AP serve only its event: no recruits with Force March, Surprise, Treason, Piracy', async (t) => {
  for (const card of ['force-march', 'surprise', 'treason', 'piracy']) {
    const s = phase({ clear: true, blocks: { ...HEIRS_AWAY }, played: { York: card, Lancaster: 'ap2-2' } }, 'York');
    t.same(recruitsOffered(s), [], card);
  }
});

t.test('W13 — Lancaster recruits Northumberland and the Newcastle levy in Northumbria; recruits cannot move', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY }, played: { Lancaster: 'ap2-1', York: 'ap2-2' } }, 'Lancaster');
  s = act(s, { type: 'recruit', block: 'northumberland-l' });
  t.same(placesOffered(s), ['cumbria', 'east-yorks', 'northumbria']);
  s = act(s, { type: 'place', area: 'northumbria' });
  s = recruit(s, 'newcastle-levy', 'northumbria');
  t.equal(where(s, 'northumberland-l'), 'northumbria');
  t.equal(where(s, 'newcastle-levy'), 'northumbria');
  t.equal(stepsOf(s, 'northumberland-l'), 4, 'full strength');
  t.equal(s.acted[ix('newcastle-levy')], 3);
  t.notOk(selectable(s).includes('northumberland-l') || selectable(s).includes('newcastle-levy'), 'recruits do not move');
  const last = s.log[s.log.length - 1]!;
  t.equal(last.pub, 'Lancaster recruits a block in Northumbria.');
  t.equal(last.own?.text, 'Lancaster recruits Newcastle (levy) in Northumbria.');
});

t.test('W13 — York recruits Norfolk, Suffolk and the Norwich levy in East Anglia for 3 AP', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY }, played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
  for (const b of ['norfolk', 'suffolk', 'norwich-levy']) s = recruit(s, b, 'east-anglia');
  t.same(['norfolk', 'suffolk', 'norwich-levy'].map((b) => where(s, b)), ['east-anglia', 'east-anglia', 'east-anglia']);
  t.equal(apLeft(s), 0);
});

t.test('5.4 — placement: Bombard in a Friendly city area, Rebel in a Vacant non-exile area, Welsh in Wales, not into Enemy areas', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'henry-vi': at('middlesex'), norfolk: at('glamorgan'), pembroke: at('pembroke') },
    played: { Lancaster: 'ap3-1', York: 'ap2-2' } }, 'Lancaster');
  t.same(placesOffered(act(s, { type: 'recruit', block: 'bombard-l' })), ['middlesex'], 'R-15: London is a York city, the area is Friendly');
  t.same(placesOffered(act(s, { type: 'recruit', block: 'welsh-mercenary' })), ['caernarvon', 'pembroke', 'powys'], 'Glamorgan is Enemy');
  const y = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('middlesex'), oxford: at('kent') }, played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
  const rebel = placesOffered(act(y, { type: 'recruit', block: 'rebel' }));
  t.ok(rebel.includes('isle-of-man') && rebel.includes('sussex'));
  t.notOk(rebel.includes('middlesex') || rebel.includes('kent') || rebel.includes('calais'), 'Vacant, non-exile only');
  t.notOk(recruitsOffered(y).includes('canterbury-church-y'), 'its cathedral area (Kent) is Enemy');
  t.same(placesOffered(act(y, { type: 'recruit', block: 'london-levy' })), ['middlesex']);
});

t.test('5.4 — face-down pool blocks cannot be recruited; an heir in the pool goes to a crown area or exile (INTERPRETATIONS 14)', async (t) => {
  const s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: { loc: 'pool', down: true, steps: 0 }, rutland: { loc: 'pool' } },
    played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
  t.notOk(recruitsOffered(s).includes('norfolk'));
  t.same(placesOffered(act(s, { type: 'recruit', block: 'rutland' })), ['calais', 'ireland'], 'York is the Pretender');
  const l = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'prince-edward': { loc: 'pool' }, norfolk: at('middlesex') },
    played: { Lancaster: 'ap3-1', York: 'ap2-2' } }, 'Lancaster');
  const crowns = placesOffered(act(l, { type: 'recruit', block: 'prince-edward' }));
  t.ok(crowns.includes('cornwall') && !crowns.includes('middlesex') && !crowns.includes('lincoln'), 'Friendly/Vacant crown areas');
});

t.test('1.2 — Player 1 then Player 2, then the Battle Phase; end is always offered', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('essex') }, played: { York: 'ap2-1', Lancaster: 'ap3-2' }, p1: 'York' }, 'York');
  s = act(s, { type: 'select', block: 'norfolk' });
  t.ok(has(legal(s), { type: 'end' }));
  s = act(s, { type: 'step', area: 'middlesex' });
  t.ok(has(legal(s), { type: 'end' }));
  s = act(s, { type: 'end' });
  t.equal(where(s, 'norfolk'), 'middlesex', 'a block in mid-move stays where it is');
  t.equal(frame(s).s, 'action_phase');
  t.equal(frame(s).side, 'Lancaster');
  t.equal(apLeft(s), 3);
  t.equal(s.undo.length, 0, 'undo cleared at the phase boundary');
  s = act(s, { type: 'end' });
  t.ok(s.flow.every((f) => !MINE.includes(f.s)), 'no action-phase frame left: the Battle Phase has begun');
});

t.test('W16 — sample Game Turn 1: the actions of both players', async (t) => {
  let s = buildPosition({ played: { York: 'ap3-1', Lancaster: 'ap3-2' }, p1: 'York', revealed: true, turn: 1 });
  startActionPhase(s, 'York');
  s = seaMove(s, 'warwick-y', 'north-sea', 'east-anglia');
  s = seaMove(s, 'salisbury-y', 'north-sea', 'east-anglia');
  t.equal(apLeft(s), 2, 'major port to major port: 2 blocks for 1 AP');
  s = recruit(s, 'norfolk', 'east-anglia');
  s = recruit(s, 'norwich-levy', 'east-anglia');
  t.equal(apLeft(s), 0);
  s = act(s, { type: 'end' });
  t.equal(frame(s).side, 'Lancaster');
  s = move(s, 'oxford', 'middlesex');
  s = move(s, 'beaumont', 'leicester', 'middlesex');
  s = act(s, { type: 'recruit', block: 'bombard-l' });
  t.same(placesOffered(s), ['middlesex', 'wilts'], 'Friendly areas with a city (Wiltshire holds Wilts, Salisbury)');
  s = act(s, { type: 'place', area: 'middlesex' });
  t.equal(apLeft(s), 0);
  const byArea = (area: string) => s.loc.map((l, b) => (l === area ? b : -1)).filter((b) => b >= 0).sort();
  t.same(byArea('east-anglia'), ['warwick-y', 'salisbury-y', 'norfolk', 'norwich-levy'].map(ix).sort());
  t.same(byArea('calais'), ['march', 'kent-y', 'calais-mercenary', 'burgundian-mercenary'].map(ix).sort());
  t.same(byArea('ireland'), ['duke-of-york', 'rutland', 'irish-mercenary'].map(ix).sort());
  t.same(byArea('middlesex'), ['henry-vi', 'oxford', 'beaumont', 'bombard-l'].map(ix).sort());
  t.same(byArea('essex'), []);
  t.same(byArea('lincoln'), []);
  t.same(s.attacks, {}, 'no Contested area, no battle');
  s = act(s, { type: 'end' });
  t.ok(s.flow.every((f) => !MINE.includes(f.s)));
  t.notOk(s.log.some((l) => /Norfolk|Norwich|Bombard|Warwick|Salisbury/.test(l.pub) && /recruits|sea-moves/.test(l.pub)),
    'public log names no moved or recruited block');
});

t.test('prompts — the opponent sees no block identity', async (t) => {
  const { handlers } = await import('../../../src/games/richard-iii/action-phase.ts');
  let s = w1();
  s = act(s, { type: 'select', block: 'norfolk' });
  const f = frame(s);
  t.notMatch(JSON.stringify(handlers['move_to']!.prompt!(s, f, 'Lancaster')), 'norfolk');
  t.match(JSON.stringify(handlers['move_to']!.prompt!(s, f, 'York')), 'norfolk');
  s = act(s, { type: 'cancel' });
  s = act(s, { type: 'recruit', block: 'arundel' });
  t.notMatch(JSON.stringify(handlers['recruit_where']!.prompt!(s, frame(s), 'Lancaster')), 'arundel');
  t.notMatch(JSON.stringify(handlers['recruit_where']!.prompt!(s, frame(s), null)), 'arundel');
});

t.test('Face-down blocks never act: the Kingmaker prisoner, eliminated mercenaries in exile', async (t) => {
  const k = phase({ scenario: 'kingmaker', played: { Lancaster: 'ap4-1', York: 'ap2-2' } }, 'Lancaster');
  t.equal(where(k, 'henry-vi'), 'middlesex');
  t.notOk(selectable(k).includes('henry-vi'), 'the prisoner cannot move');
  const m = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'calais-mercenary': { loc: 'calais', down: true, steps: 0 } },
    played: { York: 'ap4-1', Lancaster: 'ap2-2' } }, 'York');
  t.notOk(selectable(m).includes('calais-mercenary'));
});

t.test('Sea-move log names the block only for its owner', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'warwick-y': at('calais') }, played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  s = seaMove(s, 'warwick-y', 'north-sea', 'east-anglia');
  const l = s.log[s.log.length - 1]!;
  t.equal(l.pub, 'York sea-moves a block from Calais to East Anglia across the North Sea.');
  t.equal(l.own?.side, 'York');
  t.match(l.own!.text, 'Warwick');
});
