// The settlement sweep: every game that is over gets its ratings and league result settled
// right after the commit that ended it (service/settle.ts), but a crash between that commit
// and the settlement, or a settlement that failed, leaves a game unsettled. This job settles
// those: once when the service starts, then at a fixed interval.
//
// It runs on repeat.ts: never two runs at once (settling is exactly-once anyway, but two
// sweeps would only do the same work twice).
import { repeat, type ScheduledJob } from './repeat.ts';

export type { ScheduledJob };

export const SETTLE_SWEEP_MS = 60_000;

export interface SettleSweepOptions {
  /** Settles what is left; resolves to how many games it settled. */
  sweep: () => Promise<number>;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export function startSettleSweep(o: SettleSweepOptions): ScheduledJob {
  return repeat(
    () =>
      o.sweep().then(
        (settled) => {
          if (settled > 0) o.log.info({ settled }, 'settled games that were over and not settled');
        },
        (err: unknown) => o.log.warn({ err }, 'the settlement sweep failed; it runs again later'),
      ),
    o.intervalMs ?? SETTLE_SWEEP_MS,
  );
}
