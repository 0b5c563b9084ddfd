/**
 * The computer player's one entry: a seat's view and legal actions in, one
 * action out. It takes a view, never a state: src/ai imports src/engine only
 * (test/structure/layers.test.ts), so it cannot name a game's state type.
 */
import { ismcts, type SearchOptions } from './ismcts.ts';
import { LEVEL_SEARCH } from './levels.ts';
import { chooseRandom } from './random.ts';
import type { AiDecision, AiLevel, AiRequest, AnyGameModule } from './types.ts';

/** Whether `level` can play `module`'s game: random plays any; the search levels need module.sampleState. */
export function levelAvailable(module: AnyGameModule, level: AiLevel): boolean {
  return level === 'random' || typeof module.sampleState === 'function';
}

/**
 * Synchronous and pure (apart from reading the clock for the time cap): the
 * same request and seed give the same action when the cap is not reached.
 * `overrides` (tests, the benchmark) replaces parts of the level's budget.
 */
export function chooseAction(module: AnyGameModule, req: AiRequest, overrides?: Partial<SearchOptions>): AiDecision {
  if (req.level === 'random') return chooseRandom(req);
  if (!levelAvailable(module, req.level)) {
    throw new Error(`level "${req.level}" needs GameModule.sampleState, which game type "${module.id}" does not have`);
  }
  if (req.legalActions.length === 0) throw new RangeError('no legal action to choose from');
  if (req.legalActions.length === 1) return { action: req.legalActions[0], simulations: 0, cappedByTime: false };
  const r = ismcts(module, req, { ...LEVEL_SEARCH[req.level], timeCapMs: req.timeCapMs, ...overrides });
  // No determinization agreed with the request: play a legal move rather than fail the seat.
  if (r.simulations === 0) return { ...chooseRandom(req), sampleMismatches: r.sampleMismatches };
  return { action: r.action, simulations: r.simulations, cappedByTime: r.cappedByTime, sampleMismatches: r.sampleMismatches };
}
