/**
 * Round-robin schedules from Berger tables (FIDE Handbook C.05, Annex 1).
 *
 * Pure: entrants in, rounds out. "first" and "second" are the two sides of the game
 * (for Richard III, whichever roles the league maps them to); in chess terms first = White.
 */

export interface RoundPairing<T> {
  first: T;
  second: T;
}

export interface ScheduledRound<T> {
  /** 1-based round number across both cycles. */
  round: number;
  /** 1 or 2 (second cycle of a double round robin). */
  cycle: number;
  pairings: RoundPairing<T>[];
  /** Odd entrant counts: the entrant who sits out this round (paired with Berger's dummy). */
  bye?: T;
}

export interface RoundRobinOptions {
  /** Double round robin: every pairing is played once on each side. */
  double?: boolean;
}

/**
 * Berger table for n (even) pairing numbers, 1-based. Closed form of the published tables:
 * with m = n − 1, in round r players i, j < n meet when i + j ≡ r + 1 (mod m); the player left
 * over (2i ≡ r + 1) meets n. Player n takes the second side in odd rounds and the first in even
 * rounds; between two others, the one for whom (opponent − self) mod m is odd takes the first
 * side. This reproduces C.05's tables exactly (checked for n = 4 and 6 in the tests) and
 * extends them past the 16 players the handbook prints.
 */
export function bergerTable(n: number): Array<Array<[number, number]>> {
  if (!Number.isInteger(n) || n < 2 || n % 2 !== 0) throw new RangeError(`bergerTable needs an even n ≥ 2, got ${n}`);
  const m = n - 1;
  const mod = (x: number) => ((x % m) + m) % m;
  const rounds: Array<Array<[number, number]>> = [];
  for (let r = 1; r <= m; r++) {
    const games: Array<[number, number]> = [];
    // The board against n comes first, as in the handbook's tables.
    let vsN = 0;
    for (let i = 1; i <= m; i++) if (mod(2 * i) === mod(r + 1)) vsN = i;
    games.push(r % 2 === 1 ? [vsN, n] : [n, vsN]);
    const seen = new Set<number>([vsN]);
    for (let i = 1; i <= m; i++) {
      if (seen.has(i)) continue;
      let j = mod(r + 1 - i);
      if (j === 0) j = m;
      seen.add(i);
      seen.add(j);
      games.push(mod(j - i) % 2 === 1 ? [i, j] : [j, i]);
    }
    rounds.push(games);
  }
  return rounds;
}

/**
 * Schedule a single or double round robin for `entrants` in seed order (entrant k gets Berger
 * pairing number k + 1). An odd field gets a dummy as the last pairing number; whoever meets
 * the dummy has the round's bye, so each entrant sits out exactly once per cycle.
 *
 * In the double, cycle two replays cycle one's rounds with sides swapped (the point of a double
 * in an asymmetric game: each pairing once on each side). Following C.05's advice for double
 * round robins, the last two rounds of cycle one are exchanged so that no entrant plays the same
 * side three times in a row across the join between the cycles.
 */
export function roundRobin<T>(entrants: readonly T[], options: RoundRobinOptions = {}): ScheduledRound<T>[] {
  if (entrants.length < 2) throw new RangeError('a round robin needs at least 2 entrants');
  if (new Set(entrants).size !== entrants.length) throw new RangeError('entrants must be distinct');
  const n = entrants.length % 2 === 0 ? entrants.length : entrants.length + 1;
  const table = bergerTable(n);
  const cycles = options.double ? doubleCycles(table) : [table];
  const out: ScheduledRound<T>[] = [];
  cycles.forEach((rounds, c) => {
    for (const games of rounds) {
      const round: ScheduledRound<T> = { round: out.length + 1, cycle: c + 1, pairings: [] };
      for (const [a, b] of games) {
        const ea = entrants[a - 1];
        const eb = entrants[b - 1];
        // Pairing number n is the dummy when the field is odd: its opponent has the bye.
        if (a > entrants.length) round.bye = eb;
        else if (b > entrants.length) round.bye = ea;
        else round.pairings.push({ first: ea, second: eb });
      }
      out.push(round);
    }
  });
  return out;
}

type Table = Array<Array<[number, number]>>;
const swapSides = (games: Array<[number, number]>) => games.map(([a, b]) => [b, a] as [number, number]);

/** Longest run of one pairing number on the same side over consecutive rounds. */
function longestSideRun(rounds: Table, n: number): number {
  let longest = 0;
  for (let p = 1; p <= n; p++) {
    let run = 0;
    let last = '';
    for (const games of rounds) {
      const g = games.find(([a, b]) => a === p || b === p);
      const side = g && g[0] === p ? 'first' : 'second';
      run = side === last ? run + 1 : 1;
      last = side;
      longest = Math.max(longest, run);
    }
  }
  return longest;
}

function permutations(xs: number[]): number[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

/**
 * The two cycles of a double round robin. C.05 advises exchanging the last two rounds of the
 * first cycle so that no one plays the same side three times running across the join; that
 * works from n = 6 up. For n = 4 (3 rounds a cycle) it does not, so the round orders of both
 * cycles are searched (36 candidates) for the first arrangement whose longest run is 2.
 */
function doubleCycles(table: Table): [Table, Table] {
  const n = table.length + 1;
  const c1 = table.slice();
  if (c1.length >= 3) {
    const last = c1.length - 1;
    [c1[last - 1], c1[last]] = [c1[last], c1[last - 1]];
  }
  const standard: [Table, Table] = [c1, c1.map(swapSides)];
  if (longestSideRun([...standard[0], ...standard[1]], n) <= 2 || table.length > 5) return standard;
  const orders = permutations(table.map((_, i) => i));
  let best = standard;
  let bestRun = longestSideRun([...standard[0], ...standard[1]], n);
  for (const o1 of orders) {
    for (const o2 of orders) {
      const cand: [Table, Table] = [o1.map((i) => table[i]), o2.map((i) => swapSides(table[i]))];
      const run = longestSideRun([...cand[0], ...cand[1]], n);
      if (run < bestRun) [best, bestRun] = [cand, run];
    }
  }
  return best;
}
