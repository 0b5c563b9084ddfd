// Random play of any game module, through the GameModule contract alone
// (src/engine/types.ts): the per-game playout adapter (./index.ts) says only
// how to weigh actions and what else to check. Used by scripts/fuzz.ts,
// scripts/bench-engine.ts and the tests. Pure: no I/O, no clock (the bench
// passes its own timer).
import { nextUint32, randomInt, seedRng, type RngState } from '../../../src/engine/rng.ts';
import type { GameModule } from '../../../src/engine/types.ts';

/**
 * How random play weighs a game's actions; see PlayoutAdapter (./index.ts).
 * `state` and `role`: the position and the seat choosing, for a game whose
 * random play needs a sense of direction to end (Black & White's moves).
 */
export type ActionWeight = (action: unknown, endWeight: number, state?: unknown, role?: string) => number;

/** A weighted random choice (one nextUint32 per choice of two or more, so seeded games are replayable). */
export function pickAction<A>(rng: RngState, list: readonly A[], weight: ActionWeight, endWeight: number, state?: unknown, role?: string): A {
  if (list.length === 1) return list[0]!;
  const w = list.map((a) => weight(a, endWeight, state, role));
  let total = 0;
  for (const x of w) total += x;
  let x = (nextUint32(rng) / 0x100000000) * total;
  for (let i = 0; i < list.length; i++) if ((x -= w[i]!) < 0) return list[i]!;
  return list[list.length - 1]!;
}

/** The seat that acts: the only active one, or one of several at random (simultaneous play). */
export function pickRole(rng: RngState, roles: readonly string[]): string {
  return roles[roles.length === 1 ? 0 : randomInt(rng, roles.length)]!;
}

export interface TimedGame {
  decisions: number;
  /** Nanoseconds spent in legalActions + apply alone. */
  engineNs: bigint;
  winner: string | null;
}

/**
 * One random game for the engine benchmark: setup, then activeRoles →
 * legalActions → a weighted pick → apply until no seat is active (the
 * contract's end of a game), at most `maxDecisions`. No checks.
 */
export function timedGame(m: GameModule, weight: ActionWeight, o: { scenario: string; seed: string; endWeight: number; maxDecisions: number; deadEnd?: (state: unknown) => boolean }): TimedGame {
  const rng = seedRng(`play:${o.seed}`);
  let s = m.setup({ scenario: o.scenario, seed: o.seed });
  let n = 0;
  let ns = 0n;
  for (let roles = m.activeRoles(s); roles.length > 0 && n < o.maxDecisions && !o.deadEnd?.(s); roles = m.activeRoles(s)) {
    const role = pickRole(rng, roles);
    const t0 = process.hrtime.bigint();
    const list = m.legalActions(s, role);
    const t1 = process.hrtime.bigint();
    const a = pickAction(rng, list, weight, o.endWeight, s, role);
    const t2 = process.hrtime.bigint();
    s = m.apply(s, role, a);
    ns += t1 - t0 + (process.hrtime.bigint() - t2);
    n++;
  }
  return { decisions: n, engineNs: ns, winner: m.status(s).winner };
}

export interface ContractRun {
  decisions: number;
  /** What broke the contract (with the step), or null. */
  failure: string | null;
  winner: string | null;
  /** The actions played, replayable from the seed. */
  trail: { role: string; action: unknown }[];
  /** Stopped at a dead end (o.deadEnd): no seat can win any more, so random play would go on for ever. */
  deadEnd?: boolean;
}

/**
 * One random game checked against the contract after every action: an active
 * seat has a legal action and none when inactive; apply() leaves its input as
 * it was; views (every seat's and the spectator's) and log lines are JSON;
 * status().over exactly when no seat is active; and replaying the trail from
 * the seed gives the same final state. What every game is held to, whatever
 * its own rules (a game's adapter adds those).
 */
