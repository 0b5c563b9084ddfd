/**
 * Five rule questions RULES.md's §22 does not list (A1..A58 leave them out),
 * each pinned with Herald's answer (README "Questions RULES.md does not
 * list"): artillery fire from an enemy ZOC, deployment on terrain a unit may
 * not enter, a charge into barbed wire, Lord Alexandrus's Idle Move into a
 * stream or wire, and Forced March out of a forest start.
 */
import t from 'tap';
import type { Action } from '../../../src/games/black-and-white/flow.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { activated, game, play, position, T, unit, V, withDice } from './fixture-helpers.ts';
import { orderNames, ordersOf, withCommanders } from './orders-helpers.ts';

const legal = (s: BWState): Action[] => game.legalActions(s, s.player!);
const has = (s: BWState, type: string): boolean => legal(s).some((a) => a.type === type);
const movesTo = (s: BWState): string[] => legal(s).filter((a) => a.type === 'move').map((a) => (a as { to: string }).to).sort();

t.test('1. artillery fire from an enemy ZOC: barred (§13 bars ranged attacks there, §16 artillery fire is one)', async (t) => {
  const far = [T('regular-artillery', '5,1'), V('regular-infantry', '5,4')];
  const free = activated(position('open', far, 'Thargaton'), 'T01');
  t.ok(legal(free).some((a) => a.type === 'bombard' && a.hex === '5,4'), 'out of any enemy ZOC it fires at 3 hexes');
  const held = activated(position('open', [...far, V('sirens-of-vesania', '5,2')], 'Thargaton'), 'T01');
  t.notOk(has(held, 'bombard'), 'next to an enemy: no artillery fire, at any hex');
  t.ok(has(held, 'move'), 'it may still try to move away (ZOC test)');
  const special = activated(position('open', [T('special-artillery', '5,1'), V('sirens-of-vesania', '5,2'), V('regular-infantry', '5,4')], 'Thargaton'), 'T01');
  t.notOk(has(special, 'bombard'), 'nor incendiary or smoke from the Special Artillery');
  // The Scorpion's attack is its own ranged attack, exempt by A9 (option a9ScorpionZoc, default 'exempt').
  const scorpion = activated(position('open', [V('order-of-the-scorpion', '5,5'), T('regular-cavalry', '5,4')], 'Vesania'), 'V01');
  t.ok(legal(scorpion).some((a) => a.type === 'fire' && a.target === 'T01'), 'the Scorpion still fires from a ZOC (A9)');
});

t.test('2. deployment only on first-row hexes the unit may stand on (§7 with §11, §12 access)', async (t) => {
  let s = game.setup({ scenario: 'open', seed: 'u2' });
  s.scenario = { ...s.scenario, terrain: { '3,1': 'swamp', '4,1': 'forest', '5,1': 'fort', '7,1': 'bunker' } };
  s.features = { '6,1': ['wire'] };
  s = play(s,
    ['Thargaton', { type: 'buy', kind: 'regular-cavalry' }],
    ['Thargaton', { type: 'buy', kind: 'light-cavalry' }],
    ['Thargaton', { type: 'buy', kind: 'regular-artillery' }],
    ['Thargaton', { type: 'buy', kind: 'sappers' }],
    ['Thargaton', { type: 'done' }],
    ['Vesania', { type: 'buy', kind: 'order-of-virgo' }],
    ['Vesania', { type: 'done' }],
  );
  t.equal(s.phase, 'deploy');
  const hexesOf = (index: number): string[] =>
    game.legalActions(s, 'Thargaton').filter((a) => a.type === 'place' && a.index === index).map((a) => (a as { hex: string }).hex);
  const cavalry = hexesOf(0), light = hexesOf(1), artillery = hexesOf(2), sappers = hexesOf(3);
  for (const h of ['3,1', '5,1', '6,1', '7,1']) t.notOk(cavalry.includes(h), `no Regular Cavalry on ${h}`);
  t.ok(cavalry.includes('4,1') && cavalry.includes('1,1'), 'cavalry in forest and on open ground');
  t.ok(light.includes('3,1'), 'Light Cavalry in swamp (§11: it may enter)');
  for (const h of ['3,1', '4,1', '5,1', '6,1', '7,1']) t.notOk(artillery.includes(h), `no artillery on ${h}`);
  for (const h of ['3,1', '4,1', '5,1', '6,1', '7,1']) t.ok(sappers.includes(h), `infantry on ${h}`);

  // A kind with no first-row hex to stand on is not offered for purchase (its block could never be placed).
  const forts = game.setup({ scenario: 'open', seed: 'u2' });
  const row = forts.scenario.firstRows.Thargaton;
  forts.scenario = { ...forts.scenario, terrain: Object.fromEntries(row.map((h) => [h, 'fort'])) };
  const buys = game.legalActions(forts, 'Thargaton').filter((a) => a.type === 'buy').map((a) => (a as { kind: string }).kind);
  t.notOk(buys.some((k) => ['regular-cavalry', 'light-cavalry', 'heavy-cavalry', 'regular-artillery', 'special-artillery'].includes(k)), 'an all-fort first row: no cavalry or artillery for sale');
  t.ok(buys.includes('regular-infantry'), 'infantry still');
});

