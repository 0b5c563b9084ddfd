// The pure core of the `claim` timeout policy: onTimeout in a time control, and what a late
// handover does to a seat that ran out (its overrun is forgiven, the claim lapses).
import t from 'tap';
import { DAY, HOUR, PRESETS, daysPerMove, timeoutPolicy, validateTimeControl } from '../../src/clocks/controls.ts';
import { afterChange, isFlagged, start } from '../../src/clocks/clock.ts';
import { timeoutAt } from '../../src/clocks/timeout.ts';

const ROLES = ['York', 'Lancaster'];
const T0 = Date.UTC(2026, 0, 1);

t.test('onTimeout: claim is kept, loss (the default) is left out, anything else is a problem naming the field', async (t) => {
  t.same(validateTimeControl({ kind: 'correspondence', daysPerMove: 3, onTimeout: 'claim' }), { ok: true, control: { ...daysPerMove(3), onTimeout: 'claim' } });
  t.same(validateTimeControl({ kind: 'correspondence', daysPerMove: 3, onTimeout: 'loss' }), { ok: true, control: daysPerMove(3) });
  t.same(validateTimeControl({ kind: 'preset', name: 'bot-blitz', onTimeout: 'claim' }), { ok: true, control: { ...PRESETS['bot-blitz'], onTimeout: 'claim' } });
  t.same(validateTimeControl({ kind: 'fischer', initialMs: 60_000, incrementMs: 0, onTimeout: 'claim' }), { ok: true, control: { kind: 'fischer', initialMs: 60_000, incrementMs: 0, onTimeout: 'claim' } });
  t.same(validateTimeControl({ kind: 'correspondence', startMs: DAY, incrementMs: HOUR, capMs: DAY, onTimeout: 'claim' }), { ok: true, control: { kind: 'correspondence', startMs: DAY, incrementMs: HOUR, capMs: DAY, onTimeout: 'claim' } });
  const codes = (input: unknown) => {
    const r = validateTimeControl(input);
    return r.ok ? [] : r.problems.map((p) => `${p.field}:${p.code}`);
  };
  t.same(codes({ kind: 'correspondence', daysPerMove: 3, onTimeout: 'Claim' }), ['onTimeout:unknown-policy']);
  t.same(codes({ kind: 'correspondence', daysPerMove: 3, onTimeout: null }), ['onTimeout:wrong-type']);
  t.same(codes({ kind: 'none', onTimeout: 'claim' }), ['onTimeout:unknown-field']);
  t.same(codes({ kind: 'correspondence', daysPerMove: 99, onTimeout: 'x' }), ['daysPerMove:out-of-range', 'onTimeout:unknown-policy'], 'every problem listed');
  t.equal(timeoutPolicy(daysPerMove(3)), 'loss');
  t.equal(timeoutPolicy({ ...daysPerMove(3), onTimeout: 'claim' }), 'claim');
  t.equal(timeoutPolicy({ kind: 'none' }), 'loss');
  // The presets are shared constants: asking for claim never changes them.
  t.equal((PRESETS['days-3'] as { onTimeout?: string }).onTimeout, undefined);
});

t.test('a seat that ran out and then hands over (nobody claimed) is forgiven its overrun and no longer out of time', async (t) => {
  const c = daysPerMove(2);
  let s = start(c, ROLES, ['York'], T0);
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + HOUR);
  s = afterChange(s, c, { activeBefore: ['Lancaster'], activeAfter: ['York'], actor: 'Lancaster' }, T0 + 2 * HOUR);
  const deadline = s.seats.York!.deadline!;
  t.same(timeoutAt(s, deadline, 'claim'), { kind: 'claimable', flagged: 'York', claimants: ['Lancaster'], at: deadline });
  // A step within the turn, five hours late: still out of time (the claim stays open).
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['York'], actor: 'York' }, deadline + 5 * HOUR);
  t.equal(s.seats.York!.ranOutAt, deadline);
  t.ok(s.seats.York!.remainingMs! < 0);
  t.same(isFlagged(s, deadline + 5 * HOUR), [{ role: 'York', at: deadline }]);
  // The turn ends: days per move refill to 2 days in full, the flag is gone.
  s = afterChange(s, c, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, deadline + 6 * HOUR);
  t.same([s.seats.York!.remainingMs, s.seats.York!.ranOutAt, s.seats.York!.moves], [2 * DAY, null, 2]);
  t.equal(s.seats.York!.usedMs, deadline + 6 * HOUR - T0 - HOUR - 0, 'the time used is still charged');
  t.same(isFlagged(s, deadline + 6 * HOUR), []);
  t.equal(timeoutAt(s, deadline + 6 * HOUR, 'claim'), null);

  // Rally's start / increment / cap: from zero, the increment only. Fischer: the increment only.
  const r = PRESETS['rally-fast'];
  let u = start(r, ROLES, ['York'], T0);
  u = afterChange(u, r, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + 30 * HOUR);
  t.equal(u.seats.York!.remainingMs, r.incrementMs);
  const f = PRESETS['bot-blitz'];
  let v = start(f, ROLES, ['York'], T0);
  v = afterChange(v, f, { activeBefore: ['York'], activeAfter: ['Lancaster'], actor: 'York' }, T0 + f.initialMs + 1000);
  t.equal(v.seats.York!.remainingMs, f.incrementMs);
  t.equal(v.seats.York!.ranOutAt, null);
});

t.test('a seat that ran out and is made inactive by the other seat stays out of time (it did not move)', async (t) => {
  const c = daysPerMove(1);
  let s = start(c, ROLES, ['York', 'Lancaster'], T0);
  s = afterChange(s, c, { activeBefore: ['York', 'Lancaster'], activeAfter: ['Lancaster'], actor: 'Lancaster' }, T0 + 2 * DAY);
  t.equal(s.seats.York!.ranOutAt, T0 + DAY);
  t.same(isFlagged(s, T0 + 2 * DAY).map((f) => f.role), ['Lancaster', 'York']);
});
