/**
 * Each seat's clock, as plain JSON stored beside the game, and how it changes when the game does.
 *
 * A seat's clock runs exactly while the seat must act (it is among the game module's
 * activeRoles) and is not paused for vacation; in a simultaneous phase (Richard III's card
 * choice) several clocks run at once. Every function takes `now` (integer ms since the epoch)
 * from the caller and returns a new state; nothing here reads the system clock.
 *
 * "Hands the turn over": a change hands the turn over for seat R when R made the change (the
 * actor), R was active before it, and after it either R is no longer active or some other seat
 * is newly active (R's action brought the opponent in: Richard III's last action of a turn
 * starts the card phase, where both seats must act, R included). Only then does R get its
 * increment (or, for days per move, its refill), and a seat that hands over but must act again
 * begins a new turn (for reminders). So:
 * - a multi-step turn (R moves several blocks, staying active, nobody new active) is one move:
 *   no increment until R's last action; farming increments by splitting a turn is impossible;
 * - in a simultaneous phase, each seat hands over when its own action makes it inactive, while
 *   the other seat's clock keeps running;
 * - a seat made inactive by someone else's action (or by the game ending on another seat's
 *   move) did not move: its clock stops, and it keeps what it had, without an increment;
 * - an undo / take-back never gives time back: time spent is charged. Herald's game modules
 *   only undo within the actor's own turn (the actor stays active), so an undo is not a
 *   handover; if one ever made the actor inactive it would count as one, like any action.
 * - a seat that hands over after its time ran out (only possible when the game's timeout policy
 *   is `claim` and nobody claimed: timeout.ts) is forgiven its overrun: it hands over from zero,
 *   so it gets the control's increment (days per move: a full refill) and is no longer out of
 *   time. Carrying the debt would flag it again at once for most controls, making the late move
 *   the opponent accepted by not claiming worthless.
 */
import { afterHandover, canPause, initialTime, type TimeControl } from './controls.ts';

export interface SeatClock {
  /**
   * Time left (ms) at `runningSince` while running, or now while stopped; null = unlimited
   * (control `none`). Below zero once the seat has overrun (see ranOutAt).
   */
  remainingMs: number | null;
  /** When the clock last started (or was last charged) while running; null while stopped. */
  runningSince: number | null;
  /** runningSince + remainingMs while running (absolute ms, what the scheduler stores); else null. */
  deadline: number | null;
  /** The seat must act now. Its clock runs unless it is paused. */
  active: boolean;
  /** On vacation: the clock stands still even while the seat must act. */
  paused: boolean;
  /** Turns this seat has begun (each time it became active): reminders are keyed by it. */
  turn: number;
  /** Time the seat had when this turn began: the base of the "share used" reminder. */
  turnBudgetMs: number | null;
  /** Handovers made (its moves): the abort rule counts them. */
  moves: number;
  /** All the time charged to this seat so far. */
  usedMs: number;
  /**
   * The instant the seat's time ran out, once it has. Under the `loss` policy the game is over
   * then; under `claim` it stays set (the seat can be claimed against) until the seat hands the
   * turn over, which clears it (see afterChange).
   */
  ranOutAt: number | null;
}

export interface ClockState {
  seats: Record<string, SeatClock>;
}

export interface Change {
  /** The active roles before the change: must be the state's (a mismatch is a bug, and throws). */
  activeBefore: readonly string[];
  /** The game module's activeRoles after the change ([] when the game is over). */
  activeAfter: readonly string[];
  /** The seat that made the change, or null when no seat did (a timeout, an administrator). */
  actor: string | null;
}

function checkNow(now: number): void {
  if (!Number.isSafeInteger(now)) throw new RangeError(`now must be an integer number of ms, got ${now}`);
}

function checkRoles(state: ClockState, roles: readonly string[], what: string): void {
  for (const r of roles) if (!Object.hasOwn(state.seats, r)) throw new RangeError(`${what}: unknown role ${JSON.stringify(r)}`);
}

/** Charges the time a running seat used up to `now`; the seat stays running from `now`. */
function charge(seat: SeatClock, now: number): SeatClock {
  if (seat.runningSince === null || seat.remainingMs === null) return seat;
  const spent = now - seat.runningSince;
  if (spent < 0) throw new RangeError(`now (${now}) is before the clock started running (${seat.runningSince})`);
  const remainingMs = seat.remainingMs - spent;
  const ranOutAt = seat.ranOutAt ?? (remainingMs <= 0 ? seat.runningSince + seat.remainingMs : null);
  return { ...seat, remainingMs, usedMs: seat.usedMs + spent, runningSince: now, ranOutAt };
}

/** Sets runningSince/deadline from `active` and `paused`, at `now` (the seat must be charged up to now). */
function settle(seat: SeatClock, now: number): SeatClock {
  const runs = seat.active && !seat.paused && seat.remainingMs !== null;
  return runs
    ? { ...seat, runningSince: now, deadline: now + seat.remainingMs! }
    : { ...seat, runningSince: null, deadline: null };
}