t.test('3. a charge into barbed wire: allowed as its last hex (A13), but no attack after it (§12.2)', async (t) => {
  const units = [V('brotherhood-of-the-sword', '5,7'), T('regular-infantry', '5,3')];
  const charges = (s: BWState) => legal(s).filter((a) => a.type === 'charge').map((a) => (a as { to: string }).to);
  const open = position('open', units, 'Vesania');
  t.same(charges(open), ['5,4'], 'a charge to 5,4, next to the enemy');
  t.ok(has(play(open, ['Vesania', { type: 'charge', unit: 'V01', to: '5,4' }]), 'melee'), 'on open ground the charge attacks');
  const wired = position('open', units, 'Vesania', {}, { '5,4': ['wire'] });
  t.same(charges(wired), ['5,4'], 'wire as the last hex: the charge is still offered');
  const after = play(wired, ['Vesania', { type: 'charge', unit: 'V01', to: '5,4' }]);
  t.equal(unit(after, 'V01').hex, '5,4', 'it stops in the wire');
  t.notOk(has(after, 'melee'), 'and may not attack after that move');
  t.equal(after.act, null, 'nothing left: the activation ended');
  t.same(charges(position('open', units, 'Vesania', {}, { '5,5': ['wire'] })), [], 'wire on a hex passed through: no charge (A13)');
});

t.test('4. Idle Move into a stream or wire: allowed; with A16 \'apart\' the activation then starts afresh', async (t) => {
  const idle = (s: BWState, to: string): BWState => play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'idle-move', unit: 'T01', to }]);
  for (const [value, free] of [['apart', true], ['first-hex', false]] as const) {
    const base = withCommanders([T('regular-infantry', '5,3'), V('sirens-of-vesania', '4,1')], 'Thargaton', { Thargaton: 'lord-alexandrus' }, { a16IdleMove: value });
    const stream = { ...base, scenario: { ...base.scenario, terrain: { '6,2': 'stream' as const } } };
    const wire = { ...base, features: { '5,2': ['wire' as const] } };
    const offered = (s: BWState) => ordersOf(s, 'Thargaton').map((a) => (a.type === 'order' ? a.to : ''));
    t.ok(offered(stream).includes('6,2') && offered(wire).includes('5,2'), `${value}: both hexes offered`);
    const inStream = idle(stream, '6,2');
    t.equal(unit(inStream, 'T01').hex, '6,2');
    t.equal(movesTo(inStream).length > 0, free, `${value}: the activation ${free ? 'may' : 'may not'} move on out of the stream`);
    const inWire = idle(wire, '5,2');
    t.equal(unit(inWire, 'T01').hex, '5,2');
    t.equal(has(inWire, 'melee'), free, `${value}: a melee attack from the wire ${free ? 'allowed' : 'barred'}`);
    t.equal(movesTo(inWire).length > 0, free, `${value}: moving on out of the wire`);
  }
});

t.test('5. Forced March out of a forest start: the extra hex is granted (the forest limits the move, the order adds to it)', async (t) => {
  const base = withCommanders([T('regular-infantry', '5,1'), V('sirens-of-vesania', '4,4')], 'Thargaton', { Thargaton: 'lord-alexandrus' });
  let s: BWState = { ...base, scenario: { ...base.scenario, terrain: { '5,1': 'forest' } } };
  s = play(s, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
  t.same(movesTo(s), [], 'one hex out of the forest start (A11)');
  t.same(orderNames(s, 'Thargaton'), ['forced-march'], 'Forced March on offer');
  const marched = play(withDice(s, [1, 1]), ['Thargaton', { type: 'order', order: 'forced-march' }]);
  t.ok(movesTo(marched).includes('5,3'), 'one more hex');
  const moved = play(marched, ['Thargaton', { type: 'move', to: '5,3' }]);
  t.equal(unit(moved, 'T01').hex, '5,3');
  t.notOk(has(moved, 'melee'), 'no attack afterwards, though next to an enemy (§18.2)');
  // Into a forest hex the move ends there (A11 'entering-ends'): no Forced March out of it.
  let f: BWState = { ...base, scenario: { ...base.scenario, terrain: { '5,1': 'forest', '5,2': 'forest' } } };
  f = play(f, ['Thargaton', { type: 'activate', units: ['T01'] }], ['Thargaton', { type: 'move', to: '5,2' }]);
  t.notOk(orderNames(f, 'Thargaton').includes('forced-march'), 'entering forest ended the move: no Forced March');
});
