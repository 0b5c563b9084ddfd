import t from 'tap';
import { DAY, HOUR, PRESETS, daysPerMove, type TimeControl } from '../../src/clocks/controls.ts';
import { afterChange, pause, resume, start } from '../../src/clocks/clock.ts';
import { firstReminderAt, reminderTimes, remindersDue, type ReminderOptions } from '../../src/clocks/reminders.ts';
import { randomInt, seedRng } from '../../src/engine/rng.ts';
import type { ClockState } from '../../src/clocks/clock.ts';

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

t.test('firstReminderAt is the earliest of every seat\'s reminderTimes (random games, controls and options)', async (t) => {
  const controls: TimeControl[] = [daysPerMove(1), daysPerMove(3), PRESETS['rally-fast'], PRESETS['rally-slow'], PRESETS['bot-blitz'], { kind: 'none' }];
  const optionSets: (ReminderOptions | undefined)[] = [undefined, {}, { shareUsed: 0.5 }, { shareUsed: 0.9, lowMs: 2 * DAY }, { lowMs: HOUR, shortBelowMs: DAY, shortShareLeft: 0.2 }, { shareUsed: 0.9, shortShareLeft: 0.1 }];
  const earliest = (s: ClockState, c: TimeControl, o: ReminderOptions | undefined): number | null => {
    let at: number | null = null;
    for (const role of ROLES) for (const r of reminderTimes(s, c, role, o)) if (at === null || r.at < at) at = r.at;
    return at;
  };
  const subsets = [[], ['York'], ['Lancaster'], ['York', 'Lancaster']];
  const failures: string[] = [];
  let checked = 0;
  let some = 0;
  for (let seed = 0; seed < 200; seed++) {
    const rng = seedRng(`first-reminder-${seed}`);
    const c = controls[seed % controls.length]!;
    let now = T0;
    let s = start(c, ROLES, ['York'], now);
    for (let step = 0; step < 30; step++) {
      now += randomInt(rng, 6 * HOUR);
      const before = ROLES.filter((r) => s.seats[r]!.active);
      const k = randomInt(rng, 10);
      if (k === 0 && c.kind === 'correspondence') s = pause(s, c, ROLES[randomInt(rng, 2)]!, now);
      else if (k === 1 && c.kind === 'correspondence') s = resume(s, c, ROLES[randomInt(rng, 2)]!, now);
      else s = afterChange(s, c, { activeBefore: before, activeAfter: subsets[randomInt(rng, subsets.length)]!, actor: before.length > 0 ? before[randomInt(rng, before.length)]! : null }, now);
      for (const o of optionSets) {
        const want = earliest(s, c, o);
        const got = firstReminderAt(s, c, o);
        checked++;
        if (want !== null) some++;
        if (got !== want) failures.push(`seed ${seed} step ${step} ${JSON.stringify(o)}: ${got} !== ${want}`);
      }
    }
  }
  t.same(failures.slice(0, 5), [], `${checked} states, ${some} with a reminder`);
  t.ok(some > checked / 4, 'most states have a running correspondence clock');
  t.throws(() => firstReminderAt(start(daysPerMove(3), ROLES, ['York'], T0), daysPerMove(3), { shareUsed: 1 }), /shareUsed/, 'the options are checked as reminderTimes checks them');
});
