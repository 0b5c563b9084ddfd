// A push-based async iterator for subscription resolvers: bus handlers push
// events in, graphql-js pulls them out. Work triggered by bus messages runs one
// at a time (serial), so events leave in the order their versions were read.
export class EventStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private readonly waiting: Array<{ resolve: (r: IteratorResult<T>) => void; reject: (err: unknown) => void }> = [];
  private failure: unknown = null;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly cleanups: Array<() => unknown> = [];

  private readonly mapError: (err: unknown) => unknown;
  /** mapError turns a failed task's error into what the client may see. */
  constructor(mapError: (err: unknown) => unknown = (err) => err) {
    this.mapError = mapError;
  }

  /** Runs when the stream ends (client stopped, socket closed, failure). */
  onClose(fn: () => unknown): void {
    if (this.closed) void Promise.resolve().then(fn).catch(() => {});
    else this.cleanups.push(fn);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  push(value: T): void {
    if (this.closed) return;
    const next = this.waiting.shift();
    if (next) next.resolve({ value, done: false });
    else this.queue.push(value);
  }

  /** Queues async work after all earlier work; a throwing task ends the stream with its error. */
  serial(task: () => Promise<void>): void {
    this.chain = this.chain.then(async () => {
      if (this.closed) return;
      try {
        await task();
      } catch (err) {
        this.fail(this.mapError(err));
      }
    });
  }

  /** Ends the stream normally once the queued events are consumed. */
  end(): void {
    if (this.closed) return;
    this.finish();
    this.flushWaiting(); // waiters exist only while the queue is empty
  }

  /** Ends the stream with an error, delivered after the queued events. */
  fail(err: unknown): void {
    if (this.closed) return;
    this.finish();
    // Waiters exist only while the queue is empty: the first one gets the error.
    const first = this.waiting.shift();
    if (first) {
      first.reject(err);
      this.flushWaiting();
    } else {
      this.failure = err;
    }
  }

  private flushWaiting(): void {
    for (const w of this.waiting.splice(0)) w.resolve({ value: undefined, done: true });
  }

  private finish(): void {
    this.closed = true;
    for (const fn of this.cleanups.splice(0)) {
      void Promise.resolve()
        .then(fn)
        .catch(() => {});
    }
  }

  async next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return { value: this.queue.shift() as T, done: false };
    if (this.failure !== null) {
      const err = this.failure;
      this.failure = null;
      throw err;
    }
    if (this.closed) return { value: undefined, done: true };
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  async return(): Promise<IteratorResult<T>> {
    if (!this.closed) this.finish();
    this.queue.length = 0;
    this.failure = null;
    this.flushWaiting();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
