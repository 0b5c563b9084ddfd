/**
 * Helpers for the battle tests: build a position, start the Battle Phase, play
 * actions the way index.ts does (only from the legal list, snapshot when
 * undoable), and pick RNG states so that dice land as a test needs.
 */
import { BLOCK_INDEX, type Side } from '../../../src/games/richard-iii/data.ts';
import { buildPosition, type Position } from '../../../src/games/richard-iii/position.ts';
import { HANDLERS } from '../../../src/games/richard-iii/index.ts';
import { startBattlePhase } from '../../../src/games/richard-iii/battle.ts';
import { battleFrame, type BattleFrame } from '../../../src/games/richard-iii/battle-state.ts';
import { cloneState, top, type R3State } from '../../../src/games/richard-iii/state.ts';
import { pushUndo, restoreSnapshot } from '../../../src/games/richard-iii/undo.ts';
import type { Action } from '../../../src/games/richard-iii/flow.ts';
import { rollD6, seedRng, type RngState } from '../../../src/engine/rng.ts';

export type { Action };

/** A position (p1 York by default, cards revealed) with the Battle Phase started. */
export function battle(p: Position): R3State {
  const s = buildPosition({ p1: 'York', revealed: true, clear: true, ...p });
  startBattlePhase(s);
  return s;
}

export const frame = (s: R3State) => top(s);
export const bf = (s: R3State): BattleFrame => battleFrame(s)!;

export function legal(s: R3State, side?: Side): Action[] {
  const f = top(s);
  const h = HANDLERS[f.s];
  if (!h) return [];
  return h.actions(s, f, side ?? (f.side as Side));
}

const key = (a: Action): string => JSON.stringify(a);
export const has = (list: Action[], a: Action): boolean => list.some((x) => key(x) === key(a));

/** Applies a legal action to a copy; throws if it is not in the legal list. */
export function act(s: R3State, a: Action, side?: Side): R3State {
  const f = top(s);
  const who = side ?? (f.side as Side);
  const h = HANDLERS[f.s];
  if (!h) throw new Error(`no handler: ${f.s}`);
  const list = h.actions(s, f, who);
  if (!has(list, a)) throw new Error(`illegal in ${f.s} for ${who}: ${key(a)}; legal: ${list.map(key).join(' ')}`);
  const c = cloneState(s);
  if (h.undoable?.(c, top(c), a)) pushUndo(c, s);
  h.apply(c, top(c), who, a);
  return c;
}

export const ix = (id: string): number => BLOCK_INDEX[id]!;
export const where = (s: R3State, id: string): string => s.loc[ix(id)]!;
export const stepsOf = (s: R3State, id: string): number => s.steps[ix(id)]!;

/** Block ids that may act now (distinct, in list order). */
export const actors = (s: R3State): string[] => [
  ...new Set(legal(s).filter((a) => typeof a['block'] === 'string').map((a) => a['block'] as string)),
];

/** The next n d6 results an RNG state would give. */
export function peek(rng: RngState, n: number): number[] {
  const r = [...rng] as RngState;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(rollD6(r));
  return out;
}

/** The first seeded RNG state whose next dice satisfy `ok` (deterministic search). */
export function rngWhere(n: number, ok: (dice: number[]) => boolean): RngState {
  for (let i = 0; i < 100000; i++) {
    const r = seedRng(`battle-${i}`);
    if (ok(peek(r, n))) return r;
  }
  throw new Error('no seed found');
}

/** Sets s.rng so that the next dice are exactly `dice`' pattern per `ok`. */
export function withDice(s: R3State, n: number, ok: (dice: number[]) => boolean): R3State {
  const c = cloneState(s);
  c.rng = rngWhere(n, ok);
  return c;
}

export const lastLog = (s: R3State, n = 1): string[] => s.log.slice(-n).map((l) => l.pub);
