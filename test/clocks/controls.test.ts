import t from 'tap';
import { DAY, HOUR, MINUTE, PRESETS, afterHandover, daysPerMove, initialTime, validateTimeControl, type ControlProblem } from '../../src/clocks/controls.ts';

const problems = (input: unknown): ControlProblem[] => {
  const r = validateTimeControl(input);
  return r.ok ? [] : r.problems;
};
const codes = (input: unknown) => problems(input).map((p) => `${p.field}:${p.code}`);

t.test('canonical forms, days per move and presets', async (t) => {
  t.same(validateTimeControl({ kind: 'none' }), { ok: true, control: { kind: 'none' } });
  t.same(validateTimeControl({ kind: 'correspondence', daysPerMove: 3 }), { ok: true, control: { kind: 'correspondence', startMs: 3 * DAY, incrementMs: 3 * DAY, capMs: 3 * DAY } });
  t.same(validateTimeControl({ kind: 'correspondence', startMs: DAY, incrementMs: 4 * HOUR, capMs: 3 * DAY }), { ok: true, control: { kind: 'correspondence', startMs: DAY, incrementMs: 4 * HOUR, capMs: 3 * DAY } });
  t.same(validateTimeControl({ kind: 'fischer', initialMs: 5 * MINUTE, incrementMs: 0 }), { ok: true, control: { kind: 'fischer', initialMs: 5 * MINUTE, incrementMs: 0 } });
  t.same(validateTimeControl({ kind: 'preset', name: 'rally-fast' }), { ok: true, control: { kind: 'correspondence', startMs: 24 * HOUR, incrementMs: 4 * HOUR, capMs: 72 * HOUR } });
  t.same(PRESETS['rally-normal'], { kind: 'correspondence', startMs: 72 * HOUR, incrementMs: 12 * HOUR, capMs: 120 * HOUR });
  t.same(PRESETS['rally-slow'], { kind: 'correspondence', startMs: 72 * HOUR, incrementMs: 36 * HOUR, capMs: 240 * HOUR });
  // Every preset passes its own validator.
  for (const [name, c] of Object.entries(PRESETS)) t.same(validateTimeControl(c), { ok: true, control: c }, name);
  // The result is a copy: changing it does not change the preset.
  const r = validateTimeControl({ kind: 'preset', name: 'days-1' });
  if (r.ok && r.control.kind === 'correspondence') r.control.capMs = 1;
  t.equal(PRESETS['days-1'].capMs, DAY);
});

t.test('bad input: every problem, with its field', async (t) => {
  t.same(codes(null), [':wrong-type']);
  t.same(codes([]), [':wrong-type']);
  t.same(codes({}), ['kind:missing']);
  t.same(codes({ kind: 3 }), ['kind:wrong-type']);
  t.same(codes({ kind: 'blitz' }), ['kind:unknown-kind']);
  t.same(codes({ kind: 'none', days: 3 }), ['days:unknown-field']);
  t.same(codes({ kind: 'correspondence', daysPerMove: 0 }), ['daysPerMove:out-of-range']);
  t.same(codes({ kind: 'correspondence', daysPerMove: 15 }), ['daysPerMove:out-of-range']);
  t.same(codes({ kind: 'correspondence', daysPerMove: 2.5 }), ['daysPerMove:wrong-type']);
  t.same(codes({ kind: 'correspondence', daysPerMove: '3' }), ['daysPerMove:wrong-type']);
  t.same(codes({ kind: 'correspondence', daysPerMove: 3, capMs: DAY }), ['capMs:unknown-field']);
  t.same(codes({ kind: 'correspondence' }), ['startMs:missing', 'incrementMs:missing', 'capMs:missing']);
  t.same(codes({ kind: 'correspondence', startMs: -1, incrementMs: -5, capMs: Infinity }), ['startMs:out-of-range', 'incrementMs:out-of-range', 'capMs:wrong-type']);
  t.same(codes({ kind: 'correspondence', startMs: 1e15, incrementMs: 0, capMs: 1e15 }), ['startMs:out-of-range', 'capMs:out-of-range']);
  t.same(codes({ kind: 'correspondence', startMs: 3 * DAY, incrementMs: 0, capMs: DAY }), ['capMs:inconsistent']);
  t.same(codes({ kind: 'correspondence', startMs: DAY, incrementMs: 2 * DAY, capMs: DAY }), ['incrementMs:inconsistent']);
  t.same(codes({ kind: 'correspondence', startMs: MINUTE, incrementMs: 0, capMs: DAY }), ['startMs:out-of-range']);
  t.same(codes({ kind: 'fischer', initialMs: 0, incrementMs: 2 * HOUR }), ['initialMs:out-of-range', 'incrementMs:out-of-range']);
  t.same(codes({ kind: 'fischer', initialMs: NaN, incrementMs: null }), ['initialMs:wrong-type', 'incrementMs:wrong-type']);
  t.same(codes({ kind: 'preset' }), ['name:missing']);
  t.same(codes({ kind: 'preset', name: 'toString' }), ['name:unknown-preset']);
  for (const p of problems({ kind: 'fischer', initialMs: -1, incrementMs: 0 })) t.match(p.message, /initialMs/);
});

t.test('starting time and what a handover adds', async (t) => {
  t.equal(initialTime({ kind: 'none' }), null);
  t.equal(initialTime(PRESETS['rally-fast']), DAY);
  t.equal(initialTime(PRESETS['bot-blitz']), 5 * MINUTE);
  // Days per move: any handover refills to the full period.
  t.equal(afterHandover(daysPerMove(3), 1), 3 * DAY);
  t.equal(afterHandover(daysPerMove(3), 3 * DAY), 3 * DAY);
  // Start / increment / cap.
  t.equal(afterHandover(PRESETS['rally-fast'], 10 * HOUR), 14 * HOUR);
  t.equal(afterHandover(PRESETS['rally-fast'], 70 * HOUR), 72 * HOUR);
  // Fischer: no cap.
  t.equal(afterHandover(PRESETS['bot-blitz'], 10 * MINUTE), 10 * MINUTE + 3000);
});
