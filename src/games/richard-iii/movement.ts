/**
 * Land moves (5.2): group activation, the path of one block step by step,
 * must-stop rules, border limits (5.21), pinning (5.22, R-11/R-21) and the
 * battle bookkeeping a move into an enemy-held area creates (6.3, R-20).
 *
 * The block moves one area per action ('step'); its move ends with 'stop', or
 * by itself when it must stop (Enemy/Contested area entered, red border crossed,
 * last allowed area reached, or nowhere left to go).
 */
import {
  AREA, BLOCK_INDEX, BLOCKS, BORDER, BORDER_LIMIT, LAND_AND_EXILE, NUM_BLOCKS, borderId, other,
  type BorderType, type Side,
} from './data.ts';
import { Acted, addLog, ownerOf, type Attack, type R3State } from './state.ts';
import { areaRef, blockIdRef, list, msg, sideRef, sub } from './msg.ts';
import type { Action } from './flow.ts';
import { AREA_IX, freshCount, occupancy, statusAt, statusOf, type Occupancy } from './occupancy.ts';
import { allowsGroup, borderBonus, maxSteps, phaseOf, type MoveFrame, type PhaseFrame } from './action-frames.ts';
import { seaZoneOptions } from './sea-move.ts';
import { endActionPhase } from './action-phase.ts';

/* ------------------------------------------------------------ adjacency */

/** One land border seen from one of its areas. */
export interface Edge {
  to: string;
  /** areaIx(to), for occupancy lookups without hashing. */
  toIx: number;
  type: BorderType;
  limit: number;
  red: boolean;
  /** s.borderUse keys for this border, per side (`${borderId}|${side}`). */
  key: { York: string; Lancaster: string };
}

/** Land borders of every land/exile area, precomputed once from map.json. */
export const EDGES: Readonly<Record<string, readonly Edge[]>> = Object.fromEntries(
  LAND_AND_EXILE.map((a) => [
    a.id,
    (a.landNeighbours ?? []).map((to): Edge => {
      const type = BORDER[`${a.id}|${to}`]!;
      const id = borderId(a.id, to);
      return {
        to, toIx: AREA_IX[to]!, type, limit: BORDER_LIMIT[type], red: type === 'red',
        key: { York: `${id}|York`, Lancaster: `${id}|Lancaster` },
      };
    }),
  ]),
);

export function edgeBetween(from: string, to: string): Edge | undefined {
  const list = EDGES[from];
  if (!list) return undefined;
  for (const e of list) if (e.to === to) return e;
  return undefined;
}

/** The other side's exile areas can never be entered (2.7). */
export const isEnemyExile = (area: string, side: Side): boolean => {
  const ex = AREA[area]!.exileOf;
  return ex !== null && ex !== side;
};

/* -------------------------------------------------------------- pinning */

/** Blocks of the attacker standing in an attacked area that are not Reserves: they pin (5.22, R-21). */
export function mainAttackCount(s: R3State, at: Attack, area: string): number {
  let n = 0;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.loc[b] !== area || s.down[b] || ownerOf(s, b) !== at.attacker) continue;
    if (!at.reserves.includes(b)) n++;
  }
  return n;
}

/**
 * May one more of `side`'s blocks leave `area` (by land or sea)? Where the enemy
 * attacked, as many defenders as there are Main Attack blocks are pinned; the
 * defender picks which leave simply by moving them (INTERPRETATIONS 8). Blocks that
 * moved in this turn have acted already, so the count is of blocks that have not.
 */
export function canLeave(s: R3State, o: Occupancy, area: string, side: Side): boolean {
  const at = s.attacks[area];
  if (!at || at.attacker === side) return true;
  return freshCount(o, area, side) > mainAttackCount(s, at, area);
}

/** Unpinned defenders may not leave across a border the enemy used to enter the battle (5.22, R-11, R-21). */
export function borderClosed(s: R3State, from: string, to: string, side: Side): boolean {
  const at = s.attacks[from];
  return at !== undefined && at.entries[other(side)].includes(to);
}

/* ------------------------------------------------------- battle entries */

/**
 * May `side` enter the battle in `area` through `entry` (a land area or a sea zone,
 * G-8)? The attacker uses at most 3 different borders (6.3); Player 2 reinforcing a
 * battle Player 1 started at most 2.
 */
export function battleEntryOK(s: R3State, side: Side, area: string, entry: string): boolean {
  const at = s.attacks[area];
  if (!at) return true;
  const used = at.entries[side];
  if (used.includes(entry)) return true;
  return used.length < (at.attacker === side ? 3 : 2);
}

/**
 * Records block b entering an Enemy or Contested area (6.3): the first border an
 * attacker uses is the Main Attack (INTERPRETATIONS 9); other borders are Reserves;
 * blocks of the side that did not start the battle (Player 2 reinforcing) are
 * Reserves. Pirates (Piracy sea attacks) are listed for their sea-only retreat.
 */
export function recordEntry(s: R3State, side: Side, area: string, entry: string, b: number, pirate: boolean): void {
  let at = s.attacks[area];
  if (!at) {
    at = { attacker: side, main: entry, entries: { York: [], Lancaster: [] }, reserves: [], pirates: [] };
    s.attacks[area] = at;
  }
  if (at.attacker === side && at.main === null) at.main = entry;
  if (!at.entries[side].includes(entry)) at.entries[side].push(entry);
  if (at.attacker !== side || at.main !== entry) at.reserves.push(b);
  if (pirate) at.pirates.push(b);
}

/* ----------------------------------------------------------- land steps */

/**
 * Can a block of `side` standing in `cur` (having just left `prev`) cross `e` now?
 * Border limit per player per game turn (+1 under Surprise), no straight step back,
 * never into the enemy's exile, not across a border the enemy used to attack `cur`,
 * and within the battle-entry border count if `e.to` is Enemy or Contested.
 */
