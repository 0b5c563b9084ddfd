/**
 * Standings and FIDE (2024) tie-breaks, checked against values worked out by hand in the
 * comments below, including every kind of unplayed round (Art. 16).
 */
import t from 'tap';
import { computeStandings, isVur, standingsToCsv, standingsToJson, type Standing } from '../../src/leagues/standings.ts';
import { playerRounds, type Entrant, type RoundRecord } from '../../src/leagues/results.ts';

const E = (...ids: string[]): Entrant[] => ids.map((id, i) => ({ id, seed: i + 1 }));

/*
 * Five players, three rounds:
 *   R1: A–B 1–0, C–D ½–½, E pairing-allocated bye (full point)
 *   R2: A–C 0–1, B–E forfeit (B wins, E did not show), D half-point bye (requested)
 *   R3: B–C ½–½, A–D 0–1, E absent (withdrew)
 * Scores: A 1, B 1½, C 2, D 2, E 1.
 * Adjusted scores for opponents (16.3): A 1, B 1½, C 2, D 2 (its VUR is before a played round),
 *   E: last non-VUR round is 1; R2 has an opponent (counts 0), R3 absent after it counts as a
 *   draw → 1 + 0 + ½ = 1½.
 * Own Buchholz (16.4: unplayed rounds against a dummy with the player's own score):
 *   A: B 1½ + C 2 + D 2 = 5½; cut-1 drops 1½ → 4; median drops 1½ and 2 → 2
 *   B: A 1 + dummy 1½ (forfeit win, not a VUR) + C 2 = 4½; cut-1 → 3½; median → 1½
 *   C: D 2 + A 1 + B 1½ = 4½; cut-1 → 3½; median → 1½
 *   D: C 2 + dummy 2 (half bye, a VUR) + A 1 = 5; cut-1 cuts the VUR first → 3 (not 4);
 *      median → 1 (VUR, then the highest, 2)
 *   E: dummy 1 ×3 = 3; cut-1 → 2
 * Sonneborn–Berger: A 1½·1 = 1½; B 0 + 1½·1 + 2·½ = 2½; C 2·½ + 1·1 + 1½·½ = 2¾;
 *   D 2·½ + 2·½ + 1·1 = 3; E 1·1 (PAB) + 0 (forfeit loss: no SB) + 0 = 1
 */
const FIVE = E('A', 'B', 'C', 'D', 'E');
const RECORDS: RoundRecord[] = [
  { kind: 'game', round: 1, first: 'A', second: 'B', result: 'first' },
  { kind: 'game', round: 1, first: 'C', second: 'D', result: 'draw' },
  { kind: 'bye', round: 1, player: 'E', points: 'full', allocated: true },
  { kind: 'game', round: 2, first: 'A', second: 'C', result: 'second' },
  { kind: 'forfeit', round: 2, first: 'B', second: 'E', winner: 'first' },
  { kind: 'bye', round: 2, player: 'D', points: 'half' },
  { kind: 'game', round: 3, first: 'B', second: 'C', result: 'draw' },
  { kind: 'game', round: 3, first: 'A', second: 'D', result: 'second' },
];
const ALL = ['buchholz', 'buchholz-cut1', 'median-buchholz', 'sonneborn-berger', 'wins', 'wins-played', 'harder-side-wins', 'harder-side-games', 'progressive'] as const;

const row = (rows: Standing[], id: string) => rows.find((s) => s.id === id)!;

