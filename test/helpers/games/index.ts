// Per-game playout adapters: what random play needs to know of a game beyond
// the GameModule contract, for scripts/fuzz.ts, scripts/bench-engine.ts
// (`npm run bench`) and the tests. One file per game type (./<id>.ts), listed
// here. A game type without one is played by DEFAULT_ADAPTER: uniform random
// play, checked against the contract alone (./playout.ts contractPlayout).
import type { GameModule } from '../../../src/engine/types.ts';
import { games as installed, gamesNeedingData } from '../../../src/games/index.ts';
import { installGames } from '../../../src/service/installed-games.ts';
import { contractPlayout, type ActionWeight } from './playout.ts';
import { richardIIIPlayout } from './richard-iii.ts';
import { blackAndWhitePlayout } from './black-and-white.ts';

/** One fuzzed game: decisions made, a readable failure (seeds, step, last actions) or null, the winner. */
export interface FuzzGame {
  decisions: number;
  failure: string | null;
  winner: string | null;
  /** The actions played, as JSON (printed by fuzz --trail to replay a failure). */
  trail: unknown;
  /** Stopped without an end: at a dead end (PlayoutAdapter.deadEnd), or where the adapter stops random play that wanders. */
  deadEnd?: boolean;
  /** Of those, stopped by the adapter's cap on decisions (random play that wanders), not at a dead end. */
  capped?: boolean;
}

export interface FuzzOptions {
  scenario: string;
  seed: string;
  endWeight: number;
}

export interface PlayoutAdapter {
  /**
   * The weight of an action in random play against 1 for an ordinary one:
   * lower for actions that undo (else random play bounces between a move and
   * its undo) and `endWeight` for those that end a phase early (a small one
   * makes players use what they have: deeper positions, longer games).
   */
  weight: ActionWeight;
  /** Decisions after which a random game counts as stuck (the bench stops it, the fuzz fails it). */
  maxDecisions: number;
  /** The end weights the fuzz alternates, game g using endWeights[g mod length]. */
  fuzzEndWeights: readonly number[];
  /**
   * A position from which no seat can win any more, so that random play would
   * go on for ever (Black & White with the option noWinPossible 'play-on': a
   * Domination game with too few units left to hold the forts; by default the
   * engine ends such a game as a draw): the bench and the fuzz stop the game
   * there and count it.
   */
  deadEnd?(state: unknown): boolean;
  /** One random game with the game's own invariants checked after every action (default: the contract's checks). */
  fuzz?(m: GameModule, o: FuzzOptions): FuzzGame;
  /** Further fuzz sets, by name (`fuzz --extra name=N`): games from positions random play seldom reaches. */
  extraFuzz?: Readonly<Record<string, (seed: string, endWeight: number) => FuzzGame>>;
}

const UNIFORM: ActionWeight = () => 1;

/** For a game type with no adapter of its own: uniform play, contract checks. */
export const DEFAULT_ADAPTER: PlayoutAdapter = { weight: UNIFORM, maxDecisions: 100_000, fuzzEndWeights: [1] };

/** The adapters by game type. */
export const PLAYOUT_ADAPTERS: Readonly<Record<string, PlayoutAdapter>> = {
  'richard-iii': richardIIIPlayout,
  'black-and-white': blackAndWhitePlayout,
};

export function playoutAdapter(gameType: string): PlayoutAdapter {
  return Object.hasOwn(PLAYOUT_ADAPTERS, gameType) ? PLAYOUT_ADAPTERS[gameType]! : DEFAULT_ADAPTER;
}

/** One fuzzed game of `m`: the adapter's own checks, or the contract's. */
export function fuzzGame(m: GameModule, o: FuzzOptions): FuzzGame {
  const a = playoutAdapter(m.id);
  if (a.fuzz) return a.fuzz(m, o);
  const r = contractPlayout(m, a.weight, { ...o, maxDecisions: a.maxDecisions, ...(a.deadEnd ? { deadEnd: a.deadEnd } : {}) });
  const tail = r.trail.slice(-12).map((t) => `  ${t.role} ${JSON.stringify(t.action)}`);
  return {
    decisions: r.decisions,
    failure: r.failure && [`${m.id} scenario=${o.scenario} seed=${JSON.stringify(o.seed)} endWeight=${o.endWeight}`, `  ${r.failure}`, '  last actions:', ...tail].join('\n'),
    winner: r.winner,
    trail: r.trail,
    ...(r.deadEnd ? { deadEnd: true } : {}),
  };
}

/**
 * The data files of made-up numbers the game types that need one ship
 * (src/games/index.ts `inventedFile`), by setting: Config.gameDataFiles for a
 * test app that hosts every game type, from a clean clone.
 */
export function inventedDataFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const g of gamesNeedingData) if (g.inventedFile) files[g.setting] = g.inventedFile;
  return files;
}

let everyGame: Record<string, GameModule> | undefined;

/**
 * Every registered game type's module: those that need nothing, and those
 * that need a data file built on their invented one (read and checked as the
 * server does). What the fuzz, the bench and the tests of every game type play.
 */
export function allGameModules(): Readonly<Record<string, GameModule>> {
  everyGame ??= installGames(installed, gamesNeedingData, inventedDataFiles(), {
    warn: (_o, msg) => {
      throw new Error(`a game's invented data file does not load: ${msg}`);
    },
  }).modules;
  return everyGame;
}