export function landStepOK(
  s: R3State, o: Occupancy, side: Side, cur: string, prev: string | null, e: Edge, bonus: number,
): boolean {
  if (e.to === prev) return false;
  if (isEnemyExile(e.to, side)) return false;
  if ((s.borderUse[e.key[side]] ?? 0) >= e.limit + bonus) return false;
  if (borderClosed(s, cur, e.to, side)) return false;
  const st = statusAt(o, e.toIx, side);
  if (st === 'enemy' || st === 'contested') return battleEntryOK(s, side, e.to, cur);
  return true;
}

/** Areas a block may step to next (move_to). */
export function landStepOptions(
  s: R3State, o: Occupancy, side: Side, cur: string, prev: string | null, bonus: number,
): string[] {
  const out: string[] = [];
  for (const e of EDGES[cur] ?? []) if (landStepOK(s, o, side, cur, prev, e, bonus)) out.push(e.to);
  return out;
}

/** May blocks standing in `area` start a land move now (AP or activation, pinning, some border open)? */
export function canStartLand(s: R3State, o: Occupancy, p: PhaseFrame, side: Side, area: string): boolean {
  if (!allowsGroup(p)) return false;
  if (p.ap <= 0 && !p.active.includes(area)) return false;
  if (!canLeave(s, o, area, side)) return false;
  const bonus = borderBonus(p);
  for (const e of EDGES[area] ?? []) if (landStepOK(s, o, side, area, null, e, bonus)) return true;
  return false;
}

/* ------------------------------------------------------- move_to state */

export const areaName = (a: string): string => AREA[a]?.name ?? a;

export function moveToActions(s: R3State, f: MoveFrame, side: Side): Action[] {
  const p = phaseOf(s)!;
  const o = occupancy(s);
  const b = BLOCK_INDEX[f.block]!;
  const cur = s.loc[b]!;
  const out: Action[] = [];
  if (f.path.length === 1) {
    if (canStartLand(s, o, p, side, cur)) {
      for (const a of landStepOptions(s, o, side, cur, null, borderBonus(p))) out.push({ type: 'step', area: a });
    }
    for (const z of seaZoneOptions(s, o, p, side, b, cur)) out.push({ type: 'sea', zone: z });
    out.push({ type: 'cancel' });
  } else {
    const prev = f.path[f.path.length - 2]!;
    for (const a of landStepOptions(s, o, side, cur, prev, borderBonus(p))) out.push({ type: 'step', area: a });
    out.push({ type: 'stop' });
  }
  out.push({ type: 'end' });
  return out;
}

export function moveToApply(s: R3State, f: MoveFrame, side: Side, a: Action): void {
  switch (a.type) {
    case 'cancel':
      s.flow.pop();
      return;
    case 'stop':
      finishMove(s, f, side);
      return;
    case 'end':
      if (f.path.length > 1) finishMove(s, f, side);
      endActionPhase(s, side);
      return;
    case 'sea': {
      const b = BLOCK_INDEX[f.block]!;
      s.flow.pop();
      s.flow.push({ s: 'sea_move_to', side, block: f.block, from: s.loc[b]!, zone: a['zone'] as string });
      return;
    }
    case 'step':
      step(s, f, side, a['area'] as string);
      return;
  }
  throw new Error(`move_to: unexpected action ${a.type}`);
}

function step(s: R3State, f: MoveFrame, side: Side, to: string): void {
  const p = phaseOf(s)!;
  const b = BLOCK_INDEX[f.block]!;
  const cur = s.loc[b]!;
  const e = edgeBetween(cur, to)!;
  const st = statusOf(occupancy(s), to, side);
  if (f.path.length === 1) {
    // 5.2 / INTERPRETATIONS 5: the AP is paid when the first block of an area moves.
    if (!p.active.includes(cur)) {
      p.active.push(cur);
      p.ap--;
    }
    s.acted[b] = Acted.Moved;
  }
  s.borderUse[e.key[side]] = (s.borderUse[e.key[side]] ?? 0) + 1;
  s.loc[b] = to;
  f.path.push(to);
  const battle = st === 'enemy' || st === 'contested';
  if (battle) recordEntry(s, side, to, cur, b, false);
  if (battle || e.red || f.path.length - 1 >= maxSteps(p) ||
      landStepOptions(s, occupancy(s), side, to, cur, borderBonus(p)).length === 0) {
    finishMove(s, f, side);
  }
}

/** Ends the move of the block in frame f (popping it) and logs it without naming the block publicly. */
function finishMove(s: R3State, f: MoveFrame, side: Side): void {
  s.flow.pop();
  const from = f.path[0]!;
  const to = f.path[f.path.length - 1]!;
  const via = f.path.length > 2 ? ` via ${f.path.slice(1, -1).map(areaName).join(', ')}` : '';
  const at = s.attacks[to];
  const battle = at !== undefined && at.entries[side].length > 0 ? ' (battle)' : '';
  const name = BLOCKS[BLOCK_INDEX[f.block]!]!.name;
  const params = {
    side: sideRef(side), from: areaRef(from), to: areaRef(to),
    via: f.path.length > 2 ? sub(msg('log.via', { areas: list(f.path.slice(1, -1).map(areaRef)) })) : '', battle: battle ? 'yes' : 'no',
  };
  addLog(s, `${side} moves a block from ${areaName(from)}${via} to ${areaName(to)}${battle}.`, msg('log.move', params), {
    side, text: `${side} moves ${name} from ${areaName(from)}${via} to ${areaName(to)}${battle}.`,
    m: msg('log.moveOwn', { ...params, block: blockIdRef(f.block) }),
  });
}
