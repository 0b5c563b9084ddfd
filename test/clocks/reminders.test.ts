import t from 'tap';
import { DAY, HOUR, PRESETS, daysPerMove } from '../../src/clocks/controls.ts';
import { afterChange, pause, resume, start } from '../../src/clocks/clock.ts';
import { reminderTimes, remindersDue } from '../../src/clocks/reminders.ts';

const ROLES = ['York', 'Lancaster'];
const T0 = Date.UTC(2026, 5, 1);

t.test('80% used and 24 hours left, keyed by seat, turn and kind', async (t) => {
  const c = daysPerMove(5);
  const s = start(c, ROLES, ['York'], T0);
  t.same(reminderTimes(s, c, 'York'), [
    { key: 'York:1:low-time', role: 'York', turn: 1, kind: 'low-time', at: T0 + 4 * DAY, leftMs: DAY },
  ], '80% of 5 days leaves exactly 24 h: one reminder, not two');
  const c3 = daysPerMove(3);
  const s3 = start(c3, ROLES, ['York'], T0);
  t.same(reminderTimes(s3, c3, 'York').map((r) => [r.kind, r.at]), [['low-time', T0 + 2 * DAY], ['share-used', T0 + 3 * DAY - Math.round(0.2 * 3 * DAY)]]);
  t.same(reminderTimes(s3, c3, 'Lancaster'), [], 'not its turn');
  t.same(reminderTimes(s3, c3, 'York', { shareUsed: 0.5 }).map((r) => [r.kind, r.at]), [['share-used', T0 + 1.5 * DAY], ['low-time', T0 + 2 * DAY]]);
});

t.test('short turns: 10% left instead of 24 hours', async (t) => {
  const c = daysPerMove(1);
  const s = start(c, ROLES, ['York'], T0);
  t.same(reminderTimes(s, c, 'York').map((r) => [r.kind, r.leftMs]), [['share-used', 0.2 * DAY], ['low-time', 0.1 * DAY]]);
  // Rally's fast control: a turn that begins with 18 h left is short.
  const f = PRESETS['rally-fast'];
  let r = start(f, ROLES, ['York'], T0);
  r = afterChange(r, f, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 10 * HOUR);
  r = afterChange(r, f, { activeBefore: ['Lancaster'], activeAfter: ['York'], actor: 'Lancaster' }, T0 + 11 * HOUR);
  t.same(reminderTimes(r, f, 'York').map((x) => [x.key, x.leftMs]), [['York:2:share-used', 3.6 * HOUR], ['York:2:low-time', 1.8 * HOUR]]);
  t.same(reminderTimes(start(PRESETS['bot-blitz'], ROLES, ['York'], T0), PRESETS['bot-blitz'], 'York'), [], 'no reminders in live play');
  t.throws(() => reminderTimes(s, c, 'York', { shareUsed: 1 }), /shareUsed/);
  t.throws(() => reminderTimes(s, c, 'York', { lowMs: -1 }), /lowMs/);
});

t.test('due reminders: each once, moved by a pause, none after the deadline', async (t) => {
  const c = daysPerMove(3);
  let s = start(c, ROLES, ['York'], T0);
  const sent = new Set<string>();
  const sweep = (since: number, until: number) => {
    const due = remindersDue(s, c, since, until, sent);
    for (const r of due) sent.add(r.key);
    return due.map((r) => r.key);
  };
  t.same(sweep(T0, T0 + DAY), []);
  t.same(sweep(T0 + DAY, T0 + 2 * DAY), ['York:1:low-time']);
  // A scheduler that looks at the same window again (another instance, a retry) sends nothing.
  t.same(sweep(T0, T0 + 2 * DAY), []);
  // York goes on vacation for 10 days: the 80% reminder moves with the deadline.
  s = pause(s, c, 'York', T0 + 2 * DAY);
  t.same(sweep(T0 + 2 * DAY, T0 + 12 * DAY), [], 'nothing while paused');
  s = resume(s, c, 'York', T0 + 12 * DAY);
  const late = T0 + 12 * DAY + Math.round(0.4 * DAY);
  t.same(sweep(T0 + 12 * DAY, late - 1), []);
  t.same(sweep(late - 1, late), ['York:1:share-used']);
  // Next turn, new keys.
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, late + 1);
  s = afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: ['York'], actor: 'Lancaster' }, late + 2);
  t.same(sweep(late + 2, late + 2 + 2 * DAY), ['York:2:low-time']);
  // A sweep that reaches past the deadline sends no reminder: the timeout is what happens.
  const s2 = start(c, ROLES, ['York'], T0);
  t.same(remindersDue(s2, c, T0, T0 + 3 * DAY, new Set()), []);
  t.same(remindersDue(s2, c, T0, T0 + 3 * DAY - 1, new Set()).map((r) => r.key), ['York:1:low-time', 'York:1:share-used']);
  t.throws(() => remindersDue(s2, c, T0 + 1, T0, new Set()), /bad interval/);
});
