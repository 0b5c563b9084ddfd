/**
 * W16 — the rulebook's sample Game Turn 1, played end to end through the public
 * game module (richardIII): redeal answers, simultaneous card play, both action
 * phases, no battle, no supply loss, and the start of Game Turn 2. Also checks
 * that a state exported as JSON and imported again continues identically.
 */
import t from 'tap';
import { richardIII } from '../../../src/games/richard-iii/index.ts';
import { importState } from '../../../src/games/richard-iii/position.ts';
import { BLOCK_INDEX } from '../../../src/games/richard-iii/data.ts';
import type { R3State } from '../../../src/games/richard-iii/state.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';

const ix = (id: string): number => BLOCK_INDEX[id]!;
const play = (s: R3State, role: string, a: Action): R3State => richardIII.apply(s, role, a);
const inArea = (s: R3State, area: string): number[] =>
  s.loc.map((l, b) => (l === area ? b : -1)).filter((b) => b >= 0).sort((a, b) => a - b);
const ids = (...xs: string[]): number[] => xs.map(ix).sort((a, b) => a - b);

function sampleTurn(s0: R3State): R3State {
  let s = s0;
  for (const side of ['York', 'Lancaster']) if (richardIII.legalActions(s, side).some((a) => a.type === 'keep_hand')) s = play(s, side, { type: 'keep_hand' });
  t.equal(s.flow[s.flow.length - 1]!.s, 'play_card');
  s = play(s, 'York', { type: 'play', card: 'ap3-1' });
  t.same(richardIII.activeRoles(s).sort(), ['Lancaster', 'York'], 'both play at once; York may still take its card back');
  s = play(s, 'Lancaster', { type: 'play', card: 'ap3-2' });
  t.equal(s.p1, 'York', 'AP3 against AP3: the Pretender (York) is Player 1');
  t.same(richardIII.activeRoles(s), ['York']);
  // York: Warwick and Salisbury Calais → East Anglia for 1 AP; recruits Norfolk and the Norwich levy.
  for (const [block, zone, area] of [['warwick-y', 'north-sea', 'east-anglia'], ['salisbury-y', 'north-sea', 'east-anglia']] as const) {
    s = play(s, 'York', { type: 'select', block });
    s = play(s, 'York', { type: 'sea', zone });
    s = play(s, 'York', { type: 'land', area });
  }
  for (const [block, area] of [['norfolk', 'east-anglia'], ['norwich-levy', 'east-anglia']] as const) {
    s = play(s, 'York', { type: 'recruit', block });
    s = play(s, 'York', { type: 'place', area });
  }
  s = play(s, 'York', { type: 'end' });
  // Lancaster: Oxford Essex → Middlesex; Beaumont Lincoln → Leicester → Middlesex; the Bombard into Middlesex.
  s = play(s, 'Lancaster', { type: 'select', block: 'oxford' });
  s = play(s, 'Lancaster', { type: 'step', area: 'middlesex' });
  if (richardIII.legalActions(s, 'Lancaster').some((a) => a.type === 'stop')) s = play(s, 'Lancaster', { type: 'stop' });
  s = play(s, 'Lancaster', { type: 'select', block: 'beaumont' });
  s = play(s, 'Lancaster', { type: 'step', area: 'leicester' });
  s = play(s, 'Lancaster', { type: 'step', area: 'middlesex' });
  s = play(s, 'Lancaster', { type: 'recruit', block: 'bombard-l' });
  s = play(s, 'Lancaster', { type: 'place', area: 'middlesex' });
  s = play(s, 'Lancaster', { type: 'end' });
  return s;
}

t.test('W16 — sample Game Turn 1 from the 1460 set-up to Game Turn 2', async (t) => {
  let s = richardIII.setup({ scenario: 'wars-of-the-roses', seed: 'w16' });
  // The deal is random: give both players the hands of the example (two AP3 cards each among others).
  s = structuredClone(s);
  s.hands.York = ['ap3-1', 'ap4-1', 'ap4-2', 'ap2-1', 'ap2-2', 'ap3-3', 'ap4-3'];
  s.hands.Lancaster = ['ap3-2', 'ap4-4', 'ap4-5', 'ap2-3', 'ap2-4', 'ap3-4', 'ap4-6'];
  const after = sampleTurn(s);
  t.same(inArea(after, 'east-anglia'), ids('warwick-y', 'salisbury-y', 'norfolk', 'norwich-levy'));
  t.same(inArea(after, 'calais'), ids('march', 'kent-y', 'calais-mercenary', 'burgundian-mercenary'));
  t.same(inArea(after, 'ireland'), ids('duke-of-york', 'rutland', 'irish-mercenary'));
  t.same(inArea(after, 'middlesex'), ids('henry-vi', 'oxford', 'beaumont', 'bombard-l'));
  t.same(inArea(after, 'essex'), []);
  t.same(inArea(after, 'lincoln'), []);
  t.notOk(after.log.some((l) => /battle/i.test(l.pub) && /fought|begins/i.test(l.pub)), 'no Contested area, no battle');
  for (const b of [...inArea(after, 'east-anglia'), ...inArea(after, 'middlesex')]) t.equal(after.steps[b], s.steps[b], 'Supply Phase: no losses');
  t.equal(after.hands.York.length, 6, 'each player has 6 cards left');
  t.equal(after.hands.Lancaster.length, 6);
  t.equal(after.flow[after.flow.length - 1]!.s, 'play_card', 'the next Game Turn begins');
  t.equal(after.turn, 2);
  t.same(richardIII.status(after), { over: false, winner: null });

  // The opponent's view names none of York's moved or recruited blocks, but in its whereabouts
  // (every York block by name, with the places public facts allow): there, each may still be
  // where it was or where a block went (Calais or East Anglia; the pool or where recruits went).
  const { whereabouts, ...rest } = richardIII.view(after, 'Lancaster') as { whereabouts?: Record<string, string[]> };
  const lancasterView = JSON.stringify(rest);
  for (const id of ['norfolk', 'norwich-levy', 'warwick-y', 'salisbury-y']) {
    t.notOk(lancasterView.includes(`"${id}"`), `Lancaster's view does not name ${id} outside its whereabouts`);
    const places = whereabouts?.[id] ?? [];
    t.ok(places.length >= 2 && places.includes(after.loc[BLOCK_INDEX[id]!]!), `${id}: one of ${places.join(', ')}`);
  }
  t.same(whereabouts?.['warwick-y'], whereabouts?.['kent-y'], 'Warwick, moved, and Kent, who stayed in Calais, look alike');

  // Export/import: the JSON of a state continues exactly as the state itself.
  const imported = importState(JSON.parse(JSON.stringify(s)));
  t.equal(JSON.stringify(sampleTurn(imported)), JSON.stringify(after), 'an imported position replays identically');
});