t.test('points and every tie-break on a field with byes, forfeits and a withdrawal', async (t) => {
  const r = computeStandings(FIVE, RECORDS, { tieBreaks: [...ALL], roles: { first: 'York', second: 'Lancaster' } });
  t.equal(r.rounds, 3);
  // Buchholz comes first in this order: D (5) above C (4½), A (5½) above E (3).
  t.same(r.standings.map((s) => [s.id, s.points]), [['D', 2], ['C', 2], ['B', 1.5], ['A', 1], ['E', 1]]);
  const tb = (id: string) => row(r.standings, id).tieBreaks;
  t.same(tb('A'), { buchholz: 5.5, 'buchholz-cut1': 4, 'median-buchholz': 2, 'sonneborn-berger': 1.5, wins: 1, 'wins-played': 1, 'harder-side-wins': 0, 'harder-side-games': 0, progressive: 3 });
  t.same(tb('B'), { buchholz: 4.5, 'buchholz-cut1': 3.5, 'median-buchholz': 1.5, 'sonneborn-berger': 2.5, wins: 1, 'wins-played': 0, 'harder-side-wins': 0, 'harder-side-games': 1, progressive: 2.5 });
  t.same(tb('C'), { buchholz: 4.5, 'buchholz-cut1': 3.5, 'median-buchholz': 1.5, 'sonneborn-berger': 2.75, wins: 1, 'wins-played': 1, 'harder-side-wins': 1, 'harder-side-games': 2, progressive: 4 });
  t.same(tb('D'), { buchholz: 5, 'buchholz-cut1': 3, 'median-buchholz': 1, 'sonneborn-berger': 3, wins: 1, 'wins-played': 1, 'harder-side-wins': 1, 'harder-side-games': 2, progressive: 3.5 });
  t.same(tb('E'), { buchholz: 3, 'buchholz-cut1': 2, 'median-buchholz': 1, 'sonneborn-berger': 1, wins: 1, 'wins-played': 0, 'harder-side-wins': 0, 'harder-side-games': 0, progressive: 3 });
  const c = row(r.standings, 'C');
  t.same(c.perSide, { York: { played: 1, won: 0, drawn: 1, lost: 0 }, Lancaster: { played: 2, won: 1, drawn: 1, lost: 0 } });
  t.same([c.played, c.won, c.drawn, c.lost], [3, 1, 2, 0]);
  const e = row(r.standings, 'E');
  t.same([e.played, e.forfeitsLost, e.byes], [0, 1, 1]);
  t.equal(row(r.standings, 'B').forfeitsWon, 1);
});

/*
 * The same field under the 2009 rules. As opponents, unplayed games count as draws:
 *   A 1, B 0 + ½ + ½ = 1, C 2, D ½ + ½ + 1 = 2, E ½ × 3 = 1½.
 * Virtual opponents (S_von = S_before + (1 − points) + ½ × (3 − R)):
 *   B R2 (forfeit win): 0 + 0 + ½ = ½;  D R2 (half bye): ½ + ½ + ½ = 1½;
 *   E R1 (PAB): 0 + 0 + 1 = 1;  E R2 (forfeit loss): 1 + 1 + ½ = 2½;  E R3 (absent): 1 + 1 + 0 = 2.
 * BH: A 1 + 2 + 2 = 5; B 1 + ½ + 2 = 3½; C 2 + 1 + 1 = 4; D 2 + 1½ + 1 = 4½; E 1 + 2½ + 2 = 5½.
 * BH-C1 (lowest cut, no VUR rule): A 4, B 3 (the virtual ½ goes), C 3, D 3½, E 4½.
 * SB: A 1·1 = 1; B 0 + ½·1 + 2·½ = 1½; C 2·½ + 1·1 + 1·½ = 2½; D 2·½ + 1½·½ + 1·1 = 2¾; E 1·1 = 1.
 */
t.test('FIDE 2009 rules for unplayed rounds (virtual opponent; unplayed games are draws for opponents)', async (t) => {
  const r = computeStandings(FIVE, RECORDS, { tieBreaks: ['buchholz', 'buchholz-cut1', 'sonneborn-berger'], unplayedRounds: 'fide-2009' });
  t.same(Object.fromEntries(r.standings.map((s) => [s.id, [s.tieBreaks.buchholz, s.tieBreaks['buchholz-cut1'], s.tieBreaks['sonneborn-berger']]])), {
    A: [5, 4, 1], B: [3.5, 3, 1.5], C: [4, 3, 2.5], D: [4.5, 3.5, 2.75], E: [5.5, 4.5, 1],
  });
  t.same(r.standings.map((s) => s.id), ['D', 'C', 'B', 'E', 'A']);
  t.throws(() => computeStandings(FIVE, RECORDS, { unplayedRounds: 'fide-1999' as 'fide-2009' }), RangeError);
});

