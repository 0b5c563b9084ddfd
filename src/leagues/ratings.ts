/**
 * Glicko-2 ratings (Glickman, "Example of the Glicko-2 system"), one rating per player per game.
 *
 * The arithmetic of a rating period (steps 2–8 of the paper) comes from `glicko2-lite` 5.0.0:
 * a single pure function, MIT, engines Node 20/22/24, whose step 5 is the paper's Illinois
 * iteration (ε = 10⁻⁶) line by line. `glicko2` 1.2.x was the other candidate; it keeps mutable
 * Player objects inside a ranking object and updates everyone in one batch (`updateRatings`),
 * which fits a nightly period better than "update after each rated game", so it was not used.
 *
 * What the library does not cover is done here, from the paper:
 * - a period without games (step 6 alone: φ′ = √(φ² + σ²), rating and σ unchanged), which makes
 *   RD grow with inactivity;
 * - rating periods from elapsed time: one period per `periodDays` days; a rated game is its own
 *   period (as Lichess does), after the empty periods since the player's last update;
 * - RD never exceeds the unrated RD (350 by default), as the paper recommends;
 * - provisional while RD > 110 (Lichess's threshold).
 */
import glicko2 from 'glicko2-lite';

export interface Rating {
  rating: number;
  rd: number;
  vol: number;
  /** Games that updated this rating. */
  games: number;
  /** Epoch ms of the last update (or of creation). */
  updatedAt: number;
}

export interface GlickoConfig {
  /** System constant τ: how fast volatility may change. Glickman suggests 0.3–1.2. */
  tau: number;
  initialRating: number;
  /** RD of an unrated player; also the ceiling for RD growth. */
  initialRd: number;
  initialVol: number;
  /** Length of a rating period for inactivity, in days. */
  periodDays: number;
  /** A rating is provisional while its (aged) RD is above this. */
  provisionalRd: number;
}

export const DEFAULT_GLICKO: GlickoConfig = {
  tau: 0.5,
  initialRating: 1500,
  initialRd: 350,
  initialVol: 0.06,
  periodDays: 7,
  provisionalRd: 110,
};

const DAY_MS = 86_400_000;
/** Glicko-2 scale factor (step 2 of the paper). Exported for SQL that ages RD the same way (leaderboards). */
export const GLICKO2_SCALE = 173.7178;
const SCALE = GLICKO2_SCALE;

export type Score = 0 | 0.5 | 1;

export interface PeriodGame {
  opponent: Pick<Rating, 'rating' | 'rd'>;
  score: Score;
}

function config(partial?: Partial<GlickoConfig>): GlickoConfig {
  const c = { ...DEFAULT_GLICKO, ...partial };
  if (!(c.tau > 0) || !(c.initialRd > 0) || !(c.initialVol > 0) || !(c.periodDays > 0)) {
    throw new RangeError('Glicko-2: τ, initial RD, initial volatility and period length must be positive');
  }
  return c;
}

export function newRating(at: number, partial?: Partial<GlickoConfig>): Rating {
  const c = config(partial);
  return { rating: c.initialRating, rd: c.initialRd, vol: c.initialVol, games: 0, updatedAt: at };
}

/** Whole rating periods between the last update and `at` (never negative). */
export function emptyPeriods(r: Rating, at: number, partial?: Partial<GlickoConfig>): number {
  const c = config(partial);
  return Math.max(0, Math.floor((at - r.updatedAt) / (c.periodDays * DAY_MS)));
}

/**
 * RD after `periods` periods without games. Step 6 applied k times gives
 * φ′ = √(φ² + k·σ²) on the Glicko-2 scale; capped at the unrated RD.
 */
export function inflateRd(rd: number, vol: number, periods: number, partial?: Partial<GlickoConfig>): number {
  const c = config(partial);
  const phi = rd / SCALE;
  return Math.min(c.initialRd, Math.sqrt(phi * phi + periods * vol * vol) * SCALE);
}

/** The rating as seen at `at`: RD grown for the empty periods since the last update. */
export function ageRating(r: Rating, at: number, partial?: Partial<GlickoConfig>): Rating {
  const k = emptyPeriods(r, at, partial);
  if (k === 0) return r;
  return { ...r, rd: inflateRd(r.rd, r.vol, k, partial) };
}

export function isProvisional(r: Rating, at: number, partial?: Partial<GlickoConfig>): boolean {
  const c = config(partial);
  return ageRating(r, at, c).rd > c.provisionalRd;
}

/**
 * One rating period with the given games (the paper's setting). No games: step 6 only.
 * `r` is taken as already aged to the start of this period.
 */
export function ratePeriod(r: Rating, games: readonly PeriodGame[], at: number, partial?: Partial<GlickoConfig>): Rating {
  const c = config(partial);
  if (games.length === 0) {
    return { ...r, rd: inflateRd(r.rd, r.vol, 1, c), updatedAt: at };
  }
  for (const g of games) {
    if (g.score !== 0 && g.score !== 0.5 && g.score !== 1) throw new RangeError(`score must be 0, 0.5 or 1, got ${g.score}`);
  }
  const out = glicko2(
    r.rating,
    r.rd,
    r.vol,
    // The library's tuple is [rating, rd, score] (its type names the third item "vol", but
    // index.js reads it as the score s_j).
    games.map((g) => [g.opponent.rating, g.opponent.rd, g.score] as [number, number, number]),
    { tau: c.tau, rating: c.initialRating },
  );
  return { rating: out.rating, rd: Math.min(out.rd, c.initialRd), vol: out.vol, games: r.games + games.length, updatedAt: at };
}

/**
 * Update both players after one rated game at time `at`: each is first aged for the empty
 * periods since their last update, then the game is rated as its own period against the
 * opponent's aged pre-game rating (so the order of the two updates does not matter).
 * `score` is the first player's: 1 win, 0.5 draw, 0 loss.
 */
export function rateGame(
  a: Rating,
  b: Rating,
  score: Score,
  at: number,
  partial?: Partial<GlickoConfig>,
): [Rating, Rating] {
  const c = config(partial);
  const agedA = ageRating(a, at, c);
  const agedB = ageRating(b, at, c);
  return [
    ratePeriod(agedA, [{ opponent: agedB, score }], at, c),
    ratePeriod(agedB, [{ opponent: agedA, score: (1 - score) as Score }], at, c),
  ];
}
