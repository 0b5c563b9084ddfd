/**
 * A cheap estimate of a side's chance to win (GameModule.evaluate), for the
 * computer players' search: it scores playouts cut short by their depth limit
 * (src/ai/ismcts.ts), which is what makes a search of a ~170-decision game
 * affordable. Pure; reads a full state (a determinization in the search).
 *
 * The game is won by holding the throne after the last campaign's Usurpation
 * (8.2, 9.0): the Pretender takes it on a strict majority of nobles, church
 * blocks and heirs on the map (+1 for London). So the estimate is a logistic
 * of that margin (the King's side counts half a point for winning ties) plus
 * a little for strength on the map (steps of upright blocks on land), which
 * is what wins the battles that change the count. Weights are rough, chosen
 * by the benchmark's win rates (scripts/bench-ai.ts), not fitted.
 */
import { AREA, NUM_BLOCKS, other, type Side } from './data.ts';
import { usurpationCount } from './political-turn.ts';
import { ownerOf, type R3State } from './state.ts';

const COUNT_WEIGHT = 0.35;
const STEP_WEIGHT = 0.05;

export function evaluate(s: R3State, role: string): number {
  if (role !== 'York' && role !== 'Lancaster') return 0.5;
  const me: Side = role;
  if (s.result) return s.result.winner === me ? 1 : s.result.winner === null ? 0.5 : 0;
  const opp = other(me);
  const margin = usurpationCount(s, me) - usurpationCount(s, opp) + (s.king === me ? 0.5 : -0.5);
  let steps = 0;
  for (let b = 0; b < NUM_BLOCKS; b++) {
    if (s.down[b] || AREA[s.loc[b]!]?.kind !== 'land') continue;
    steps += ownerOf(s, b) === me ? s.steps[b]! : -s.steps[b]!;
  }
  return 1 / (1 + Math.exp(-(COUNT_WEIGHT * margin + STEP_WEIGHT * steps)));
}
