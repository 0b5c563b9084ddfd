/**
 * Recruiting (5.4): 1 AP per block, from the owner's pool, at full strength, not
 * revealed to the opponent. Face-down pool blocks (eliminated this
 * campaign, 6.83–6.86) cannot be recruited. A recruit cannot move this game turn
 * (s.acted = Recruited). Recruits are placed when bought: 1.2 allows placing them
 * "when bought" (face-down, stood up once all moves are done) as an alternative to
 * placing them after the moves, so placement is checked against the position at
 * the moment of purchase (as RtT does). A recruit counts for area status at once.
 *
 * Placement by type (5.4):
 *   noble / church / city levy → Friendly or Vacant area holding one of its own
 *     shields / its cathedral / its city — shieldAreas() from homes.ts;
 *   Bombard → a Friendly area containing any city;
 *   Rebel → any Vacant non-exile area (the Isle of Man included, INTERPRETATIONS 14);
 *   Welsh → a Friendly or Vacant Welsh area;
 *   heir (only if one ever sits in a pool, INTERPRETATIONS 14) → a royal heir into a
 *     Friendly or Vacant crown area, a Pretender heir into one of his side's exile areas;
 *   other mercenaries → never recruited (they start on the map in exile).
 */
import { AREA, BLOCK_INDEX, BLOCKS, LAND_AND_EXILE, NUM_BLOCKS, type Side } from './data.ts';
import { Acted, addLog, ownerOf, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef } from './msg.ts';
import type { Action } from './flow.ts';
import { occupancy, statusOf, type Occupancy } from './occupancy.ts';
import { phaseOf, type RecruitFrame } from './action-frames.ts';
import { areaName, isEnemyExile } from './movement.ts';
import { shieldAreas } from './homes.ts';
import { endActionPhase } from './action-phase.ts';

const CITY_AREAS = LAND_AND_EXILE.filter((a) => a.city !== null).map((a) => a.id);
const WALES = LAND_AND_EXILE.filter((a) => a.wales).map((a) => a.id);
const CROWNS = LAND_AND_EXILE.filter((a) => a.crown).map((a) => a.id);
const NON_EXILE = LAND_AND_EXILE.filter((a) => a.kind === 'land').map((a) => a.id);
const EXILES: Record<Side, string[]> = {
  York: LAND_AND_EXILE.filter((a) => a.exileOf === 'York').map((a) => a.id),
  Lancaster: LAND_AND_EXILE.filter((a) => a.exileOf === 'Lancaster').map((a) => a.id),
};

/** Pool blocks of `side` that may be recruited (upright, in the pool). */
export function recruitable(s: R3State, side: Side): number[] {
  const out: number[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] === 'pool' && !s.down[b] && ownerOf(s, b) === side) out.push(b);
  }
  return out;
}

/** Where pool block b may be placed now (5.4). */
export function recruitAreas(s: R3State, o: Occupancy, side: Side, b: number): string[] {
  const out: string[] = [];
  placements(s, o, side, b, out);
  return out;
}

/** Has pool block b at least one place to go? (recruitAreas without building the list.) */
export function canRecruit(s: R3State, o: Occupancy, side: Side, b: number): boolean {
  return placements(s, o, side, b, null);
}

/** Collects b's placements into `out`; with out = null, stops at the first one. Returns whether any exists. */
function placements(s: R3State, o: Occupancy, side: Side, b: number, out: string[] | null): boolean {
  const d = BLOCKS[b]!;
  let list: readonly string[];
  let test: 'open' | 'friendly' | 'vacant' = 'open';
  switch (d.type) {
    case 'noble':
    case 'church':
    case 'levy':
      list = shieldAreas(s, b);
      break;
    case 'bombard':
      list = CITY_AREAS;
      test = 'friendly';
      break;
    case 'rebel':
      list = NON_EXILE;
      test = 'vacant';
      break;
    case 'mercenary':
      if (d.id !== 'welsh-mercenary') return false;
      list = WALES;
      break;
    case 'heir':
      list = side === s.king ? CROWNS : EXILES[side];
      break;
    default:
      return false;
  }
  let any = false;
  for (const a of list) {
    if (AREA[a] === undefined || isEnemyExile(a, side)) continue;
    const st = statusOf(o, a, side);
    const ok = test === 'open' ? st === 'friendly' || st === 'vacant' : st === test;
    if (!ok) continue;
    any = true;
    if (!out) return true;
    out.push(a);
  }
  return any;
}

/* ------------------------------------------------- recruit_where state */

export function recruitWhereActions(s: R3State, f: RecruitFrame, side: Side): Action[] {
  const out: Action[] = [];
  for (const a of recruitAreas(s, occupancy(s), side, BLOCK_INDEX[f.block]!)) out.push({ type: 'place', area: a });
  out.push({ type: 'cancel' }, { type: 'end' });
  return out;
}

export function recruitWhereApply(s: R3State, f: RecruitFrame, side: Side, a: Action): void {
  if (a.type === 'cancel') {
    s.flow.pop();
    return;
  }
  if (a.type === 'end') {
    endActionPhase(s, side);
    return;
  }
  if (a.type !== 'place') throw new Error(`recruit_where: unexpected action ${a.type}`);
  const area = a['area'] as string;
  const b = BLOCK_INDEX[f.block]!;
  phaseOf(s)!.ap--;
  s.loc[b] = area;
  s.steps[b] = BLOCKS[b]!.maxSteps;
  s.acted[b] = Acted.Recruited;
  s.flow.pop();
  addLog(s, `${side} recruits a block in ${areaName(area)}.`, msg('log.recruit', { side: sideRef(side), area: areaRef(area) }), {
    side, text: `${side} recruits ${BLOCKS[b]!.name} in ${areaName(area)}.`,
    m: msg('log.recruitOwn', { side: sideRef(side), area: areaRef(area), block: blockRef(b) }),
  });
}
