/**
 * The flow chart: every named state (INTERPRETATIONS.md §L) has a handler that
 * lists the legal actions of the acting side and applies one of them. Phase
 * modules (cards.ts, action-phase.ts, battle.ts, supply.ts, political-turn.ts)
 * each export their handlers; index.ts merges them into one table.
 *
 * Conventions every handler follows:
 * - actions() returns the complete legal list for `side` in frame `f`; it never
 *   returns [] for a side that is active (the fuzz checks this).
 * - apply() receives a state already copied by cloneState() and the frame at
 *   the top of s.flow; it mutates s: pops/pushes frames, calls the next phase's
 *   start function when its own phase ends. It only receives actions that
 *   appeared in actions() (index.ts checks membership first).
 * - Actions are JSON objects `{ type: string, ...args }` with block and area
 *   ids from the data files (never array indexes).
 * - undoable(a) says whether index.ts should snapshot before applying `a`;
 *   anything that rolls dice or reveals information calls clearUndo(s).
 * - prompt() returns what a seat may see of this frame (allow-list), or null.
 */
import type { Side } from './data.ts';
import type { Frame, R3State } from './state.ts';

export interface Action {
  type: string;
  [k: string]: unknown;
}

export interface StateHandler {
  actions(s: R3State, f: Frame, side: Side): Action[];
  apply(s: R3State, f: Frame, side: Side, a: Action): void;
  undoable?(s: R3State, f: Frame, a: Action): boolean;
  prompt?(s: R3State, f: Frame, seat: Side | null): unknown;
}

export type HandlerTable = Record<string, StateHandler>;

/** Drop the undo history: called when dice are rolled or hidden information is revealed. */
export function clearUndo(s: R3State): void {
  s.undo = [];
}

/** Ends the game at once (instant victory, or the final usurpation). */
export function endGame(s: R3State, winner: Side | null, reason: string): void {
  s.result = { winner, reason };
  s.flow = [{ s: 'game_over', side: null }];
  s.undo = [];
}
