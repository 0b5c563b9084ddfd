/**
 * Who stands where, counted once per legal-action listing. The rules ask
 * "is this area Friendly/Enemy/Vacant/Contested for me?" (2.1) many times while
 * listing moves; building this index is one pass over the 63 blocks, after which
 * every status question is two array reads.
 *
 * Face-down blocks (dead mercenaries in their exile, the Kingmaker prisoner) are
 * ignored for control (INTERPRETATIONS 57).
 */
import { LAND_AND_EXILE, NUM_BLOCKS, BLOCKS, type Side } from './data.ts';
import type { AreaStatus, R3State } from './state.ts';

/** Dense index of every land/exile area (sea zones are not occupied). */
export const AREA_IX: Readonly<Record<string, number>> = Object.fromEntries(LAND_AND_EXILE.map((a, i) => [a.id, i]));
/** The same as a Map: most lookups are of block locations, and 'pool'/'minor'/'off'/'dead' miss quickly there. */
const IX: ReadonlyMap<string, number> = new Map(Object.entries(AREA_IX));
const NA = LAND_AND_EXILE.length;

export const sideIx = (side: Side): number => (side === 'York' ? 0 : 1);

/** Side index per block for York/Lancaster blocks; -1 for the Rebel (it serves the Pretender, 3.26). */
const BLOCK_SIDE: readonly number[] = BLOCKS.map((d) => (d.side === 'York' ? 0 : d.side === 'Lancaster' ? 1 : -1));

/** Index of a land/exile area, or undefined (pool, minor, off, dead, sea zones). */
export const areaIx = (area: string): number | undefined => IX.get(area);

export interface Occupancy {
  /** Upright blocks per area and side: cnt[area * 2 + sideIx]. */
  cnt: number[];
  /** Upright blocks per area and side that have not acted this game turn (pinning, 5.22). */
  fresh: number[];
  /** Per block: its area index if it stands upright on the map, else -1. */
  at: number[];
}

const ZEROS: readonly number[] = new Array<number>(NA * 2).fill(0);
const OFF_MAP: readonly number[] = new Array<number>(NUM_BLOCKS).fill(-1);
/** A fresh array of 2 × (number of areas) zeros: per-area scratch tables of one listing. */
export const zeros = (): number[] => ZEROS.slice();

export function occupancy(s: R3State): Occupancy {
  // Plain arrays copied from templates: several times cheaper in V8 than typed arrays or fill().
  const cnt = ZEROS.slice();
  const fresh = ZEROS.slice();
  const at = OFF_MAP.slice();
  const pretender = s.king === 'York' ? 1 : 0;
  const { loc, down, acted } = s;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (down[b]) continue;
    const ai = IX.get(loc[b]!);
    if (ai === undefined) continue;
    at[b] = ai;
    const bs = BLOCK_SIDE[b]!;
    const k = ai * 2 + (bs < 0 ? pretender : bs);
    cnt[k]!++;
    if (acted[b] === 0) fresh[k]!++;
  }
  return { cnt, fresh, at };
}

export function statusOf(o: Occupancy, area: string, side: Side): AreaStatus {
  return statusAt(o, IX.get(area)!, side);
}

/** statusOf by area index (areaIx), for precomputed tables. */
export function statusAt(o: Occupancy, ai: number, side: Side): AreaStatus {
  const k = ai * 2;
  const me = side === 'York' ? 0 : 1;
  const mine = o.cnt[k + me]! > 0;
  const theirs = o.cnt[k + 1 - me]! > 0;
  return mine ? (theirs ? 'contested' : 'friendly') : theirs ? 'enemy' : 'vacant';
}

/** Friendly or Vacant (the test for sea moves, recruits and muster areas). */
export const isOpen = (o: Occupancy, area: string, side: Side): boolean =>
  o.cnt[IX.get(area)! * 2 + (side === 'York' ? 1 : 0)] === 0;

/** isOpen by area index. */
export const isOpenAt = (o: Occupancy, ai: number, side: Side): boolean => o.cnt[ai * 2 + (side === 'York' ? 1 : 0)] === 0;

/** Block b's side index now (0 York, 1 Lancaster; the Rebel serves the Pretender). */
export const blockSideIx = (s: R3State, b: number): number => {
  const bs = BLOCK_SIDE[b]!;
  return bs >= 0 ? bs : s.king === 'York' ? 1 : 0;
};

export const NUM_AREA_IX = NA;

export const freshCount = (o: Occupancy, area: string, side: Side): number =>
  o.fresh[IX.get(area)! * 2 + sideIx(side)]!;
