/**
 * Black & White as a Herald game module. This file is the only door into the
 * rules: it checks the acting army and the action against the legal list,
 * copies the state, keeps the undo stack and dispatches to the step's handler
 * (flow.ts: purchase, deployment, a turn, an activation, a decision).
 */
import { IllegalActionError, type GameModule, type GameStatus } from '../../engine/types.ts';
import { ARMIES, type Army, type BlackAndWhiteData } from './data-format.ts';
import { stepOf, type Action, type HandlerTable, type StepHandler } from './flow.ts';
import { OPTION_DECLARATIONS } from './options.ts';
import { setupState } from './setup.ts';
import { cloneState, copyJson, logLength, sameJson, type BWState, type LogEntry } from './state.ts';
import { pushUndo, restoreSnapshot } from './undo.ts';
import { viewFor } from './view.ts';
import { actionGroups, describeAction, logMessage } from './labels.ts';
import { lineOf } from './msg.ts';
import { MESSAGES_DIR, plainText } from './plain-text.ts';
import { deploy, purchase } from './army-building.ts';
import { turnStep } from './turn.ts';
import { activationStep } from './activation.ts';
import { decisionStep } from './retreat.ts';
import { orderStep, withOrders } from './orders.ts';
import { checkNoWinPossible } from './victory.ts';

const over: StepHandler = { actors: () => [], actions: () => [], apply: () => {} };

// Commanders' orders (§18) join the purchase, the turn and the activation, and have their own window step.
export const HANDLERS: HandlerTable = withOrders({
  purchase,
  deploy,
  turn: turnStep,
  activation: activationStep,
  order: orderStep,
  decision: decisionStep,
  over,
});

const UNDO: Action = { type: 'undo' };

const asArmy = (role: string | null): Army | null => (role === 'Thargaton' || role === 'Vesania' ? role : null);
const handlerOf = (s: BWState): StepHandler => HANDLERS[stepOf(s)];

function actorsOf(s: BWState): Army[] {
  return handlerOf(s).actors(s);
}

/** States are immutable: a legal list is computed once per state and army. */
const legalCache = new WeakMap<BWState, Partial<Record<Army, Action[]>>>();

function handlerActions(s: BWState, army: Army): Action[] {
  let entry = legalCache.get(s);
  if (!entry) legalCache.set(s, (entry = {}));
  return (entry[army] ??= actorsOf(s).includes(army) ? handlerOf(s).actions(s, army) : []);
}

function canUndo(s: BWState, army: Army): boolean {
  const last = s.undo[s.undo.length - 1];
  return !!last && last.by === army && actorsOf(s).includes(army);
}

export function legalActionsOf(s: BWState, role: string): Action[] {
  const army = asArmy(role);
  if (!army) return [];
  const list = handlerActions(s, army);
  return canUndo(s, army) ? [...list, UNDO] : list.slice();
}

/** Why a step refuses an action that is not legal, where it can say (flow.ts `refusal`). */
function refusalOf(s: BWState, army: Army, action: Action): string | null {
  if (s.result || !actorsOf(s).includes(army)) return null;
  return handlerOf(s).refusal?.(s, army, action) ?? null;
}

export function applyAction(state: BWState, role: string, action: Action): BWState {
  const army = asArmy(role);
  if (!army) throw new IllegalActionError(`unknown role "${role}"`);
  if (state.result) throw new IllegalActionError('the game is over');
  if (!actorsOf(state).includes(army)) throw new IllegalActionError(`${army} may not act now`);
  if (typeof action !== 'object' || action === null || typeof (action as { type?: unknown }).type !== 'string') {
    throw new IllegalActionError('an action is a JSON object with a string "type"');
  }
  if (action.type === 'undo' && canUndo(state, army)) return restoreSnapshot(state);
  const legal = handlerActions(state, army);
  if (!legal.some((a) => sameJson(a, action))) {
    const why = refusalOf(state, army, action);
    throw new IllegalActionError(`${JSON.stringify(action)} is not a legal action for ${army} in ${stepOf(state)}${why ? `: ${why}` : ''}`);
  }
  const h = handlerOf(state);
  const s = cloneState(state);
  s.logFrom = logLength(state);
  s.log = [];
  const a = copyJson(action);
  const undoable = h.undoable?.(s, a) ?? false;
  h.apply(s, army, a);
  checkNoWinPossible(s);
  // No undo across a roll, a reveal or a hand-over: anything else clears the stack.
  if (undoable && actorsOf(s).includes(army)) pushUndo(s, state, army);
  else s.undo = [];
  return s;
}

export function createBlackAndWhite(data: BlackAndWhiteData): GameModule<BWState, Action> {
  return {
    id: 'black-and-white',
    title: 'Black & White',
    roles: ARMIES,
    scenarios: data.scenarios.map((sc) => ({
      id: sc.id,
      name: sc.title,
      description: `${sc.family}${sc.notes ? `: ${sc.notes}` : ''}`,
      options: OPTION_DECLARATIONS,
    })),
    data: {
      board: data.board,
      kinds: data.kinds,
      aiming: data.aiming,
      markers: data.markers,
      budget: data.budget ?? 20,
      scenarios: data.scenarios,
      title: data.title,
      invented: data.invented,
      commanders: data.commanders,
    },
    setup: ({ scenario, seed, options }) => setupState(data, scenario, seed, options),
    activeRoles: (s) => (s.result ? [] : actorsOf(s)),
    legalActions: legalActionsOf,
    apply: applyAction,
    refusal: (s, role, action) => {
      const army = asArmy(role);
      return army && typeof action === 'object' && action !== null ? refusalOf(s, army, action) : null;
    },
    view: (s, role) => {
      const seat = asArmy(role);
      return viewFor(s, seat, seat !== null && canUndo(s, seat));
    },
    logChange: (s) => ({ from: s.logFrom, entries: s.log }),
    logLine: (entry, role) => plainText(lineOf(entry as LogEntry, asArmy(role))),
    status: (s): GameStatus => (s.result ? { over: true, winner: s.result.winner, reason: s.result.reason } : { over: false, winner: null }),
    messagesDir: MESSAGES_DIR,
    describeAction: (s, role, action) => describeAction(s, asArmy(role)!, action),
    actionGroups: (s, role, action) => actionGroups(s, asArmy(role)!, action),
    logMessage: (entry, role) => logMessage(entry as LogEntry, asArmy(role)),
  };
}
