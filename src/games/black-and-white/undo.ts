/**
 * Undo up to dice or hidden information: each undoable action (no roll, no
 * reveal, no hand-over to the other seat) pushes the state before it; any
 * other action clears the stack (index.ts), so nothing learnt can be taken
 * back. A snapshot is the state without its own stack, its log and the data
 * copied in at setup (which never changes during a game).
 */
import type { Army } from './data-format.ts';
import { logLength, type BWState } from './state.ts';

export function pushUndo(s: BWState, before: BWState, by: Army): void {
  const { undo: _u, log: _l, scenario: _s, board: _b, kinds: _k, aiming: _a, markerCaps: _m, ...rest } = before;
  s.undo.push({ state: rest, logLength: logLength(before), by });
}

/** The state before the last undoable action; as a change, it cuts the log back to that state's length. */
export function restoreSnapshot(s: BWState): BWState {
  const snap = s.undo[s.undo.length - 1]!;
  // In the state's own key order, so that the restored state serialises like the one the snapshot was taken of.
  const out: Record<string, unknown> = {};
  const saved = snap.state as Record<string, unknown>;
  for (const k of Object.keys(s)) out[k] = k in saved ? saved[k] : (s as unknown as Record<string, unknown>)[k];
  return { ...(out as unknown as BWState), log: [], logFrom: snap.logLength, undo: s.undo.slice(0, -1) };
}
