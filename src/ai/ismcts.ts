/**
 * Single-observer information-set Monte Carlo tree search (SO-ISMCTS;
 * Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search",
 * IEEE TCIAIG 2012), over any GameModule that can sample states.
 *
 * The search never sees a real state. Each iteration draws a determinization,
 * a full state consistent with the searching seat's view
 * (module.sampleState(view, role, rng)), and walks one tree shared by all
 * determinizations: its edges are (acting role, action) keyed by canonical
 * JSON, so the same move reached through different determinizations is the
 * same node. At each node only the actions legal in this iteration's
 * determinization compete; UCB1 uses each child's availability count (how
 * often it was legal when its parent was visited) instead of the parent's
 * visits, so rarely-legal moves are not starved or favoured. The opponent's
 * nodes are in the same tree (the observer's); a simultaneous frame (both
 * seats to act) is searched as if the searching seat acted first, which is
 * pessimistic for it, never optimistic. Below the root, a move the next mover
 * has half made (module.partialMove: a block chosen, its destination not yet)
 * is completed greedily under module.evaluate as soon as it is begun
 * (options.completeMoves), so its first decision is worth its best completion.
 * Then one untried action is expanded,
 * the game is played out at random (up to a depth, then scored by
 * module.evaluate or as even) and the result is backed up: each node adds the
 * reward of the role whose action led to it.
 *
 * Every random choice comes from one RNG seeded by the request's seed, and
 * every loop visits actions in the module's own order, so the same view,
 * legal actions and seed give the same answer (unless the time cap stops the
 * search early, which depends on the machine).
 */
import { randomInt, seedRng, type RngState } from '../engine/rng.ts';
import type { AnyGameModule } from './types.ts';

export interface SearchOptions {
  /** Iterations (one determinization and one playout each): the level's fixed budget. */
  simulations: number;
  /** Wall-clock cap in ms; 0 or absent: none. */
  timeCapMs?: number;
  /** UCB1 exploration constant (rewards are in [0, 1]). */
  exploration?: number;
  /** Rescale mean rewards to the range seen so far before UCB (default true). */
  normalize?: boolean;
  /** Actions a playout may take past the tree before module.evaluate scores it; absent, or a module without evaluate: to the end. */
  playoutDepth?: number;
  /**
   * Half-made moves (module.partialMove: a block chosen, its destination not
   * yet) below the root are completed greedily, each decision the best for its
   * mover under module.evaluate, up to this many decisions, right after the
   * action that began them, in the tree as at its leaf: so a move's first
   * decision is worth its best completion, and a half-made move is never a
   * node below the root. 0 or absent: none.
   */
  completeMoves?: number;
  /** With completeMoves: complete only the searching role's half-made moves (the other side's stay nodes of the tree). Default false: both sides'. */
  completeOwnOnly?: boolean;
  /**
   * With completeMoves: a tree node keeps the decisions that completed the
   * move into it, and a later visit replays them (when they are still legal
   * in that visit's determinization) instead of trying every completion again;
   * the greedy completion is redone on the node's visits 1, 2, 4, 8, … (and
   * whenever a replay fails). Default false: redone on every visit.
   */
  completeReuse?: boolean;
  /** A clock in ms (tests inject one); default performance.now. */
  now?: () => number;
}

export interface SearchInput {
  role: string;
  view: unknown;
  legalActions: readonly unknown[];
  seed: string;
}

export interface SearchResult {
  /** One of input.legalActions (the very value, not a copy). */
  action: unknown;
  /** Iterations that ran a playout. */
  simulations: number;
  cappedByTime: boolean;
  /**
   * Determinizations whose legal actions for the seat differed from the
   * request's (a sampleState bug, or a request built from another state):
   * the iteration then searches the actions legal in both, or is skipped
   * when there is none.
   */
  sampleMismatches: number;
  /** Tree nodes built (the search's memory is about this many small objects). */
  nodes: number;
  /** Visits and mean reward of each root action, in the request's order (for tests and the benchmark). */
  root: { action: unknown; visits: number; mean: number }[];
}

/** The default UCB1 constant: √2 is the textbook value for rewards in [0, 1]; a little less suits a fixed small budget. */
export const DEFAULT_EXPLORATION = 0.7;

