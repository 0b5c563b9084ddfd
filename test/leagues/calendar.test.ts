/**
 * When a scheduled league's next round is due: the calendar slots, and a late round's full period.
 */
import t from 'tap';
import { DAY_MS, nextRoundDue, type RoundSchedule } from '../../src/leagues/calendar.ts';

const first = Date.UTC(2027, 0, 4, 18);
const weekly: RoundSchedule = { firstRoundAt: new Date(first).toISOString(), everyDays: 7, unfinished: 'wait' };

t.test('round 1 at firstRoundAt, then one slot every everyDays days', async (t) => {
  t.equal(nextRoundDue(weekly, null), first);
  t.equal(nextRoundDue(weekly, { number: 1, publishedAt: first }), first + 7 * DAY_MS);
  t.equal(nextRoundDue(weekly, { number: 4, publishedAt: first + 21 * DAY_MS }), first + 28 * DAY_MS);
});

t.test('a round published early keeps the calendar; a late one gets its full period and pushes the rest back', async (t) => {
  t.equal(nextRoundDue(weekly, { number: 2, publishedAt: first + 3 * DAY_MS }), first + 14 * DAY_MS, 'early: the next slot');
  t.equal(nextRoundDue(weekly, { number: 2, publishedAt: first + 9 * DAY_MS }), first + 16 * DAY_MS, 'two days late: due two days late');
  // A schedule whose slots are all past (the league started long after firstRoundAt): one round at a time.
  const late = first + 100 * DAY_MS;
  t.equal(nextRoundDue(weekly, { number: 1, publishedAt: late }), late + 7 * DAY_MS, 'no cascade of overdue rounds');
});
