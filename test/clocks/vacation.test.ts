import t from 'tap';
import { DAY, HOUR } from '../../src/clocks/controls.ts';
import { DEFAULT_VACATION, endVacation, onVacation, remainingAllowance, startVacation, usedIn, vacationEndsBy, validateVacationPolicy, type VacationAccount, type VacationResult } from '../../src/clocks/vacation.ts';

const P = DEFAULT_VACATION;
const JAN = Date.UTC(2026, 0, 10);
const ok = (r: VacationResult): VacationAccount => {
  if (!r.ok) throw new Error(r.problem.message);
  return r.account;
};
const problem = (r: VacationResult) => (r.ok ? null : r.problem.code);

t.test('uses are charged what they last, at least 24 hours', async (t) => {
  let a: VacationAccount = { uses: [] };
  t.equal(remainingAllowance(a, P, JAN), 30 * DAY);
  a = ok(startVacation(a, P, JAN));
  t.ok(onVacation(a));
  // An open vacation already costs the minimum, then what it lasts.
  t.equal(remainingAllowance(a, P, JAN + HOUR), 29 * DAY);
  t.equal(remainingAllowance(a, P, JAN + 2 * DAY), 28 * DAY);
  a = ok(endVacation(a, JAN + 2 * HOUR));
  t.equal(usedIn(a, P, 2026, JAN + 10 * DAY), DAY, 'two hours cost a day');
  a = ok(startVacation(a, P, JAN + 3 * DAY));
  a = ok(endVacation(a, JAN + 8 * DAY));
  t.equal(remainingAllowance(a, P, JAN + 9 * DAY), 24 * DAY);
  t.same(JSON.parse(JSON.stringify(a)), a);
});

t.test('refusals: typed, and nothing changes', async (t) => {
  let a: VacationAccount = { uses: [] };
  t.equal(problem(endVacation(a, JAN)), 'vacation-not-active');
  t.equal(problem(startVacation(a, P, JAN, JAN + 31 * DAY)), 'vacation-beyond-allowance');
  t.equal(problem(startVacation(a, P, JAN, JAN)), 'bad-time');
  a = ok(startVacation(a, P, JAN, JAN + 30 * DAY));
  t.equal(problem(startVacation(a, P, JAN + 1)), 'vacation-active');
  a = ok(endVacation(a, JAN + 29 * DAY + 1));
  // Less than 24 h left: no new vacation this year.
  const r = startVacation(a, P, JAN + 40 * DAY);
  t.equal(problem(r), 'vacation-allowance-exhausted');
  t.equal(a.uses.length, 1);
  t.equal(problem(startVacation(a, P, JAN + DAY)), 'bad-time', 'starting before the last vacation ended');
  // A new year, a new allowance.
  t.equal(remainingAllowance(a, P, Date.UTC(2027, 0, 1)), 30 * DAY);
  t.equal(problem(startVacation({ uses: [] }, { allowanceMs: 0, minChargeMs: DAY }, JAN)), 'vacation-allowance-exhausted', 'a league without vacation');
});

t.test('a vacation over New Year is charged to each year; it ends by itself when the allowance is spent', async (t) => {
  const dec = Date.UTC(2026, 11, 29);
  let a: VacationAccount = { uses: [{ startedAt: Date.UTC(2026, 5, 1), endedAt: Date.UTC(2026, 5, 26) }] }; // 25 days in 2026
  t.equal(remainingAllowance(a, P, dec), 5 * DAY);
  // A planned vacation of 10 days from 29 December: 3 days in 2026, 7 in 2027: fits.
  a = ok(startVacation(a, P, dec, dec + 10 * DAY));
  // Open-ended: 2026 pays for its last 3 days (it has 5 left), then 2027's 30 days: it ends on 31 January.
  t.equal(vacationEndsBy(a, P), Date.UTC(2027, 0, 31));
  a = ok(endVacation(a, dec + 10 * DAY));
  t.equal(usedIn(a, P, 2026, dec + 10 * DAY), 28 * DAY);
  t.equal(usedIn(a, P, 2027, dec + 10 * DAY), 7 * DAY);
  // 5 days left in 2026 from 1 December: ends 6 December.
  const b = ok(startVacation({ uses: [{ startedAt: Date.UTC(2026, 5, 1), endedAt: Date.UTC(2026, 5, 26) }] }, P, Date.UTC(2026, 11, 1)));
  t.equal(vacationEndsBy(b, P), Date.UTC(2026, 11, 6));
  t.equal(vacationEndsBy({ uses: [] }, P), null);
  // More than 2026 has left, planned across New Year: refused with the year named.
  const c = startVacation({ uses: [{ startedAt: Date.UTC(2026, 5, 1), endedAt: Date.UTC(2026, 5, 29) }] }, P, Date.UTC(2026, 11, 25), Date.UTC(2027, 0, 2));
  t.equal(problem(c), 'vacation-beyond-allowance');
  t.match(c.ok ? '' : c.problem.message, /2026/);
});

t.test('policy validation', async (t) => {
  t.same(validateVacationPolicy({}), { ok: true, policy: DEFAULT_VACATION });
  t.same(validateVacationPolicy({ allowanceMs: 0 }), { ok: true, policy: { allowanceMs: 0, minChargeMs: DAY } });
  const codes = (i: unknown) => { const r = validateVacationPolicy(i); return r.ok ? [] : r.problems.map((p) => `${p.field}:${p.code}`); };
  t.same(codes(null), [':wrong-type']);
  t.same(codes({ allowanceMs: -1, minChargeMs: 'x', extra: 1 }), ['extra:unknown-field', 'allowanceMs:out-of-range', 'minChargeMs:wrong-type']);
  t.same(codes({ allowanceMs: 400 * DAY }), ['allowanceMs:out-of-range']);
  t.same(codes({ allowanceMs: HOUR }), ['minChargeMs:inconsistent']);
});
