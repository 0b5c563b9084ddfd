/**
 * Seeded random vacation histories over several years: a player who starts vacations whenever
 * the account allows and ends them at random (or when vacationEndsBy says) never spends more than
 * a year's allowance in any year, and each use costs what it lasted, at least the minimum.
 */
import t from 'tap';
import { seedRng, randomInt } from '../../src/engine/rng.ts';
import { DAY, HOUR } from '../../src/clocks/controls.ts';
import { endVacation, onVacation, remainingAllowance, startVacation, usedIn, vacationEndsBy, type VacationAccount, type VacationPolicy } from '../../src/clocks/vacation.ts';

const POLICIES: VacationPolicy[] = [{ allowanceMs: 30 * DAY, minChargeMs: DAY }, { allowanceMs: 10 * DAY, minChargeMs: 0 }, { allowanceMs: 3 * DAY, minChargeMs: 2 * DAY }];

t.test('random vacation histories', async (t) => {
  const failures: string[] = [];
  let uses = 0;
  let refused = 0;
  let autoEnded = 0;
  for (let run = 0; run < 200; run++) {
    const rng = seedRng(`vacation-${run}`);
    const policy = POLICIES[run % POLICIES.length]!;
    // randomInt takes n below 2^32: whole days, then milliseconds.
    let now = Date.UTC(2025, 0, 1) + randomInt(rng, 365) * DAY + randomInt(rng, DAY);
    const end = now + 3 * 365 * DAY;
    let a: VacationAccount = { uses: [] };
    while (now < end) {
      now += randomInt(rng, 20 * DAY);
      if (!onVacation(a)) {
        const r = startVacation(a, policy, now);
        if (!r.ok) {
          refused++;
          if (remainingAllowance(a, policy, now) >= policy.minChargeMs && policy.minChargeMs > 0) failures.push(`refused with ${remainingAllowance(a, policy, now)} left`);
          continue;
        }
        a = r.account;
      } else {
        // End it by hand, or by itself when the allowance is spent (whichever comes first).
        const by = vacationEndsBy(a, policy)!;
        if (by <= now) autoEnded++;
        const r = endVacation(a, Math.min(now, by));
        if (!r.ok) {
          failures.push(r.problem.message);
          break;
        }
        a = r.account;
        now = Math.min(now, by);
        uses++;
      }
    }
    if (onVacation(a)) a = (endVacation(a, Math.min(now, vacationEndsBy(a, policy)!)) as { ok: true; account: VacationAccount }).account;
    const last = a.uses[a.uses.length - 1]?.endedAt ?? now;
    let charged = 0;
    for (let y = 2024; y <= 2029; y++) {
      const used = usedIn(a, policy, y, last);
      if (used > policy.allowanceMs) failures.push(`run ${run}: ${used / HOUR} h used in ${y}`);
      charged += used;
    }
    const expected = a.uses.reduce((s, u) => s + Math.max(u.endedAt! - u.startedAt, policy.minChargeMs), 0);
    if (charged !== expected) failures.push(`run ${run}: charged ${charged}, uses cost ${expected}`);
  }
  t.same(failures.slice(0, 10), [], `${failures.length} failures`);
  t.ok(uses > 1000 && refused > 100 && autoEnded > 50, `${uses} uses, ${refused} refusals, ${autoEnded} ended by the allowance`);
});
