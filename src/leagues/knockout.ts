/**
 * Single-elimination brackets seeded by rating, and pools of round robins feeding one.
 *
 * Standard bracket placement: the bracket has S = 2^k slots (the smallest power of two ≥ N);
 * seed s meets seed S + 1 − s in the first round, and the halves are arranged so that seeds 1
 * and 2 can only meet in the final, 1–4 in the semi-finals, and so on. Seeds above N are
 * byes, so the byes fall to the top seeds.
 */
import { roundRobin, type ScheduledRound } from './round-robin.ts';

export interface Seeded<T> {
  id: T;
  /** Higher is stronger. Missing ratings seed last. */
  rating?: number;
}

export interface BracketMatch<T> {
  /** 1-based position in the round, top to bottom. */
  slot: number;
  /** Seed numbers (1 = top seed). `null` = bye. */
  topSeed: number;
  bottomSeed: number | null;
  top: T;
  bottom: T | null;
}

/** Seed numbers in bracket order for S = 2^k slots: [1, S, S/2+1, S/2, …]. */
export function bracketOrder(size: number): number[] {
  if (!Number.isInteger(Math.log2(size)) || size < 1) throw new RangeError(`bracket size must be a power of two, got ${size}`);
  let order = [1];
  // Each doubling replaces seed s by the pair (s, 2m + 1 − s): the new seeds are the weakest
  // of the doubled field, placed against the strongest, so the top seeds stay apart.
  while (order.length < size) {
    const m = order.length;
    order = order.flatMap((s) => [s, 2 * m + 1 - s]);
  }
  return order;
}

/** Rating order, strongest first; ties (and missing ratings) by id so the result is stable. */
export function seedByRating<T extends string | number>(entrants: readonly Seeded<T>[]): T[] {
  return [...entrants]
    .sort((a, b) => (b.rating ?? -Infinity) - (a.rating ?? -Infinity) || (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0))
    .map((e) => e.id);
}

/** First round of a single-elimination bracket for entrants already in seed order. */
export function knockoutBracket<T>(seeds: readonly T[]): BracketMatch<T>[] {
  if (seeds.length < 2) throw new RangeError('a knockout needs at least 2 entrants');
  if (new Set(seeds).size !== seeds.length) throw new RangeError('entrants must be distinct');
  const size = 2 ** Math.ceil(Math.log2(seeds.length));
  const order = bracketOrder(size);
  const matches: BracketMatch<T>[] = [];
  for (let i = 0; i < size; i += 2) {
    const [a, b] = [order[i], order[i + 1]];
    const [hi, lo] = a < b ? [a, b] : [b, a];
    const bye = lo > seeds.length;
    matches.push({ slot: i / 2 + 1, topSeed: hi, bottomSeed: bye ? null : lo, top: seeds[hi - 1], bottom: bye ? null : seeds[lo - 1] });
  }
  return matches;
}

/** Seeds a bracket by rating. */
export function seededKnockout<T extends string | number>(entrants: readonly Seeded<T>[]): BracketMatch<T>[] {
  return knockoutBracket(seedByRating(entrants));
}

/**
 * The next round's pairings from the winners of a round, in slot order: winners of slots
 * 2i − 1 and 2i meet. A bye's winner is its top player.
 */
export function nextKnockoutRound<T>(winners: readonly T[]): Array<[T, T]> {
  if (winners.length < 2 || winners.length % 2 !== 0) throw new RangeError('a knockout round needs an even number (≥ 2) of winners');
  const out: Array<[T, T]> = [];
  for (let i = 0; i < winners.length; i += 2) out.push([winners[i], winners[i + 1]]);
  return out;
}

/**
 * Snake (serpentine) seeding into `poolCount` pools: seeds 1…P go to pools 1…P, seeds
 * P+1…2P to pools P…1, and so on, so every pool gets one player from each band of strength.
 */
export function snakePools<T>(seeds: readonly T[], poolCount: number): T[][] {
  if (!Number.isInteger(poolCount) || poolCount < 1) throw new RangeError('pool count must be a positive integer');
  if (seeds.length < 2 * poolCount) throw new RangeError('every pool needs at least 2 entrants');
  const pools: T[][] = Array.from({ length: poolCount }, () => []);
  seeds.forEach((s, i) => {
    const band = Math.floor(i / poolCount);
    const k = i % poolCount;
    pools[band % 2 === 0 ? k : poolCount - 1 - k].push(s);
  });
  return pools;
}

export interface PoolsPlan<T> {
  pools: Array<{ pool: number; entrants: T[]; schedule: ScheduledRound<T>[] }>;
}

/** Pools of round robins: snake-seeded by rating, each with its Berger schedule. */
export function poolsOfRoundRobins<T extends string | number>(
  entrants: readonly Seeded<T>[],
  poolCount: number,
  options: { double?: boolean } = {},
): PoolsPlan<T> {
  const pools = snakePools(seedByRating(entrants), poolCount);
  return { pools: pools.map((p, i) => ({ pool: i + 1, entrants: p, schedule: roundRobin(p, options) })) };
}

/**
 * The knockout after the pools. `qualifiers[i]` lists pool i + 1's qualifiers in finishing
 * order (from the standings module). All pool winners are seeded first in pool order (pool 1
 * holds the top seed), then all runners-up in pool order, and so on: with an even number of
 * pools, seed s meets seed 2P + 1 − s, a runner-up from another pool.
 */
export function poolsToKnockout<T>(qualifiers: readonly (readonly T[])[]): BracketMatch<T>[] {
  const depth = Math.max(...qualifiers.map((q) => q.length));
  if (qualifiers.some((q) => q.length !== depth)) throw new RangeError('every pool must send the same number of qualifiers');
  const seeds: T[] = [];
  for (let place = 0; place < depth; place++) for (const q of qualifiers) seeds.push(q[place]);
  return knockoutBracket(seeds);
}
