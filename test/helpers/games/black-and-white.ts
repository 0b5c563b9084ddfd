// Black & White's playout adapter (./index.ts PlayoutAdapter). Uniform random
// play seldom ends a game: units wander a 9×7 board, players end turns early,
// and fights are rare. So random play here attacks whenever it can, prefers
// moves that come nearer an enemy or the scenario's objective (forts, arrow
// hexes), ends turns and activations seldom and undoes rarely. A position
// where no army can win any more (a Domination game where no army has
// infantry enough left to hold the forts; a Skirmish where neither side can
// reach 10 VP any more) the engine ends as a draw (option noWinPossible
// 'draw', the default; victory.ts canStillWin). With 'play-on' it would go on
// for ever: `deadEnd` names such positions (the engine's own test), and the
// bench and the fuzz stop there; the fuzz counts them, apart from the draws,
// with the games random play has not ended in MAX_DECISIONS.
//
// The fuzz: the contract's checks (./playout.ts contractPlayout) with the rule
// options drawn from the seed, then the leak scan of every seat's and the
// spectator's view and log lines at every version, with Black & White's leak
// rules (examples/leak-scan/black-and-white.ts): random play through the
// module's views, what the service sends a seat.
//
// And for the game's own tests (test/games/black-and-white): randomTestGame,
// the seeded random game they check step by step, with its choice helpers
// (mostly, pickOne), the undo check and the out-of-turn check.
import { IllegalActionError, type GameModule } from '../../../src/engine/types.ts';
import { nextUint32, randomInt, seedRng, type RngState } from '../../../src/engine/rng.ts';
import { gridOf, terrainAt } from '../../../src/games/black-and-white/board.ts';
import { ARMIES, type Army } from '../../../src/games/black-and-white/data-format.ts';
import type { Action } from '../../../src/games/black-and-white/flow.ts';
import { OPTION_DECLARATIONS } from '../../../src/games/black-and-white/options.ts';
import type { BWState } from '../../../src/games/black-and-white/state.ts';
import { canStillWin } from '../../../src/games/black-and-white/victory.ts';
import { scanGame, type LogEntry, type Received } from '../../../examples/leak-scan/index.ts';
import { contractPlayout, type ActionWeight } from './playout.ts';
import type { FuzzGame, FuzzOptions, PlayoutAdapter } from './index.ts';

const ATTACK = new Set(['melee', 'fire', 'bombard']);

/** The army's objective hexes: forts to take, arrow hexes to reach. */
function objectives(s: BWState, army: Army): string[] {
  const sc = s.scenario;
  if (sc.family === 'domination' || (sc.family === 'defence' && sc.attacker === army)) return Object.keys(sc.terrain).filter((h) => terrainAt(s, h) === 'fort');
  if (sc.family === 'behind-enemy-lines' && sc.attacker === army) return sc.arrows ?? [];
  return [];
}

/** The hexes an army wants to be near: enemy units, and the objective hexes none of its units holds. */
function goals(s: BWState, army: Army): string[] {
  const out = s.units.filter((u) => u.army !== army && u.hex !== null).map((u) => u.hex!);
  for (const h of objectives(s, army)) if (!s.units.some((u) => u.army === army && u.hex === h)) out.push(h);
  return out;
}

function nearest(s: BWState, from: string, to: readonly string[]): number {
  const g = gridOf(s);
  let best = Infinity;
  for (const h of to) best = Math.min(best, g.distance(from, h));
  return best;
}

/** Moves nearer a goal weigh 6, sideways 1, away 0.3. */
function moveWeight(s: BWState, army: Army, unit: string | undefined, to: string): number {
  const from = unit === undefined ? undefined : s.units.find((u) => u.id === unit)?.hex;
  if (!from) return 1;
  // A unit holding an objective stays.
  if (objectives(s, army).includes(from)) return 0.05;
  const targets = goals(s, army);
  if (targets.length === 0) return 1;
  const d0 = nearest(s, from, targets);
  const d1 = nearest(s, to, targets);
  return d1 < d0 ? 6 : d1 === d0 ? 1 : 0.3;
}

export const blackAndWhiteWeight: ActionWeight = (action, endWeight, state, role) => {
  const a = action as Action;
  const s = state as BWState | undefined;
  switch (a.type) {
    case 'undo':
      return 0.02;
    case 'melee':
    case 'fire':
    case 'bombard':
      return 50;
    case 'charge':
      return 10;
    case 'lift':
    case 'return':
      return 0.1;
    case 'done':
      return 0.2 * endWeight;
    case 'end-turn':
      return 0.3 * endWeight;
    case 'end-activation':
      return 0.5 * endWeight;
    case 'move':
      return s && role ? moveWeight(s, role as Army, s.act?.units[0], a.to) : 1;
    case 'move-unit':
      return s && role ? moveWeight(s, role as Army, a.unit, a.to) : 1;
    default:
      return ATTACK.has(a.type) ? 50 : 1;
  }
};

