/**
 * A player's vacation allowance: while on vacation all their correspondence clocks are paused
 * (clock.ts pause/resume; live fischer games go on).
 *
 * Decisions:
 * - The allowance is per calendar year (UTC), not a rolling 365 days: it is simple to show
 *   ("12 days left this year") and to explain, and it renews on a known date. A vacation that
 *   spans New Year is charged to each year for its part in it.
 * - Each use costs at least `minChargeMs` (default 24 h, as chess.com does): otherwise pausing
 *   for a few minutes now and then would stop a clock for free. The extra of a short use is
 *   charged to the year it started in. A vacation can only start if at least that much is left.
 * - A vacation with no end given runs until ended, but never beyond the allowance:
 *   vacationEndsBy() is the instant it ends by itself (a scheduler ends it then and the clocks
 *   run again). A planned end beyond the allowance is refused.
 * - The account keeps every use (start, end): what is charged is always recomputed from them,
 *   so changing the policy (a league's smaller allowance) applies to the record as it is.
 */
import { DAY, HOUR } from './controls.ts';

export interface VacationPolicy {
  /** Per calendar year (UTC). Default 30 days; 0 = no vacation. */
  allowanceMs: number;
  /** The least a use costs. Default 24 h. */
  minChargeMs: number;
}

export const DEFAULT_VACATION: VacationPolicy = { allowanceMs: 30 * DAY, minChargeMs: 24 * HOUR };
/** A yearly allowance above this is absurd (and would let a vacation never end). */
export const MAX_ALLOWANCE_MS = 180 * DAY;

export interface VacationUse {
  startedAt: number;
  /** null while on vacation. */
  endedAt: number | null;
}

/** A player's uses, oldest first; only the last may be open. Plain JSON. */
export interface VacationAccount {
  uses: VacationUse[];
}

export type VacationProblemCode = 'vacation-active' | 'vacation-not-active' | 'vacation-allowance-exhausted' | 'vacation-beyond-allowance' | 'bad-time' | 'wrong-type' | 'missing' | 'unknown-field' | 'out-of-range' | 'inconsistent';

export interface VacationProblem {
  code: VacationProblemCode;
  /** The field the problem is about, if one is ('' for the request as a whole). */
  field: string;
  message: string;
}

export type VacationResult = { ok: true; account: VacationAccount } | { ok: false; problem: VacationProblem };

const yearOf = (t: number) => new Date(t).getUTCFullYear();
const startOfYear = (y: number) => Date.UTC(y, 0, 1);

function checkTime(t: number, what: string): void {
  if (!Number.isSafeInteger(t)) throw new RangeError(`${what} must be an integer number of ms, got ${t}`);
}

/** The account's open use, if the player is on vacation. */
export function openUse(account: VacationAccount): VacationUse | null {
  const last = account.uses[account.uses.length - 1];
  return last && last.endedAt === null ? last : null;
}

export function onVacation(account: VacationAccount): boolean {
  return openUse(account) !== null;
}

/** What one use (an open one up to `now`) costs each year it touches. */
function charges(use: VacationUse, policy: VacationPolicy, now: number): Map<number, number> {
  const end = use.endedAt ?? Math.max(now, use.startedAt);
  const out = new Map<number, number>();
  for (let t = use.startedAt; t < end; ) {
    const y = yearOf(t);
    const next = Math.min(end, startOfYear(y + 1));
    out.set(y, (out.get(y) ?? 0) + next - t);
    t = next;
  }
  const short = policy.minChargeMs - (end - use.startedAt);
  if (short > 0) out.set(yearOf(use.startedAt), (out.get(yearOf(use.startedAt)) ?? 0) + short);
  return out;
}

/** Allowance charged to calendar year `year` by `now` (an open use counts up to now, at least the minimum). */
export function usedIn(account: VacationAccount, policy: VacationPolicy, year: number, now: number): number {
  checkTime(now, 'now');
  let used = 0;
  for (const u of account.uses) used += charges(u, policy, now).get(year) ?? 0;
  return used;
}

/** Allowance left in the calendar year of `now` (never below 0). */
export function remainingAllowance(account: VacationAccount, policy: VacationPolicy, now: number): number {
  return Math.max(0, policy.allowanceMs - usedIn(account, policy, yearOf(now), now));
}

/**
 * Starts a vacation at `now`, optionally planned to end at `until`. Refused (typed problem,
 * account unchanged) when already on vacation, when less than the minimum charge is left, or
 * when the planned vacation does not fit each year's allowance it touches.
 */
