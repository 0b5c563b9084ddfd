/**
 * Home shields (INTERPRETATIONS §K) and going home (8.3/8.4).
 *
 * shieldAreas(s, b) answers "which areas' shields are b's own now": used for
 * recruiting (5.4), the defensive +1 (2.2–2.6, 6.4) and going home (8.3/8.4).
 *   - nobles: the areas of their printed shields (blocks.json home.areas), plus
 *     conditional shields whose condition holds (Nevilles: a dead Neville's shields);
 *     a defected Exeter (York noble): Cornwall; a defected Clarence (Lancaster
 *     noble): the York royal shield areas (9.1, INTERPRETATIONS 48);
 *   - heirs: royal shields (2.2). York heirs: any York shield. Lancaster heirs:
 *     the two general Lancaster shields, their own specific shield (Exeter/Cornwall,
 *     Somerset/Dorset, Richmond/Pembroke), and another heir's specific shield once
 *     that heir is dead;
 *   - church: its cathedral area; city levies: their city area; the Welsh: the
 *     four Welsh areas; Bombards, other mercenaries and the Rebel: none.
 * Crowns (2.3) are not shields: the crown bonus and the "any crown area" home of
 * royal heirs are handled separately (crownAreas, homeDestinations).
 *
 * "Dead" (for conditional shields) — decision: a block is dead when no version
 * of it is in play, in a pool or a minor, i.e. every version's loc is 'dead' or
 * 'off'. A noble face-down in his pool is not dead (he returns next campaign);
 * a defected Exeter is alive (as a York noble), so Exeter's shield stays his.
 *
 * Decision: a dead Warwick's Calais shield is not usable by Kent/Salisbury as a
 * conditional shield — Calais is an exile area and the Nevilles' Calais homes are
 * governed only by the 8.3 note [R-29] (see homeDestinations).
 */
import { AREA, AREAS, BLOCKS, BLOCK_INDEX, NUM_BLOCKS, type Side } from './data.ts';
import { ownerOf, type R3State } from './state.ts';

/** Area ids by printed shield name (map.json `shields`). */
const SHIELD_AREAS: Readonly<Record<string, readonly string[]>> = (() => {
  const out: Record<string, string[]> = {};
  for (const a of AREAS) for (const sh of a.shields) (out[sh] ??= []).push(a.id);
  return out;
})();

/** Block indexes whose own shields carry a name: who must be dead for a conditional shield. */
const SHIELD_BEARERS: Readonly<Record<string, readonly number[]>> = (() => {
  const out: Record<string, number[]> = {};
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const d = BLOCKS[b]!;
    if (d.type !== 'heir' && d.type !== 'noble') continue;
    for (const sh of d.shieldNames) (out[sh] ??= []).push(b);
  }
  return out;
})();

interface Conditional {
  /** Blocks that must all be dead. */
  bearers: readonly number[];
  /** Areas gained (exile areas left out, see the header). */
  areas: readonly string[];
}

/** Per block: unconditional shield areas, and conditional ones. Built once. */
const BASE: readonly (readonly string[])[] = BLOCKS.map((d) => {
  if (d.type === 'heir' || d.type === 'noble' || d.type === 'church' || d.type === 'levy') return d.home?.areas ?? [];
  if (d.type === 'mercenary' && d.home?.kind === 'wales') return d.home.areas;
  return [];
});

const CONDITIONAL: readonly (readonly Conditional[])[] = BLOCKS.map((d) => {
  const out: Conditional[] = [];
  for (const c of d.conditionalShieldNames) {
    // "Warwick (Calais only)" is the 8.3 note for Kent/Salisbury: a going-home option, not a shield.
    const bearers = SHIELD_BEARERS[c.shield];
    const areas = SHIELD_AREAS[c.shield];
    if (!bearers || !areas) continue;
    out.push({ bearers, areas: areas.filter((a) => AREA[a]!.kind === 'land') });
  }
  return out;
});

const DEAD_LOC = (loc: string): boolean => loc === 'dead' || loc === 'off';

/** True when block b is dead: neither it nor its other version is in play, a minor or in a pool. */
export function isDead(s: R3State, b: number): boolean {
  if (!DEAD_LOC(s.loc[b]!)) return false;
  const other = BLOCKS[b]!.enemyVersionId;
  return other === null || DEAD_LOC(s.loc[BLOCK_INDEX[other]!]!);
}

