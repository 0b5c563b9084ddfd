/**
 * Succession and minor heirs coming of age (6.81, 6.82, 4.5), used at the start
 * of the Supply Phase (7.0 [G-10]).
 *
 * Order inside step 1 of the Supply Phase: the minors due to enter come first,
 * then each side whose King/Pretender block is gone takes its senior heir in play.
 * This is what 6.81 and 4.5 require: "if the most senior Royal heir is a minor
 * heir, he first enters play and becomes King there" — e.g. Henry VI dies while
 * Prince Edward (no. 2) is a minor and Exeter (no. 3) is on the map: Prince Edward
 * enters and becomes King, not Exeter. Crowning the senior heir in play first
 * would crown Exeter.
 */
import { AREA, AREAS, BLOCKS, type Side } from './data.ts';
import { heirRank, seniorHeir, seniorLivingHeir, seniorMinor } from './heirs.ts';
import { addLog, areaStatus, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef } from './msg.ts';

const EXILES: Readonly<Record<Side, readonly string[]>> = {
  York: AREAS.filter((a) => a.kind === 'exile' && a.exileOf === 'York').map((a) => a.id),
  Lancaster: AREAS.filter((a) => a.kind === 'exile' && a.exileOf === 'Lancaster').map((a) => a.id),
};
const CROWN_AREAS: readonly string[] = AREAS.filter((a) => a.crown).map((a) => a.id);

/** A side's own exile areas (2.7). */
export function exileAreas(side: Side): readonly string[] {
  return EXILES[side];
}

/**
 * Where a minor heir of `side` may enter (6.82): a Royal heir (King's side) in a
 * Friendly or Vacant crown area, or, if there is none, in one of his side's exile
 * areas [G-11]; a Pretender's heir in one of the Pretender's own exile areas.
 */
export function heirEntryAreas(s: R3State, side: Side): string[] {
  if (side === s.king) {
    const out = CROWN_AREAS.filter((a) => {
      const st = areaStatus(s, a, side);
      return st === 'friendly' || st === 'vacant';
    });
    if (out.length > 0) return out;
  }
  return [...EXILES[side]];
}

/**
 * Before minors enter: if a side's crown is vacant and its most senior living
 * heir is a minor, that minor must enter now even if no death is pending
 * (6.81; normally the King's death already made one entry due).
 */
export function ensureCrownHeirEnters(s: R3State, side: Side): void {
  if (s.crown[side] !== null || s.heirsToEnter[side] > 0) return;
  const senior = seniorLivingHeir(s, side);
  if (senior !== null && s.loc[senior] === 'minor') s.heirsToEnter[side] = 1;
}

/** The minor who enters next for `side`, or null (and the pending count is dropped) if none is left. */
export function nextEntrant(s: R3State, side: Side): number | null {
  if (s.heirsToEnter[side] <= 0) return null;
  const b = seniorMinor(s, side);
  if (b === null) s.heirsToEnter[side] = 0;
  return b;
}

/** Puts minor heir b into play in `area` at full strength (he is a fresh block, 4.5). */
export function enterHeir(s: R3State, side: Side, b: number, area: string): void {
  s.loc[b] = area;
  s.steps[b] = BLOCKS[b]!.maxSteps;
  s.down[b] = false;
  s.heirsToEnter[side]--;
  addLog(s, `${side}: the minor heir ${BLOCKS[b]!.name} comes of age and enters play in ${AREA[area]!.name}.`,
    msg('log.heirEnters', { side: sideRef(side), block: blockRef(b), area: areaRef(area) }));
}

/**
 * 6.81/G-5: a side without a King/Pretender block takes its most senior heir in
 * play, where he stands and at his current strength; his location is announced.
 */
export function succeed(s: R3State, side: Side): void {
  if (s.crown[side] !== null) return;
  const b = seniorHeir(s, side);
  if (b === null) return; // no heir in play: instant victory has already ended the game (9.0)
  s.crown[side] = b;
  const role = side === s.king ? 'King' : 'Pretender';
  addLog(s, `${BLOCKS[b]!.name} (heir no. ${heirRank(b)}) is now the ${side} ${role}, in ${AREA[s.loc[b]!]!.name}.`,
    msg(role === 'King' ? 'log.newKing' : 'log.newPretender', { block: blockRef(b), rank: heirRank(b) ?? 0, side: sideRef(side), area: areaRef(s.loc[b]!) }));
}
