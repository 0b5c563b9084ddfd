/**
 * 6.3 battle reserves (W9), early deployment and the round-1 role swap,
 * and the heir Charge (6.5, G-4).
 */
import t from 'tap';
import { act, actors, battle, bf, frame, has, ix, legal, stepsOf, where, withDice } from './battle-helpers.ts';
import { buildPosition } from '../../../src/games/richard-iii/position.ts';
import { startActionPhase } from '../../../src/games/richard-iii/action-phase.ts';
import { BLOCKS } from '../../../src/games/richard-iii/data.ts';
import { firepowerOf } from '../../../src/games/richard-iii/defence.ts';
import { top, type R3State } from '../../../src/games/richard-iii/state.ts';

const pass = (s: R3State): R3State => act(s, { type: 'pass', block: actors(s)[0]! });

/** Moves one block one area into an enemy-held area during the Action Phase. */
const attack = (s: R3State, block: string, area: string): R3State => {
  s = act(s, { type: 'select', block });
  s = act(s, { type: 'step', area });
  if (top(s).s === 'move_to') s = act(s, { type: 'stop' });
  return s;
};

t.test('W9 ex. 1 — Kent is the Main Attack; the two Wilts blocks are Reserves and join at round 2', (t) => {
  let s = buildPosition({
    clear: true,
    p1: 'York',
    revealed: true,
    played: { York: 'ap3-1', Lancaster: 'ap2-1' },
    blocks: {
      norfolk: { loc: 'kent' }, suffolk: { loc: 'kent' }, essex: { loc: 'kent' }, arundel: { loc: 'kent' },
      hastings: { loc: 'wilts' }, worcester: { loc: 'wilts' },
      oxford: { loc: 'sussex' }, wiltshire: { loc: 'sussex' },
    },
  });
  startActionPhase(s, 'York');
  for (const b of ['norfolk', 'suffolk', 'essex', 'arundel']) s = attack(s, b, 'sussex');
  for (const b of ['hastings', 'worcester']) s = attack(s, b, 'sussex');
  t.equal(s.attacks['sussex']?.main, 'kent', 'movement recorded Kent as the Main Attack');
  t.same(s.attacks['sussex']?.reserves.sort(), [ix('hastings'), ix('worcester')].sort());
  s = act(s, { type: 'end' }); // York's Action Phase
  s = act(s, { type: 'end' }); // Lancaster's Action Phase → Battle Phase
  t.equal(frame(s).s, 'battle');
  t.equal(bf(s).area, 'sussex');
  t.notOk(bf(s).revealed.includes(ix('hastings')), 'Reserves stay hidden in round 1');
  const round1: string[] = [];
  while (bf(s).round === 1) {
    round1.push(...actors(s));
    s = pass(s);
  }
  t.notOk(round1.includes('hastings') || round1.includes('worcester'), 'Reserves take no turn in round 1');
  t.ok(round1.includes('norfolk'));
  t.ok(bf(s).revealed.includes(ix('hastings')) && bf(s).revealed.includes(ix('worcester')), 'revealed when they join');
  const round2: string[] = [];
  while (bf(s).round === 2) {
    round2.push(...actors(s));
    s = pass(s);
  }
  t.ok(round2.includes('hastings') && round2.includes('worcester'), 'they act from round 2');
  t.end();
});

t.test('W9 ex. 3 — Player 2 reinforcements are Reserves too; everyone joins at round 2', (t) => {
  let s = buildPosition({
    clear: true,
    p1: 'York',
    revealed: true,
    played: { York: 'ap4-1', Lancaster: 'ap3-1' },
    blocks: {
      'henry-vi': { loc: 'lancaster' },
      norfolk: { loc: 'rutland' }, suffolk: { loc: 'rutland' }, worcester: { loc: 'rutland' },
      hastings: { loc: 'middlesex' }, arundel: { loc: 'middlesex' },
      oxford: { loc: 'essex' }, beaumont: { loc: 'essex' },
      clifford: { loc: 'east-anglia' }, wiltshire: { loc: 'east-anglia' }, pembroke: { loc: 'east-anglia' },
    },
  });
  startActionPhase(s, 'York');
  for (const b of ['norfolk', 'suffolk', 'worcester', 'hastings', 'arundel']) s = attack(s, b, 'essex');
  s = act(s, { type: 'end' });
  for (const b of ['clifford', 'wiltshire', 'pembroke']) s = attack(s, b, 'essex');
  s = act(s, { type: 'end' });
  t.equal(frame(s).s, 'battle');
  t.equal(bf(s).attacker, 'York');
  const reserveIds = ['hastings', 'arundel', 'clifford', 'wiltshire', 'pembroke'];
  t.same(bf(s).reserves.map((b) => BLOCKS[b]!.id).sort(), [...reserveIds].sort(), 'York\'s Middlesex blocks and Lancaster\'s reinforcements');
  const round1 = new Set<string>();
  while (bf(s).round === 1) {
    actors(s).forEach((b) => round1.add(b));
    s = pass(s);
  }
  t.same([...round1].sort(), ['beaumont', 'norfolk', 'oxford', 'suffolk', 'worcester'], 'round 1: 3 Rutland blocks against 2 Essex blocks');
  t.same(bf(s).reserves, [], 'start of round 2: all Reserves joined');
  t.end();
});

