/**
 * Moving hex by hex (§10, §11, §12): where a unit or detachment may step next,
 * what entering a hex does (fire, must-stop terrain, kind-only moves, aiming
 * markers), and the ZOC test to leave (§13, A18).
 */
import { armyAt, canEnterTerrain, enemyAt, gridOf, hasFeature, inEnemyZoc, kindOnlyMove, mustStop, roomFor, stackingOk, terrainAt } from './board.ts';
import { commandTest } from './command-test.ts';
import { MAX_MOVE } from './kinds.ts';
import { logLine } from './msg.ts';
import { reveal } from './reveal.ts';
import type { Army } from './data-format.ts';
import type { Activation, BWState, Unit } from './state.ts';
import { loseSteps, noteArrival, win } from './victory.ts';

/** The hexes next to `from` that all of `movers` may enter now (terrain, no enemy, stacking incl. passing through, A15). */
export function stepsFrom(s: BWState, movers: Unit[], from: string): string[] {
  return gridOf(s)
    .neighbours(from)
    .filter((h) => movers.every((u) => canEnterTerrain(s, u, h)) && roomFor(s, h, movers));
}

/** Whether the army's units on the hex are over the stacking limit (only while passing through, A15 'end-only'). */
export const overFull = (s: BWState, hex: string, army: Army): boolean => !stackingOk(armyAt(s, hex, army).map((u) => u.type));

/**
 * The hexes an activation's units may step into next (A15). With
 * 'every-hex' those with room (stepsFrom). With 'end-only' also a friendly
 * hex without room that they can surely step on out of in this activation:
 * a hex of allowance left after it, no forced stop there (§11, §12.2), no
 * ZOC test still to take there (§13; with A18 'stops' no enemy ZOC at all),
 * and a hex with room next to it. Out of a hex over the limit only into
 * hexes with room.
 */
export function moveSteps(s: BWState, act: Activation, movers: Unit[], from: string): string[] {
  const steps = stepsFrom(s, movers, from);
  const army = movers[0]!.army;
  if (s.options.a15Stacking !== 'end-only' || overFull(s, from, army)) return steps;
  if (allowance(movers, act.fromForest) + (act.orders?.extraMove ?? 0) - act.moved < 2) return steps;
  const g = gridOf(s);
  const zocCovered = act.zoc === 'passed' || (act.zoc === 'none' && inEnemyZoc(s, from, army));
  const enterable = (h: string): boolean => movers.every((u) => canEnterTerrain(s, u, h));
  const through = g.neighbours(from).filter(
    (h) =>
      !steps.includes(h) &&
      !enemyAt(s, h, army) &&
      enterable(h) &&
      movers.every((u) => !mustStop(s, u, h)) &&
      (!inEnemyZoc(s, h, army) || (zocCovered && s.options.a18EnterZoc !== 'stops')) &&
      g.neighbours(h).some((n) => n !== h && enterable(n) && roomFor(s, n, movers)),
  );
  return [...steps, ...through];
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
  // A50 'on-entering': the attacker takes the fort the moment one of its units enters it (and outlives a fire there).
  const sc = s.scenario;
  if (s.options.a50FortTaken === 'on-entering' && sc.family === 'defence' && terrainAt(s, to) === 'fort' && movers.some((u) => u.army === sc.attacker && u.hex === to)) {
    win(s, sc.attacker!, 'fort');
  }
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
 * A charge's path (§10.4, A13, A15): three hexes in one hex direction, each
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
    if (next === null || !canEnterTerrain(s, u, next)) return null;
    // A15: room in every hex, or with 'end-only' in the last (one passed through needs only no enemy in it).
    if (i === 2 || s.options.a15Stacking !== 'end-only' ? !roomFor(s, next, [u]) : enemyAt(s, next, u.army)) return null;
    if (terrainAt(s, next) === 'forest' || hasFeature(s, next, 'smoke')) return null;
    if (i < 2 && mustStop(s, u, next)) return null;
    // A13 'not': the hexes passed through must be out of enemy ZOCs.
    if (i < 2 && s.options.a13ChargeZoc === 'not' && inEnemyZoc(s, next, u.army)) return null;
    path.push(next);
    at = next;
  }
  return path;
}
