/**
 * The league and rating part of the service contract (issue 14). Re-exported by api.ts; import
 * from there. Pure pairing, standings and rating rules live in src/leagues/; this is what the
 * service stores and answers.
 *
 * Sides. A league game has two seats, the game type's first and second role (Richard III: York
 * and Lancaster). `first`/`second` in pairings and results always mean those two seats.
 *
 * Concurrency. Every change to a league runs in one transaction that locks the league row, and
 * bumps `version`; a game's end is settled (league result, ratings) exactly once, in its own
 * transaction right after the commit that ended it (service/settle.ts).
 */
import type { Json } from '../bus/bus.ts';
import type { TieBreak } from '../leagues/standings.ts';
import type { RoundSchedule, UnfinishedPolicy } from '../leagues/calendar.ts';

export type { TieBreak, RoundSchedule, UnfinishedPolicy };

export type LeagueFormat = 'round-robin' | 'double-round-robin' | 'swiss' | 'knockout' | 'pools';
/** The largest round number any request may name (REST path and query, GraphQL, the service alike). */
export const MAX_ROUND = 100_000;

/** A round number as a request gives it: an integer from 1 to MAX_ROUND. */
export function isRoundNumber(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_ROUND;
}

/** What a refused round number is told, everywhere. */
export const ROUND_RULE = `an integer from 1 to ${MAX_ROUND}`;

export const LEAGUE_FORMATS: readonly LeagueFormat[] = ['round-robin', 'double-round-robin', 'swiss', 'knockout', 'pools'];
export type LeagueVisibility = 'public' | 'unlisted';
export type LeagueStatus = 'registration' | 'running' | 'finished';

/**
 * balanced: the schedule's sides (Berger tables, Swiss side balancing, knockout: higher seed
 * first); random: a coin from the league's seed for every game.
 */
export type SidePolicy = 'balanced' | 'random';

/** A finished board. first/second: that seat's player won; forfeits: not played. */
export type PairingResult =
  | 'first' | 'second' | 'draw'
  | 'forfeit-first' | 'forfeit-second' | 'double-forfeit'
  | 'bye-full' | 'bye-half' | 'bye-zero';
export const PAIRING_RESULTS: readonly PairingResult[] = [
  'first', 'second', 'draw', 'forfeit-first', 'forfeit-second', 'double-forfeit', 'bye-full', 'bye-half', 'bye-zero',
];
/** Results a player may report for a game between two players. */
export type ReportableResult = 'first' | 'second' | 'draw';

export interface LeagueSettingsInput {
  name: string;
  description?: string;
  visibility?: LeagueVisibility;
  gameType: string;
  /** Scenario ids; round r plays scenarios[(r − 1) mod length]. Default: the game type's first. */
  scenarios?: string[];
  /** Game options for every league game (checked against each scenario's declaration). */
  options?: Record<string, Json>;
  format: LeagueFormat;
  /** Swiss: number of rounds (1–64, fewer than the entrants). */
  rounds?: number;
  /** Pools: how many pools (2–64) and how many of each go to the knockout (1–8). */
  pools?: { count: number; qualifiers: number };
  /** Default 1 / ½ / 0; multiples of ½ from 0 to 100, win > draw ≥ loss. */
  points?: { win: number; draw: number; loss: number };
  /** In this order after points (default: Swiss buchholz-cut1, buchholz, sonneborn-berger; every other format direct-encounter, sonneborn-berger, wins). */
  tieBreaks?: TieBreak[];
  sidePolicy?: SidePolicy;
  /** The side that is harder to win with, for the harder-side tie-breaks. */
  harderSide?: 'first' | 'second' | null;
  rated?: boolean;
  /** Time control of the league's games (as createGame's timeControl; null: none). */
  timeControl?: Json | null;
  /** The league's own yearly vacation allowance in days (0–180; null: the server's); a league game's seat uses the smaller of the two. */
  vacationDays?: number | null;
  /** During the league's last round its games' clocks are not paused for vacation (default false). */
  noVacationInLastRound?: boolean;
  maxEntrants?: number | null;
  registrationOpensAt?: string | null;
  registrationClosesAt?: string | null;
  /** Swiss: may players join after round 1, and what the rounds they missed score. */
  lateEntry?: 'closed' | 'zero' | 'half';
  /** A withdrawn or disqualified player's unplayed games: forfeit wins for the opponents, or annulled (not counted). */
  withdrawal?: 'forfeit' | 'annul';
  /** Generate and publish the next round as soon as the previous one is complete (default true); with a schedule, when it is due. */
  autoPair?: boolean;
  /**
   * Rounds on a schedule (null: none, the default): round 1 is due at firstRoundAt, each later
   * round everyDays days after the previous one (src/leagues/calendar.ts). When a round is due the
   * round sweep publishes the organiser's draft of it if there is one, else (autoPair) pairs and
   * publishes it; the previous round's unfinished boards wait (default) or are adjudicated.
   */
  schedule?: { firstRoundAt: string; everyDays: number; unfinished?: UnfinishedPolicy } | null;
  /** herald: publishing a round creates the games here; elsewhere: games are played off Herald and results reported. */
  play?: 'herald' | 'elsewhere';
}

