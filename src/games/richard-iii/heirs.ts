/**
 * Who the heirs of a side are right now (3.21, 4.5, 9.1).
 *
 * An heir is a block of type 'heir' in blocks.json. Clarence and Exeter have two
 * versions: the heir version (clarence-y, exeter-l) and the enemy-noble version
 * (clarence-l, exeter-y, type 'noble'). Only one version is ever in play, so
 * "is an heir of his side" is simply "the heir version is the one in play" — a
 * defected Clarence/Exeter is a noble of his new side and an heir of neither
 * when he defects back he regains heir status (9.1) because the
 * heir version is in play again.
 *
 * Places (state.ts): an heir is *in play* when on the map or in an exile area
 * (any area id); a *minor* has loc 'minor'; 'dead' is permanent; 'off' is the
 * unused version of a two-version block. Heirs are never put in a pool by this
 * engine (G-7), but a pool heir (from an imported position) still counts as
 * living for instant victory.
 */
import { AREA, BLOCKS, NUM_BLOCKS, type Side } from './data.ts';
import type { R3State } from './state.ts';

/** Heir blocks of each side, most senior first (heirRank 1..5). Built once. */
const HEIRS_BY_RANK: Readonly<Record<Side, readonly number[]>> = (() => {
  const out: Record<Side, number[]> = { York: [], Lancaster: [] };
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const d = BLOCKS[b]!;
    if (d.type === 'heir' && (d.side === 'York' || d.side === 'Lancaster')) out[d.side].push(b);
  }
  for (const side of ['York', 'Lancaster'] as const) {
    out[side].sort((a, b) => (BLOCKS[a]!.heirRank ?? 99) - (BLOCKS[b]!.heirRank ?? 99));
  }
  return out;
})();

/** All heir-type blocks of a side (alive or not), most senior first. */
export function heirBlocks(side: Side): readonly number[] {
  return HEIRS_BY_RANK[side];
}

/** The heir rank (1 = most senior) of an heir-type block; Infinity otherwise. */
export function heirRank(b: number): number {
  return BLOCKS[b]!.heirRank ?? Infinity;
}

/** True if b is an heir block (heir version of its pair) of `side` — whatever its location. */
export function isHeirBlockOf(b: number, side: Side): boolean {
  const d = BLOCKS[b]!;
  return d.type === 'heir' && d.side === side;
}

/** True if b is an heir of `side` in play now (on the map or in exile). */
export function isHeirOf(s: R3State, b: number, side: Side): boolean {
  return isHeirBlockOf(b, side) && AREA[s.loc[b]!] !== undefined;
}

/** True if b is an heir of its side in play now (either side). */
export function isHeir(s: R3State, b: number): boolean {
  return BLOCKS[b]!.type === 'heir' && AREA[s.loc[b]!] !== undefined;
}

/** Heirs of `side` in play (map or exile), most senior first. */
export function heirsInPlay(s: R3State, side: Side): number[] {
  const out: number[] = [];
  for (const b of HEIRS_BY_RANK[side]) if (AREA[s.loc[b]!] !== undefined) out.push(b);
  return out;
}

/** Minor heirs of `side` (loc 'minor'), most senior first. */
export function minorHeirs(s: R3State, side: Side): number[] {
  const out: number[] = [];
  for (const b of HEIRS_BY_RANK[side]) if (s.loc[b] === 'minor') out.push(b);
  return out;
}

/** The most senior minor heir of `side` (the next to enter, 4.5/6.82), or null. */
export function seniorMinor(s: R3State, side: Side): number | null {
  for (const b of HEIRS_BY_RANK[side]) if (s.loc[b] === 'minor') return b;
  return null;
}

/** The most senior heir of `side` in play (map or exile), or null: the King/Pretender block (3.21). */
export function seniorHeir(s: R3State, side: Side): number | null {
  for (const b of HEIRS_BY_RANK[side]) if (AREA[s.loc[b]!] !== undefined) return b;
  return null;
}

/**
 * The most senior *living* heir of `side`, minors included (6.81: if he is a
 * minor he first enters play and becomes King there). Used for succession.
 */
export function seniorLivingHeir(s: R3State, side: Side): number | null {
  for (const b of HEIRS_BY_RANK[side]) if (isLivingLoc(s.loc[b]!)) return b;
  return null;
}

function isLivingLoc(loc: string): boolean {
  return loc !== 'dead' && loc !== 'off';
}

/**
 * Instant-victory test (9.0, R-30): does `side` still have a living heir — on
 * the map, in exile or a minor? Heirs defected to the enemy do not count (their
 * heir version is 'off'), nor do dead ones.
 */
export function hasLivingHeir(s: R3State, side: Side): boolean {
  for (const b of HEIRS_BY_RANK[side]) if (isLivingLoc(s.loc[b]!)) return true;
  return false;
}

/** Number of living heirs of `side` (in play, minors; defected ones excluded). */
export function livingHeirCount(s: R3State, side: Side): number {
  let n = 0;
  for (const b of HEIRS_BY_RANK[side]) if (isLivingLoc(s.loc[b]!)) n++;
  return n;
}

/** Royal heirs are the heirs of the King's side (3.21). */
export function isRoyalHeir(s: R3State, b: number): boolean {
  return isHeirOf(s, b, s.king);
}

/**
 * Among `blocks`, the most senior heir of `side` (for "only the most senior
 * eligible heir gets the bonus", 2.2/2.3, and Charge 6.5), or null.
 */
export function mostSeniorAmong(blocks: readonly number[], side: Side): number | null {
  let best: number | null = null;
  for (const b of blocks) {
    if (!isHeirBlockOf(b, side)) continue;
    if (best === null || heirRank(b) < heirRank(best)) best = b;
  }
  return best;
}
