// The settlement sweep: every game that is over gets its ratings and league result settled
// right after the commit that ended it (service/settle.ts), but a crash between that commit
// and the settlement, or a settlement that failed, leaves a game unsettled. This job settles
// those: once when the service starts, then at a fixed interval.
//
// Runs never overlap (a slow sweep delays the next one instead of racing it: settling is
// exactly-once anyway, but two sweeps would only do the same work twice). The timer is
// unref'd, so it never keeps the process alive; stop() waits for a run in progress.

export const SETTLE_SWEEP_MS = 60_000;

export interface SettleSweepOptions {
  /** Settles what is left; resolves to how many games it settled. */
  sweep: () => Promise<number>;
  intervalMs?: number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export interface ScheduledJob {
  /** No new run starts; resolves when the run in progress (if any) has finished. */
  stop(): Promise<void>;
}

export function startSettleSweep(o: SettleSweepOptions): ScheduledJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = (): void => {
    if (stopped || running) return;
    running = o
      .sweep()
      .then(
        (settled) => {
          if (settled > 0) o.log.info({ settled }, 'settled games that were over and not settled');
        },
        (err: unknown) => o.log.warn({ err }, 'the settlement sweep failed; it runs again later'),
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, o.intervalMs ?? SETTLE_SWEEP_MS);
  timer.unref();
  run();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