interface TreeNode {
  /** The role whose action led here (root: the searching role). */
  actor: string;
  visits: number;
  /** Times this node was legal when its parent was visited. */
  avail: number;
  /** Sum of the actor's rewards over the visits. */
  reward: number;
  children: Map<string, TreeNode>;
  /** completeReuse: the decisions that last completed the move into this node. */
  done?: CompletionStep[];
}

const newNode = (actor: string): TreeNode => ({ actor, visits: 0, avail: 0, reward: 0, children: new Map() });

/** JSON with object keys sorted: one key per action whatever order a module builds its keys in. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/**
 * Actions that only take back the seat's own last step: { type: 'undo' } (any
 * game) and { type: 'take_back' } (a card played face down, before the other
 * seat plays: Richard III). Searching them only makes loops, and random
 * playouts that take back never end, so the search leaves them out; a seat
 * whose only actions are these is waiting for the other seat.
 */
export const TAKE_BACK_TYPES: ReadonlySet<string> = new Set(['undo', 'take_back']);

const isTakeBack = (a: unknown): boolean =>
  typeof a === 'object' && a !== null && TAKE_BACK_TYPES.has((a as { type?: unknown }).type as string);

/**
 * Actions that drop a choice half made (Richard III's `cancel`: put back the
 * block chosen to move or recruit). Not take-backs: a seat whose only action
 * is one must still play it. But searched, they let the AI choose a block,
 * find another better from the next position's samples, cancel, and choose the
 * first again, for ever (bench:ai saw games stall at its decision cap).
 */
export const CANCEL_TYPES: ReadonlySet<string> = new Set(['cancel']);

const isCancel = (a: unknown): boolean =>
  typeof a === 'object' && a !== null && CANCEL_TYPES.has((a as { type?: unknown }).type as string);

/** The actions worth searching: all but take-backs and cancels (all of them when nothing else is left). */
export function searchActions(list: readonly unknown[]): unknown[] {
  const out = list.filter((a) => !isTakeBack(a) && !isCancel(a));
  if (out.length > 0) return out;
  const noTakeBack = list.filter((a) => !isTakeBack(a));
  return noTakeBack.length > 0 ? noTakeBack : list.slice();
}

/** Whether a seat with these legal actions is only waiting (it may take back, nothing else): no decision to make. */
export function onlyWaiting(list: readonly unknown[]): boolean {
  return list.length > 0 && list.every(isTakeBack);
}

/**
 * Who acts next in the search, and with which actions: of the active roles
 * that have something other than a take-back to do, the searching role when
 * it is one of them (simultaneous frames searched with it first: the
 * pessimistic order), else the first. Null: nobody can move (game over).
 */
export function nextMover(module: AnyGameModule, state: unknown, me: string): { actor: string; actions: unknown[] } | null {
  let first: { actor: string; actions: unknown[] } | null = null;
  for (const role of module.activeRoles(state)) {
    const list = module.legalActions(state, role);
    if (list.length === 0 || onlyWaiting(list)) continue;
    const m = { actor: role, actions: searchActions(list) };
    if (role === me) return m;
    first ??= m;
  }
  return first;
}

/** Reward per role in [0, 1] for a finished or cut-off game. */
function rewards(module: AnyGameModule, state: unknown, over: boolean, winner: string | null, known: Completed | null): Map<string, number> {
  const r = new Map<string, number>();
  for (const role of module.roles) {
    if (over) r.set(role, winner === null ? 0.5 : winner === role ? 1 : 0);
    // completeMove scored this very state for its last mover (scoreFor: the same clamp01(evaluate)).
    else if (known !== null && known.state === state && known.scored !== null && known.scored.role === role) r.set(role, known.scored.score);
    else r.set(role, module.evaluate ? clamp01(module.evaluate(state, role)) : 0.5);
  }
  return r;
}

/** The mover's reward for a state: 1/0/½ when the game is over, else module.evaluate. */
function scoreFor(module: AnyGameModule, state: unknown, role: string): number {
  const st = module.status(state);
  if (st.over) return st.winner === null ? 0.5 : st.winner === role ? 1 : 0;
  return clamp01(module.evaluate!(state, role));
}

/** A state completeMove ended on, with the last mover's score for it (so that the leaf's rewards need not evaluate it again). */
export interface Completed {
  state: unknown;
  /** The role that made the last completing decision and scoreFor(state, it); null when no decision was made. */
  scored: { role: string; score: number } | null;
  /** The decisions made, in order. */
  steps: CompletionStep[];
}

export interface CompletionStep { actor: string; action: unknown }

