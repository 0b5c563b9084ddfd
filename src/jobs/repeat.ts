// The one timer both sweeps (settlement, clocks) run on: once at once, then every intervalMs.
// Runs never overlap (a slow run delays the next one instead of racing it); the timer is
// unref'd, so it never keeps the process alive; stop() waits for a run in progress.

export interface ScheduledJob {
  /** No new run starts; resolves when the run in progress (if any) has finished. */
  stop(): Promise<void>;
}

/** `run` must not reject (each sweep logs its own failures). */
export function repeat(run: () => Promise<void>, intervalMs: number): ScheduledJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = (): void => {
    if (stopped || running) return;
    running = run().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
