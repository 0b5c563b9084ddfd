/**
 * Berger tables (FIDE C.05): the published tables for 4 and 6 players, and for n = 4…20 the
 * properties the issue asks for — every pair once per cycle, one bye per entrant per cycle for
 * odd n, each pairing once on each side in the double, sides alternating as far as the table
 * allows (never three in a row, never more than one game ahead after a cycle of an odd field).
 */
import t from 'tap';
import { bergerTable, roundRobin, type ScheduledRound } from '../../src/leagues/round-robin.ts';

const asSet = (rounds: Array<Array<[number, number]>>) => rounds.map((r) => r.map(([a, b]) => `${a}-${b}`).sort());

t.test('bergerTable reproduces the handbook tables for 3–4 and 5–6 players', async (t) => {
  t.same(asSet(bergerTable(4)), asSet([[[1, 4], [2, 3]], [[4, 3], [1, 2]], [[2, 4], [3, 1]]]));
  t.same(asSet(bergerTable(6)), asSet([
    [[1, 6], [2, 5], [3, 4]],
    [[6, 4], [5, 3], [1, 2]],
    [[2, 6], [3, 1], [4, 5]],
    [[6, 5], [1, 4], [2, 3]],
    [[3, 6], [4, 2], [5, 1]],
  ]));
  t.throws(() => bergerTable(5), RangeError);
});

function sideSequence(s: ScheduledRound<number>[], p: number): string {
  let seq = '';
  for (const r of s) {
    const g = r.pairings.find((x) => x.first === p || x.second === p);
    if (g) seq += g.first === p ? 'F' : 'S';
  }
  return seq;
}

for (const double of [false, true]) {
  t.test(`${double ? 'double' : 'single'} round robin, n = 4…20`, async (t) => {
    for (let n = 4; n <= 20; n++) {
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      const s = roundRobin(ids, { double });
      const perCycle = n % 2 === 0 ? n - 1 : n;
      t.equal(s.length, perCycle * (double ? 2 : 1), `n=${n}: rounds`);
      for (const cycle of double ? [1, 2] : [1]) {
        const rounds = s.filter((r) => r.cycle === cycle);
        const pairs = new Map<string, number>();
        const byes = new Map<number, number>();
        for (const r of rounds) {
          const seen = new Set<number>();
          for (const g of r.pairings) {
            t.notOk(seen.has(g.first) || seen.has(g.second), `n=${n}: nobody twice in a round`);
            seen.add(g.first);
            seen.add(g.second);
            const key = [g.first, g.second].sort((a, b) => a - b).join('-');
            pairs.set(key, (pairs.get(key) ?? 0) + 1);
          }
          if (r.bye !== undefined) {
            seen.add(r.bye);
            byes.set(r.bye, (byes.get(r.bye) ?? 0) + 1);
          }
          t.equal(seen.size, n, `n=${n}: everyone plays or has the bye`);
        }
        t.equal(pairs.size, (n * (n - 1)) / 2, `n=${n} cycle ${cycle}: every pair meets`);
        t.ok([...pairs.values()].every((c) => c === 1), `n=${n} cycle ${cycle}: exactly once`);
        if (n % 2 === 1) t.ok(byes.size === n && [...byes.values()].every((c) => c === 1), `n=${n}: one bye each`);
        else t.equal(byes.size, 0, `n=${n}: no byes`);
      }
      if (double) {
        const ordered = new Set(s.flatMap((r) => r.pairings.map((g) => `${g.first}>${g.second}`)));
        t.equal(ordered.size, n * (n - 1), `n=${n}: each pairing once on each side`);
      }
      for (const p of ids) {
        const seq = sideSequence(s, p);
        t.notMatch(seq, /FFF|SSS/, `n=${n}: player ${p} never three in a row (${seq})`);
        const diff = [...seq].reduce((d, c) => d + (c === 'F' ? 1 : -1), 0);
        // Even n: n − 1 games a cycle, so one side once more; odd n: n − 1 games, balanced.
        t.ok(Math.abs(diff) <= (double ? 0 : n % 2 === 0 ? 1 : 0), `n=${n}: player ${p} side balance ${diff}`);
      }
    }
  });
}

t.test('odd fields give the dummy\'s opponent the bye; bad input is refused', async (t) => {
  const s = roundRobin(['a', 'b', 'c']);
  t.same(s.map((r) => r.bye).sort(), ['a', 'b', 'c']);
  t.ok(s.every((r) => r.pairings.length === 1));
  t.throws(() => roundRobin(['a']), RangeError);
  t.throws(() => roundRobin(['a', 'a']), RangeError);
});
