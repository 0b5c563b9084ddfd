/**
 * The undo stack (INTERPRETATIONS 54): one snapshot per undoable action, each
 * the state before that action. `{"type":"undo"}` restores the last one.
 *
 * A whole snapshot is about 3 kB of JSON, and the stack lives in the state the
 * service stores after every action: ten moves before a battle used to make a
 * 34 kB state, written, parsed and copied on every action. Consecutive
 * snapshots differ in a few fields (a block's location, what it did this turn,
 * the flow, the attacks), so only the first snapshot is stored whole and each
 * later one as what differs from the one before it. An entry that is a whole
 * snapshot (as in states stored before this change) also works anywhere in the
 * stack: restoring folds the diffs forward from the nearest whole one below.
 */
import { logLength, sameJson, type R3State, type UndoDiff, type UndoEntry, type UndoSnapshot } from './state.ts';

const isDiff = (e: UndoEntry): e is UndoDiff => 'set' in e;

/** The snapshot to push before applying an undoable action to s. Shares s's (immutable) parts. */
export function snapshotOf(s: R3State): UndoSnapshot {
  return { ...s, undo: [], log: [], logLength: logLength(s) };
}

/** The snapshot that entry `i` of the stack stands for. */
export function snapshotAt(stack: readonly UndoEntry[], i: number): UndoSnapshot {
  let j = i;
  while (isDiff(stack[j]!)) j--;
  if (j === i) return stack[i] as UndoSnapshot;
  // A fresh object in the whole snapshot's key order: the restored state
  // serialises exactly like the state the snapshot was taken of.
  const out = { ...(stack[j] as UndoSnapshot) } as unknown as Record<string, unknown>;
  for (let k = j + 1; k <= i; k++) {
    const d = stack[k] as UndoDiff;
    for (const key in d.set) out[key] = (d.set as Record<string, unknown>)[key];
    for (const key in d.at) {
      const arr = (out[key] as unknown[]).slice();
      for (const [index, value] of (d.at as Record<string, [number, unknown][]>)[key]!) arr[index] = value;
      out[key] = arr;
    }
    out['logLength'] = d.logLength;
  }
  return out as unknown as UndoSnapshot;
}

/** What `next` changes in `prev`: whole fields, or the changed elements of same-length arrays of primitives. */
function diff(prev: UndoSnapshot, next: UndoSnapshot): UndoDiff {
  const set: Record<string, unknown> = {};
  const at: Record<string, [number, unknown][]> = {};
  const p = prev as unknown as Record<string, unknown>;
  const n = next as unknown as Record<string, unknown>;
  for (const key in n) {
    if (key === 'logLength') continue;
    const a = p[key], b = n[key];
    if (a === b || sameJson(a, b)) continue;
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && b.every((x) => x === null || typeof x !== 'object')) {
      const changed: [number, unknown][] = [];
      for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) changed.push([i, b[i]]);
      if (changed.length * 2 < b.length) {
        at[key] = changed;
        continue;
      }
    }
    set[key] = b;
  }
  return { set: set as Partial<UndoSnapshot>, at, logLength: next.logLength };
}

/** Pushes onto s (a fresh copy being changed by apply) the snapshot of `before`, the state it was copied from. */
export function pushUndo(s: R3State, before: R3State): void {
  const snap = snapshotOf(before);
  s.undo.push(s.undo.length === 0 ? snap : diff(snapshotAt(s.undo, s.undo.length - 1), snap));
}

/**
 * The state as it was before the last undoable action; as a change, it takes
 * back the log lines written since (the log is cut to the snapshot's length).
 */
export function restoreSnapshot(s: R3State): R3State {
  const snap = snapshotAt(s.undo, s.undo.length - 1);
  const { logLength: length, ...rest } = snap;
  return { ...(rest as Omit<UndoSnapshot, 'logLength'>), log: [], logFrom: length, undo: s.undo.slice(0, -1) } as R3State;
}
