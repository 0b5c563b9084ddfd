/**
 * The e2e tests' independent reference (test/helpers/league-reference.ts) checked against
 * values worked out by hand and against Glickman's worked example, so that the end-to-end
 * tests compare Herald with something known to be right.
 */
import t from 'tap';
import {
  glicko2Period, minimalScoreDistance, referenceStandings, replayRatings, scoreDistance, sideAllowed,
  type RefGame,
} from '../helpers/league-reference.ts';

t.test("Glicko-2: Glickman's worked example", async (t) => {
  const r = glicko2Period({ rating: 1500, rd: 200, vol: 0.06 }, [
    { opponent: { rating: 1400, rd: 30 }, score: 1 },
    { opponent: { rating: 1550, rd: 100 }, score: 0 },
    { opponent: { rating: 1700, rd: 300 }, score: 0 },
  ]);
  // The paper rounds its intermediate steps (μ′ = −0.2069, φ′ = 0.8722); computed exactly the
  // example gives 1464.0507, 151.5165, 0.0599960: within 0.01 and 0.00001 of its figures.
  t.comment(`r′ ${r.rating}, RD′ ${r.rd}, σ′ ${r.vol}`);
  t.ok(Math.abs(r.rating - 1464.06) < 0.01, `r′ ${r.rating.toFixed(4)} ≈ 1464.06`);
  t.ok(Math.abs(r.rd - 151.52) < 0.01, `RD′ ${r.rd.toFixed(4)} ≈ 151.52`);
  t.ok(Math.abs(r.vol - 0.05999) < 0.00001, `σ′ ${r.vol.toFixed(7)} ≈ 0.05999`);
});

