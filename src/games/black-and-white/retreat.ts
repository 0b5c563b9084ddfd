/**
 * The other seat's decisions after a hit (§16.2 3b–3d, §16.4, §16.5, A23,
 * A24), the counterattack choice (§16.3, A22) and the escape from a fire that
 * lands (§12.3, A32). While one is pending, the deciding army is the active role.
 */
import type { Action, StepHandler } from './flow.ts';
import { adjacentEnemies, canEnterTerrain, gridOf, kindOnlyMove, roomFor } from './board.ts';
import { reveal } from './reveal.ts';
import { commandTest } from './command-test.ts';
import { canCounter, resolveCounter } from './combat.ts';
import { logLine } from './msg.ts';
import { unitById, type BWState, type PendingDecision, type Unit } from './state.ts';
import { loseSteps, noteArrival } from './victory.ts';
import { removeMarkersOnMove } from './movement.ts';
import { afterResolution } from './activation.ts';
import { afterMeleeRetreat, beforeCounter, counterDeclared } from './orders-combat.ts';

/**
 * Where the unit may retreat (A23): one hex it could enter, within the
 * stacking limit, next to no enemy unit; after melee out of the attacker's
 * ZOC, after a ranged or artillery attack farther from the attacker (or, with
 * the option a23RangedRetreat 'not-adjacent', only not next to it).
 */
export function retreatHexes(s: BWState, u: Unit, p: Pick<PendingDecision, 'cause' | 'fromHex'>): string[] {
  const g = gridOf(s);
  const here = u.hex!;
  return g.neighbours(here).filter((h) => {
    if (!canEnterTerrain(s, u, h) || !roomFor(s, h, [u])) return false;
    if (p.cause === 'fire') return true;
    if (adjacentEnemies(s, h, u.army).length > 0) return false;
    if (p.cause === 'melee' || p.cause === 'counter' || s.options.a23RangedRetreat === 'not-adjacent') return g.distance(h, p.fromHex) > 1;
    return g.distance(h, p.fromHex) > g.distance(here, p.fromHex);
  });
}

function retreatTo(s: BWState, u: Unit, to: string): void {
  u.hex = to;
  // §9.4: a move only its kind can make (swamp for cavalry or artillery) shows the kind, a retreat too.
  if (kindOnlyMove(s, u, to)) reveal(s, u, 'log.revealedByMove');
  removeMarkersOnMove(s, u);
  noteArrival(s, u);
  logLine(s, 'log.retreated', { unit: u, hex: to });
  if ((s.features[to] ?? []).includes('fire')) loseSteps(s, u);
}

/** A forced retreat with nowhere to go: the unit stays and loses one more step (§16.4). */
function mustRetreat(s: BWState, p: PendingDecision, u: Unit): void {
  if (retreatHexes(s, u, p).length === 0) {
    logLine(s, 'log.cannotRetreat', { unit: u });
    s.pending.shift();
    loseSteps(s, u);
  } else {
    p.step = 'must-retreat';
  }
}

/**
 * The units a counterattack may hit (§16.3, A28): the unit that attacked;
 * with the option a28CounterTarget 'any-unit', any unit of its hex the
 * defender could attack back (the attacker always; infantry there shields
 * artillery, §16.8.2). Chosen by id and type, as the defender sees the hex:
 * only public facts decide which are listed.
 */
export function counterTargets(s: BWState, u: Unit, attacker: Unit): Unit[] {
  if (s.options.a28CounterTarget !== 'any-unit') return [attacker];
  if (attacker.hex === null) return [];
  const there = s.units.filter((x) => x.hex === attacker.hex && x.army === attacker.army);
  const shielded = there.some((x) => x.type === 'infantry');
  return there.filter((x) => x.id === attacker.id || ((x.type !== 'artillery' || !shielded) && canCounter(s, u, x)));
}

