/**
 * Sea moves (5.3), the port-to-port bonus (5.31), Piracy and Surprise's sea move:
 * worked examples W6 (sea part) and W7.
 */
import t from 'tap';
import { act, apLeft, frame, has, legal, phase, seaMove, selectable, where, ix } from './action-phase-helpers.ts';

const HEIRS_AWAY = {
  'henry-vi': { loc: 'france' }, 'exeter-l': { loc: 'france' }, somerset: { loc: 'scotland' },
  'duke-of-york': { loc: 'ireland' }, rutland: { loc: 'ireland' }, march: { loc: 'ireland' },
};
const at = (area: string) => ({ loc: area });
const zones = (s: ReturnType<typeof phase>) => legal(s).filter((a) => a.type === 'sea').map((a) => a['zone']).sort();
const landings = (s: ReturnType<typeof phase>) => legal(s).filter((a) => a.type === 'land').map((a) => a['area']).sort();

t.test('W6 — sea zones by area; Hereford cannot sea-move; Middlesex can be reached; never into the enemy exile', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, norfolk: at('cornwall'), suffolk: at('kent'), hastings: at('hereford') },
    played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
  let c = act(s, { type: 'select', block: 'norfolk' });
  t.same(zones(c), ['english-channel', 'irish-sea'], 'Cornwall: both zones');
  c = act(c, { type: 'sea', zone: 'english-channel' });
  t.same(landings(c), ['calais', 'dorset', 'kent', 'sussex'], 'Friendly/Vacant coastal areas of the zone; France (enemy exile) excluded');
  const k = act(s, { type: 'select', block: 'suffolk' });
  t.same(zones(k), ['english-channel', 'north-sea'], 'Kent: both zones');
  const kn = act(k, { type: 'sea', zone: 'north-sea' });
  t.ok(landings(kn).includes('middlesex'), 'Middlesex is a port');
  const h = act(s, { type: 'select', block: 'hastings' });
  t.same(zones(h), [], 'Hereford is landlocked');
  const sc = phase({ clear: true, blocks: { ...HEIRS_AWAY, clifford: at('scotland') }, played: { Lancaster: 'ap2-1', York: 'ap2-2' } }, 'Lancaster');
  t.same(zones(act(sc, { type: 'select', block: 'clifford' })), ['irish-sea', 'north-sea'], 'Scotland: both zones');
  const g = phase({ clear: true, blocks: { ...HEIRS_AWAY, clifford: at('northumbria') }, played: { Lancaster: 'ap2-1', York: 'ap2-2' } }, 'Lancaster');
  const gn = act(act(g, { type: 'select', block: 'clifford' }), { type: 'sea', zone: 'north-sea' });
  t.notOk(landings(gn).includes('south-yorks'), 'South Yorks cannot be entered by sea');
});

t.test('5.3 — city levies, Scots, Welsh and the Rebel never sea-move; the Bombard may (R-13)', async (t) => {
  const s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'london-levy': at('kent'), 'bombard-y': at('sussex') },
    played: { York: 'ap3-1', Lancaster: 'ap2-2' } }, 'York');
  t.same(zones(act(s, { type: 'select', block: 'london-levy' })), []);
  t.same(zones(act(s, { type: 'select', block: 'bombard-y' })), ['english-channel']);
  const l = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'scots-mercenary': at('scotland') }, played: { Lancaster: 'ap2-1', York: 'ap2-2' } }, 'Lancaster');
  t.same(zones(act(l, { type: 'select', block: 'scots-mercenary' })), [], 'Scots by land only');
});

t.test('W7 — port-to-port: 4 blocks Calais→Kent for 2 AP', async (t) => {
  const four = ['warwick-y', 'salisbury-y', 'kent-y', 'calais-mercenary'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(four.map((b) => [b, at('calais')])) },
    played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  s = seaMove(s, 'warwick-y', 'north-sea', 'kent');
  t.equal(apLeft(s), 1);
  s = seaMove(s, 'salisbury-y', 'english-channel', 'kent');
  t.equal(apLeft(s), 1, 'the follower is free (same origin, same major port)');
  t.match(s.log[s.log.length - 1]!.pub, 'port-to-port');
  s = seaMove(s, 'kent-y', 'north-sea', 'kent');
  t.equal(apLeft(s), 0);
  s = act(s, { type: 'select', block: 'calais-mercenary' });
  s = act(s, { type: 'sea', zone: 'north-sea' });
  t.same(landings(s), ['kent'], 'at 0 AP only the follower trip is open');
  s = act(s, { type: 'land', area: 'kent' });
  t.same(four.map((b) => where(s, b)), ['kent', 'kent', 'kent', 'kent']);
  t.equal(s.acted[ix('warwick-y')], 2, 'sea-moved');
});