/**
 * The areas whose shields are b's own now (see the header). A fresh array; the
 * order is the data order with conditional areas after the unconditional ones.
 */
export function shieldAreas(s: R3State, b: number): string[] {
  const out = BASE[b]!.slice();
  for (const c of CONDITIONAL[b]!) {
    if (!c.bearers.every((x) => isDead(s, x))) continue;
    for (const a of c.areas) if (!out.includes(a)) out.push(a);
  }
  return out;
}

/** True if `area` holds one of b's own shields now (cheaper than shieldAreas for one area). */
export function hasShieldIn(s: R3State, b: number, area: string): boolean {
  if (BASE[b]!.includes(area)) return true;
  for (const c of CONDITIONAL[b]!) {
    if (c.areas.includes(area) && c.bearers.every((x) => isDead(s, x))) return true;
  }
  return false;
}

/** Areas with a crown (2.3). */
export const CROWN_AREAS: readonly string[] = AREAS.filter((a) => a.crown).map((a) => a.id);

/** A side's own exile areas (2.7). */
export const EXILE_AREAS: Readonly<Record<Side, readonly string[]>> = {
  York: AREAS.filter((a) => a.exileOf === 'York').map((a) => a.id),
  Lancaster: AREAS.filter((a) => a.exileOf === 'Lancaster').map((a) => a.id),
};

export const isExile = (area: string): boolean => AREA[area]?.kind === 'exile';

/** A mercenary's home exile area (6.85, 8.1), or null (the Welsh go to the pool). */
export function mercenaryHome(b: number): string | null {
  const d = BLOCKS[b]!;
  return d.type === 'mercenary' && d.home?.kind === 'exile-home' ? d.home.areas[0]! : null;
}

/**
 * Blocks counted against an exile area's limit (7.2): everything there except
 * that area's own mercenaries and face-down blocks (G-9).
 */
export function exileCount(s: R3State, area: string): number {
  const own = AREA[area]!.homeMercenaries ?? [];
  let n = 0;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] !== area || s.down[b]) continue;
    if (own.includes(BLOCKS[b]!.id)) continue;
    n++;
  }
  return n;
}

export function exileLimit(area: string): number {
  return AREA[area]!.exileLimitNonMercenary ?? Infinity;
}

/** Blocks of an exile area that count against its limit, in block order. */
export function exileCounted(s: R3State, area: string): number[] {
  const own = AREA[area]!.homeMercenaries ?? [];
  const out: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] === area && !s.down[b] && !own.includes(BLOCKS[b]!.id)) out.push(b);
  }
  return out;
}

/**
 * Upright blocks per area and side, counted in one pass (face-down blocks are
 * ignored for area status, INTERPRETATIONS 57). Build once per listing and pass
 * it to homeDestinations for several blocks; rebuild after any block moves.
 */
export type HomeOcc = Uint8Array;

/** Dense index of land and exile areas, for HomeOcc. */
const OCC_IX: ReadonlyMap<string, number> = new Map(
  AREAS.filter((a) => a.kind !== 'sea').map((a, i) => [a.id, i] as [string, number]),
);
/** The side each block fights for, except the Rebel (who serves the Pretender): 0 York, 1 Lancaster, 2 Rebel. */
const SIDE_IX: readonly number[] = BLOCKS.map((d) => (d.side === 'York' ? 0 : d.side === 'Lancaster' ? 1 : 2));

export function homeOcc(s: R3State): HomeOcc {
  const occ = new Uint8Array(OCC_IX.size * 2);
  const rebelIx = s.king === 'York' ? 1 : 0;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.down[b]) continue;
    const ai = OCC_IX.get(s.loc[b]!);
    if (ai === undefined) continue;
    const si = SIDE_IX[b]!;
    occ[ai * 2 + (si === 2 ? rebelIx : si)]!++;
  }
  return occ;
}

const count = (occ: HomeOcc, area: string, side: Side): number =>
  occ[OCC_IX.get(area)! * 2 + (side === 'York' ? 0 : 1)]!;
/** Not Enemy-occupied: no upright enemy block there. */
const notEnemy = (occ: HomeOcc, area: string, side: Side): boolean => count(occ, area, side === 'York' ? 'Lancaster' : 'York') === 0;
/** Enemy (2.1): enemy blocks and none of ours. */
const isEnemyArea = (occ: HomeOcc, area: string, side: Side): boolean =>
  !notEnemy(occ, area, side) && count(occ, area, side) === 0;