t.test('the configured order decides; the harder side is configurable per league and per game', async (t) => {
  // Points tie C–D and A–E. BH-C1: C 3½ > D 3; A 4 > E 2.
  t.same(computeStandings(FIVE, RECORDS, { tieBreaks: ['buchholz-cut1'] }).standings.map((s) => s.id), ['C', 'D', 'B', 'A', 'E']);
  // Plain BH puts D (5) above C (4½); SB too (3 > 2¾).
  t.same(computeStandings(FIVE, RECORDS, { tieBreaks: ['buchholz'] }).standings.map((s) => s.id), ['D', 'C', 'B', 'A', 'E']);
  t.same(computeStandings(FIVE, RECORDS, { tieBreaks: ['sonneborn-berger'] }).standings.map((s) => s.id), ['D', 'C', 'B', 'A', 'E']);
  // Wins tie everyone at 1 → final order by seed: C (3) before D (4), A (1) before E (5).
  const byWins = computeStandings(FIVE, RECORDS, { tieBreaks: ['wins'] }).standings;
  t.same(byWins.map((s) => s.id), ['C', 'D', 'B', 'A', 'E']);
  t.ok(row(byWins, 'C').decidedByFinalOrder && !row(byWins, 'B').decidedByFinalOrder);
  // Harder side = first: A's win in R1 was on the first side; nobody else won as first.
  const hf = computeStandings(FIVE, RECORDS, { tieBreaks: ['harder-side-wins'], harderSide: 'first' }).standings;
  t.same([row(hf, 'A').tieBreaks['harder-side-wins'], row(hf, 'C').tieBreaks['harder-side-wins']], [1, 0]);
  const perGame = RECORDS.map((r) => (r.kind === 'game' && r.round === 2 ? { ...r, harder: 'first' as const } : r));
  const hg = computeStandings(FIVE, perGame, { tieBreaks: ['harder-side-wins'] }).standings;
  t.equal(row(hg, 'C').tieBreaks['harder-side-wins'], 0, 'C won R2 on the second side, which that game marks as easier');
});

t.test('2/1/0 points: same order, values doubled (exact)', async (t) => {
  const r = computeStandings(FIVE, RECORDS, { tieBreaks: ['buchholz', 'sonneborn-berger'], points: { win: 2, draw: 1, loss: 0 } });
  t.same(r.standings.map((s) => [s.id, s.points, s.tieBreaks.buchholz, s.tieBreaks['sonneborn-berger']]), [
    ['D', 4, 10, 12], ['C', 4, 9, 11], ['B', 3, 9, 10], ['A', 2, 11, 6], ['E', 2, 6, 4],
  ]);
});

t.test('direct encounter: applies when all the tied players have met, else falls through', async (t) => {
  // P, Q, R all on 1½ after a round robin among themselves plus S.
  const recs: RoundRecord[] = [
    { kind: 'game', round: 1, first: 'P', second: 'Q', result: 'first' },
    { kind: 'game', round: 1, first: 'R', second: 'S', result: 'draw' },
    { kind: 'game', round: 2, first: 'Q', second: 'R', result: 'first' },
    { kind: 'game', round: 2, first: 'S', second: 'P', result: 'draw' },
    { kind: 'game', round: 3, first: 'R', second: 'P', result: 'first' },
    { kind: 'game', round: 3, first: 'Q', second: 'S', result: 'draw' },
  ];
  // All four on 1½ and all have met: DE is the whole score (1½ each) and cannot separate them,
  // so the final order (seed) decides.
  const r = computeStandings(E('R', 'Q', 'P', 'S'), recs, { tieBreaks: ['direct-encounter'], roundRobin: true });
  t.same(r.standings.map((s) => [s.id, s.points, s.tieBreaks['direct-encounter']]), [['R', 1.5, 1.5], ['Q', 1.5, 1.5], ['P', 1.5, 1.5], ['S', 1.5, 1.5]]);
  t.ok(r.standings.every((s) => s.decidedByFinalOrder));
  // A four-way tie where not everyone has met:
  const two: RoundRecord[] = [
    { kind: 'game', round: 1, first: 'X', second: 'Y', result: 'second' },
    { kind: 'game', round: 2, first: 'X', second: 'Z', result: 'first' },
    { kind: 'game', round: 2, first: 'Y', second: 'W', result: 'second' },
    { kind: 'game', round: 1, first: 'Z', second: 'W', result: 'first' },
  ];
  // X 1, Y 1, Z 1, W 1. Not all four have met (X–W, Y–Z never did); each scored 1 against
  // the group and could reach 2 with a win against the one not met, so nobody is clear → no
  // split; the seed order decides.
  const all = computeStandings(E('X', 'Y', 'Z', 'W'), two, { tieBreaks: ['direct-encounter'] });
  t.same(all.standings.map((s) => s.tieBreaks['direct-encounter']), [1, 1, 1, 1]);
  t.same(all.standings.map((s) => s.id), ['X', 'Y', 'Z', 'W']);
  // A tie-break before DE that splits {X, Y} from {Z, W}: harder-side wins (second): Y won as
  // second, W won as second → {Y, W} 1, {X, Z} 0. Y and W met (W won): DE orders W above Y.
  const split = computeStandings(E('X', 'Y', 'Z', 'W'), two, { tieBreaks: ['harder-side-wins', 'direct-encounter'] });
  // {X, Z} also met (X won): X above Z.
  t.same(split.standings.map((s) => s.id), ['W', 'Y', 'X', 'Z']);
  t.same(split.standings.slice(0, 2).map((s) => [s.id, s.tieBreaks['direct-encounter']]), [['W', 1], ['Y', 0]]);
});

