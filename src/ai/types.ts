/**
 * What a computer player is asked and what it answers. The request carries
 * only what a client of that seat receives from the API: the seat's
 * allow-listed view and its legal actions. Never the server's state: src/ai
 * may import src/engine only (test/structure/layers.test.ts), so it cannot
 * even name a game's state type.
 */
import type { GameModule } from '../engine/types.ts';

/** Strength levels, weakest first; each is a fixed search budget (levels.ts), so strength does not depend on machine load. */
export const AI_LEVELS = ['random', 'easy', 'normal', 'hard'] as const;
export type AiLevel = (typeof AI_LEVELS)[number];

export const isAiLevel = (x: unknown): x is AiLevel => typeof x === 'string' && (AI_LEVELS as readonly string[]).includes(x);

export interface AiRequest {
  /** The game type's id (the module the caller looked up). */
  gameType: string;
  /** The seat the AI plays. */
  role: string;
  /** module.view(state, role), exactly as the seat's client gets it. */
  view: unknown;
  /** module.legalActions(state, role): what the seat's client gets from the actions endpoint. */
  legalActions: readonly unknown[];
  level: AiLevel;
  /** Seeds every random choice of the search: the same request and seed give the same action. */
  seed: string;
  /** Wall-clock cap per decision in ms (the budget usually ends the search first); 0 or absent: none. */
  timeCapMs?: number;
}

export interface AiDecision {
  /** One of request.legalActions. */
  action: unknown;
  /** Simulations (playouts) run; 0 for the random level. */
  simulations: number;
  /** True when the time cap, not the budget, ended the search. */
  cappedByTime: boolean;
  /** Sampled states whose legal actions for the seat differed from the request's (should stay 0; see ismcts.ts). */
  sampleMismatches?: number;
}

/** A game module as the AI sees it: the contract, nothing game-specific. */
export type AnyGameModule = GameModule<unknown, unknown>;
