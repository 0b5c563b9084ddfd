/**
 * Knockout seeding: standard bracket placement, byes to the top seeds, snake-seeded pools.
 */
import t from 'tap';
import {
  bracketOrder, knockoutBracket, nextKnockoutRound, poolsOfRoundRobins, poolsToKnockout, seedByRating, seededKnockout, snakePools,
} from '../../src/leagues/knockout.ts';

t.test('bracket order: 1 v N, top seeds kept apart until the late rounds', async (t) => {
  t.same(bracketOrder(2), [1, 2]);
  t.same(bracketOrder(4), [1, 4, 2, 3]);
  t.same(bracketOrder(8), [1, 8, 4, 5, 2, 7, 3, 6]);
  t.same(bracketOrder(16), [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]);
  t.throws(() => bracketOrder(6), RangeError);
  for (const size of [4, 8, 16, 32, 64]) {
    const order = bracketOrder(size);
    // In every block of 2^k slots (a sub-bracket whose winner reaches round k + 1), the best
    // seed is one of the top size/2^k seeds: seeds 1 and 2 are in different halves, 1–4 in
    // different quarters, …
    for (let block = 2; block <= size; block *= 2) {
      const bests = [];
      for (let i = 0; i < size; i += block) bests.push(Math.min(...order.slice(i, i + block)));
      t.same(bests.sort((a, b) => a - b), Array.from({ length: size / block }, (_, i) => i + 1), `size ${size}, block ${block}`);
    }
    // Each first-round pair sums to size + 1.
    for (let i = 0; i < size; i += 2) t.equal(order[i] + order[i + 1], size + 1);
  }
});

t.test('N not a power of two: byes go to the top seeds', async (t) => {
  for (let n = 2; n <= 40; n++) {
    const seeds = Array.from({ length: n }, (_, i) => `p${i + 1}`);
    const m = knockoutBracket(seeds);
    const size = 2 ** Math.ceil(Math.log2(n));
    t.equal(m.length, size / 2);
    const byes = m.filter((x) => x.bottom === null).map((x) => x.topSeed).sort((a, b) => a - b);
    t.same(byes, Array.from({ length: size - n }, (_, i) => i + 1), `n=${n}: byes to seeds 1…${size - n}`);
    const everyone = m.flatMap((x) => [x.top, x.bottom]).filter((x) => x !== null);
    t.equal(new Set(everyone).size, n, `n=${n}: everyone placed once`);
  }
  const five = knockoutBracket(['a', 'b', 'c', 'd', 'e']);
  t.same(five.map((x) => [x.top, x.bottom]), [['a', null], ['d', 'e'], ['b', null], ['c', null]]);
  t.same(nextKnockoutRound(['a', 'd', 'b', 'c']), [['a', 'd'], ['b', 'c']]);
  t.throws(() => nextKnockoutRound(['a', 'b', 'c']), RangeError);
  t.throws(() => knockoutBracket(['a']), RangeError);
});

t.test('seeding by rating, stable on ties and missing ratings', async (t) => {
  t.same(seedByRating([{ id: 'x', rating: 1500 }, { id: 'b' }, { id: 'a', rating: 1500 }, { id: 'z', rating: 1900 }]), ['z', 'a', 'x', 'b']);
  const m = seededKnockout([{ id: 'w', rating: 1400 }, { id: 'v', rating: 2000 }, { id: 'u', rating: 1800 }]);
  t.same(m.map((x) => [x.top, x.bottom]), [['v', null], ['u', 'w']]);
});

t.test('pools: snake seeding, a Berger schedule each, winners seeded into a knockout', async (t) => {
  t.same(snakePools([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3), [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]);
  t.throws(() => snakePools([1, 2, 3], 2), RangeError);
  const entrants = Array.from({ length: 16 }, (_, i) => ({ id: `p${String(i + 1).padStart(2, '0')}`, rating: 2000 - i * 10 }));
  const plan = poolsOfRoundRobins(entrants, 4);
  t.same(plan.pools.map((p) => p.entrants), [
    ['p01', 'p08', 'p09', 'p16'], ['p02', 'p07', 'p10', 'p15'], ['p03', 'p06', 'p11', 'p14'], ['p04', 'p05', 'p12', 'p13'],
  ]);
  t.ok(plan.pools.every((p) => p.schedule.length === 3 && p.schedule.every((r) => r.pairings.length === 2)));
  const ko = poolsToKnockout(plan.pools.map((p) => p.entrants.slice(0, 2)));
  t.same(ko.map((x) => [x.top, x.bottom]), [['p01', 'p15'], ['p04', 'p12'], ['p02', 'p16'], ['p03', 'p09']].map(([a, b]) => {
    // Winners are the pools' first entrants (p01…p04), runners-up their second (p08, p07, p06, p05).
    const runner: Record<string, string> = { p15: 'p05', p12: 'p08', p16: 'p06', p09: 'p07' };
    return [a, runner[b]];
  }));
  const poolOf = new Map(plan.pools.flatMap((p) => p.entrants.map((e) => [e, p.pool] as const)));
  t.ok(ko.every((x) => poolOf.get(x.top) !== poolOf.get(x.bottom!)), 'no first-round rematch of pool-mates');
  t.throws(() => poolsToKnockout([['a', 'b'], ['c']]), RangeError);
});