t.test('6.3 — attacker main force gone in round 1: Reserves enter at once, may be hit, do not act; no role change', (t) => {
  let s = battle({
    blocks: { herbert: { loc: 'lincoln', steps: 1 }, hastings: { loc: 'lincoln' }, clifford: { loc: 'lincoln' }, beaumont: { loc: 'lincoln' } },
    attacks: { lincoln: { attacker: 'York', main: 'rutland', entries: { York: ['rutland', 'leicester'] }, reserves: ['hastings'] } },
  });
  t.same(actors(s), ['clifford'], 'defending A first');
  s = withDice(s, 3, (d) => d[0]! <= 2);
  s = act(s, { type: 'fire', block: 'clifford' });
  t.equal(where(s, 'herbert'), 'dead');
  t.notOk(bf(s).reserves.includes(ix('hastings')), 'Hastings entered at once');
  t.ok(bf(s).revealed.includes(ix('hastings')));
  t.equal(bf(s).attacker, 'York', 'still the attacker');
  t.same(actors(s), ['beaumont'], 'Hastings may not act in round 1; Beaumont (B) is next');
  s = withDice(s, 3, (d) => d[0]! <= 3 && d[1]! > 3 && d[2]! > 3);
  s = act(s, { type: 'fire', block: 'beaumont' });
  t.equal(stepsOf(s, 'hastings'), 2, 'the early Reserve is hit in round 1');
  t.equal(bf(s).round, 2);
  t.end();
});

t.test('6.3 [R-19] — defenders wiped out in round 1: roles swap (order, bonuses, round-4 retreat)', (t) => {
  // York attacks Essex (Herbert A2, Essex B1 on his own shield). Lancaster: Oxford (1 step) plus Beaumont as a Reserve.
  let s = battle({
    blocks: { herbert: { loc: 'essex' }, essex: { loc: 'essex' }, oxford: { loc: 'essex', steps: 1 }, beaumont: { loc: 'essex' } },
    attacks: {
      essex: { attacker: 'York', main: 'leicester', entries: { York: ['leicester'], Lancaster: ['middlesex'] }, reserves: ['beaumont'] },
    },
  });
  t.equal(firepowerOf(s, bf(s), ix('oxford')), 3, 'Oxford defends his shield: A3');
  t.equal(firepowerOf(s, bf(s), ix('essex')), 1, 'Essex attacks: no bonus');
  s = pass(s); // Oxford
  s = withDice(s, 3, (d) => d[0]! <= 2);
  s = act(s, { type: 'fire', block: 'herbert' });
  t.equal(where(s, 'oxford'), 'dead');
  t.equal(bf(s).attacker, 'Lancaster', 'Lancaster lost control: it is now the Attacker');
  t.ok(s.log.some((l) => /Lancaster loses control of Essex/.test(l.pub)));
  t.equal(firepowerOf(s, bf(s), ix('essex')), 2, 'Essex now defends his shield');
  t.same(actors(s), ['essex'], 'Beaumont (early Reserve) cannot act in round 1');
  s = pass(s);
  // Round 2: York (now defender) first within each letter.
  t.equal(bf(s).round, 2);
  t.same(actors(s), ['herbert']);
  s = pass(s);
  t.same(actors(s), ['essex'], 'defending B before attacking B');
  while (bf(s).round < 4) s = pass(s);
  while (!actors(s).includes('beaumont')) s = pass(s);
  t.ok(legal(s).length > 0 && legal(s).every((a) => a.type === 'retreat'), 'the new Attacker must retreat in round 4');
  t.end();
});

t.test('6.5 [G-4] — Charge: fires at the target alone; a surviving target fires back (with its bonus) and keeps its turn', (t) => {
  const pos = (extra: Record<string, { loc: string; steps?: number }> = {}): R3State =>
    battle({
      blocks: { march: { loc: 'lincoln' }, beaumont: { loc: 'lincoln' }, clifford: { loc: 'lincoln' }, ...extra },
      attacks: { lincoln: { attacker: 'York', main: 'rutland', entries: { York: ['rutland'] } } },
    });
  let s = pos();
  s = pass(s); // Clifford (defending A)
  t.same(actors(s), ['march']);
  t.ok(has(legal(s), { type: 'charge', block: 'march', target: 'beaumont' }));
  t.ok(has(legal(s), { type: 'charge', block: 'march', target: 'clifford' }));
  s = withDice(s, 5, (d) => d[0] === 1 && d[1] === 6 && d[2] === 6 && d[3] === 3 && d[4] === 6);
  s = act(s, { type: 'charge', block: 'march', target: 'beaumont' });
  t.equal(stepsOf(s, 'beaumont'), 2, 'one hit on the target');
  t.equal(stepsOf(s, 'clifford'), 3, 'nobody else is hit');
  t.equal(stepsOf(s, 'march'), 2, 'bonus fire at B3 (Lincoln shield): a 3 hits March');
  t.ok(s.log.some((l) => /Beaumont \(2\) fires back at March \(3\) at B3: 3 6/.test(l.pub)));
  t.same(actors(s), ['beaumont'], 'Beaumont still has his own battle turn');

  s = pos({ beaumont: { loc: 'lincoln', steps: 1 } });
  s = pass(s);
  s = withDice(s, 3, (d) => d.every((x) => x <= 3));
  s = act(s, { type: 'charge', block: 'march', target: 'beaumont' });
  t.equal(where(s, 'beaumont'), 'dead');
  t.equal(stepsOf(s, 'clifford'), 3, 'excess hits of a Charge are lost');
  t.equal(stepsOf(s, 'march'), 3, 'a dead target does not fire back');

  s = pos({ 'duke-of-york': { loc: 'lincoln' } });
  s = pass(s);
  t.notOk(legal(s).some((a) => a.type === 'charge'), 'only the most senior heir present may charge');
  t.end();
});
