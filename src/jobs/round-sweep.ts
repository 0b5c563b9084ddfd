// The round sweep: starts the league rounds that are due on their league's schedule
// (service/league-calendar.ts). Every instance runs it; each round is started once, under its
// league row's lock. Runs once when the service starts (a round that came due while every
// instance was down is published then) and at a fixed interval after, on repeat.ts like the
// settlement and clock sweeps. Rounds are due on a calendar of days: seconds late is on time.
import { repeat, type ScheduledJob } from './repeat.ts';

export const ROUND_SWEEP_MS = 15_000;

export interface RoundSweepOptions {
  /** Starts every due round; resolves to how many leagues it moved on. */
  sweep: () => Promise<number>;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export function startRoundSweep(o: RoundSweepOptions): ScheduledJob {
  return repeat(
    () =>
      o.sweep().then(
        (moved) => {
          if (moved > 0) o.log.info({ leagues: moved }, 'scheduled league rounds started');
        },
        (err: unknown) => o.log.warn({ err }, 'the round sweep failed; it runs again later'),
      ),
    o.intervalMs ?? ROUND_SWEEP_MS,
  );
}
