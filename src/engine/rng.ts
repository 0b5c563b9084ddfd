/**
 * Seeded PRNG kept inside game state as plain JSON (four 32-bit words), so that
 * (scenario, seed, actions) determines every roll and shuffle. sfc32, seeded
 * from a string with cyrb128. No Math.random, no clock.
 */
export type RngState = [number, number, number, number];

function cyrb128(str: string): RngState {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < str.length; i++) {
    const k = str.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4; h2 ^= h1; h3 ^= h1; h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export function seedRng(seed: string): RngState {
  const s = cyrb128(seed);
  // Discard the first outputs: sfc32 mixes poorly for a few rounds.
  for (let i = 0; i < 15; i++) nextUint32(s);
  return s;
}

/** Advances the state in place (callers own a copied state) and returns a uint32. */
export function nextUint32(s: RngState): number {
  let [a, b, c, d] = s;
  a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
  const t = (a + b) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  d = (d + 1) | 0;
  const r = (t + d) | 0;
  c = (c + r) | 0;
  s[0] = a >>> 0; s[1] = b >>> 0; s[2] = c >>> 0; s[3] = d >>> 0;
  return r >>> 0;
}

/** Uniform integer in [0, n). Rejection sampling keeps it unbiased. */
export function randomInt(s: RngState, n: number): number {
  if (n <= 0 || !Number.isInteger(n)) throw new RangeError(`randomInt(${n})`);
  const limit = Math.floor(0x100000000 / n) * n;
  for (;;) {
    const x = nextUint32(s);
    if (x < limit) return x % n;
  }
}

export function rollD6(s: RngState): number {
  return randomInt(s, 6) + 1;
}

/** Fisher–Yates shuffle, in place. */
export function shuffle<T>(s: RngState, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(s, i + 1);
    const tmp = items[i]!; items[i] = items[j]!; items[j] = tmp;
  }
  return items;
}
