/**
 * Richard III: The Wars of the Roses as a Herald game module. This file is the
 * only door into the rules: it checks the acting role and the action against the
 * legal list, copies the state, keeps the undo stack and dispatches to the named
 * state's handler (the flow chart lives in the phase modules).
 */
import { checkOptions } from '../../engine/options.ts';
import { IllegalActionError, type GameModule, type GameStatus, type OptionDeclaration } from '../../engine/types.ts';
import { AREA, PUBLIC_DATA, SCENARIO, SCENARIOS, SIDES, type ScenarioData, type Side } from './data.ts';
import { type Action, type HandlerTable, type StateHandler } from './flow.ts';
import { areaStatus, cloneState, copyJson, logChange, logLength, sameJson, top, type LogEntry, type R3State } from './state.ts';
import { pushUndo, restoreSnapshot } from './undo.ts';

export { sameJson };
import { setupState } from './setup.ts';
import { lineFor, viewFor } from './view.ts';
import { sampleState } from './sample-state.ts';
import { evaluate } from './evaluate.ts';
import { partialMove } from './partial-move.ts';
import { actionGroups, describeAction, logMessage } from './labels.ts';
import { fileURLToPath } from 'node:url';
import { handlers as cardHandlers } from './cards.ts';
import { handlers as actionHandlers } from './action-phase.ts';
import { handlers as battleHandlers } from './battle.ts';
import { handlers as supplyHandlers } from './supply.ts';
import { handlers as politicalHandlers } from './political-turn.ts';
import { updateWhereabouts } from './whereabouts.ts';

const gameOver: StateHandler = { actions: () => [], apply: () => {} };

export const HANDLERS: HandlerTable = {
  ...cardHandlers,
  ...actionHandlers,
  ...battleHandlers,
  ...supplyHandlers,
  ...politicalHandlers,
  game_over: gameOver,
};

const UNDO: Action = { type: 'undo' };

function handlerOf(s: R3State): StateHandler {
  const f = top(s);
  const h = HANDLERS[f.s];
  if (!h) throw new Error(`no handler for state "${f.s}"`);
  return h;
}

function asSide(role: string): Side | null {
  return role === 'York' || role === 'Lancaster' ? role : null;
}

function isActive(s: R3State, side: Side): boolean {
  if (s.result) return false;
  const f = top(s);
  if (f.side === 'both') return handlerActions(s, side).length > 0;
  return f.side === side;
}

function canUndo(s: R3State, side: Side): boolean {
  return s.undo.length > 0 && top(s).side === side;
}

/** Kingmaker: Henry VI is freed as soon as Lancaster alone holds Middlesex. */
function checkRescue(s: R3State): void {
  if (s.prisoner === null) return;
  const where = s.loc[s.prisoner]!;
  if (AREA[where] && areaStatus(s, where, 'Lancaster') === 'friendly') {
    s.down[s.prisoner] = false;
    s.prisoner = null;
    s.log.push({ pub: 'Henry VI is rescued from the Tower.', m: { key: 'log.rescue' } });
  }
}

/**
 * States are immutable values (apply never mutates its input), so the handler's
 * legal list for a state can be kept with it: apply() then validates against the
 * list the caller just fetched instead of computing it again.
 */
const legalCache = new WeakMap<R3State, { York?: Action[]; Lancaster?: Action[] }>();

function handlerActions(s: R3State, side: Side): Action[] {
  let entry = legalCache.get(s);
  if (!entry) legalCache.set(s, (entry = {}));
  return (entry[side] ??= handlerOf(s).actions(s, top(s), side));
}

export function legalActionsOf(s: R3State, role: string): Action[] {
  const side = asSide(role);
  if (!side || !isActive(s, side)) return [];
  const list = handlerActions(s, side);
  return canUndo(s, side) ? [...list, UNDO] : list.slice();
}

export function applyAction(state: R3State, role: string, action: Action): R3State {
  const side = asSide(role);
  if (!side) throw new IllegalActionError(`unknown role "${role}"`);
  if (state.result) throw new IllegalActionError('the game is over');
  if (!isActive(state, side)) throw new IllegalActionError(`${side} may not act now`);
  if (typeof action !== 'object' || action === null || typeof action.type !== 'string') {
    throw new IllegalActionError('an action is a JSON object with a string "type"');
  }
  if (action.type === 'undo' && canUndo(state, side)) {
    return restoreSnapshot(state);
  }
  const h = handlerOf(state);
  const legal = handlerActions(state, side);
  if (!legal.some((a) => sameJson(a, action))) {
    throw new IllegalActionError(`${JSON.stringify(action)} is not a legal action for ${side} in ${top(state).s}`);
  }
  const s = cloneState(state);
  // A new change: the log lines it writes follow those of every earlier change.
  s.logFrom = logLength(state);
  s.log = [];
  // Handlers may keep a reference to the action; give them their own copy.
  const a = copyJson(action);
  if (h.undoable?.(s, top(s), a)) pushUndo(s, state);
  h.apply(s, top(s), side, a);
  checkRescue(s);
  updateWhereabouts(state, s);
  return s;
}

/**
 * The options of a scenario. The only one the rules read is the last campaign
 * (state.endCampaign: after its Political Turn's Usurpation step the King
 * wins, 8.2): a game may end earlier than the scenario's last campaign, never
 * before its first nor after its last (there are no set-ups beyond it).
 */
function optionsOf(sc: ScenarioData): OptionDeclaration[] {
  return [
    {
      name: 'endCampaign',
      type: 'integer',
      min: sc.startCampaign,
      max: sc.endCampaign,
      default: sc.endCampaign,
      description: `The campaign after whose Political Turn the game ends (whoever is King then wins); less than ${sc.endCampaign} for a shorter game.`,
    },
  ];
}

function setupGame(scenario: string, seed: string, given: Record<string, unknown> = {}): R3State {
  const s = setupState(scenario, seed);
  // The service checks options before setup; checked again here so that no caller gets a game it did not ask for.
  const checked = checkOptions(optionsOf(SCENARIO[scenario]!), given);
  if (!checked.ok) throw new Error(checked.detail);
  s.endCampaign = checked.options.endCampaign as number;
  return s;
}

export const richardIII: GameModule<R3State, Action> = {
  id: 'richard-iii',
  title: 'Richard III: The Wars of the Roses',
  roles: SIDES,
  scenarios: SCENARIOS.map((sc) => ({
    id: sc.id,
    name: sc.name,
    description: `${sc.year}: ${sc.specialRules[0] ?? sc.victory}`,
    options: optionsOf(sc),
  })),
  data: PUBLIC_DATA,
  setup: ({ scenario, seed, options }) => setupGame(scenario, seed, options),
  activeRoles: (s) => (s.result ? [] : SIDES.filter((side) => isActive(s, side))),
  legalActions: legalActionsOf,
  apply: applyAction,
  view: (s, role) => viewFor(s, role === null ? null : asSide(role)),
  logChange,
  logLine: (entry, role) => lineFor(entry as LogEntry, role === null ? null : asSide(role)),
  status: (s): GameStatus =>
    s.result ? { over: true, winner: s.result.winner, reason: s.result.reason } : { over: false, winner: null },
  messagesDir: fileURLToPath(new URL('./messages', import.meta.url)),
  describeAction: (s, role, action) => describeAction(s, asSide(role)!, action),
  actionGroups: (s, role, action) => actionGroups(s, asSide(role)!, action),
  logMessage: (entry, role) => logMessage(entry as LogEntry, role === null ? null : asSide(role)),
  sampleState,
  evaluate: (s, role) => evaluate(s, role),
  partialMove,
};

export default richardIII;
