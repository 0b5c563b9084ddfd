// The Wilson score interval and the summary's averages, against values worked
// out independently (the roots of (p̂ − p)² = z²p(1 − p)/n, solved as a quadratic).
import t from 'tap';
import { mean, median, wilson } from '../../src/cli/stats.ts';

t.test('Wilson score interval (95 %)', async (t) => {
  const close = (got: { low: number; high: number }, low: number, high: number, what: string) =>
    t.ok(Math.abs(got.low - low) < 5e-4 && Math.abs(got.high - high) < 5e-4, `${what}: ${got.low.toFixed(4)}–${got.high.toFixed(4)}`);
  close(wilson(5, 10), 0.2366, 0.7634, '5 of 10');
  close(wilson(0, 10), 0, 0.2775, '0 of 10: never below 0');
  close(wilson(10, 10), 0.7225, 1, '10 of 10: never above 1');
  close(wilson(2, 2), 0.3424, 1, '2 of 2');
  close(wilson(81, 263), 0.2553, 0.3662, '81 of 263');
  t.same(wilson(0, 0), { low: 0, high: 1 }, 'no games: nothing known');
});

t.test('mean and median', async (t) => {
  t.equal(mean([1, 2, 6]), 3);
  t.equal(median([5, 1, 3]), 3);
  t.equal(median([4, 1, 3, 2]), 2.5);
  t.equal(mean([]), null);
  t.equal(median([]), null);
});