/** Every setting, defaults filled in. */
export interface LeagueSettings {
  scenarios: string[];
  options: Record<string, Json>;
  rounds: number | null;
  pools: { count: number; qualifiers: number } | null;
  points: { win: number; draw: number; loss: number };
  tieBreaks: TieBreak[];
  sidePolicy: SidePolicy;
  harderSide: 'first' | 'second' | null;
  rated: boolean;
  /** The canonical time control of the league's games (src/clocks/controls.ts), or null. */
  timeControl: Record<string, Json> | null;
  vacationDays: number | null;
  noVacationInLastRound: boolean;
  maxEntrants: number | null;
  registrationOpensAt: string | null;
  registrationClosesAt: string | null;
  lateEntry: 'closed' | 'zero' | 'half';
  withdrawal: 'forfeit' | 'annul';
  autoPair: boolean;
  schedule: RoundSchedule | null;
  play: 'herald' | 'elsewhere';
}

export type LeagueUpdateInput = Partial<Omit<LeagueSettingsInput, 'gameType' | 'format'>>;

export interface PlayerRef {
  id: string;
  name: string;
  isBot: boolean;
}

export interface League {
  id: string;
  name: string;
  description: string;
  visibility: LeagueVisibility;
  gameType: string;
  format: LeagueFormat;
  status: LeagueStatus;
  /** The game type's two roles, in seat order: first, second. */
  roles: { first: string; second: string };
  settings: LeagueSettings;
  organisers: { player: PlayerRef; role: 'owner' | 'co' }[];
  entrantCount: number;
  /** Rounds that exist (draft, published or complete). */
  roundCount: number;
  /** Rounds the format will have once known (Swiss: settings.rounds; round robins: from the entrants at the start). */
  plannedRounds: number | null;
  /**
   * With a schedule: when the next round is due (ISO 8601); null without a schedule, once every
   * round of the format has been published, and once the league is finished. In the past: the round is waiting for the
   * previous round's last result (unfinished: wait), or for the organiser's draft (autoPair off).
   */
  nextRoundAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export type EntrantStatus = 'active' | 'withdrawn' | 'disqualified';

export interface Entrant {
  player: PlayerRef;
  seed: number | null;
  /** The player's current rating in the league's game type (null: unrated). */
  rating: number | null;
  status: EntrantStatus;
  firstRound: number;
  leftAfterRound: number | null;
  reason: string | null;
  joinedAt: string;
  /**
   * Herald's AI plays this entrant's games (set by an organiser, e.g. for a player who has to
   * leave): its open games from the moment it was set, and every later board. The results count
   * for the entrant; the games' ratings are the AI player's. Null: the player plays.
   */
  standIn: EntrantStandIn | null;
}

export interface EntrantStandIn {
  /** The AI level (its player: `Herald AI (<level>)`). */
  ai: string;
  /** The first round with a board played by the AI. */
  fromRound: number;
  reason: string | null;
  at: string;
}

export type RoundStatus = 'draft' | 'published' | 'complete';
export type RoundStage = 'swiss' | 'round-robin' | 'pool' | 'knockout';

export interface PairingReport {
  by: string;
  result: ReportableResult;
  at: string;
}

export interface Pairing {
  id: string;
  round: number;
  board: number;
  pool: number | null;
  /** Plays roles.first. */
  first: PlayerRef;
  /** Plays roles.second; null: a bye. */
  second: PlayerRef | null;
  gameId: string | null;
  result: PairingResult | null;
  /** adjudication: the round's time ran out under a schedule (settings.schedule.unfinished). */
  source: 'game' | 'reported' | 'organiser' | 'withdrawal' | 'pairing' | 'adjudication' | null;
  /** A reported result waiting for the opponent's (or an organiser's) confirmation. */
  report: PairingReport | null;
}

export interface Round {
  leagueId: string;
  number: number;
  stage: RoundStage;
  status: RoundStatus;
  pairings: Pairing[];
  createdAt: string;
  publishedAt: string | null;
  completedAt: string | null;
}

/** Edits of a draft round's pairings, applied in order. */
export type PairingEdit =
  /** Exchange two players (between boards, or the two sides of one board). */
  | { op: 'swap'; a: string; b: string }
  /** Give `player` the bye: their opponent is paired with the previous bye, or gets it if there was none. */
  | { op: 'bye'; player: string }
  /** Pair `first` (first side) against `second`: their former opponents are paired together. */
  | { op: 'pair'; first: string; second: string };

export interface ResultChange {
  id: string;
  pairingId: string;
  round: number;
  by: PlayerRef | null;
  kind: 'game' | 'report' | 'confirm' | 'correction' | 'forfeit' | 'withdrawal' | 'adjudication';
  before: PairingResult | null;
  after: PairingResult | null;
  reason: string | null;
  at: string;
}

export interface StandingRow {
  rank: number;
  player: PlayerRef;
  status: EntrantStatus;
  points: number;
  tieBreaks: Partial<Record<TieBreak, number>>;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  forfeitsWon: number;
  forfeitsLost: number;
  byes: number;
  /** Per role name (e.g. York / Lancaster): played, won, drawn, lost. */
  perSide: Record<string, { played: number; won: number; drawn: number; lost: number }>;
  decidedByFinalOrder: boolean;
  /** Pools format: the pool; else null. */
  pool: number | null;
}

export interface LeagueStandings {
  leagueId: string;
  /** Rounds counted (complete or with results). */
  rounds: number;
  roles: { first: string; second: string };
  points: { win: number; draw: number; loss: number };
  tieBreaks: TieBreak[];
  standings: StandingRow[];
}

export interface LeagueFilter {
  gameType?: string;
  status?: LeagueStatus;
  /** Leagues this player has entered (any entrant status). */
  playerId?: string;
  /** Leagues this player organises. */
  organiserId?: string;
}

// ─── Ratings and profiles ───────────────────────────────────────────────────

export interface RatingInfo {
  gameType: string;
  /** Rounded to one decimal in answers; stored exactly. */
  rating: number;
  /** Rating deviation now: grows with inactivity since the last rated game. */
  rd: number;
  vol: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** RD above 110 (Lichess's threshold): shown with a "?". */
  provisional: boolean;
  updatedAt: string;
}

export interface RatingHistoryEntry {
  gameId: string;
  opponent: PlayerRef;
  score: number;
  ratingBefore: number;
  rating: number;
  rd: number;
  at: string;
}

export interface LeaderboardEntry {
  rank: number;
  player: PlayerRef;
  rating: number;
  rd: number;
  games: number;
  provisional: boolean;
}

export interface PlayerResult {
  gameId: string;
  gameType: string;
  role: string;
  opponent: PlayerRef | null;
  /** From this player's side. */
  outcome: 'win' | 'draw' | 'loss' | null;
  reason: string;
  rated: boolean;
  ratingChange: number | null;
  leagueId: string | null;
  endedAt: string;
}

export interface PlayerProfile {
  player: PlayerRef & { createdAt: string };
  ratings: RatingInfo[];
  /** Leagues the player entered or organises (unlisted ones only on one's own profile); status null: organiser, not an entrant. */
  leagues: { league: Pick<League, 'id' | 'name' | 'gameType' | 'format' | 'status'>; status: EntrantStatus | null; organiser: boolean }[];
  recentResults: PlayerResult[];
}