const KENT_Y = BLOCK_INDEX['kent-y']!;
const SALISBURY_Y = BLOCK_INDEX['salisbury-y']!;
const WARWICK_Y = BLOCK_INDEX['warwick-y']!;
const CLARENCE_L = BLOCK_INDEX['clarence-l']!;
const CALAIS = 'calais';

/** True if b must go home in the Political Turn: an heir, noble or church block on a land area (8.3/8.4). */
export function goesHome(s: R3State, b: number): boolean {
  const t = BLOCKS[b]!.type;
  if (t !== 'heir' && t !== 'noble' && t !== 'church') return false;
  return AREA[s.loc[b]!]?.kind === 'land';
}

/**
 * Where b may go home now (8.3/8.4), evaluated against the current position
 * (so the order in which a player sends blocks home matters, as on the board).
 * For a noble or church block, [] means "to the owner's pool" [G-6]. Heirs always
 * get at least one area (G-7: heirs are never sent to a pool).
 *
 * - Pretender heirs: the side's own exile areas (8.3; INTERPRETATIONS 45: unconditionally).
 * - King and royal heirs: a Friendly or Vacant area with an own shield, or any
 *   Friendly or Vacant crown area (8.4). Decision: if none exists, the side's
 *   exile areas (as for a royal minor heir with no crown area, G-11).
 * - Nobles/church: own shield / cathedral areas not Enemy-occupied [G-6].
 *   Defected Clarence: a Vacant York-shield area only [R-31]; defected Exeter:
 *   Cornwall (his only shield) unless Enemy-occupied.
 * - Nevilles [R-29]: a Yorkist Warwick may go to Calais; a Yorkist Kent or
 *   Salisbury may go to Calais when all his own printed shield areas are
 *   Enemy-occupied. Decision ("subject to the exile limit"): Calais is offered
 *   only while it holds fewer blocks than its limit (7.2 count), so going home
 *   never creates an exile excess. A Lancastrian Warwick never has Calais
 *   (not in his data; an enemy exile anyway). Dead Nevilles' shields come
 *   through shieldAreas.
 */
export function homeDestinations(s: R3State, b: number, occ: HomeOcc = homeOcc(s)): string[] {
  const d = BLOCKS[b]!;
  const side = ownerOf(s, b);
  if (d.type === 'heir') {
    if (side !== s.king) return EXILE_AREAS[side].slice();
    const out: string[] = [];
    for (const a of shieldAreas(s, b)) if (notEnemy(occ, a, side)) out.push(a);
    for (const a of CROWN_AREAS) if (!out.includes(a) && notEnemy(occ, a, side)) out.push(a);
    return out.length > 0 ? out : EXILE_AREAS[side].slice();
  }
  if (d.type !== 'noble' && d.type !== 'church') return [];
  if (b === CLARENCE_L) {
    // Vacant; the area he stands in counts as vacant if he is alone there.
    const here = s.loc[b]!;
    return shieldAreas(s, b).filter((a) => {
      const mine = count(occ, a, side) - (a === here && !s.down[b] ? 1 : 0);
      return notEnemy(occ, a, side) && mine === 0;
    });
  }
  const out: string[] = [];
  for (const a of shieldAreas(s, b)) {
    if (a === CALAIS) continue; // Calais is decided below
    if (notEnemy(occ, a, side)) out.push(a);
  }
  const calaisRoom = (): boolean => exileCount(s, CALAIS) < exileLimit(CALAIS);
  if (b === WARWICK_Y && calaisRoom()) out.push(CALAIS);
  if ((b === KENT_Y || b === SALISBURY_Y) && calaisRoom()) {
    const own = d.home?.areas ?? [];
    if (own.every((a) => isEnemyArea(occ, a, side))) out.push(CALAIS);
  }
  return out;
}

/* ------------------------------------------------ the order of going home */

/** Where a block goes when it goes home now: an area, or its owner's pool [G-6]. */
export type HomeMove = { block: number; to: string | 'pool' };

export interface PendingHomes {
  /** Blocks that must still go home (on a land area that is not one of their homes), block order. */
  must: number[];
  /** Blocks already at a home that may move to another (8.3 owner's choice), block order. */
  may: number[];
  /** The first forced move (one home, or none: the pool) that the engine may make for the owner, or null. */
  auto: HomeMove | null;
}

