/**
 * GameModule.partialMove for the computer players (src/ai): whether a side's
 * next decision completes a move it has begun. Many Richard III moves take
 * several decisions (choose a block, then where it goes; a pool block, then
 * where it is recruited; a sea zone, then the landing; a Muster area's block,
 * then its path), and the position between them is worth what the evaluation
 * says of the block standing still: the search completes such a move greedily
 * before it scores the position, so the first decision is valued by what it
 * leads to.
 */
import type { R3State } from './state.ts';

const HALF_MADE: ReadonlySet<string> = new Set(['move_to', 'sea_move_to', 'recruit_where', 'muster_move']);

export function partialMove(s: R3State, role: string): boolean {
  if (s.result) return false;
  const f = s.flow[s.flow.length - 1];
  return f !== undefined && HALF_MADE.has(f.s) && f['side'] === role;
}