/**
 * Completes a move the next mover has half made (module.partialMove), one
 * decision at a time, each the action whose result `evaluate` scores best for
 * that mover (ties: the module's order), up to `limit` decisions. No RNG: the
 * search stays deterministic. `ownOnly`: only the searching role's (`me`)
 * half-made moves; the other side's are left for the tree.
 *
 * Cheap when there is nothing to complete (most calls): partialMove is asked
 * of every role before any legal action is listed.
 */
export function completeMove(module: AnyGameModule, state: unknown, me: string, limit: number, ownOnly = false): Completed {
  const done: Completed = { state, scored: null, steps: [] };
  const partial = module.partialMove?.bind(module);
  if (!partial || !module.evaluate) return done;
  for (let i = 0; i < limit; i++) {
    // nextMover's actor is one of the roles: when none has a half-made move, there is nothing to do.
    if (ownOnly ? !partial(state, me) : !module.roles.some((r) => partial(state, r))) break;
    if (module.status(state).over) break;
    const m = nextMover(module, state, me);
    if (m === null || (ownOnly && m.actor !== me) || !partial(state, m.actor)) break;
    let best: unknown = null;
    let bestAction: unknown = null;
    let bestScore = -Infinity;
    for (const a of m.actions) {
      const next = module.apply(state, m.actor, a);
      const x = scoreFor(module, next, m.actor);
      if (x > bestScore) { bestScore = x; best = next; bestAction = a; }
    }
    state = best;
    done.state = state;
    done.scored = { role: m.actor, score: bestScore };
    done.steps.push({ actor: m.actor, action: bestAction });
  }
  return done;
}

/**
 * completeReuse: the node's remembered completion replayed on `state`, or
 * null when one of its decisions is not a half-made move's next decision
 * there, or not legal there (apply throws), or the move is still half made
 * after them: the caller then completes greedily.
 */
function replayCompletion(module: AnyGameModule, state: unknown, steps: readonly CompletionStep[]): Completed | null {
  const partial = module.partialMove!.bind(module);
  for (const step of steps) {
    if (!partial(state, step.actor)) return null;
    try {
      state = module.apply(state, step.actor, step.action);
    } catch {
      return null;
    }
  }
  if (module.roles.some((r) => partial(state, r))) return null;
  return { state, scored: null, steps: steps as CompletionStep[] };
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0.5);

