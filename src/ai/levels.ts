/**
 * The levels above 'random': each a fixed number of ISMCTS iterations, so a
 * level plays equally well on a busy or an idle machine (the request's time
 * cap is only a safety net). Budgets were chosen with scripts/bench-ai.ts
 * (figures in src/ai/README.md).
 */
import type { AiLevel } from './types.ts';
import type { SearchOptions } from './ismcts.ts';

export type SearchLevel = Exclude<AiLevel, 'random'>;

export const LEVEL_SEARCH: Readonly<Record<SearchLevel, Omit<SearchOptions, 'timeCapMs' | 'now'>>> = {
  easy: { simulations: 50 },
  normal: { simulations: 200 },
  hard: { simulations: 800 },
};