/**
 * No seat can win any more in a game that plays on (option noWinPossible
 * 'play-on'): the engine's own test (victory.ts canStillWin), which with
 * 'draw' ends the game there itself.
 */
export function blackAndWhiteDeadEnd(state: unknown): boolean {
  const s = state as BWState;
  if (s.result || s.phase !== 'play' || s.options.noWinPossible !== 'play-on') return false;
  return !ARMIES.some((a) => canStillWin(s, a));
}

/** Rule options drawn from the seed: each declared option takes one of its values. */
export function optionsFromSeed(seed: string): Record<string, string | number | boolean> {
  const rng = seedRng(`options:${seed}`);
  const out: Record<string, string | number | boolean> = {};
  for (const d of OPTION_DECLARATIONS) {
    const values: (string | number | boolean)[] = d.type === 'boolean' ? [false, true] : d.type === 'string' ? [...(d.values ?? [])] : [d.default];
    out[d.name] = values[nextUint32(rng) % values.length];
  }
  return out;
}

/**
 * Every seat's and the spectator's view, and the log lines each reads, at
 * every version of a played game (collected as contractPlayout made them:
 * its `observe`), scanned with Black & White's leak rules (what the service
 * would send them). Returns the findings as lines.
 */
export function viewScanner(m: GameModule, o: { scenario: string; seed: string; options: Record<string, unknown> }): {
  observe: (version: number, state: unknown, seen: { role: string | null; view: unknown; lines: string[] }[]) => void;
  scan: (trail: readonly { role: string; action: unknown }[]) => { findings: string[]; payloads: number };
} {
  const received: Received[] = [];
  return {
    observe: (version, _state, seen) => {
      for (const x of seen) {
        const role = x.role ?? 'spectator';
        received.push({ role, version, source: 'view', payload: x.view });
        if (x.lines.length) received.push({ role, version, source: 'log', payload: x.lines });
      }
    },
    scan: (trail) => {
      const entries: LogEntry[] = [{ seq: 1, kind: 'start', role: null, action: null }, ...trail.map((t, i) => ({ seq: i + 2, kind: 'action', role: t.role, action: t.action }))];
      const r = scanGame({ gameType: m.id, scenario: o.scenario, seed: o.seed, options: o.options, entries }, received, { [m.id]: m });
      return { findings: r.findings.map((f) => `${f.role} at version ${f.version} (${f.source}): ${f.problem}`), payloads: r.scanned };
    },
  };
}

/**
 * Past this, a random game counts as stopped, not failed: random play can
 * wander for ever where a player would not (every action is still checked).
 */
const MAX_DECISIONS = 3_000;

function fuzz(m: GameModule, o: FuzzOptions): FuzzGame {
  const options = optionsFromSeed(o.seed);
  const scanner = viewScanner(m, { scenario: o.scenario, seed: o.seed, options });
  const r = contractPlayout(m, blackAndWhiteWeight, { ...o, options, maxDecisions: MAX_DECISIONS, deadEnd: blackAndWhiteDeadEnd, observe: scanner.observe });
  const capped = r.failure?.startsWith(`step ${MAX_DECISIONS}: no end after`) ?? false;
  if (capped) r.failure = null;
  const head = `black-and-white scenario=${o.scenario} seed=${JSON.stringify(o.seed)} endWeight=${o.endWeight} options=${JSON.stringify(options)}`;
  const tail = r.trail.slice(-12).map((t) => `  ${t.role} ${JSON.stringify(t.action)}`);
  let failure = r.failure && [head, `  ${r.failure}`, '  last actions:', ...tail].join('\n');
  if (!failure) {
    const scan = scanner.scan(r.trail);
    if (scan.findings.length) failure = [head, '  leaks:', ...scan.findings.slice(0, 10).map((f) => `  ${f}`)].join('\n');
  }
  return { decisions: r.decisions, failure, winner: r.winner, trail: r.trail, ...(r.deadEnd || capped ? { deadEnd: true } : {}), ...(capped ? { capped } : {}) };
}

export const blackAndWhitePlayout: PlayoutAdapter = {
  weight: blackAndWhiteWeight,
  maxDecisions: MAX_DECISIONS,
  fuzzEndWeights: [1, 0.2],
  deadEnd: blackAndWhiteDeadEnd,
  fuzz,
};

/**
 * The adapter's choice made from a seat's view instead of the state (what a
 * bot playing over the API has): the same weights, on a state rebuilt from the
 * view's public parts (the scenario, the board, every block's hex, the
 * activation). For RestBotOptions.choose.
 */