/** The clocks of a new game: every seat has the control's starting time; the active ones run. */
export function start(control: TimeControl, roles: readonly string[], activeRoles: readonly string[], now: number): ClockState {
  checkNow(now);
  const seats: Record<string, SeatClock> = {};
  const initial = initialTime(control);
  for (const role of roles) {
    const active = activeRoles.includes(role);
    seats[role] = settle(
      { remainingMs: initial, runningSince: null, deadline: null, active, paused: false, turn: active ? 1 : 0, turnBudgetMs: active ? initial : null, moves: 0, usedMs: 0, ranOutAt: null },
      now,
    );
  }
  const state = { seats };
  checkRoles(state, activeRoles, 'start');
  return state;
}

/**
 * The clocks after a change to the game at `now`: every running seat is charged the time since
 * it last started, the actor gets its increment if the change handed the turn over (see the
 * top of this file), seats that must act now run (unless paused) and the others stop.
 */
export function afterChange(state: ClockState, control: TimeControl, change: Change, now: number): ClockState {
  checkNow(now);
  checkRoles(state, change.activeAfter, 'activeAfter');
  const before = Object.keys(state.seats).filter((r) => state.seats[r]!.active);
  if (before.length !== new Set(change.activeBefore).size || !change.activeBefore.every((r) => before.includes(r))) {
    throw new RangeError(`activeBefore (${change.activeBefore.join(', ')}) is not the clocks' (${before.join(', ')})`);
  }
  if (change.actor !== null) checkRoles(state, [change.actor], 'actor');
  const newcomer = change.activeAfter.some((r) => !state.seats[r]!.active);
  const seats: Record<string, SeatClock> = {};
  for (const [role, old] of Object.entries(state.seats)) {
    let seat = charge(old, now);
    const activeAfter = change.activeAfter.includes(role);
    const handsOver = role === change.actor && seat.active && (!activeAfter || newcomer);
    if (handsOver) {
      const from = seat.ranOutAt !== null ? 0 : seat.remainingMs;
      seat = { ...seat, moves: seat.moves + 1, remainingMs: from === null ? null : afterHandover(control, from), ranOutAt: null };
    }
    // A new turn: the seat was not active, or it handed over and must act again.
    if (activeAfter && (!seat.active || handsOver)) seat = { ...seat, turn: seat.turn + 1, turnBudgetMs: seat.remainingMs };
    seats[role] = settle({ ...seat, active: activeAfter }, now);
  }
  return { seats };
}

/**
 * Stops a seat's clock for vacation (correspondence only: throws for other controls, which the
 * caller must not pause). The seat keeps its place in the game: if it must act it still must,
 * but its time stands still. Pausing a paused seat changes nothing.
 */
export function pause(state: ClockState, control: TimeControl, role: string, now: number): ClockState {
  checkNow(now);
  checkRoles(state, [role], 'pause');
  if (!canPause(control)) throw new RangeError(`a ${control.kind} clock cannot be paused`);
  const seat = state.seats[role]!;
  if (seat.paused) return state;
  return { seats: { ...state.seats, [role]: settle({ ...charge(seat, now), paused: true }, now) } };
}

/** Ends a seat's pause: if it must act, its clock runs again from `now` with what it had left. */
export function resume(state: ClockState, control: TimeControl, role: string, now: number): ClockState {
  checkNow(now);
  checkRoles(state, [role], 'resume');
  if (!canPause(control)) throw new RangeError(`a ${control.kind} clock cannot be paused`);
  const seat = state.seats[role]!;
  if (!seat.paused) return state;
  return { seats: { ...state.seats, [role]: settle({ ...seat, paused: false }, now) } };
}

/** Time a seat has left at `now` (never below 0); null = unlimited. */
export function remaining(state: ClockState, role: string, now: number): number | null {
  checkNow(now);
  checkRoles(state, [role], 'remaining');
  const seat = state.seats[role]!;
  if (seat.remainingMs === null) return null;
  const left = seat.runningSince === null ? seat.remainingMs : seat.remainingMs - (now - seat.runningSince);
  return Math.max(0, left);
}

export interface SeatDeadline {
  role: string;
  deadline: number;
}

/** The running seats' deadlines, earliest first (ties by role), and the earliest one (null: no clock runs). */
export function deadlines(state: ClockState): { earliest: SeatDeadline | null; seats: SeatDeadline[] } {
  const seats = Object.entries(state.seats)
    .filter(([, s]) => s.deadline !== null)
    .map(([role, s]) => ({ role, deadline: s.deadline! }))
    .sort((a, b) => a.deadline - b.deadline || (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
  return { earliest: seats[0] ?? null, seats };
}

export interface Flag {
  role: string;
  /** When the seat's time ran out. */
  at: number;
}

/** The seats whose time has run out by `now`, earliest first ([] = nobody). */
export function isFlagged(state: ClockState, now: number): Flag[] {
  checkNow(now);
  const out: Flag[] = [];
  for (const [role, s] of Object.entries(state.seats)) {
    if (s.ranOutAt !== null) out.push({ role, at: s.ranOutAt });
    else if (s.deadline !== null && s.deadline <= now) out.push({ role, at: s.deadline });
  }
  return out.sort((a, b) => a.at - b.at || (a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
}