t.test('direct encounter when not all have met: a player nobody can catch goes first (Art. 6)', async (t) => {
  // A, B, C finish on 2 of 3. A beat B and C; B and C never met. A's DE 2 is more than B or C
  // could reach (0 + a win against the other = 1), so A is first; B and C stay tied (DE again
  // between them: they never met) and the seed order decides.
  const recs: RoundRecord[] = [
    { kind: 'game', round: 1, first: 'A', second: 'B', result: 'first' },
    { kind: 'game', round: 1, first: 'C', second: 'D', result: 'first' },
    { kind: 'game', round: 1, first: 'E', second: 'F', result: 'first' },
    { kind: 'game', round: 2, first: 'A', second: 'C', result: 'first' },
    { kind: 'game', round: 2, first: 'B', second: 'E', result: 'first' },
    { kind: 'game', round: 2, first: 'D', second: 'F', result: 'first' },
    { kind: 'game', round: 3, first: 'A', second: 'F', result: 'second' },
    { kind: 'game', round: 3, first: 'B', second: 'D', result: 'first' },
    { kind: 'game', round: 3, first: 'C', second: 'E', result: 'first' },
  ];
  const r = computeStandings(E('C', 'B', 'A', 'D', 'E', 'F'), recs, { tieBreaks: ['direct-encounter'] });
  t.same(r.standings.slice(0, 3).map((s) => [s.id, s.points, s.tieBreaks['direct-encounter']]), [['A', 2, 2], ['C', 2, 0], ['B', 2, 0]]);
  t.notOk(r.standings[0].decidedByFinalOrder);
  t.ok(r.standings[1].decidedByFinalOrder && r.standings[2].decidedByFinalOrder);
  // Without DE, the seed order alone would put C, B, A.
  t.same(computeStandings(E('C', 'B', 'A', 'D', 'E', 'F'), recs, { tieBreaks: [] }).standings.slice(0, 3).map((s) => s.id), ['C', 'B', 'A']);
});

t.test('direct encounter averages several games against one opponent (Art. 6.1.2)', async (t) => {
  // P and Q meet twice (P wins, then a draw) and finish level on 1½: P's DE is the average
  // ¾ (not the sum 1½), Q's ¼.
  const recs: RoundRecord[] = [
    { kind: 'game', round: 1, first: 'P', second: 'Q', result: 'first' },
    { kind: 'game', round: 1, first: 'R', second: 'S', result: 'draw' },
    { kind: 'game', round: 2, first: 'Q', second: 'P', result: 'draw' },
    { kind: 'game', round: 2, first: 'S', second: 'R', result: 'draw' },
    { kind: 'game', round: 3, first: 'Q', second: 'R', result: 'first' },
    { kind: 'game', round: 3, first: 'P', second: 'S', result: 'second' },
  ];
  const r = computeStandings(E('Q', 'P', 'R', 'S'), recs, { tieBreaks: ['direct-encounter'] });
  t.same(r.standings.map((s) => [s.id, s.points, s.tieBreaks['direct-encounter']]), [['S', 2, 0], ['P', 1.5, 0.75], ['Q', 1.5, 0.25], ['R', 1, 0]]);
});

