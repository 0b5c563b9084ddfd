/**
 * Helpers for the Action Phase tests (action-phase, movement, sea-move, muster,
 * plague): build a position, start a side's Action Phase, and play actions the
 * way index.ts does (only actions from the legal list; snapshot when undoable).
 */
import { BLOCK_INDEX, type Side } from '../../../src/games/richard-iii/data.ts';
import { buildPosition, type Position } from '../../../src/games/richard-iii/position.ts';
import { handlers, startActionPhase } from '../../../src/games/richard-iii/action-phase.ts';
import { cloneState, top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { pushUndo, restoreSnapshot } from '../../../src/games/richard-iii/undo.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';

export type { Action };

/** A position with cards played and `side`'s Action Phase started. p1 defaults to `side`. */
export function phase(p: Position, side: Side): R3State {
  const s = buildPosition({ p1: side, revealed: true, ...p });
  startActionPhase(s, side);
  return s;
}

export const frame = (s: R3State) => top(s);

export function legal(s: R3State, side?: Side): Action[] {
  const f = top(s);
  const h = handlers[f.s];
  if (!h) return [];
  return h.actions(s, f, side ?? (f.side as Side));
}

const key = (a: Action): string => JSON.stringify(a);
export const has = (list: Action[], a: Action): boolean => list.some((x) => key(x) === key(a));

/** Applies a legal action to a copy; throws if it is not in the legal list. Keeps undo snapshots. */
export function act(s: R3State, a: Action, side?: Side): R3State {
  const f = top(s);
  const who = side ?? (f.side as Side);
  const h = handlers[f.s];
  if (!h) throw new Error(`not an action-phase state: ${f.s}`);
  const list = h.actions(s, f, who);
  if (!has(list, a)) throw new Error(`illegal in ${f.s}: ${key(a)}; legal: ${list.map(key).join(' ')}`);
  const c = cloneState(s);
  if (h.undoable?.(c, top(c), a)) pushUndo(c, s);
  h.apply(c, top(c), who, a);
  return c;
}

export const undo = (s: R3State): R3State => restoreSnapshot(s);

export const where = (s: R3State, id: string): string => s.loc[BLOCK_INDEX[id]!]!;
export const stepsOf = (s: R3State, id: string): number => s.steps[BLOCK_INDEX[id]!]!;
export const ix = (id: string): number => BLOCK_INDEX[id]!;

/** Selects a block and steps it through `areas`; stops it if it is still moving afterwards. */
export function move(s: R3State, block: string, ...areas: string[]): R3State {
  s = act(s, { type: 'select', block });
  for (const area of areas) s = act(s, { type: 'step', area });
  if (top(s).s === 'move_to' && top(s)['block'] === block) s = act(s, { type: 'stop' });
  return s;
}

export function seaMove(s: R3State, block: string, zone: string, area: string): R3State {
  s = act(s, { type: 'select', block });
  s = act(s, { type: 'sea', zone });
  return act(s, { type: 'land', area });
}

export function recruit(s: R3State, block: string, area: string): R3State {
  s = act(s, { type: 'recruit', block });
  return act(s, { type: 'place', area });
}

/** Areas offered as the next step of the block being moved. */
export const stepsOffered = (s: R3State): string[] =>
  legal(s).filter((a) => a.type === 'step').map((a) => a['area'] as string).sort();

/** Blocks offered for selection in action_phase. */
export const selectable = (s: R3State): string[] =>
  legal(s).filter((a) => a.type === 'select').map((a) => a['block'] as string).sort();

export const apLeft = (s: R3State): number => {
  for (let i = s.flow.length - 1; i >= 0; i--) if (s.flow[i]!.s === 'action_phase') return s.flow[i]!['ap'] as number;
  return -1;
};

// Run as a test file of its own (tap runs every file under test/), check the helpers themselves.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').slice(-1)[0]!)) {
  const { default: t } = await import('tap');
  t.test('helpers: act() accepts only legal actions and snapshots undoable ones', async (t) => {
    const s = phase({ clear: true, blocks: { norfolk: { loc: 'essex' } }, played: { York: 'ap2-1', Lancaster: 'ap2-2' } }, 'York');
    t.throws(() => act(s, { type: 'recruit', block: 'oxford' }), /illegal/);
    const m = act(act(s, { type: 'select', block: 'norfolk' }), { type: 'step', area: 'middlesex' });
    t.equal(m.undo.length, 1);
    t.equal(where(undo(m), 'norfolk'), 'essex');
  });
}