t.test('W7 — 2 blocks to a major port and 1 to a coast without one: 3 blocks for 2 AP', async (t) => {
  const four = ['warwick-y', 'salisbury-y', 'kent-y', 'calais-mercenary'];
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, ...Object.fromEntries(four.map((b) => [b, at('calais')])) },
    played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  s = seaMove(s, 'warwick-y', 'north-sea', 'east-anglia');
  s = seaMove(s, 'salisbury-y', 'north-sea', 'east-anglia');
  s = seaMove(s, 'kent-y', 'north-sea', 'essex');
  t.equal(apLeft(s), 0);
  t.same(selectable(s), [], 'no AP and no follower left (Essex is no major port)');
});

t.test('5.3 — sea moves only into Friendly or Vacant areas (no attack without Piracy)', async (t) => {
  const s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'warwick-y': at('calais'), oxford: at('kent') },
    played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
  const l = act(act(s, { type: 'select', block: 'warwick-y' }), { type: 'sea', zone: 'north-sea' });
  t.notOk(landings(l).includes('kent'));
});

t.test('Piracy — sea moves only, may attack; pirates recorded; no port-to-port bonus', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'warwick-y': at('calais'), 'salisbury-y': at('calais'), norfolk: at('oxford'),
    oxford: at('kent') }, played: { York: 'piracy', Lancaster: 'ap2-2' } }, 'York');
  t.notOk(selectable(s).includes('norfolk'), 'no land moves');
  t.notOk(legal(s).some((a) => a.type === 'recruit'));
  s = act(s, { type: 'select', block: 'warwick-y' });
  t.notOk(legal(s).some((a) => a.type === 'step'));
  s = act(s, { type: 'sea', zone: 'english-channel' });
  t.ok(landings(s).includes('kent'), 'may land in an Enemy coastal area');
  s = act(s, { type: 'land', area: 'kent' });
  t.same(s.attacks['kent'], { attacker: 'York', main: 'english-channel', entries: { York: ['english-channel'], Lancaster: [] },
    reserves: [], pirates: [ix('warwick-y')] });
  t.equal(apLeft(s), 1);
  s = seaMove(s, 'salisbury-y', 'north-sea', 'kent');
  t.equal(apLeft(s), 0, 'no free follower under Piracy');
  const a = s.attacks['kent']!;
  t.same(a.reserves, [ix('salisbury-y')], 'another sea zone: a Reserve (G-8)');
  t.same(a.pirates, [ix('warwick-y'), ix('salisbury-y')]);
});

t.test('Piracy — Player 2 pirates landing in a battle Player 1 started are Reserves', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'warwick-y': at('kent'), oxford: at('sussex'), beaumont: at('cornwall') },
    played: { York: 'ap2-1', Lancaster: 'piracy' }, p1: 'York' }, 'York');
  s = act(s, { type: 'select', block: 'warwick-y' });
  s = act(s, { type: 'step', area: 'sussex' });
  s = act(s, { type: 'end' });
  t.equal(frame(s).side, 'Lancaster');
  s = seaMove(s, 'beaumont', 'english-channel', 'sussex');
  const a = s.attacks['sussex']!;
  t.equal(a.attacker, 'York');
  t.same(a.entries.Lancaster, ['english-channel']);
  t.same(a.reserves, [ix('beaumont')]);
  t.same(a.pirates, [ix('beaumont')]);
});

t.test('Surprise — one normal sea move (with its port-to-port follower) instead of a group', async (t) => {
  let s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'warwick-y': at('calais'), 'salisbury-y': at('calais'), norfolk: at('oxford') },
    played: { York: 'surprise', Lancaster: 'ap2-2' } }, 'York');
  s = seaMove(s, 'warwick-y', 'north-sea', 'east-anglia');
  t.equal(apLeft(s), 0);
  t.same(selectable(s), ['salisbury-y'], 'only the follower; no group move left');
  s = seaMove(s, 'salisbury-y', 'north-sea', 'east-anglia');
  t.ok(has(legal(s), { type: 'end' }));
});

t.test('Force March and Treason allow no sea move', async (t) => {
  for (const card of ['force-march', 'treason']) {
    const s = phase({ clear: true, blocks: { ...HEIRS_AWAY, 'warwick-y': at('calais') }, played: { York: card, Lancaster: 'ap2-2' } }, 'York');
    t.notOk(selectable(s).includes('warwick-y'), card);
  }
});