export function startVacation(account: VacationAccount, policy: VacationPolicy, now: number, until?: number): VacationResult {
  checkTime(now, 'now');
  if (onVacation(account)) return { ok: false, problem: { code: 'vacation-active', field: '', message: 'already on vacation' } };
  const last = account.uses[account.uses.length - 1];
  if (last && last.endedAt! > now) return { ok: false, problem: { code: 'bad-time', field: '', message: 'now is before the end of the last vacation' } };
  const left = remainingAllowance(account, policy, now);
  if (left < policy.minChargeMs || left === 0) {
    return { ok: false, problem: { code: 'vacation-allowance-exhausted', field: '', message: `${Math.floor(left / HOUR)} h of vacation left this year; a vacation costs at least ${policy.minChargeMs / HOUR} h` } };
  }
  if (until !== undefined) {
    if (!Number.isSafeInteger(until) || until <= now) return { ok: false, problem: { code: 'bad-time', field: 'until', message: 'until must be a time after now' } };
    const planned = charges({ startedAt: now, endedAt: until }, policy, now);
    for (const [y, ms] of planned) {
      if (usedIn(account, policy, y, now) + ms > policy.allowanceMs) {
        return { ok: false, problem: { code: 'vacation-beyond-allowance', field: 'until', message: `the vacation needs ${Math.ceil(ms / HOUR)} h of ${y}'s allowance, which has ${Math.floor((policy.allowanceMs - usedIn(account, policy, y, now)) / HOUR)} h left` } };
      }
    }
  }
  return { ok: true, account: { uses: [...account.uses, { startedAt: now, endedAt: null }] } };
}

/** Ends the open vacation at `now` (a use shorter than the minimum is still charged the minimum). */
export function endVacation(account: VacationAccount, now: number): VacationResult {
  checkTime(now, 'now');
  const open = openUse(account);
  if (!open) return { ok: false, problem: { code: 'vacation-not-active', field: '', message: 'not on vacation' } };
  if (now < open.startedAt) return { ok: false, problem: { code: 'bad-time', field: '', message: 'now is before the vacation started' } };
  return { ok: true, account: { uses: [...account.uses.slice(0, -1), { startedAt: open.startedAt, endedAt: now }] } };
}

/**
 * When the open vacation ends by itself because the allowance runs out (null: not on vacation).
 * Past New Year the new year's allowance goes on paying for it.
 */
export function vacationEndsBy(account: VacationAccount, policy: VacationPolicy): number | null {
  const open = openUse(account);
  if (!open) return null;
  const closed: VacationAccount = { uses: account.uses.slice(0, -1) };
  let t = open.startedAt;
  for (;;) {
    const y = yearOf(t);
    // The open use charges each year exactly the time spent in it (the minimum is below what is left at start).
    const left = policy.allowanceMs - usedIn(closed, policy, y, t);
    const end = t + Math.max(0, left);
    if (end < startOfYear(y + 1)) return end;
    t = startOfYear(y + 1);
  }
}

/** Checks a vacation policy (server or league configuration), listing every problem. */
export function validateVacationPolicy(input: unknown): { ok: true; policy: VacationPolicy } | { ok: false; problems: VacationProblem[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, problems: [{ code: 'wrong-type', field: '', message: 'a vacation policy is an object' }] };
  const o = input as Record<string, unknown>;
  const problems: VacationProblem[] = [];
  for (const k of Object.keys(o)) if (k !== 'allowanceMs' && k !== 'minChargeMs') problems.push({ code: 'unknown-field', field: k, message: `${k} is not a field of a vacation policy` });
  const field = (k: 'allowanceMs' | 'minChargeMs', max: number): number => {
    const v = o[k];
    if (v === undefined) return DEFAULT_VACATION[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) problems.push({ code: 'wrong-type', field: k, message: `${k} must be an integer number of ms` });
    else if (v < 0 || v > max) problems.push({ code: 'out-of-range', field: k, message: `${k} must be from 0 to ${max}, got ${v}` });
    else return v;
    return -1;
  };
  const allowanceMs = field('allowanceMs', MAX_ALLOWANCE_MS);
  const minChargeMs = field('minChargeMs', 7 * DAY);
  if (problems.length > 0) return { ok: false, problems };
  if (allowanceMs > 0 && minChargeMs > allowanceMs) return { ok: false, problems: [{ code: 'inconsistent', field: 'minChargeMs', message: 'minChargeMs must not exceed allowanceMs' }] };
  return { ok: true, policy: { allowanceMs, minChargeMs } };
}
