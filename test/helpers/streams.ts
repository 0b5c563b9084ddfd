// Bounded waits for the tests that read event streams (SSE, GraphQL
// subscriptions): a stream that never sends what a test waits for — say, a
// seat's events going to the wrong seat, or a refusal that streams instead —
// must fail that test within seconds, saying what it waited for, instead of
// hanging until tap's 10-minute file timeout.

/** The longest wait for one event (or one answer) a stream test makes by default. */
export const EVENT_TIMEOUT_MS = 10_000;

/**
 * Each stream test file's own limit (the root `t.setTimeout`), far below
 * tap's 600 s: a hang that no bounded wait covers still fails in minutes.
 */
export const STREAM_FILE_TIMEOUT_MS = 120_000;

/**
 * `promise`, or a rejection naming `what` once `timeoutMs` has passed (a
 * function is called then, so the message can show what had arrived).
 */
export function within<T>(promise: Promise<T>, what: string | (() => string), timeoutMs = EVENT_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The longest silence `whileProgressing` accepts from a run that follows streams. */
export const STALL_TIMEOUT_MS = 30_000;

/**
 * Runs `run` (e.g. an example bot playing a game while following its
 * streams), which calls `progress()` on everything it receives; rejects
 * naming `what` once nothing arrived for `idleMs`, for a stream that went
 * silent (a bot waits for its turn forever). The run is not timed as a whole.
 */
export function whileProgressing<T>(what: string, run: (progress: () => void) => Promise<T>, idleMs = STALL_TIMEOUT_MS): Promise<T> {
  let last = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    const check = () => {
      const idle = Date.now() - last;
      if (idle >= idleMs) reject(new Error(`${what}: nothing received for ${idleMs} ms (a stream went silent?)`));
      else timer = setTimeout(check, idleMs - idle);
    };
    timer = setTimeout(check, idleMs);
  });
  return Promise.race([run(() => (last = Date.now())), stalled]).finally(() => clearTimeout(timer));
}
