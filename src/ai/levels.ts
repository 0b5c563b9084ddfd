/**
 * The levels above 'random': each a fixed number of ISMCTS iterations, so a
 * level plays equally well on a busy or an idle machine (the request's time
 * cap is only a safety net). Playouts stop after `playoutDepth` actions and are
 * scored by module.evaluate: full random playouts of a ~170-decision game cost
 * ~7 ms each and say little, and in pilot runs depth 0 (score the state right
 * after the expanded action) was cheaper and no weaker than depth 12. Budgets
 * from scripts/bench-ai.ts (figures in src/ai/README.md): normal was raised
 * from 150 to 250 simulations for the Pretender's side, which has to plan
 * landings and attacks; its median decision stays well under 300 ms of CPU.
 * Half-made moves (a block chosen, its destination not yet) are completed
 * greedily under module.evaluate, in the tree and at its leaves, up to 3
 * decisions (ismcts.ts completeMoves): Lancaster 25/40 → 31/40 on the same seeds.
 */
import type { AiLevel } from './types.ts';
import type { SearchOptions } from './ismcts.ts';

export type SearchLevel = Exclude<AiLevel, 'random'>;

export const LEVEL_SEARCH: Readonly<Record<SearchLevel, Omit<SearchOptions, 'timeCapMs' | 'now'>>> = {
  easy: { simulations: 30, playoutDepth: 0, completeMoves: 3 },
  normal: { simulations: 250, playoutDepth: 0, completeMoves: 3 },
  hard: { simulations: 500, playoutDepth: 0, completeMoves: 3 },
};
