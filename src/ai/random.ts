/**
 * The 'random' level: a legal action drawn uniformly with the request's seed.
 * It needs no search and no sampled state, so it plays every game type,
 * including those whose module cannot sample states (GameModule.sampleState).
 */
import { randomInt, seedRng } from '../engine/rng.ts';
import type { AiDecision, AiRequest } from './types.ts';

export function chooseRandom(req: Pick<AiRequest, 'legalActions' | 'seed'>): AiDecision {
  if (req.legalActions.length === 0) throw new RangeError('no legal action to choose from');
  const rng = seedRng(req.seed);
  return { action: req.legalActions[randomInt(rng, req.legalActions.length)], simulations: 0, cappedByTime: false };
}