export const decisionStep: StepHandler = {
  actors: (s) => (s.pending[0] ? [s.pending[0].army] : []),
  actions(s, army) {
    const p = s.pending[0];
    if (!p || p.army !== army) return [];
    const u = unitById(s, p.unit);
    const out: Action[] = [];
    switch (p.step) {
      case 'after-hit':
        // A24 'stays': a fortified unit hit without a critical success does not retreat.
        if (!(p.fortified && s.options.a24Voluntary === 'stays')) for (const to of retreatHexes(s, u, p)) out.push({ type: 'retreat', to });
        out.push({ type: 'stand' });
        break;
      case 'must-retreat':
        for (const to of retreatHexes(s, u, p)) out.push({ type: 'retreat', to });
        break;
      case 'counter':
        if (s.options.a28CounterTarget === 'any-unit') {
          for (const x of counterTargets(s, u, unitById(s, p.from))) out.push({ type: 'counterattack', target: x.id });
        } else out.push({ type: 'counterattack' });
        out.push({ type: 'no-counterattack' });
        break;
      case 'fire-escape': {
        const hexes = retreatHexes(s, u, p);
        for (const to of hexes) out.push({ type: 'retreat', to });
        // A32 'must-leave': staying only when there is nowhere to go.
        if (hexes.length === 0 || s.options.a32FireEscape !== 'must-leave') out.push({ type: 'stay' });
        break;
      }
    }
    return out;
  },
  apply(s, _army, a) {
    const p = s.pending[0]!;
    const u = unitById(s, p.unit);
    switch (a.type) {
      case 'retreat': {
        const from = u.hex!;
        s.pending.shift();
        retreatTo(s, u, a.to);
        if (p.cause === 'melee') afterMeleeRetreat(s, p, from);
        break;
      }
      case 'stay':
      case 'no-counterattack':
        s.pending.shift();
        break;
      case 'stand': {
        if (p.fortified && !p.mayCounter) {
          // A24: a fortified unit hit at range without a critical is never forced out; no test decides anything.
          s.pending.shift();
          break;
        }
        const pass = commandTest(s, [u], 'stand');
        const attacker = unitById(s, p.from);
        if (pass) {
          if (p.mayCounter && canCounter(s, u, attacker)) {
            p.step = 'counter';
            beforeCounter(s);
          } else s.pending.shift();
        } else if (p.fortified) {
          // A24: without a critical success the test only decides the counterattack.
          s.pending.shift();
        } else {
          mustRetreat(s, p, u);
        }
        break;
      }
      case 'counterattack': {
        s.pending.shift();
        const target = unitById(s, a.target ?? p.from);
        if (!counterDeclared(s, u, target)) resolveCounter(s, u, target);
        break;
      }
      default:
        throw new Error(`${a.type} in a decision`);
    }
    afterResolution(s);
  },
  // Retreating or not rolls nothing (it may be undone while the decider still acts), unless the retreat reveals.
  undoable: (s, a) =>
    (a.type === 'retreat' && !retreatReveals(s, a.to)) ||
    a.type === 'stay' ||
    a.type === 'no-counterattack' ||
    (a.type === 'stand' && s.pending[0]!.fortified && !s.pending[0]!.mayCounter),
};

/** A retreat that shows the unit's kind (§9.4 swamp) or may eliminate it (fire: an eliminated block is shown). */
function retreatReveals(s: BWState, to: string): boolean {
  const u = unitById(s, s.pending[0]!.unit);
  return (!u.revealed && kindOnlyMove(s, u, to)) || (s.features[to] ?? []).includes('fire');
}

/** Queues a decision; if it is a forced retreat with nowhere to go, settles it at once. */
export function settleForced(s: BWState): void {
  for (;;) {
    const p = s.pending[0];
    if (!p || p.step !== 'must-retreat') return;
    const u = unitById(s, p.unit);
    if (retreatHexes(s, u, p).length > 0) return;
    mustRetreat(s, p, u);
  }
}
