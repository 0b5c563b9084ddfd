/**
 * Glicko-2 wrapper: Glickman's worked example, RD growth with inactivity, provisional status,
 * symmetric per-game updates.
 */
import t from 'tap';
import {
  ageRating, emptyPeriods, inflateRd, isProvisional, newRating, rateGame, ratePeriod, type Rating,
} from '../../src/leagues/ratings.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const rating = (r: number, rd: number, vol = 0.06, at = T0): Rating => ({ rating: r, rd, vol, games: 10, updatedAt: at });

t.test("Glickman's example: 1500/200/0.06 vs 1400/30 win, 1550/100 loss, 1700/300 loss, τ = 0.5", async (t) => {
  const out = ratePeriod(rating(1500, 200), [
    { opponent: { rating: 1400, rd: 30 }, score: 1 },
    { opponent: { rating: 1550, rd: 100 }, score: 0 },
    { opponent: { rating: 1700, rd: 300 }, score: 0 },
  ], T0, { tau: 0.5 });
  // The paper rounds μ′ to four places before converting back and prints 1464.06; at full
  // precision r′ = 1464.0507.
  t.ok(Math.abs(out.rating - 1464.0507) < 0.01, `r′ = ${out.rating}`);
  t.ok(Math.abs(out.rd - 151.52) < 0.01, `RD′ = ${out.rd}`);
  t.ok(Math.abs(out.vol - 0.05999) < 0.00001, `σ′ = ${out.vol}`);
  t.equal(out.games, 13);
});

t.test('a period without games grows RD by step 6 only; RD is capped at the unrated value', async (t) => {
  const r = rating(1500, 200);
  const out = ratePeriod(r, [], T0 + 7 * DAY);
  t.equal(out.rating, 1500);
  t.equal(out.vol, 0.06);
  const phi = 200 / 173.7178;
  t.ok(Math.abs(out.rd - Math.sqrt(phi * phi + 0.06 * 0.06) * 173.7178) < 1e-9);
  t.equal(inflateRd(340, 0.06, 1000), 350, 'never above 350');
});

t.test('inactivity: one period per periodDays; k empty periods = k step-6 applications', async (t) => {
  const r = rating(1700, 60, 0.06, T0);
  t.equal(emptyPeriods(r, T0 + 6 * DAY), 0);
  t.equal(emptyPeriods(r, T0 + 7 * DAY), 1);
  t.equal(emptyPeriods(r, T0 + 30 * DAY, { periodDays: 10 }), 3);
  t.equal(emptyPeriods(r, T0 - DAY), 0, 'a clock going backwards never shrinks RD');
  let stepwise = r;
  for (let i = 1; i <= 5; i++) stepwise = ratePeriod(stepwise, [], T0 + i * 7 * DAY);
  const aged = ageRating(r, T0 + 5 * 7 * DAY);
  t.ok(Math.abs(aged.rd - stepwise.rd) < 1e-9, `aged ${aged.rd} = stepwise ${stepwise.rd}`);
  t.ok(aged.rd > r.rd);
  t.equal(aged.rating, r.rating);
});

t.test('provisional while RD > 110, including RD regained by inactivity', async (t) => {
  t.ok(isProvisional(newRating(T0), T0), 'a new player is provisional');
  const settled = rating(1600, 100, 0.06, T0);
  t.notOk(isProvisional(settled, T0));
  // ((110/173.7178)² − (100/173.7178)²) / 0.06² ≈ 19.3 empty periods (weeks) to cross 110.
  t.notOk(isProvisional(settled, T0 + 19 * 7 * DAY));
  t.ok(isProvisional(settled, T0 + 20 * 7 * DAY));
});

t.test('rateGame: both sides from pre-game ratings, zero-sum direction, aged first', async (t) => {
  const a = rating(1500, 80, 0.06, T0);
  const b = rating(1500, 80, 0.06, T0);
  const [a1, b1] = rateGame(a, b, 1, T0 + DAY);
  t.ok(a1.rating > 1500 && b1.rating < 1500);
  t.ok(Math.abs((a1.rating - 1500) + (b1.rating - 1500)) < 1e-9, 'equal ratings and RDs: symmetric change');
  t.equal(a1.games, 11);
  t.equal(a1.updatedAt, T0 + DAY);
  const [b2, a2] = rateGame(b, a, 0, T0 + DAY);
  t.same([a2, b2], [a1, b1], 'the order of the two players does not matter');
  const [d1] = rateGame(a, rating(1500, 80), 0.5, T0 + DAY);
  t.ok(Math.abs(d1.rating - 1500) < 1e-9, 'a draw between equals changes no rating');
  // After a long absence the same win moves the rating further (higher RD).
  const [late] = rateGame(a, b, 1, T0 + 200 * DAY);
  t.ok(late.rating - 1500 > a1.rating - 1500);
  t.throws(() => ratePeriod(a, [{ opponent: b, score: 2 as 1 }], T0), RangeError);
  t.throws(() => newRating(T0, { tau: 0 }), RangeError);
});