export function chooseFromView<A>(actions: A[], random: () => number, view: unknown, role: string): A {
  const v = view as {
    scenario: BWState['scenario'];
    board: BWState['board'];
    armies: Record<string, { units: { id: string; hex: string | null }[] }>;
    activation: { units: string[] } | null;
  } | null;
  const s = v?.armies
    ? ({
        scenario: v.scenario,
        board: v.board,
        units: Object.entries(v.armies).flatMap(([army, a]) => a.units.map((u) => ({ ...u, army }))),
        act: v.activation,
      } as unknown as BWState)
    : undefined;
  const w = actions.map((a) => blackAndWhiteWeight(a, 1, s, role));
  let x = random() * w.reduce((n, y) => n + y, 0);
  for (let i = 0; i < actions.length; i++) if ((x -= w[i]!) < 0) return actions[i]!;
  return actions[actions.length - 1]!;
}

/** One step of a random test game: the position before, the seat and the action it took, the position after. */
export interface RandomStep {
  step: number;
  roles: Army[];
  role: Army;
  legal: Action[];
  action: Action;
  before: BWState;
  after: BWState;
}

/**
 * A seeded random game for the tests that check something at every step
 * (test/games/black-and-white random-play, orders-random, labels): the seat
 * is drawn from the active ones, `choose` picks its action from the legal
 * list, `onStep` checks the step once it is applied. Stops when the game is
 * over or after `maxSteps`; a game not over with nobody to act, or an active
 * seat with no legal action, goes to `fail` and stops it. Returns the last position.
 */
export function randomTestGame(
  m: GameModule<BWState, Action>,
  o: {
    scenario: string;
    seed: string;
    options?: Record<string, unknown>;
    rng: RngState;
    maxSteps: number;
    choose: (legal: Action[], s: BWState, role: Army) => Action;
    onStep: (x: RandomStep) => void;
    fail: (message: string) => unknown;
  },
): BWState {
  let s = m.setup({ scenario: o.scenario, seed: o.seed, ...(o.options ? { options: o.options } : {}) });
  for (let step = 0; step < o.maxSteps && !m.status(s).over; step++) {
    const roles = m.activeRoles(s) as Army[];
    if (roles.length === 0) {
      o.fail('nobody may act in a game not over');
      break;
    }
    const role = roles[randomInt(o.rng, roles.length)]!;
    const legal = m.legalActions(s, role);
    if (legal.length === 0) {
      o.fail(`no legal action for active ${role}`);
      break;
    }
    const action = o.choose(legal, s, role);
    const before = s;
    s = m.apply(s, role, action);
    o.onStep({ step, roles, role, legal, action, before, after: s });
  }
  return s;
}

/** Actions that play on rather than end the turn or the activation early, or undo. */
export const playsOn = (a: Action): boolean => a.type !== 'end-turn' && a.type !== 'end-activation' && a.type !== 'undo';

/**
 * The actions `keep` picks out, unless there are none or a 1-in-`odds` draw
 * says otherwise: then `otherwise()` (by default every legal action). So that
 * random play uses what it has (games reach combat) but still ends turns.
 */
export function mostly(rng: RngState, legal: Action[], keep: (a: Action) => boolean, odds: number, otherwise: () => Action[] = () => legal): Action[] {
  const pool = legal.filter(keep);
  return pool.length && randomInt(rng, odds) > 0 ? pool : otherwise();
}

export const pickOne = <A>(rng: RngState, list: readonly A[]): A => list[randomInt(rng, list.length)]!;

/**
 * Watches a random game's undoable actions: after an undo, the position must
 * be exactly the one before the last undoable action (but for the log).
 * Returns false where it is not.
 */
export function undoWatcher(): (x: Pick<RandomStep, 'action' | 'before' | 'after'>) => boolean {
  const undoable: BWState[] = [];
  const strip = (x: BWState) => JSON.stringify({ ...x, log: [], logFrom: 0, undo: x.undo.length });
  return ({ action, before, after }) => {
    if (action.type === 'undo') return strip(undoable.pop()!) === strip(after);
    if (after.undo.length > before.undo.length) undoable.push(before);
    else if (after.undo.length === 0) undoable.length = 0;
    return true;
  };
}

/** The step's action applied by the other seat while it is not active must be refused (IllegalActionError): what went wrong, or null. */
export function outOfTurn(m: GameModule<BWState, Action>, { roles, role, action, before }: Pick<RandomStep, 'roles' | 'role' | 'action' | 'before'>): string | null {
  const other = ARMIES.find((y) => y !== role)!;
  if (roles.includes(other)) return null;
  try {
    m.apply(before, other, action);
  } catch (e) {
    if (e instanceof IllegalActionError) return null;
    throw e;
  }
  return `${other} applied ${JSON.stringify(action)} out of turn`;
}
