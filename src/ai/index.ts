/**
 * Herald's computer players (issue 20): from a seat's view and legal actions
 * to one action. Pure: the worker pool and the job that submits the action
 * through the one write path live in the service.
 */
export { AI_LEVELS, isAiLevel, type AiDecision, type AiLevel, type AiRequest, type AnyGameModule } from './types.ts';
export { chooseRandom } from './random.ts';
export { chooseAction, levelAvailable } from './choose.ts';
export { LEVEL_SEARCH, type SearchLevel } from './levels.ts';
export { ismcts, canonicalJson, onlyWaiting, searchActions, type SearchOptions, type SearchResult } from './ismcts.ts';
