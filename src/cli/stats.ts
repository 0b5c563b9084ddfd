/** Small statistics for the bots' summary. */

/**
 * The Wilson score interval of a binomial proportion (Wilson 1927): unlike the
 * normal approximation it stays inside [0, 1] and is sound for few games or
 * proportions near 0 or 1. No maintained npm package offers it (the one named
 * so only sorts ratings), so it is written here:
 *   centre = (p + z²/2n) / (1 + z²/n),  half = z·sqrt(p(1−p)/n + z²/4n²) / (1 + z²/n).
 * z = 1.959964 for 95 %.
 */
export function wilson(successes: number, n: number, z = 1.959964): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

export function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
