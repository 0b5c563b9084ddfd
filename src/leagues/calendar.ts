/**
 * Rounds on a schedule: when a league's next round comes due. Pure (times are milliseconds since
 * the epoch); the service stores the schedule in the league's settings and the round sweep
 * (service/league-calendar.ts) publishes each round when its time comes.
 *
 * Round 1 is due at `firstRoundAt`. Round n + 1 is due `everyDays` days after round n's slot on
 * the calendar (firstRoundAt + n × everyDays), but never less than `everyDays` after round n was
 * actually published: a round that started late (its predecessor's games ran over, the organiser
 * published it by hand later, the league was started after firstRoundAt) still gets its full
 * period, and the later rounds move back with it. This also means that a schedule whose dates
 * are all in the past publishes one round, not a cascade of rounds adjudicated at once.
 */

export const DAY_MS = 86_400_000;
export const MAX_EVERY_DAYS = 90;

/**
 * What becomes of the previous round's boards that have no result when the next round is due:
 * `wait`: the next round waits for them (the league's time control ends stalled games; without
 * one, the organiser sets a result); `draw` or `double-forfeit`: they are adjudicated so (their
 * games end) and the next round starts on time.
 */
export type UnfinishedPolicy = 'wait' | 'draw' | 'double-forfeit';
export const UNFINISHED_POLICIES: readonly UnfinishedPolicy[] = ['wait', 'draw', 'double-forfeit'];

export interface RoundSchedule {
  /** When round 1 is due (ISO 8601, UTC). */
  firstRoundAt: string;
  /** Days between rounds (1–90). */
  everyDays: number;
  unfinished: UnfinishedPolicy;
}

/** The last round that was published (status published or complete), or null before round 1. */
export interface PublishedRound {
  number: number;
  /** When it was published (ms). */
  publishedAt: number;
}

/** When the round after `last` comes due (ms since the epoch). */
export function nextRoundDue(schedule: RoundSchedule, last: PublishedRound | null): number {
  const first = Date.parse(schedule.firstRoundAt);
  const every = schedule.everyDays * DAY_MS;
  if (last === null) return first;
  return Math.max(first + last.number * every, last.publishedAt + every);
}
