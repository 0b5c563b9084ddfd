// When a failed delivery is tried again: the Standard Webhooks example schedule (5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after the first attempt's failure, then give up) with
// full jitter (a uniform delay between 0 and the step), so endpoints that failed together
// (an outage) are not all retried at the same instant.
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000];

/** The delay before the next attempt after `attempts` failed ones; null when the schedule is over. */
export function retryDelay(attempts: number, schedule: readonly number[] = RETRY_SCHEDULE_MS, random: () => number = Math.random): number | null {
  const step = schedule[attempts - 1];
  if (step === undefined) return null;
  return Math.round(random() * step);
}

/**
 * Retry-After in ms (seconds or an HTTP date), capped at a day; null when absent, unreadable
 * or asking for no wait at all (0, a date in the past): the schedule's backoff then applies, so a
 * receiver answering `503 Retry-After: 0` cannot have every attempt of the schedule spent within
 * a second and its endpoint disabled. Only digits or a date are read: "-5" or "1.5" are not
 * dates (V8's Date.parse reads "-5" as May 2001).
 */
export function retryAfterMs(header: string | undefined, now: number): number | null {
  if (header === undefined || header.trim() === '') return null;
  const v = header.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    if (/^[+-]?[\d.]+$/.test(v)) return null;
    const t = Date.parse(v);
    if (Number.isNaN(t)) return null;
    ms = t - now;
  }
  return ms > 0 ? Math.min(ms, 86_400_000) : null;
}
