/**
 * The board as the rules read it: terrain and features of a hex, who may
 * enter it (§11, §12), the stacking limit (§5.1), zones of control (§13) and
 * line of sight (§15, A20, A21).
 */
import type { Army, Terrain, UnitType } from './data-format.ts';
import { HexGrid } from './hex.ts';
import type { BWState, Unit } from './state.ts';

const grids = new WeakMap<object, HexGrid>();

/** The hex grid of a state's board (cached: the board object is shared by every copy of a game's state). */
export function gridOf(s: BWState): HexGrid {
  let g = grids.get(s.board);
  if (!g) grids.set(s.board, (g = new HexGrid(s.board)));
  return g;
}

export const terrainAt = (s: BWState, hex: string): Terrain => s.scenario.terrain[hex] ?? 'open';
export const hasFeature = (s: BWState, hex: string, f: 'trench' | 'wire' | 'fire' | 'smoke'): boolean =>
  (s.features[hex] ?? []).includes(f);

/** Whether a unit of this type (and kind, for Light Cavalry and the Scorpion) may ever stand on the hex's terrain and features. */
export function canEnterTerrain(s: BWState, u: Pick<Unit, 'type' | 'kind'>, hex: string): boolean {
  const t = terrainAt(s, hex);
  if (t === 'river' || t === 'mountains') return false;
  if (t === 'swamp') {
    if (u.type === 'cavalry') return u.kind === 'light-cavalry';
    if (u.type === 'artillery') return u.kind === 'order-of-the-scorpion';
  }
  if (t === 'forest' && u.type === 'artillery') return false;
  if ((t === 'fort' || t === 'bunker') && u.type !== 'infantry') return false;
  if ((hasFeature(s, hex, 'trench') || hasFeature(s, hex, 'wire')) && u.type !== 'infantry') return false;
  return true;
}

/** A move that only this kind of its type can make (§9.4): Light Cavalry or the Scorpion entering swamp. */
export const kindOnlyMove = (s: BWState, u: Pick<Unit, 'type'>, hex: string): boolean =>
  terrainAt(s, hex) === 'swamp' && u.type !== 'infantry';

/** Entering the hex ends the move (§11 stream, §12.2 wire, A11 forest unless 'start-only'). */
export function mustStop(s: BWState, u: Pick<Unit, 'type'>, hex: string): boolean {
  const t = terrainAt(s, hex);
  if (t === 'stream' && u.type !== 'cavalry') return true;
  if (t === 'forest' && s.options.a11Forest !== 'start-only') return true;
  if (hasFeature(s, hex, 'wire') && u.type === 'infantry') return true;
  return false;
}

/** The stacking limit (§5.1) for a list of unit types in one hex. */
export function stackingOk(types: readonly UnitType[]): boolean {
  let i = 0, c = 0, a = 0;
  for (const t of types) {
    if (t === 'infantry') i++;
    else if (t === 'cavalry') c++;
    else a++;
  }
  if (a > 1 || (a === 1 && c > 0) || i > 3 || c > 2) return false;
  if (c > 0 && i > 0) return c === 1 && i === 1;
  if (a === 1) return i <= 1;
  return true;
}

/** Units of an army on a hex. */
export const armyAt = (s: BWState, hex: string, army: Army): Unit[] => s.units.filter((u) => u.hex === hex && u.army === army);

export function enemyAt(s: BWState, hex: string, army: Army): boolean {
  return s.units.some((u) => u.hex === hex && u.army !== army);
}

/** Whether `movers` (of `army`) may stand on `hex` with the friendly units already there (not counting themselves). */
export function roomFor(s: BWState, hex: string, movers: readonly Unit[]): boolean {
  const army = movers[0]!.army;
  if (enemyAt(s, hex, army)) return false;
  const ids = new Set(movers.map((m) => m.id));
  const there = armyAt(s, hex, army).filter((u) => !ids.has(u.id));
  return stackingOk([...there.map((u) => u.type), ...movers.map((m) => m.type)]);
}

/** Whether a hex is in the ZOC of an enemy of `army` (§13): next to one of its units. */
export function inEnemyZoc(s: BWState, hex: string, army: Army, except?: string): boolean {
  return gridOf(s)
    .neighbours(hex)
    .some((n) => s.units.some((u) => u.hex === n && u.army !== army && u.id !== except));
}

/** Enemy units next to a hex. */
export function adjacentEnemies(s: BWState, hex: string, army: Army): Unit[] {
  const ns = new Set(gridOf(s).neighbours(hex));
  return s.units.filter((u) => u.hex !== null && u.army !== army && ns.has(u.hex));
}

const BLOCKING: ReadonlySet<Terrain> = new Set(['forest', 'fort', 'hills', 'mountains']);

/**
 * Line of sight between two hexes (§15): blocked by forest, fort, hills,
 * mountains and smoke and by any unit between them; hills between two units
 * that both stand on hills do not block (A20; with 'block' they do).
 */
export function lineOfSight(s: BWState, a: string, b: string): boolean {
  const bothOnHills = s.options.a20Hills !== 'block' && terrainAt(s, a) === 'hills' && terrainAt(s, b) === 'hills';
  const occupied = new Set(s.units.map((u) => u.hex).filter((h): h is string => h !== null));
  return gridOf(s).lineOfSight(a, b, (h) => {
    const t = terrainAt(s, h);
    if (BLOCKING.has(t) && !(bothOnHills && t === 'hills')) return true;
    return hasFeature(s, h, 'smoke') || occupied.has(h);
  }, s.options.a21Edge === 'either' ? 'either' : 'both');
}
