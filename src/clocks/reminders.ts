/**
 * Reminders for a seat whose correspondence clock runs: one when it has used a share of the time
 * it had for this turn (default 80%, Lichess's alarm), one when little is left (24 hours, or 10%
 * of the turn's time when the seat had under 2 days for it, so a 1-day turn is not reminded at
 * its very start). Each has a key, `${role}:${turn}:${kind}`, so a scheduler fires each exactly
 * once per turn: a pause moves a reminder's instant with the deadline but keeps its key.
 *
 * Live (fischer) games and games without a clock get no reminders; neither do stopped clocks
 * (not the seat's turn, or on vacation).
 */
import { DAY, type TimeControl } from './controls.ts';
import type { ClockState } from './clock.ts';

export interface ReminderOptions {
  /** Share of the turn's time used at which the first reminder goes out, in (0, 1). Default 0.8. */
  shareUsed?: number;
  /** Time left at which the second reminder goes out. Default 24 h. */
  lowMs?: number;
  /** A turn with less time than this is short: its low-time reminder comes at `shortShareLeft` of it. Default 2 days. */
  shortBelowMs?: number;
  /** Share of a short turn's time left at the low-time reminder, in (0, 1). Default 0.1. */
  shortShareLeft?: number;
}

export const DEFAULT_REMINDERS: Required<ReminderOptions> = { shareUsed: 0.8, lowMs: DAY, shortBelowMs: 2 * DAY, shortShareLeft: 0.1 };

export type ReminderKind = 'share-used' | 'low-time';

export interface Reminder {
  /** `${role}:${turn}:${kind}`: unique per seat, turn and kind. */
  key: string;
  role: string;
  turn: number;
  kind: ReminderKind;
  /** When it is due (absolute ms): the seat's deadline less `leftMs`. */
  at: number;
  /** Time the seat has left when it is due. */
  leftMs: number;
}

function options(o: ReminderOptions): Required<ReminderOptions> {
  const r = { ...DEFAULT_REMINDERS, ...o };
  const share = (v: number, name: string) => {
    if (!(v > 0 && v < 1)) throw new RangeError(`${name} must be between 0 and 1 (exclusive), got ${v}`);
  };
  share(r.shareUsed, 'shareUsed');
  share(r.shortShareLeft, 'shortShareLeft');
  for (const k of ['lowMs', 'shortBelowMs'] as const) {
    if (!Number.isSafeInteger(r[k]) || r[k] <= 0) throw new RangeError(`${k} must be a positive integer (ms), got ${r[k]}`);
  }
  return r;
}

/** The options with their defaults filled in; a RangeError for a share outside (0, 1) or a non-positive time. */
export function reminderOptions(o: ReminderOptions = {}): Required<ReminderOptions> {
  return options(o);
}

/** The reminders of a seat's current turn, earliest first ([] when its clock is not running). */
export function reminderTimes(state: ClockState, control: TimeControl, role: string, opts: ReminderOptions = {}): Reminder[] {
  const o = options(opts);
  const seat = state.seats[role];
  if (!seat) throw new RangeError(`unknown role ${JSON.stringify(role)}`);
  if (control.kind !== 'correspondence' || seat.deadline === null || seat.turnBudgetMs === null) return [];
  const budget = seat.turnBudgetMs;
  const shareLeft = Math.round(budget * (1 - o.shareUsed));
  const lowLeft = budget < o.shortBelowMs ? Math.round(budget * o.shortShareLeft) : o.lowMs;
  const make = (kind: ReminderKind, leftMs: number): Reminder => ({ key: `${role}:${seat.turn}:${kind}`, role, turn: seat.turn, kind, at: seat.deadline! - leftMs, leftMs });
  const out = [make('share-used', shareLeft)];
  // Two reminders at one instant would be one message twice: keep the low-time one.
  if (lowLeft === shareLeft) out.length = 0;
  out.push(make('low-time', lowLeft));
  // Only what falls inside the turn (both do for any valid options: each leaves less than the budget).
  return out.filter((r) => r.leftMs > 0 && r.leftMs < budget).sort((a, b) => a.at - b.at);
}

/**
 * The reminders due in (since, until] that are not in `sent`, earliest first, over every seat.
 * A seat whose deadline has passed by `until` gets none: its timeout says it all.
 */
export function remindersDue(state: ClockState, control: TimeControl, since: number, until: number, sent: ReadonlySet<string>, opts: ReminderOptions = {}): Reminder[] {
  if (!Number.isSafeInteger(since) || !Number.isSafeInteger(until) || until < since) throw new RangeError(`bad interval (${since}, ${until}]`);
  const out: Reminder[] = [];
  for (const role of Object.keys(state.seats)) {
    const deadline = state.seats[role]!.deadline;
    if (deadline === null || deadline <= until) continue;
    for (const r of reminderTimes(state, control, role, opts)) if (r.at > since && r.at <= until && !sent.has(r.key)) out.push(r);
  }
  return out.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
}

/**
 * The earliest reminder instant over every seat (the least `at` of reminderTimes for each role),
 * or null when no clock runs: what games.remind_at stores after a handover. Computed without the
 * Reminder objects, keys and sorting, since the write path needs only the instant.
 */
export function firstReminderAt(state: ClockState, control: TimeControl, opts: ReminderOptions = {}): number | null {
  if (control.kind !== 'correspondence') return null;
  const o = options(opts);
  let at: number | null = null;
  for (const role in state.seats) {
    const seat = state.seats[role]!;
    if (seat.deadline === null || seat.turnBudgetMs === null) continue;
    const budget = seat.turnBudgetMs;
    const shareLeft = Math.round(budget * (1 - o.shareUsed));
    const lowLeft = budget < o.shortBelowMs ? Math.round(budget * o.shortShareLeft) : o.lowMs;
    // As in reminderTimes: share-used only when it does not coincide with low-time; each only inside the turn.
    // The earliest is the one leaving the most time.
    let left = lowLeft > 0 && lowLeft < budget ? lowLeft : -1;
    if (shareLeft !== lowLeft && shareLeft > 0 && shareLeft < budget && shareLeft > left) left = shareLeft;
    if (left > 0 && (at === null || seat.deadline - left < at)) at = seat.deadline - left;
  }
  return at;
}