t.test('Glicko-2: no games is step 6 alone; a replay caps RD and uses pre-game ratings', async (t) => {
  const idle = glicko2Period({ rating: 1600, rd: 100, vol: 0.06 }, []);
  t.equal(idle.rating, 1600);
  t.equal(idle.rd.toFixed(4), (Math.sqrt((100 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178).toFixed(4));
  const [a, b] = ['a', 'b'];
  const m = replayRatings([{ a, b, scoreA: 1 }]);
  // Two new players, symmetric: equal and opposite changes, RD well below 350.
  t.equal((m.get(a)!.rating - 1500).toFixed(9), (1500 - m.get(b)!.rating).toFixed(9));
  t.ok(m.get(a)!.rating > 1600 && m.get(a)!.rd < 350 && m.get(a)!.games === 1);
  const twice = replayRatings([{ a, b, scoreA: 1 }, { a: b, b: a, scoreA: 0.5 }]);
  // The second game: each from the other's rating after the first game.
  const ra = glicko2Period(m.get(a)!, [{ opponent: m.get(b)!, score: 0.5 }]);
  t.equal(twice.get(a)!.rating, ra.rating);
  t.equal(twice.get(a)!.games, 2);
});

/*
 * Four players, three rounds (a single round robin), 1/½/0:
 *   R1: A–B 1–0, C–D ½–½;  R2: A–C ½–½, B–D 0–1;  R3: A–D 1–0, B–C 1–0.
 * Scores: A 2½, B 1, C 1, D 1½.
 * Buchholz: A 1+1+1½ = 3½; B 2½+1½+1 = 5; C 1½+2½+1 = 5; D 1+1+2½ = 4½.
 * Cut-1 (drop the lowest): A 2½, B 4, C 4, D 3½.
 * Sonneborn–Berger: A 1·1 + 1·½ + 1½·1 = 3; B 1·1 = 1; C 1½·½ + 2½·½ = 2; D 1·½ + 1·1 = 1½.
 * Wins: A 2, B 1, C 0, D 1.
 * B and C tie on points, Buchholz and Cut-1; SB puts C first; direct encounter (B beat C) B.
 */
const FOUR: RefGame[] = [
  { round: 1, first: 'A', second: 'B', result: 'first' },
  { round: 1, first: 'C', second: 'D', result: 'draw' },
  { round: 2, first: 'A', second: 'C', result: 'draw' },
  { round: 2, first: 'B', second: 'D', result: 'second' },
  { round: 3, first: 'A', second: 'D', result: 'first' },
  { round: 3, first: 'B', second: 'C', result: 'first' },
];

t.test('standings: points and tie-breaks of a hand-worked round robin', async (t) => {
  const r = referenceStandings(['A', 'B', 'C', 'D'], FOUR, { points: { win: 1, draw: 0.5, loss: 0 }, tieBreaks: ['buchholz-cut1', 'buchholz', 'sonneborn-berger', 'wins'], rounds: 3 });
  const tb = (id: string) => r.rows.get(id)!.tieBreaks;
  t.same(['A', 'B', 'C', 'D'].map((id) => r.rows.get(id)!.points), [2.5, 1, 1, 1.5]);
  t.same(tb('A'), { buchholz: 3.5, 'buchholz-cut1': 2.5, 'sonneborn-berger': 3, wins: 2 });
  t.same(tb('B'), { buchholz: 5, 'buchholz-cut1': 4, 'sonneborn-berger': 1, wins: 1 });
  t.same(tb('C'), { buchholz: 5, 'buchholz-cut1': 4, 'sonneborn-berger': 2, wins: 0 });
  t.same(tb('D'), { buchholz: 4.5, 'buchholz-cut1': 3.5, 'sonneborn-berger': 1.5, wins: 1 });
  t.same(r.groups, [['A'], ['D'], ['C'], ['B']]);
  t.same(r.rows.get('C')!.asFirst, { played: 1, won: 0, drawn: 1, lost: 0 });
  t.same(r.rows.get('C')!.asSecond, { played: 2, won: 0, drawn: 1, lost: 1 });

  const de = referenceStandings(['A', 'B', 'C', 'D'], FOUR, { points: { win: 1, draw: 0.5, loss: 0 }, tieBreaks: ['direct-encounter', 'wins'], rounds: 3 });
  t.same(de.groups, [['A'], ['D'], ['B'], ['C']], 'direct encounter: B beat C');
  t.same([de.rows.get('B')!.tieBreaks['direct-encounter'], de.rows.get('C')!.tieBreaks['direct-encounter']], [1, 0]);
  t.equal(de.rows.get('A')!.tieBreaks['direct-encounter'], undefined, 'not compared by DE: alone on 2½');

  // 2/1/0 points double every value; SB quadruples (score × points).
  const two = referenceStandings(['A', 'B', 'C', 'D'], FOUR, { points: { win: 2, draw: 1, loss: 0 }, tieBreaks: ['sonneborn-berger'], rounds: 3 });
  t.same([two.rows.get('A')!.points, two.rows.get('A')!.tieBreaks['sonneborn-berger'], two.rows.get('A')!.tieBreaks.buchholz], [5, 12, 7]);
});

/*
 * The same round robin with R1 A–B a forfeit won by A (the game not played). Scores are as
 * before; in a round robin the forfeit adds nothing to Buchholz or SB for either player:
 *   A: Buchholz C 1 + D 1½ = 2½, SB 1·½ + 1½·1 = 2, wins 2 (the forfeit counts), won 1;
 *   B: Buchholz D 1½ + C 1 = 2½, SB 1·1 = 1; C and D as before (their games were played).
 * B and C: Buchholz 2½ against 5 now puts C ahead.
 */
t.test('standings: a forfeit in a round robin', async (t) => {
  const games: RefGame[] = [{ ...FOUR[0], result: 'forfeit-first' }, ...FOUR.slice(1)];
  const opts = { points: { win: 1, draw: 0.5, loss: 0 }, tieBreaks: ['buchholz', 'sonneborn-berger', 'wins'] as const, rounds: 3 };
  const r = referenceStandings(['A', 'B', 'C', 'D'], games, { ...opts, tieBreaks: [...opts.tieBreaks], roundRobin: true });
  const row = (id: string) => r.rows.get(id)!;
  t.same(['A', 'B', 'C', 'D'].map((id) => row(id).points), [2.5, 1, 1, 1.5]);
  t.same(row('A').tieBreaks, { buchholz: 2.5, 'buchholz-cut1': 1.5, 'sonneborn-berger': 2, wins: 2 });
  t.same(row('B').tieBreaks, { buchholz: 2.5, 'buchholz-cut1': 1.5, 'sonneborn-berger': 1, wins: 1 });
  t.same(row('C').tieBreaks, { buchholz: 5, 'buchholz-cut1': 4, 'sonneborn-berger': 2, wins: 0 });
  t.same([row('A').played, row('A').won, row('A').forfeitsWon, row('A').forfeitsLost], [2, 1, 1, 0]);
  t.same([row('B').played, row('B').lost, row('B').forfeitsWon, row('B').forfeitsLost], [2, 1, 0, 1]);
  t.same(row('A').asFirst, { played: 2, won: 1, drawn: 1, lost: 0 }, 'per side: games over the board only');
  t.same(r.groups, [['A'], ['D'], ['C'], ['B']]);
  t.throws(() => referenceStandings(['A', 'B', 'C', 'D'], games, { ...opts, tieBreaks: [...opts.tieBreaks] }), 'not modelled in a Swiss');
});

t.test('standings: the reference refuses byes and absences instead of guessing', async (t) => {
  t.throws(() => referenceStandings(['A', 'B', 'C', 'D'], FOUR.slice(0, 5), { points: { win: 1, draw: 0.5, loss: 0 }, tieBreaks: [], rounds: 3 }));
});

t.test('side rules and the least score distance', async (t) => {
  t.ok(sideAllowed([], 'first'));
  t.ok(sideAllowed(['first'], 'second'));
  t.notOk(sideAllowed(['first'], 'first'), 'two ahead');
  t.ok(sideAllowed(['first', 'second', 'first'], 'second'));
  t.notOk(sideAllowed(['second', 'first', 'first'], 'first'), 'three in a row (and two ahead)');
  t.notOk(sideAllowed(['first', 'second', 'second', 'first', 'first'], 'first'), 'three in a row, even when balanced before');

  const scores = new Map([['A', 1], ['B', 1], ['C', 0], ['D', 0]]);
  const none = () => false;
  t.equal(minimalScoreDistance(['A', 'B', 'C', 'D'], scores, none, new Map()), 0, 'within groups');
  const metAB = (x: string, y: string) => [x, y].sort().join() === 'A,B';
  t.equal(minimalScoreDistance(['A', 'B', 'C', 'D'], scores, metAB, new Map()), 2, 'A and B met: two floats');
  t.equal(scoreDistance([{ first: 'A', second: 'C' }, { first: 'D', second: 'B' }], scores), 2);
  // A and C both had York twice in a row: they cannot meet (one of them would have it a third time).
  const sides = new Map([['A', ['first', 'first'] as const], ['C', ['first', 'first'] as const], ['B', ['second', 'second'] as const], ['D', ['second', 'second'] as const]]);
  const sidesMap = new Map([...sides].map(([k, v]) => [k, [...v]]));
  t.equal(minimalScoreDistance(['A', 'B', 'C', 'D'], scores, metAB, sidesMap), 2);
  const all = () => true;
  t.equal(minimalScoreDistance(['A', 'B', 'C', 'D'], scores, all, new Map()), null, 'no pairing at all');
});
