// Clocks on the write path (issue 15): the stored clock fields of a change, the deadline check
// of a move, the timeout that ends a game, and the clock part of a summary. The arithmetic is
// the pure core's (src/clocks/); this file only decides when to call it. A game without a time
// control (time_control null) costs one null check per change.
import type { Prisma } from '../generated/prisma/client.ts';
import { afterChange, isFlagged, remaining, start, timeoutAt, validateTimeControl, type ClockState, type TimeControl } from '../clocks/index.ts';
import { findGame, type GameRow } from '../store/games.ts';
import type { GameClock, GameStatus } from './api.ts';
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

function fields(state: ClockState): ClockFields {
  // deadlines(state).earliest without its sorted list: this runs on every action of a clocked game.
  let earliest: number | null = null;
  for (const s of Object.values(state.seats)) if (s.deadline !== null && (earliest === null || s.deadline < earliest)) earliest = s.deadline;
  return { clocks: state as unknown as Prisma.InputJsonValue, deadlineAt: earliest === null ? null : new Date(earliest) };
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
    return fields(start(control, moduleOf(ctx, game.gameType).roles, next.activeRoles, now));
  }
  if (game.clocks === null) return {};
  const state = game.clocks as unknown as ClockState;
  const activeAfter = isOver(next.status) ? [] : next.activeRoles;
  const sameRoles = activeAfter.length === game.activeRoles.length && activeAfter.every((r) => game.activeRoles.includes(r));
  // Nothing to charge or hand over when the same seats still must act and none of them acted.
  if (sameRoles && actor === null) return {};
  return fields(afterChange(state, control, { activeBefore: game.activeRoles, activeAfter, actor }, notBefore(state, now)));
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
      if (!seat) return { role, remainingMs: initialOf(control), deadline: null, running: false };
      const runs = running && seat.deadline !== null;
      return { role, remainingMs: remaining(state!, role, Math.max(now, seat.runningSince ?? now)), deadline: runs ? new Date(seat.deadline!).toISOString() : null, running: runs };
    }),
  };
}

function initialOf(control: TimeControl): number | null {
  return control.kind === 'correspondence' ? control.startMs : control.kind === 'fischer' ? control.initialMs : null;
}
