// The clock sweep: sends the reminders and fires the timeouts that have come due. Every running game's earliest seat
// deadline is stored in games.deadline_at (set by the same commit that changes its clocks), so
// the due games are one indexed query (status, deadline_at); each is ended through the service's
// fireTimeout, whose version check makes it exactly once however many instances sweep at once.
// A run works off everything due, in batches, a few games at a time, and instances take random
// games of the most overdue ones (service/clocks.ts sweepDue): a burst is not capped at one batch
// per interval, and a second instance adds throughput instead of racing the first for the same games.
// Reminders the same way: games.remind_at holds each game's earliest pending reminder, and the
// service's sweepReminders claims each reminder in reminders_sent before publishing it.
// Runs once when the service starts (a timeout that came due while every instance was down fires
// then) and at a fixed interval after. It runs on repeat.ts, like the settlement sweep.
import { repeat, type ScheduledJob } from './repeat.ts';

export const CLOCK_SWEEP_MS = 5_000;

export interface ClockSweepOptions {
  /** Fires every due timeout; resolves to how many games it ended. */
  sweep: () => Promise<number>;
  /** Sends every due reminder (before the timeouts); resolves to how many it sent. */
  remind?: () => Promise<number>;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export function startClockSweep(o: ClockSweepOptions): ScheduledJob {
  const remind = (): Promise<void> =>
    o.remind
      ? o.remind().then(
          (sent) => {
            if (sent > 0) o.log.info({ sent }, 'reminders sent');
          },
          (err: unknown) => o.log.warn({ err }, 'the reminder sweep failed; it runs again later'),
        )
      : Promise.resolve();
  return repeat(
    () =>
      remind()
        .then(() => o.sweep())
        .then(
          (fired) => {
            if (fired > 0) o.log.info({ fired }, 'games ended by timeout');
          },
          (err: unknown) => o.log.warn({ err }, 'the clock sweep failed; it runs again later'),
        ),
    o.intervalMs ?? CLOCK_SWEEP_MS,
  );
}
