/**
 * Retreats (6.6) and the victor's Regroup (6.7).
 *
 * Retreat, a block's battle-turn action from round 2 (attackers in round 4 have
 * no other): to an adjacent Friendly or Vacant area,
 *   - never across a border an enemy block used to enter this battle; a
 *     border both sides used is open to Player 2 only;
 *   - within border limits counted separately for each battle round;
 *   - never into an enemy exile area (2.7); Lancaster may retreat into Scotland
 *     (2.72) — Scotland is simply a Lancaster exile with land borders;
 *   - by sea only, and only for blocks that attacked by Piracy: to a
 *     Friendly or Vacant coastal area of the same sea zone, with no border limit.
 *     "Same sea zone": the sea zones this side used to enter the battle, or, if
 *     the record has none, any zone touching the battle area (decision).
 * A block that must retreat and cannot is eliminated (battle.ts).
 *
 * Regroup: when a battle ends the victor may move any of his blocks in the area
 * (former Reserves included) to adjacent Friendly or Vacant areas (never Enemy
 * or Contested, never an enemy exile), with border limits counted afresh for
 * this regroup; pirates only by sea as above. The enemy's entry borders
 * do not restrict a regroup (6.7 does not say so). Block by block
 * ({"type":"regroup","block":id,"to":area}), undoable (INTERPRETATIONS 54),
 * closed by {"type":"end_regroup"}.
 */
import { AREA, BLOCKS, BORDER, BORDER_LIMIT, LAND_AND_EXILE, NEIGHBOURS, NUM_BLOCKS, borderId, other, type Side } from './data.ts';
import { addLog, ownerOf, type Frame, type R3State } from './state.ts';
import { areaRef, blockRef, msg, sideRef } from './msg.ts';
import { drop, hostileAreas, nameOf, type BattleFrame } from './battle-state.ts';

/** Areas hostile to the moving side: Friendly or Vacant = not in the set. */
export type Hostile = ReadonlySet<string>;
import type { Action } from './flow.ts';

const areaName = (a: string): string => AREA[a]?.name ?? a;

/** Exile owner of each area (null for land areas), built once. */
const EXILE_OF: Readonly<Record<string, Side | null>> = Object.fromEntries(
  LAND_AND_EXILE.map((a) => [a.id, a.kind === 'exile' ? a.exileOf : null]),
);
const enemyExile = (area: string, side: Side): boolean => {
  const x = EXILE_OF[area];
  return x !== null && x !== undefined && x !== side;
};

/** The sea zones a pirate of `side` may use from `area`. */
export function pirateSeas(area: string, entries: readonly string[]): string[] {
  const seas = AREA[area]!.seas;
  const used = seas.filter((z) => entries.includes(z));
  return used.length > 0 ? used : seas.slice();
}

/** Friendly or Vacant coastal areas on those sea zones (5.3 rules replace border limits). */
export function seaDestinations(o: Hostile, area: string, side: Side, seas: readonly string[]): string[] {
  const out: string[] = [];
  for (const z of seas) {
    for (const c of AREA[z]!.coasts ?? []) {
      if (c === area || out.includes(c) || enemyExile(c, side) || o.has(c)) continue;
      out.push(c);
    }
  }
  return out;
}

interface Edge {
  to: string;
  /** borderId of the crossing. */
  id: string;
  limit: number;
}

/** Land borders of every area with their limits (5.21), built once. */
const EDGES: Readonly<Record<string, readonly Edge[]>> = Object.fromEntries(
  LAND_AND_EXILE.map((a) => [
    a.id,
    (NEIGHBOURS[a.id] ?? []).map((to) => ({ to, id: borderId(a.id, to), limit: BORDER_LIMIT[BORDER[`${a.id}|${to}`]!] })),
  ]),
);

/**
 * Adjacent land destinations within border limits counted in `use`, skipping
 * borders in `closed` (area ids) unless they are also in `reopened`.
 */
function landDestinations(
  o: Hostile,
  area: string,
  side: Side,
  use: Record<string, number>,
  closed: readonly string[],
  reopened: readonly string[],
): string[] {
  const out: string[] = [];
  const list = EDGES[area];
  if (!list) return out;
  for (const e of list) {
    if (enemyExile(e.to, side) || o.has(e.to)) continue;
    if (closed.includes(e.to) && !reopened.includes(e.to)) continue;
    if ((use[e.id + '|' + side] ?? 0) >= e.limit) continue;
    out.push(e.to);
  }
  return out;
}

