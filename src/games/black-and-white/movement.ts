/**
 * Moving hex by hex (§10, §11, §12): where a unit or detachment may step next,
 * what entering a hex does (fire, must-stop terrain, kind-only moves, aiming
 * markers), and the ZOC test to leave (§13, A18).
 */
import { canEnterTerrain, gridOf, hasFeature, inEnemyZoc, kindOnlyMove, mustStop, roomFor, terrainAt } from './board.ts';
import { commandTest } from './command-test.ts';
import { MAX_MOVE } from './kinds.ts';
import { logLine } from './msg.ts';
import { reveal } from './reveal.ts';
import type { Activation, BWState, Unit } from './state.ts';
import { loseSteps, noteArrival } from './victory.ts';

/** The hexes next to `from` that all of `movers` may enter now (terrain, no enemy, stacking incl. passing through, A15). */
export function stepsFrom(s: BWState, movers: Unit[], from: string): string[] {
  return gridOf(s)
    .neighbours(from)
    .filter((h) => movers.every((u) => canEnterTerrain(s, u, h)) && roomFor(s, h, movers));
}

/** How many hexes the activation's units may enter in all (§10.2; A11 forest start). */
export function allowance(movers: Unit[], fromForest: boolean): number {
  if (fromForest) return 1;
  return MAX_MOVE[movers[0]!.type];
}

/**
 * A12: whether the unit has "moved the maximum" in this activation (and so may
 * not attack but by §9.1's exceptions): its type's base allowance; with
 * 'as-far-as-allowed' also any move that went as far as the activation let it
 * (one hex out of a forest start, A11; a forced stop on a stream, wire or
 * forest, §11, §12.2).
 */
export function movedMaximum(s: BWState, act: Activation, u: Unit): boolean {
  if (act.moved >= MAX_MOVE[u.type]) return true;
  if (s.options.a12Maximum !== 'as-far-as-allowed' || act.moved === 0 || u.hex === null) return false;
  return act.moved >= allowance([u], act.fromForest) || mustStop(s, u, u.hex);
}

/** Whether the units stand in an enemy ZOC (and so must test to leave, §13). */
export const inZoc = (s: BWState, movers: Unit[]): boolean => inEnemyZoc(s, movers[0]!.hex!, movers[0]!.army);

/**
 * The ZOC test of A18 for units about to leave their hex: 'lowest' tests once
 * for all; 'each' tests every unit, and only those that pass go on.
 * Returns the units that may move.
 */
export function zocTest(s: BWState, movers: Unit[]): Unit[] {
  if (s.options.a18ZocTest === 'each' && movers.length > 1) return movers.filter((u) => commandTest(s, [u], 'zoc'));
  return commandTest(s, movers, 'zoc') ? movers : [];
}

/**
 * Moves the units one hex: fire costs a step (§12.3, A32), a kind-only move
 * reveals (§9.4), aiming markers go (A25). Returns whether the move must
 * stop there (stream, wire, forest).
 */
export function enterHex(s: BWState, movers: Unit[], to: string): { stop: boolean; wire: boolean } {
  for (const u of movers) {
    u.hex = to;
    if (kindOnlyMove(s, u, to)) reveal(s, u, 'log.revealedByMove');
    removeMarkersOnMove(s, u);
    noteArrival(s, u);
  }
  logLine(s, 'log.moved', { units: { list: movers.map((u) => u.id) }, hex: to });
  if (hasFeature(s, to, 'fire')) for (const u of movers) loseSteps(s, u);
  const stop = movers.some((u) => mustStop(s, u, to));
  return { stop, wire: hasFeature(s, to, 'wire') && movers[0]!.type === 'infantry' };
}

/** A25: markers laid by a moving artillery unit, or ('target-moves') aimed at a moving unit, go. */
export function removeMarkersOnMove(s: BWState, u: Unit): void {
  const before = s.aimingMarkers.length;
  s.aimingMarkers =
    s.options.a25MarkersRemoved === 'artillery-moves'
      ? s.aimingMarkers.filter((m) => m.by !== u.id)
      : s.aimingMarkers.filter((m) => m.target !== u.id);
  if (s.aimingMarkers.length < before) logLine(s, 'log.markersRemoved', { n: before - s.aimingMarkers.length });
}

/**
 * A charge's path (§10.4, A13): three hexes in one hex direction, each
 * enterable, none forest or smoke, none but the last a forced stop; null when
 * there is none to `to`.
 */
export function chargePath(s: BWState, u: Unit, to: string): string[] | null {
  const g = gridOf(s);
  const d = g.direction(u.hex!, to);
  if (d === null || g.distance(u.hex!, to) !== 3) return null;
  const path: string[] = [];
  let at = u.hex!;
  for (let i = 0; i < 3; i++) {
    const next = g.step(at, d);
    if (next === null || !canEnterTerrain(s, u, next) || !roomFor(s, next, [u])) return null;
    if (terrainAt(s, next) === 'forest' || hasFeature(s, next, 'smoke')) return null;
    if (i < 2 && mustStop(s, u, next)) return null;
    // A13 'not': the hexes passed through must be out of enemy ZOCs.
    if (i < 2 && s.options.a13ChargeZoc === 'not' && inEnemyZoc(s, next, u.army)) return null;
    path.push(next);
    at = next;
  }
  return path;
}