export function ismcts(module: AnyGameModule, input: SearchInput, opts: SearchOptions): SearchResult {
  const sample = module.sampleState?.bind(module);
  if (!sample) throw new Error(`game type "${module.id}" cannot sample states (GameModule.sampleState): only the random level plays it`);
  if (input.legalActions.length === 0) throw new RangeError('no legal action to choose from');
  const rng: RngState = seedRng(input.seed);
  const c = opts.exploration ?? DEFAULT_EXPLORATION;
  const normalize = opts.normalize ?? true;
  // Without an evaluation a cut-off playout would score as even: play to the end.
  const depthLimit = module.evaluate ? (opts.playoutDepth ?? Infinity) : Infinity;
  const now = opts.now ?? (() => performance.now());
  const cap = opts.timeCapMs && opts.timeCapMs > 0 ? opts.timeCapMs : 0;
  const completeLimit = opts.completeMoves ?? 0;
  const completeOwnOnly = opts.completeOwnOnly ?? false;
  const completeReuse = opts.completeReuse ?? false;
  const start = cap ? now() : 0;

  const me = input.role;
  const rootActions = searchActions(input.legalActions);
  const rootKeys = rootActions.map((a) => `${me} ${canonicalJson(a)}`);
  const rootKeySet = new Set(rootKeys);
  const root = newNode(me);

  let simulations = 0;
  let sampleMismatches = 0;
  let nodes = 1;
  let cappedByTime = false;
  const path: TreeNode[] = [];
  // The range of rewards seen so far, per role: UCB compares means rescaled to
  // it, so that a position where every move scores near 0 or 1 (an evaluation
  // far from even) still tells its moves apart.
  const lo = new Map<string, number>();
  const hi = new Map<string, number>();

  for (let iter = 0; iter < opts.simulations; iter++) {
    // The first iteration always runs, so that a capped search still has an opinion.
    if (cap && iter > 0 && now() - start >= cap) {
      cappedByTime = true;
      break;
    }
    let state = sample(input.view, me, rng);

    // The root: the request's actions, checked against this determinization.
    const sampled = searchActions(module.legalActions(state, me));
    const sampledKeys = sampled.map((a) => `${me} ${canonicalJson(a)}`);
    let mismatch = sampledKeys.length !== rootKeys.length;
    const rootLegal: { key: string; action: unknown }[] = [];
    for (let i = 0; i < sampled.length; i++) {
      if (rootKeySet.has(sampledKeys[i]!)) rootLegal.push({ key: sampledKeys[i]!, action: sampled[i] });
      else mismatch = true;
    }
    if (mismatch) sampleMismatches++;
    if (rootLegal.length === 0) continue;

    path.length = 0;
    path.push(root);
    let node = root;
    let legal = rootLegal;
    let actor = me;
    let expanded = false;
    let over = false;
    let winner: string | null = null;
    let completed: Completed | null = null;

    // Selection and expansion.
    for (;;) {
      const untried: { key: string; action: unknown }[] = [];
      let best: TreeNode | null = null;
      let bestAction: unknown = null;
      let bestScore = -Infinity;
      const rLo = lo.get(actor) ?? 0;
      const span = (hi.get(actor) ?? 1) - rLo;
      const scale = normalize && span > 1e-9 ? 1 / span : 1;
      const shift = normalize && span > 1e-9 ? rLo : 0;
      for (const l of legal) {
        const child = node.children.get(l.key);
        if (!child) { untried.push(l); continue; }
        child.avail++;
        const score = (child.reward / child.visits - shift) * scale + c * Math.sqrt(Math.log(child.avail) / child.visits);
        if (score > bestScore) { bestScore = score; best = child; bestAction = l.action; }
      }
      let next: TreeNode;
      let action: unknown;
      if (untried.length > 0) {
        const pick = untried[randomInt(rng, untried.length)]!;
        next = newNode(actor);
        next.avail = 1;
        nodes++;
        node.children.set(pick.key, next);
        action = pick.action;
        expanded = true;
      } else {
        next = best!;
        action = bestAction;
      }
      state = module.apply(state, actor, action);
      if (completeLimit > 0) {
        // Redo the greedy completion on visits 0, 1, 3, 7, … (counted before this one) or when the replay fails.
        const redo = !completeReuse || next.done === undefined || (next.visits & (next.visits + 1)) === 0;
        completed = (redo ? null : replayCompletion(module, state, next.done!)) ?? completeMove(module, state, me, completeLimit, completeOwnOnly);
        if (completeReuse) next.done = completed.steps;
        state = completed.state;
      }
      path.push(next);
      node = next;
      const st = module.status(state);
      if (st.over) { over = true; winner = st.winner; break; }
      if (expanded) break;
      const m = nextMover(module, state, me);
      if (m === null) break; // nobody can move and the game is not over: score it as cut off
      actor = m.actor;
      legal = m.actions.map((x) => ({ key: `${actor} ${canonicalJson(x)}`, action: x }));
    }

    // Playout: uniform random legal play, up to the depth limit.
    for (let depth = 0; !over && depth < depthLimit; depth++) {
      const m = nextMover(module, state, me);
      if (m === null) break;
      state = module.apply(state, m.actor, m.actions[randomInt(rng, m.actions.length)]);
      const st = module.status(state);
      if (st.over) { over = true; winner = st.winner; }
    }

    // Backpropagation: each node scores the move into it for the role that made it.
    const r = rewards(module, state, over, winner, completed);
    for (const [role, x] of r) {
      if (!(x >= (lo.get(role) ?? Infinity))) lo.set(role, x);
      if (!(x <= (hi.get(role) ?? -Infinity))) hi.set(role, x);
    }
    for (const n of path) {
      n.visits++;
      n.reward += r.get(n.actor) ?? 0;
    }
    simulations++;
  }

  // The most visited root action (ties: the better mean, then the request's order).
  const root_ = rootActions.map((action, i) => {
    const n = root.children.get(rootKeys[i]!);
    return { action, visits: n?.visits ?? 0, mean: n && n.visits > 0 ? n.reward / n.visits : 0 };
  });
  let bestI = 0;
  for (let i = 1; i < root_.length; i++) {
    const a = root_[i]!, b = root_[bestI]!;
    if (a.visits > b.visits || (a.visits === b.visits && a.mean > b.mean)) bestI = i;
  }
  return { action: root_[bestI]!.action, simulations, cappedByTime, sampleMismatches, nodes, root: root_ };
}