const NONE: readonly string[] = [];

/**
 * Where a block of `side` that is not a pirate may retreat now (6.6); the same
 * for all of them, so listings compute it once per side.
 */
export function landRetreats(s: R3State, bf: BattleFrame, side: Side, o: Hostile): string[] {
  // borders the enemy used are closed; one both used stays open to Player 2.
  const reopened = s.p1 !== side ? bf.entries[side] : NONE;
  return landDestinations(o, bf.area, side, bf.retreatUse, bf.entries[other(side)], reopened);
}

/** Where b may retreat now (6.6); [] if nowhere. */
export function retreatOptions(s: R3State, bf: BattleFrame, b: number, o: Hostile): string[] {
  const side = ownerOf(s, b);
  if (bf.pirates.includes(b)) return seaDestinations(o, bf.area, side, pirateSeas(bf.area, bf.entries[side]));
  return landRetreats(s, bf, side, o);
}

/** Moves b out of the battle to `to` (a retreat). */
export function retreat(s: R3State, bf: BattleFrame, b: number, to: string): void {
  const side = ownerOf(s, b);
  const bySea = bf.pirates.includes(b);
  if (!bySea) {
    const k = `${borderId(bf.area, to)}|${side}`;
    bf.retreatUse[k] = (bf.retreatUse[k] ?? 0) + 1;
  }
  s.loc[b] = to;
  drop(bf.revealed, b);
  drop(bf.pirates, b);
  addLog(s, `${side}: ${nameOf(b)} retreats from ${areaName(bf.area)} to ${areaName(to)}${bySea ? ' by sea' : ''}.`,
    msg('log.retreat', { side: sideRef(side), block: blockRef(b), from: areaRef(bf.area), to: areaRef(to), sea: bySea ? 'yes' : 'no' }));
}

/* ------------------------------------------------------------------ regroup */

export interface RegroupFrame extends Frame {
  s: 'regroup';
  side: Side;
  area: string;
  /** The victor's blocks that attacked by Piracy (sea regroup only). */
  pirates: number[];
  /** The victor's entry points (for the pirates' sea zones). */
  entries: string[];
  /** Border crossings of this regroup, keyed `${borderId}|${side}`. */
  use: Record<string, number>;
  /** Blocks seen face-up in the battle: they may be named in the log. (Not `revealed`: after the battle they stand up again.) */
  seen: number[];
}

function regroupOptionsOf(f: RegroupFrame, b: number, o: Hostile): string[] {
  if (f.pirates.includes(b)) return seaDestinations(o, f.area, f.side, pirateSeas(f.area, f.entries));
  return landDestinations(o, f.area, f.side, f.use, NONE, NONE);
}

export function regroupActions(s: R3State, f: RegroupFrame): Action[] {
  const o = hostileAreas(s, f.side);
  const out: Action[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] !== f.area || s.down[b] || ownerOf(s, b) !== f.side) continue;
    for (const to of regroupOptionsOf(f, b, o)) out.push({ type: 'regroup', block: BLOCKS[b]!.id, to });
  }
  out.push({ type: 'end_regroup' });
  return out;
}

/** True if the victor has at least one regroup move (otherwise the step is skipped). */
export function canRegroup(s: R3State, f: RegroupFrame): boolean {
  return regroupActions(s, f).length > 1;
}

export function regroupMove(s: R3State, f: RegroupFrame, b: number, to: string): void {
  if (!f.pirates.includes(b)) {
    const k = `${borderId(f.area, to)}|${f.side}`;
    f.use[k] = (f.use[k] ?? 0) + 1;
  }
  s.loc[b] = to;
  const how = f.pirates.includes(b) ? ' by sea' : '';
  const params = { side: sideRef(f.side), from: areaRef(f.area), to: areaRef(to), sea: how ? 'yes' : 'no' };
  if (f.seen.includes(b)) {
    addLog(s, `${f.side} regroups ${nameOf(b)} from ${areaName(f.area)} to ${areaName(to)}${how}.`, msg('log.regroupOwn', { ...params, block: blockRef(b) }));
  } else {
    addLog(s, `${f.side} regroups a block from ${areaName(f.area)} to ${areaName(to)}${how}.`, msg('log.regroup', params), {
      side: f.side,
      text: `${f.side} regroups ${nameOf(b)} from ${areaName(f.area)} to ${areaName(to)}${how}.`,
      m: msg('log.regroupOwn', { ...params, block: blockRef(b) }),
    });
  }
}
