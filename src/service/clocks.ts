// Clocks on the write path (issue 15): the stored clock fields of a change, the deadline check
// of a move, the timeout that ends a game, and the clock part of a summary. The arithmetic is
// the pure core's (src/clocks/); this file only decides when to call it. A game without a time
// control (time_control null) costs one null check per change.
import type { Prisma } from '../generated/prisma/client.ts';
import type { Json } from '../bus/bus.ts';
import { afterChange, isFlagged, reminderTimes, remindersDue, remaining, start, timeoutAt, validateTimeControl, type ClockState, type Reminder, type ReminderOptions, type TimeControl } from '../clocks/index.ts';
import { findGame, type GameRow } from '../store/games.ts';
import { playerChannel, type GameClock, type GameStatus, type ReminderEvent } from './api.ts';
import { mutate } from './commit.ts';
import { isOver, moduleOf, orderSeats, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';

/**
 * A submitted time control in its canonical form; null for none (omitted, null or kind none).
 * Anything else wrong is a 422 invalid_time_control listing every problem.
 */
export function parseTimeControl(input: unknown, field = 'timeControl'): TimeControl | null {
  if (input === undefined || input === null) return null;
  const r = validateTimeControl(input);
  if (!r.ok) {
    throw new ServiceError('invalid_time_control', `${field} is not a valid time control: ${r.problems.map((p) => p.message).join('; ')}.`, {
      field,
      problems: r.problems.map((p) => ({ code: p.code, field: p.field, message: p.message })),
    });
  }
  return r.control.kind === 'none' ? null : r.control;
}

/** The stored clock fields of a change (the Change.game part), or {} when the clocks do not change. */
export interface ClockFields {
  clocks?: Prisma.InputJsonValue | null;
  deadlineAt?: Date | null;
  /** The earliest reminder time of the running clocks (the reminder sweep's index). */
  remindAt?: Date | null;
}

/**
 * `now`, but never before a running clock's start: instances' system clocks differ by a few
 * milliseconds, and the pure core refuses time running backwards.
 */
function notBefore(state: ClockState, now: number): number {
  let t = now;
  for (const s of Object.values(state.seats)) if (s.runningSince !== null && s.runningSince > t) t = s.runningSince;
  return t;
}

function fields(state: ClockState, control: TimeControl, opts: ReminderOptions | undefined): ClockFields {
  // deadlines(state).earliest without its sorted list: this runs on every action of a clocked game.
  let earliest: number | null = null;
  for (const s of Object.values(state.seats)) if (s.deadline !== null && (earliest === null || s.deadline < earliest)) earliest = s.deadline;
  const remind = earliest === null ? null : earliestReminder(state, control, opts, () => true);
  return { clocks: state as unknown as Prisma.InputJsonValue, deadlineAt: earliest === null ? null : new Date(earliest), remindAt: remind === null ? null : new Date(remind) };
}

/** The first reminder time of freshly started clocks (a league round's games), for games.remind_at. */
export function firstReminder(state: ClockState, control: TimeControl, opts: ReminderOptions | undefined): Date | null {
  const at = earliestReminder(state, control, opts, () => true);
  return at === null ? null : new Date(at);
}

/**
 * The earliest reminder time among the running seats' reminders that `pending` keeps; null for none.
 * On a clock change every reminder of the new state counts, sent or not (the write path does not
 * read reminders_sent): a seat whose turn went on gets its sent reminder's time again, and the
 * sweep then finds nothing due and moves remind_at on — one extra look, never a missed reminder.
 */
function earliestReminder(state: ClockState, control: TimeControl, opts: ReminderOptions | undefined, pending: (r: Reminder) => boolean): number | null {
  if (control.kind !== 'correspondence') return null;
  let at: number | null = null;
  for (const role of Object.keys(state.seats)) {
    for (const r of reminderTimes(state, control, role, opts)) if (pending(r) && (at === null || r.at < at)) at = r.at;
  }
  return at;
}

/**
 * The clocks after `game` changes to `next` (status, active roles) at `now`, `actor` being the
 * seat that acted (null for lifecycle steps and timeouts): started at the start, charged and
 * handed over on every change of an active game, all stopped when it ends (deadline null).
 */
export function clockChange(ctx: Ctx, game: GameRow, next: { status: GameStatus; activeRoles: string[] }, actor: string | null, now: number): ClockFields {
  if (game.timeControl === null) return {};
  const control = game.timeControl as unknown as TimeControl;
  if (game.status !== 'active') {
    if (next.status !== 'active') return {};
    return fields(start(control, moduleOf(ctx, game.gameType).roles, next.activeRoles, now), control, ctx.reminders);
  }
  if (game.clocks === null) return {};
  const state = game.clocks as unknown as ClockState;
  const activeAfter = isOver(next.status) ? [] : next.activeRoles;
  const sameRoles = activeAfter.length === game.activeRoles.length && activeAfter.every((r) => game.activeRoles.includes(r));
  // Nothing to charge or hand over when the same seats still must act and none of them acted.
  if (sameRoles && actor === null) return {};
  return fields(afterChange(state, control, { activeBefore: game.activeRoles, activeAfter, actor }, notBefore(state, now)), control, ctx.reminders);
}

/** The seats of `game` whose time has run out at `now` ([] without a clock or when not active). */
export function flaggedAt(game: GameRow, now: number): string[] {
  if (game.status !== 'active' || game.clocks === null || game.timeControl === null) return [];
  // The stored earliest deadline answers the common case (nobody out of time) without the clocks.
  if (game.deadlineAt === null || game.deadlineAt.getTime() > now) return [];
  const state = game.clocks as unknown as ClockState;
  return isFlagged(state, notBefore(state, now)).map((f) => f.role);
}

class NoTimeout extends Error {}

/**
 * Ends the game by timeout if a seat's time has run out at ctx.now(); true when this call ended
 * it. Through mutate(): the commit's version check makes it exactly once (a racing move or
 * another instance's timeout commits first, and this call re-decides and finds nothing to do).
 * The seat that ran out loses; when some seat has not moved yet the game is abandoned (unrated).
 */
export async function fireTimeout(ctx: Ctx, gameId: string): Promise<boolean> {
  const load = async (id: string): Promise<GameRow> => {
    const g = await findGame(ctx.sql, id);
    if (!g) throw new NoTimeout();
    return orderSeats(ctx, g);
  };
  try {
    await mutate(ctx, null, gameId, (game, now) => {
      if (game.status !== 'active' || game.clocks === null || game.timeControl === null) throw new NoTimeout();
      const state = game.clocks as unknown as ClockState;
      const outcome = timeoutAt(state, notBefore(state, now), 'loss');
      if (outcome === null || outcome.kind === 'claimable') throw new NoTimeout();
      const loser = outcome.kind === 'loss' ? outcome.loser : outcome.kind === 'aborted' ? outcome.flagged : outcome.flagged[0]!;
      if (outcome.kind === 'aborted') {
        return {
          game: { status: 'abandoned', activeRoles: [], result: { winner: null, reason: 'timeout' } },
          entries: [{ kind: 'timeout', role: loser, playerId: null, status: 'abandoned', activeRoles: [] }],
        };
      }
      const winner = outcome.kind === 'loss' && outcome.winners.length === 1 ? outcome.winners[0]! : null;
      return {
        game: { status: 'finished', activeRoles: [], result: { winner, reason: 'timeout' } },
        entries: [{ kind: 'timeout', role: loser, playerId: null, status: 'finished', activeRoles: [] }],
      };
    }, load);
    return true;
  } catch (err) {
    if (err instanceof NoTimeout) return false;
    throw err;
  }
}

/** How many due games one sweep takes at most (the rest wait for the next run, a few seconds later). */
const SWEEP_BATCH = 200;

/**
 * Fires every timeout due at ctx.now() (jobs/clock-sweep.ts); how many games this call ended.
 * Another instance sweeping the same games at once ends each of them once in all.
 */
export async function sweepTimeouts(ctx: Ctx): Promise<number> {
  const { rows } = await ctx.sql.query<{ id: string }>({
    name: 'herald-due-timeouts',
    text: `SELECT id::text AS id FROM games WHERE status = 'active' AND deadline_at <= $1::timestamptz ORDER BY deadline_at LIMIT ${SWEEP_BATCH}`,
    values: [new Date(ctx.now())],
  });
  let fired = 0;
  for (const r of rows) {
    try {
      if (await fireTimeout(ctx, r.id)) fired++;
    } catch (err) {
      // One game's failure (a conflict storm, a settlement error) does not hold up the others.
      ctx.log.warn({ err: String(err), gameId: r.id }, 'a timeout could not be fired; the next sweep tries again');
    }
  }
  return fired;
}

/** What the reminder sweep reads of a game: its clocks, who holds each seat, what was sent. */
interface ReminderRow {
  version: number;
  clock_rev: number;
  clocks: ClockState;
  time_control: TimeControl;
  reminders_sent: string[];
  players: Record<string, string | null>;
}

/**
 * Sends the reminders of one game that are due at `now`; how many this call sent.
 *
 * Exactly once: each reminder's key is claimed by a conditional UPDATE of reminders_sent (not
 * already there, and the game still at the version and clock revision the reminders were
 * computed from: a move in between began a new turn, whose reminders are its own; a vacation
 * pause in between stopped the clock) and published only after that committed.
 * Two instances racing: Postgres serialises the two updates on the row, the second one finds the
 * key present and sends nothing. The claim neither bumps the version nor writes a log entry: a
 * reminder is a notice, not a game change; nor the clock revision, since the clocks do not change
 * and no commit decides anything from reminders_sent or remind_at (a commit from a row read before
 * the claim is right to go through). Keys of past turns are dropped by the same update.
 * Then remind_at moves on to the next pending reminder (same version condition).
 */
export async function sendDueReminders(ctx: Ctx, gameId: string, now: number): Promise<number> {
  const { rows } = await ctx.sql.query<ReminderRow>({
    name: 'herald-reminder-game',
    text: `SELECT g.version, g.clock_rev, g.clocks, g.time_control, g.reminders_sent,
             (SELECT coalesce(json_object_agg(s.role, s.player_id), '{}'::json) FROM seats s WHERE s.game_id = g.id) AS players
           FROM games g WHERE g.id = $1::uuid AND g.status = 'active' AND g.clocks IS NOT NULL AND g.time_control IS NOT NULL`,
    values: [gameId],
  });
  const row = rows[0];
  if (!row) return 0;
  const state = row.clocks;
  const control = row.time_control;
  const sentBefore = new Set(row.reminders_sent);
  const due = remindersDue(state, control, 0, now, sentBefore, ctx.reminders);
  const current: string[] = [];
  for (const role of Object.keys(state.seats)) for (const r of reminderTimes(state, control, role, ctx.reminders)) current.push(r.key);
  let sent = 0;
  for (const r of due) {
    const claimed = await ctx.sql.query({
      name: 'herald-reminder-claim',
      text: `UPDATE games SET reminders_sent = array_append(ARRAY(SELECT k FROM unnest(reminders_sent) AS k WHERE k = ANY($3::text[])), $2::text)
             WHERE id = $1::uuid AND version = $4 AND clock_rev = $5 AND status = 'active' AND NOT ($2::text = ANY(reminders_sent))
             RETURNING 1`,
      values: [gameId, r.key, current, row.version, row.clock_rev],
    });
    if (claimed.rowCount !== 1) continue;
    sent++;
    const playerId = row.players[r.role];
    const deadline = state.seats[r.role]!.deadline!;
    if (!playerId) continue;
    const event: ReminderEvent = { type: 'reminder', gameId, role: r.role, kind: r.kind, remainingMs: Math.max(0, deadline - now), deadline: new Date(deadline).toISOString() };
    await ctx.bus
      .publish(playerChannel(playerId), event as unknown as Json)
      .catch((err: unknown) => ctx.log.warn({ err: String(err), gameId }, 'bus publish failed (the reminder is recorded as sent)'));
  }
  // Due now or sent (by this call or another instance) are done; a seat out of time gets no more.
  const done = new Set([...sentBefore, ...due.map((r) => r.key)]);
  const next = earliestReminder(state, control, ctx.reminders, (r) => !done.has(r.key) && state.seats[r.role]!.deadline! > now);
  await ctx.sql.query({
    name: 'herald-reminder-next',
    text: `UPDATE games SET remind_at = $2::timestamptz WHERE id = $1::uuid AND version = $3 AND clock_rev = $4`,
    values: [gameId, next === null ? null : new Date(next).toISOString(), row.version, row.clock_rev],
  });
  return sent;
}

/**
 * Sends every reminder due at ctx.now() (jobs/clock-sweep.ts); how many this call sent. The due
 * games are one indexed query on games.remind_at (status, remind_at), like the timeouts.
 */
export async function sweepReminders(ctx: Ctx): Promise<number> {
  const now = ctx.now();
  const { rows } = await ctx.sql.query<{ id: string }>({
    name: 'herald-due-reminders',
    text: `SELECT id::text AS id FROM games WHERE status = 'active' AND remind_at <= $1::timestamptz ORDER BY remind_at LIMIT ${SWEEP_BATCH}`,
    values: [new Date(now)],
  });
  let sent = 0;
  for (const r of rows) {
    try {
      sent += await sendDueReminders(ctx, r.id, now);
    } catch (err) {
      ctx.log.warn({ err: String(err), gameId: r.id }, 'reminders could not be sent; the next sweep tries again');
    }
  }
  return sent;
}

/** The clock part of a game's summary as of `now`; null without a time control. */
export function clockSummary(game: GameRow, now: number): GameClock | null {
  if (game.timeControl === null) return null;
  const control = game.timeControl as unknown as TimeControl;
  const state = game.clocks as unknown as ClockState | null;
  const roles = game.seats.map((s) => s.role);
  const running = !isOver(game.status);
  return {
    control: control as unknown as GameClock['control'],
    seats: roles.map((role) => {
      const seat = state?.seats[role];
      if (!seat) return { role, remainingMs: initialOf(control), deadline: null, running: false, paused: false };
      const runs = running && seat.deadline !== null;
      return {
        role,
        remainingMs: remaining(state!, role, Math.max(now, seat.runningSince ?? now)),
        deadline: runs ? new Date(seat.deadline!).toISOString() : null,
        running: runs,
        // Once the game is over no clock is paused any more: it is stopped.
        paused: running && seat.paused,
      };
    }),
  };
}

function initialOf(control: TimeControl): number | null {
  return control.kind === 'correspondence' ? control.startMs : control.kind === 'fischer' ? control.initialMs : null;
}