/**
 * The state of a go-home step (8.3/8.4) for `side`, `moved` being the ids
 * already sent home in it.
 *
 * Which forced moves the engine makes — decision ("owner's choice" covers the
 * order in which blocks go home, since each move can change the homes left to
 * the others): a block with one home (or none: the pool) is moved for the
 * owner only when the move commutes with every other choice of the step, i.e.
 * no other move of the step can change its options and its move cannot take an
 * option from any other block. Otherwise it stays in `must` and the owner
 * sends it (with its one destination, or to the pool) when he likes. Own moves
 * change options in two ways only (enemy blocks do not move, and no own block
 * can enter an Enemy-occupied area, so "not Enemy-occupied" and the Nevilles'
 * Enemy-occupied condition are fixed):
 *   - Calais's room (7.2 [R-29]): every block entering Calais fills it, and a
 *     Neville is offered Calais only while there is room. A forced move to
 *     Calais commutes when Calais has room for it and for every other block
 *     that could still go there (heirs included: they fill it too);
 *   - Vacant York royal shield areas for a defected Clarence [R-31]: a block
 *     entering such an area closes it to him, the last own block leaving it
 *     opens it. A forced move into one commutes unless Clarence still has to
 *     settle and the area is Vacant or could become so (all own blocks there
 *     may still leave); Clarence's own forced move commutes unless another
 *     block could fill his one Vacant area or empty another of his areas.
 * Blocks leaving an area only ever add options, so a forced departure never
 * hurts another block.
 */
export function pendingHomes(s: R3State, side: Side, moved: readonly string[]): PendingHomes {
  const occ = homeOcc(s);
  const must: number[] = [];
  const may: number[] = [];
  const opts = new Map<number, string[]>();
  let clarence = false; // a defected Clarence of `side` still to settle (he can be evicted from a Vacant home)
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (!goesHome(s, b) || ownerOf(s, b) !== side || moved.includes(BLOCKS[b]!.id)) continue;
    const o = homeDestinations(s, b, occ);
    if (b === CLARENCE_L) clarence = true;
    if (!o.includes(s.loc[b]!)) must.push(b);
    else if (o.length > 1) may.push(b);
    else continue;
    opts.set(b, o);
  }
  let auto: HomeMove | null = null;
  for (const b of must) {
    const o = opts.get(b)!;
    if (o.length > 1 || !forcedMoveCommutes(s, side, b, o, opts, clarence, occ)) continue;
    auto = { block: b, to: o.length === 1 ? o[0]! : 'pool' };
    break;
  }
  return { must, may, auto };
}

/**
 * True when b's forced move (`o`: its one home, or none) commutes with every
 * other move of the step (see pendingHomes). `open`: the blocks that may still
 * move, with their options; `clarence`: a defected Clarence still to settle.
 */
function forcedMoveCommutes(
  s: R3State, side: Side, b: number, o: readonly string[],
  open: ReadonlyMap<number, readonly string[]>, clarence: boolean, occ: HomeOcc,
): boolean {
  const to = o[0];
  const othersTo = (area: string): boolean => [...open].some(([c, co]) => c !== b && co.includes(area));
  if (to === CALAIS) {
    let wanted = 1;
    for (const [c, co] of open) if (c !== b && co.includes(CALAIS)) wanted++;
    if (wanted > exileLimit(CALAIS) - exileCount(s, CALAIS)) return false;
  }
  if (!clarence) return true;
  // Own upright blocks other than Clarence in `area`, and whether all of them may still leave.
  const mayEmpty = (area: string): { others: number; allMayLeave: boolean } => {
    let others = 0;
    let allMayLeave = true;
    for (let c = 0; c < NUM_BLOCKS; c++) {
      if (c === CLARENCE_L || s.loc[c] !== area || s.down[c] || ownerOf(s, c) !== side) continue;
      others++;
      if (!open.has(c)) allMayLeave = false;
    }
    return { others, allMayLeave };
  };
  const clarenceAreas = shieldAreas(s, CLARENCE_L).filter((a) => notEnemy(occ, a, side));
  if (b !== CLARENCE_L) {
    // Entering an area that is, or may become, Vacant for Clarence closes it to him.
    return to === undefined || !clarenceAreas.includes(to) || !mayEmpty(to).allMayLeave;
  }
  for (const a of clarenceAreas) {
    if (a === to) {
      if (othersTo(a)) return false; // another block could fill his one home first
    } else {
      const m = mayEmpty(a);
      if (m.others > 0 && m.allMayLeave) return false; // it may become Vacant for him
    }
  }
  return true;
}
