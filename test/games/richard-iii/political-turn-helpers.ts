/**
 * Helpers for the Political Turn tests (political-turn, going-home-order):
 * list and play actions the way index.ts does (only actions from the legal
 * list, on a copy).
 */
import { BLOCK_INDEX, type Side } from '../../../src/games/richard-iii/data.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';
import { cloneState, top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { handlers } from '../../../src/games/richard-iii/political-turn.ts';

export const B = (id: string): number => BLOCK_INDEX[id]!;
export const pubLog = (s: R3State): string => s.log.map((l) => l.pub).join('\n');

export function legal(s: R3State, side: Side): Action[] {
  const f = top(s);
  const h = handlers[f.s];
  if (!h) throw new Error(`not a political-turn state: ${f.s}`);
  return h.actions(s, f, side);
}

/** Applies a legal action the way index.ts does (on a copy), failing the test on an illegal one. */
export function act(t: { fail: (msg: string) => unknown }, s: R3State, side: Side, a: Action): R3State {
  const list = legal(s, side);
  if (!list.some((x) => JSON.stringify(x) === JSON.stringify(a))) {
    t.fail(`${JSON.stringify(a)} not legal in ${top(s).s}: ${JSON.stringify(list)}`);
    return s;
  }
  const c = cloneState(s);
  handlers[top(c).s]!.apply(c, top(c), side, a);
  return c;
}

export const blockActs = (s: R3State, side: Side): string[] =>
  legal(s, side).filter((a) => a.type === 'block').map((a) => a.block as string).sort();
