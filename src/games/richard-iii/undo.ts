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

/**
 * The snapshot each diff made in this process stands for, so that pushing the
 * next entry does not fold the stack again (states are immutable, so an entry
 * always stands for the same snapshot; one read back from the database is
 * folded once when it is needed).
 */
const known = new WeakMap<UndoDiff, UndoSnapshot>();

/** The snapshot to push before applying an undoable action to s. Shares s's (immutable) parts. */
export function snapshotOf(s: R3State): UndoSnapshot {
  return { ...s, undo: [], log: [], logLength: logLength(s) };
}

/** The snapshot that entry `i` of the stack stands for. */
export function snapshotAt(stack: readonly UndoEntry[], i: number): UndoSnapshot {
  const entry = stack[i]!;
  if (!isDiff(entry)) return entry;
  const hit = known.get(entry);
  if (hit) return hit;
  let j = i;
  while (isDiff(stack[j]!)) j--;
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
  known.set(entry, out as unknown as UndoSnapshot);
  return out as unknown as UndoSnapshot;
}

/** The [index, value] pairs where b differs from a, when both are arrays of primitives of one length; else null. */
function changedElements(a: unknown[], b: unknown[]): [number, unknown][] | null {
  if (a.length !== b.length) return null;
  const out: [number, unknown][] = [];
  for (let i = 0; i < b.length; i++) {
    const x = a[i], y = b[i];
    if ((x !== null && typeof x === 'object') || (y !== null && typeof y === 'object')) return null;
    if (x !== y) out.push([i, y]);
  }
  return out;
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
    if (a === b) continue;
    const changed = Array.isArray(a) && Array.isArray(b) ? changedElements(a, b) : null;
    if (changed) {
      if (changed.length === 0) continue;
      if (changed.length * 2 < (b as unknown[]).length) {
        at[key] = changed;
        continue;
      }
    } else if (sameJson(a, b)) continue;
    set[key] = b;
  }
  return { set: set as Partial<UndoSnapshot>, at, logLength: next.logLength };
}

/** Pushes onto s (a fresh copy being changed by apply) the snapshot of `before`, the state it was copied from. */
export function pushUndo(s: R3State, before: R3State): void {
  const snap = snapshotOf(before);
  if (s.undo.length === 0) {
    s.undo.push(snap);
    return;
  }
  const d = diff(snapshotAt(s.undo, s.undo.length - 1), snap);
  known.set(d, snap);
  s.undo.push(d);
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
