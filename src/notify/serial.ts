// Runs an async job one at a time, coalescing requests: a request made while
// the job runs schedules exactly one more run after it. Feeds use it so that
// catch-ups never interleave (which would reorder or duplicate events).

export class SerialJob {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  private readonly job: () => Promise<void>;
  private readonly onError: (err: unknown) => void;
  constructor(
    job: () => Promise<void>,
    onError: (err: unknown) => void,
  ) {
    this.job = job;
    this.onError = onError;
  }

  /** Runs the job now, or once more after the current run; resolves when that run is done. */
  request(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  stop(): void {
    this.stopped = true;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.job();
      } catch (err) {
        if (!this.stopped) this.onError(err);
      }
    } while (this.again && !this.stopped);
  }
}
