/**
 * Line of sight (§15): terrain that blocks between the units, units of either
 * side, the units' own hexes never, hills seen from hills (A20), edges and the
 * board's border (A21); and a ranged attack needs it.
 */
import t from 'tap';
import { lineOfSight } from '../../../src/games/black-and-white/board.ts';
import type { Terrain } from '../../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { game, play, position, T, V, type Placing } from './fixture-helpers.ts';

function on(terrain: Record<string, Terrain>, units: Placing[] = [], features: BWState['features'] = {}): BWState {
  const s = position('open', units, 'Thargaton', {}, features);
  s.scenario = { ...s.scenario, terrain };
  return s;
}

t.test('§15: forest, fort, hills, mountains and smoke between block; open, swamp, stream, bunker do not', async (t) => {
  for (const b of ['forest', 'fort', 'hills', 'mountains'] as const) t.notOk(lineOfSight(on({ '5,3': b }), '5,2', '5,5'), b);
  for (const c of ['open', 'swamp', 'stream', 'bunker', 'river'] as const) t.ok(lineOfSight(on({ '5,3': c }), '5,2', '5,5'), c);
  t.notOk(lineOfSight(on({}, [], { '5,4': ['smoke'] }), '5,2', '5,5'), 'smoke');
  t.ok(lineOfSight(on({}, [], { '5,4': ['fire', 'trench', 'wire'] }), '5,2', '5,5'), 'fire, trench, wire');
  t.ok(lineOfSight(on({ '5,2': 'forest', '5,5': 'forest' }), '5,2', '5,5'), "the units' own hexes never block");
});

t.test('§15: a unit of either side between blocks', async (t) => {
  t.notOk(lineOfSight(on({}, [T('sappers', '5,3')]), '5,2', '5,5'));
  t.notOk(lineOfSight(on({}, [V('iron-order', '5,4')]), '5,2', '5,5'));
});

t.test('A20: two units on hills see over hills between them, not over forest', async (t) => {
  t.ok(lineOfSight(on({ '5,2': 'hills', '5,3': 'hills', '5,5': 'hills' }), '5,2', '5,5'));
  t.notOk(lineOfSight(on({ '5,2': 'hills', '5,3': 'hills' }), '5,2', '5,5'), 'only one on a hill');
  t.notOk(lineOfSight(on({ '5,2': 'hills', '5,3': 'forest', '5,5': 'hills' }), '5,2', '5,5'));
});

t.test('A21: along an edge the line is blocked only if both hexes block; along the border, if the one board hex does', async (t) => {
  // 2,2 → 4,2 runs along the edge between 3,2 and 3,3.
  t.ok(lineOfSight(on({ '3,2': 'forest' }), '2,2', '4,2'));
  t.notOk(lineOfSight(on({ '3,2': 'forest', '3,3': 'hills' }), '2,2', '4,2'));
  // 1,1 → 3,1 runs along the board's top edge beside 2,1.
  t.ok(lineOfSight(on({}), '1,1', '3,1'));
  t.notOk(lineOfSight(on({ '2,1': 'forest' }), '1,1', '3,1'));
});

t.test('a ranged attack needs LOS to its target', async (t) => {
  const units: Placing[] = [T('sharpshooters', '5,2'), V('sirens-of-vesania', '5,4')];
  const fires = (s: BWState) => game.legalActions(play(s, ['Thargaton', { type: 'activate', units: ['T01'] }]), 'Thargaton').filter((a) => a.type === 'fire');
  t.equal(fires(on({}, units)).length, 1);
  t.equal(fires(on({ '5,3': 'forest' }, units)).length, 0);
});
