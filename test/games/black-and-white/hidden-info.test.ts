/**
 * Hidden information (§7, §9.4, §16.8, A54): what each seat and a spectator
 * see of the blocks, before and after a reveal, and with A54 'hide'.
 */
import t from 'tap';
import type { Army } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { activated, game, play, position, T, V, withDice, type Placing } from './fixture-helpers.ts';

interface UnitV {
  id: string;
  kind?: string;
  strength?: number;
  hex: string | null;
  type: string;
}
const unitsSeen = (s: BWState, seat: Army | null, army: Army): UnitV[] =>
  (game.view(s, seat) as { armies: Record<Army, { units: UnitV[] }> }).armies[army].units;

const UNITS: Placing[] = [T('heavy-cavalry', '5,3'), T('sappers', '2,2'), V('sirens-of-vesania', '5,4')];

t.test('own blocks in full; enemy blocks by type and hex; a spectator sees no kind nor strength of either', async (t) => {
  const s = position('open', UNITS);
  t.same(unitsSeen(s, 'Thargaton', 'Thargaton')[0], { id: 'T01', kind: 'heavy-cavalry', type: 'cavalry', hex: '5,3', strength: 3, revealed: false });
  t.same(unitsSeen(s, 'Vesania', 'Thargaton')[0], { id: 'T01', army: 'Thargaton', type: 'cavalry', hex: '5,3' });
  for (const army of ['Thargaton', 'Vesania'] as const) {
    for (const u of unitsSeen(s, null, army)) t.notOk('kind' in u || 'strength' in u, `spectator: ${u.id}`);
  }
  const v = game.view(s, 'Vesania') as Record<string, unknown>;
  t.notOk('rng' in v || 'undo' in v, 'neither the RNG nor the undo stack');
});

t.test('an attack reveals attacker and defender to everyone, never their strength', async (t) => {
  let s = position('open', UNITS);
  s = activated(s, 'T01');
  s = withDice(s, [5, 4]);
  s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
  t.same(unitsSeen(s, 'Vesania', 'Thargaton')[0], { id: 'T01', army: 'Thargaton', type: 'cavalry', hex: '5,3', kind: 'heavy-cavalry' });
  t.equal(unitsSeen(s, null, 'Vesania')[0]!.kind, 'sirens-of-vesania');
  t.notOk('strength' in unitsSeen(s, 'Thargaton', 'Vesania')[0]!);
  t.equal(unitsSeen(s, 'Vesania', 'Thargaton')[1]!.kind, undefined, 'the Sappers stay hidden');
  t.same((game.view(s, 'Vesania') as { armies: { Thargaton: { cardsShown: string[] } } }).armies.Thargaton.cardsShown, ['heavy-cavalry']);
});

t.test('A54: revealed kinds stay known; with "hide" they are hidden again at the end of the turn', async (t) => {
  for (const [opt, expect] of [['keep', 'heavy-cavalry'], ['hide', undefined]] as const) {
    let s = position('open', UNITS, 'Thargaton', { a54Revealed: opt });
    s = activated(s, 'T01');
    s = withDice(s, [3, 3]); // a double: missed
    s = play(s, ['Thargaton', { type: 'melee', unit: 'T01', target: 'V01' }]);
    if (s.act) s = play(s, ['Thargaton', { type: 'end-activation' }]);
    s = play(s, ['Thargaton', { type: 'end-turn' }]);
    t.equal(unitsSeen(s, 'Vesania', 'Thargaton')[0]!.kind, expect, opt);
  }
});

t.test('log lines: each seat reads its own kinds, the other only the types until revealed', async (t) => {
  let s = position('open', UNITS);
  s = play(s, ['Thargaton', { type: 'activate', units: ['T02'] }], ['Thargaton', { type: 'move', to: '2,3' }]);
  const entries = game.logChange(s).entries;
  const all = (seat: Army | null) => entries.map((e) => game.logLine(e, seat)).join(' ');
  t.match(all('Thargaton'), /T02/);
  t.notMatch(all('Vesania'), /Sappers/);
  t.notMatch(all(null), /Sappers/);
  s = play(s, ['Thargaton', { type: 'end-activation' }], ['Thargaton', { type: 'end-turn' }], ['Vesania', { type: 'end-turn' }]);
  s = play(s, ['Thargaton', { type: 'special', unit: 'T02', what: 'trench' }]);
  t.match(game.logChange(s).entries.map((e) => game.logLine(e, 'Vesania')).join(' '), /T02 \(Sappers\)/, 'a special action reveals');
});

t.test('§16.8.3: a unit picked out of a stack is not shown until it moves, attacks in melee or is revealed', async (t) => {
  const stack: Placing[] = [T('sharpshooters', '5,2'), T('regular-infantry', '5,2'), V('sirens-of-vesania', '5,4')];
  let s = position('open', stack);
  s = activated(s, 'T01');
  const seen = (x: BWState) => game.view(x, 'Vesania') as { activated: string[]; activation: { units: string[]; count: number; startHex: string } | null };
  t.same(seen(s).activated, []);
  t.same(seen(s).activation, { units: [], startHex: '5,2', count: 1, moved: 0, stopped: false, zoc: 'none', charge: false, attacked: false, groupMove: null });
  t.match(game.logLine(game.logChange(s).entries[0], 'Vesania'), /1 unit\(s\) in 5,2/);
  t.match(game.logLine(game.logChange(s).entries[0], 'Thargaton'), /T01/);
  t.same((game.view(s, 'Thargaton') as { activated: string[] }).activated, ['T01'], 'the owner sees it');
  const shot = play(withDice(s, [2, 2]), ['Thargaton', { type: 'fire', unit: 'T01', target: 'V01' }]);
  t.same(seen(shot).activated, [], 'a shot from the stack keeps the block hidden');
  t.notMatch(game.logChange(shot).entries.map((e) => game.logLine(e, 'Vesania')).join(' '), /T01/);
  const moved = play(s, ['Thargaton', { type: 'move', to: '5,1' }]);
  t.same(seen(moved).activated, ['T01'], 'a move shows it');
});