t.test('round-robin rule: unplayed rounds add nothing to Buchholz or SB', async (t) => {
  const recs: RoundRecord[] = [
    { kind: 'game', round: 1, first: 'A', second: 'B', result: 'first' },
    { kind: 'bye', round: 1, player: 'C', points: 'zero', allocated: true },
    { kind: 'game', round: 2, first: 'C', second: 'A', result: 'draw' },
    { kind: 'bye', round: 2, player: 'B', points: 'zero', allocated: true },
    { kind: 'game', round: 3, first: 'B', second: 'C', result: 'second' },
    { kind: 'bye', round: 3, player: 'A', points: 'zero', allocated: true },
  ];
  const r = computeStandings(E('A', 'B', 'C'), recs, { tieBreaks: ['buchholz', 'sonneborn-berger'], roundRobin: true });
  // A 1½ (beat B, drew C), C 1½, B 0. A: BH = B 0 + C 1½ = 1½, SB = 0·1 + 1½·½ = ¾.
  // C: BH = A 1½ + B 0 = 1½, SB = ¾ + 0 = ¾ → tied → seed: A first.
  t.same(r.standings.map((s) => [s.id, s.points, s.tieBreaks.buchholz, s.tieBreaks['sonneborn-berger']]), [
    ['A', 1.5, 1.5, 0.75], ['C', 1.5, 1.5, 0.75], ['B', 0, 3, 0],
  ]);
});

t.test('VUR classification (Art. 16.2)', async (t) => {
  const p = playerRounds(E('A', 'B', 'C', 'D'), [
    { kind: 'forfeit', round: 1, first: 'A', second: 'B', winner: 'none' },
    { kind: 'bye', round: 1, player: 'C', points: 'full' },
    { kind: 'bye', round: 1, player: 'D', points: 'zero', allocated: true },
  ], undefined, 2);
  t.same(['A', 'B', 'C', 'D'].map((id) => isVur(p.get(id)!.rounds[0])), [true, true, false, false]);
  t.ok(isVur(p.get('A')!.rounds[1]), 'absent');
});

t.test('bad input is refused with RangeError', async (t) => {
  t.throws(() => computeStandings(E('A', 'B'), [{ kind: 'game', round: 1, first: 'A', second: 'X', result: 'draw' }]), RangeError);
  t.throws(() => computeStandings(E('A', 'B'), [{ kind: 'game', round: 1, first: 'A', second: 'A', result: 'draw' }]), RangeError);
  t.throws(() => computeStandings(E('A', 'B'), [
    { kind: 'game', round: 1, first: 'A', second: 'B', result: 'draw' },
    { kind: 'bye', round: 1, player: 'A', points: 'full' },
  ]), RangeError);
  t.throws(() => computeStandings(E('A', 'B'), [], { points: { win: 1, draw: 0.3, loss: 0 } }), RangeError);
  t.throws(() => computeStandings(E('A', 'B'), [], { tieBreaks: ['koya' as 'wins'] }), RangeError);
  t.throws(() => computeStandings(E('A', 'B'), [], { tieBreaks: ['wins', 'wins'] }), RangeError);
  t.throws(() => computeStandings([{ id: 'A' }, { id: 'A' }], []), RangeError);
});

t.test('CSV and JSON exports', async (t) => {
  const r = computeStandings([{ id: 'A' }, { id: 'b,"x"' }, { id: '=cmd' }], [
    { kind: 'game', round: 1, first: 'A', second: 'b,"x"', result: 'first' },
    { kind: 'bye', round: 1, player: '=cmd', points: 'half' },
  ], { tieBreaks: ['buchholz'], roles: { first: 'York', second: 'Lancaster' } });
  const csv = standingsToCsv(r, new Map([['A', 'Anne']]));
  const lines = csv.trimEnd().split('\r\n');
  t.equal(lines[0], 'rank,id,name,points,BH,played,won,drawn,lost,forfeits_won,forfeits_lost,byes,as_York,as_Lancaster');
  t.equal(lines[1], '1,A,Anne,1,0,1,1,0,0,0,0,0,1-0-0,0-0-0');
  // A formula-looking id is defused; BH ½ is the dummy opponent (own score) of the half bye.
  t.equal(lines[2], "2,'=cmd,'=cmd,0.5,0.5,0,0,0,0,0,0,1,0-0-0,0-0-0");
  t.equal(lines[3], '3,"b,""x""","b,""x""",0,1,1,0,0,1,0,0,0,0-0-0,0-0-1');
  const json = standingsToJson(r);
  t.equal(json.format, 'herald-standings/1');
  t.same(json.tieBreaks, [{ id: 'buchholz', label: 'BH' }]);
  t.same(JSON.parse(JSON.stringify(json)).standings[0].perSide.York, { played: 1, won: 1, drawn: 0, lost: 0 });
});
