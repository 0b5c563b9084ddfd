/**
 * The Muster event (card text; INTERPRETATIONS 19). AP0. The player names one
 * Friendly or Vacant area (the muster area) that at least one of his blocks can
 * reach; then any or all of his blocks, from any areas, may each make a normal
 * move of 1 or 2 areas that ends in the muster area. "Normal" means: border limits
 * (5.21), no stepping back, the first area of a two-area move must be Friendly or
 * Vacant (entering an Enemy/Contested area would force a stop short of the muster
 * area) and its border must not be red (a red border stops the block), pinning and
 * closed borders (5.22). No sea moves, no recruits, no attack (the muster area
 * itself is Friendly or Vacant). No AP is spent.
 *
 * States: muster_event (name the area) → muster_who (pick a block) →
 * muster_move (first step; then, if not there yet, the step into the muster area).
 */
import { BLOCK_INDEX, BLOCKS, LAND_AND_EXILE, NUM_BLOCKS, type Side } from './data.ts';
import { Acted, addLog, ownerOf, type R3State } from './state.ts';
import { areaRef, blockRef, list, msg, sideRef, sub } from './msg.ts';
import type { Action } from './flow.ts';
import { isOpen, occupancy, type Occupancy } from './occupancy.ts';
import { EDGES, areaName, canLeave, edgeBetween, isEnemyExile, landStepOK } from './movement.ts';
import { endActionPhase } from './action-phase.ts';

export interface MusterEventFrame { s: 'muster_event'; side: Side; phase: true; [k: string]: unknown }
export interface MusterWhoFrame { s: 'muster_who'; side: Side; phase: true; area: string; [k: string]: unknown }
export interface MusterMoveFrame { s: 'muster_move'; side: Side; block: string; area: string; path: string[]; [k: string]: unknown }

/** First steps from `from` that lead to `target` (the target itself, or an area one step short of it). */
export function musterFirstSteps(s: R3State, o: Occupancy, side: Side, from: string, target: string): string[] {
  const out: string[] = [];
  if (from === target || !canLeave(s, o, from, side)) return out;
  for (const e of EDGES[from] ?? []) {
    if (!landStepOK(s, o, side, from, null, e, 0)) continue;
    if (e.to === target) {
      if (isOpen(o, target, side)) out.push(target);
      continue;
    }
    if (e.red || !isOpen(o, e.to, side)) continue;
    const e2 = edgeBetween(e.to, target);
    if (e2 && isOpen(o, target, side) && landStepOK(s, o, side, e.to, from, e2, 0)) out.push(e.to);
  }
  return out;
}

/** Areas every movable block of `from` could muster into (1 or 2 areas away). */
function reachable(s: R3State, o: Occupancy, side: Side, from: string, into: Set<string>): void {
  if (!canLeave(s, o, from, side)) return;
  for (const e of EDGES[from] ?? []) {
    if (!landStepOK(s, o, side, from, null, e, 0) || !isOpen(o, e.to, side)) continue;
    into.add(e.to);
    if (e.red) continue;
    for (const e2 of EDGES[e.to] ?? []) {
      if (isOpen(o, e2.to, side) && landStepOK(s, o, side, e.to, from, e2, 0)) into.add(e2.to);
    }
  }
}

/** Areas of movable blocks of `side` (upright, on the map, not yet acted). */
function moverAreas(s: R3State, side: Side): Set<string> {
  const out = new Set<string>();
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.acted[b] !== 0 || s.down[b] || !EDGES[s.loc[b]!] || ownerOf(s, b) !== side) continue;
    out.add(s.loc[b]!);
  }
  return out;
}

const LAND_IDS = LAND_AND_EXILE.map((a) => a.id);

export function musterEventActions(s: R3State, _f: MusterEventFrame, side: Side): Action[] {
  const o = occupancy(s);
  const reach = new Set<string>();
  for (const a of moverAreas(s, side)) reachable(s, o, side, a, reach);
  const out: Action[] = [];
  for (const a of LAND_IDS) if (reach.has(a) && !isEnemyExile(a, side)) out.push({ type: 'muster', area: a });
  out.push({ type: 'end' });
  return out;
}

export function musterEventApply(s: R3State, _f: MusterEventFrame, side: Side, a: Action): void {
  if (a.type === 'end') {
    endActionPhase(s, side);
    return;
  }
  const area = a['area'] as string;
  s.flow.pop();
  s.flow.push({ s: 'muster_who', side, phase: true, area });
  addLog(s, `${side} musters at ${areaName(area)}.`, msg('log.musterAt', { side: sideRef(side), area: areaRef(area) }));
}

export function musterWhoActions(s: R3State, f: MusterWhoFrame, side: Side): Action[] {
  const o = occupancy(s);
  const byArea = new Map<string, boolean>();
  const out: Action[] = [];
  for (let b = 0; b < NUM_BLOCKS; b++) {
    const at = s.loc[b]!;
    if (s.acted[b] !== 0 || s.down[b] || !EDGES[at] || ownerOf(s, b) !== side) continue;
    let ok = byArea.get(at);
    if (ok === undefined) {
      ok = musterFirstSteps(s, o, side, at, f.area).length > 0;
      byArea.set(at, ok);
    }
    if (ok) out.push({ type: 'select', block: BLOCKS[b]!.id });
  }
  out.push({ type: 'end' });
  return out;
}

export function musterWhoApply(s: R3State, f: MusterWhoFrame, side: Side, a: Action): void {
  if (a.type === 'end') {
    endActionPhase(s, side);
    return;
  }
  const id = a['block'] as string;
  s.flow.push({ s: 'muster_move', side, block: id, area: f.area, path: [s.loc[BLOCK_INDEX[id]!]!] });
}

export function musterMoveActions(s: R3State, f: MusterMoveFrame, side: Side): Action[] {
  const out: Action[] = [];
  if (f.path.length === 1) {
    for (const a of musterFirstSteps(s, occupancy(s), side, f.path[0]!, f.area)) out.push({ type: 'step', area: a });
    out.push({ type: 'cancel' }, { type: 'end' });
  } else {
    // One step short of the muster area: the move must end there (its border was checked with the first step).
    out.push({ type: 'step', area: f.area });
  }
  return out;
}

export function musterMoveApply(s: R3State, f: MusterMoveFrame, side: Side, a: Action): void {
  if (a.type === 'cancel') {
    s.flow.pop();
    return;
  }
  if (a.type === 'end') {
    endActionPhase(s, side);
    return;
  }
  const to = a['area'] as string;
  const b = BLOCK_INDEX[f.block]!;
  const cur = s.loc[b]!;
  const e = edgeBetween(cur, to)!;
  s.acted[b] = Acted.Moved;
  s.borderUse[e.key[side]] = (s.borderUse[e.key[side]] ?? 0) + 1;
  s.loc[b] = to;
  f.path.push(to);
  if (to !== f.area) return;
  s.flow.pop();
  const from = f.path[0]!;
  const via = f.path.length > 2 ? ` via ${areaName(f.path[1]!)}` : '';
  const params = { side: sideRef(side), from: areaRef(from), to: areaRef(to), via: f.path.length > 2 ? sub(msg('log.via', { areas: list([areaRef(f.path[1]!)]) })) : '' };
  addLog(s, `${side} musters a block from ${areaName(from)}${via} to ${areaName(to)}.`, msg('log.muster', params), {
    side, text: `${side} musters ${BLOCKS[b]!.name} from ${areaName(from)}${via} to ${areaName(to)}.`,
    m: msg('log.musterOwn', { ...params, block: blockRef(b) }),
  });
}