export function contractPlayout(
  m: GameModule,
  weight: ActionWeight,
  o: {
    scenario: string;
    seed: string;
    endWeight: number;
    maxDecisions: number;
    options?: Record<string, unknown>;
    deadEnd?: (state: unknown) => boolean;
    /**
     * Called at every version (1: after setup, n + 1: after the nth action) with the views and log
     * lines the checks just made: every seat's and the spectator's (role null), so a caller that
     * scans them (the B&W fuzz's leak scan) neither replays the game nor makes them again.
     */
    observe?: (version: number, state: unknown, seen: { role: string | null; view: unknown; lines: string[] }[]) => void;
  },
): ContractRun {
  const rng = seedRng(`play:${o.seed}`);
  const trail: ContractRun['trail'] = [];
  const fail = (step: number, message: string, s: unknown): ContractRun => ({ decisions: step, failure: `step ${step}: ${message}`, winner: s === undefined ? null : safeWinner(m, s), trail });
  let s: unknown;
  try {
    s = deepFreeze(m.setup({ scenario: o.scenario, seed: o.seed, ...(o.options ? { options: o.options } : {}) }));
  } catch (e) {
    return fail(0, `setup threw: ${(e as Error).stack}`, undefined);
  }
  let step = 0;
  let deadEnd = false;
  try {
    for (;;) {
      const roles = m.activeRoles(s);
      const over = m.status(s).over;
      if (over !== (roles.length === 0)) return fail(step, `status().over is ${over} with active roles [${roles.join(', ')}]`, s);
      const entries = m.logChange(s).entries;
      const seen = [...m.roles, null].map((role) => ({ role, view: m.view(s, role), lines: entries.map((e) => m.logLine(e, role)) }));
      for (const x of seen) JSON.stringify(x.view);
      if (seen.some((x) => x.lines.some((l) => typeof l !== 'string'))) return fail(step, 'a log line is not a string', s);
      o.observe?.(step + 1, s, seen);
      for (const role of m.roles) {
        const n = m.legalActions(s, role).length;
        if (roles.includes(role) ? n === 0 : n > 0) return fail(step, `${role} ${roles.includes(role) ? 'active with no legal action' : `inactive with ${n} legal actions`}`, s);
      }
      if (roles.length === 0) break;
      if (o.deadEnd?.(s)) {
        deadEnd = true;
        break;
      }
      if (step >= o.maxDecisions) return fail(step, `no end after ${o.maxDecisions} decisions`, s);
      const role = pickRole(rng, roles);
      const action = pickAction(rng, m.legalActions(s, role), weight, o.endWeight, s, role);
      trail.push({ role, action });
      let next: unknown;
      try {
        next = m.apply(s, role, action);
      } catch (e) {
        if (e instanceof TypeError && FROZEN_WRITE.test(e.message)) return fail(step, `apply() changed its input (${role} ${JSON.stringify(action)}): ${e.stack}`, s);
        throw e;
      }
      s = deepFreeze(next);
      step++;
    }
    let again = m.setup({ scenario: o.scenario, seed: o.seed, ...(o.options ? { options: o.options } : {}) });
    for (const t of trail) again = m.apply(again, t.role, t.action);
    if (JSON.stringify(again) !== JSON.stringify(s)) return fail(step, 'replaying the trail from the seed gave another final state', s);
  } catch (e) {
    return fail(step, `threw: ${(e as Error).stack}`, s);
  }
  return { decisions: step, failure: null, winner: m.status(s).winner, trail, ...(deadEnd ? { deadEnd } : {}) };
}

/**
 * Freezes a state and everything in it, stopping at what is frozen already:
 * a game shares the parts of a state an action leaves alone with the state
 * before it, so each step freezes only what it made. A write to the input of
 * apply (or of legalActions, view, status) then throws where it happens, which
 * checks "apply() leaves its input as it was" for the cost of the new objects
 * instead of writing the whole state as JSON twice per action.
 */
function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const k in v) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}

/** V8's messages for a write to a frozen object or array. */
const FROZEN_WRITE = /read[- ]only|not extensible|Cannot (assign|add|delete|define)|object is not extensible/i;

function safeWinner(m: GameModule, s: unknown): string | null {
  try {
    return m.status(s).winner;
  } catch {
    return null;
  }
}
