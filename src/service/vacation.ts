// Vacation on the write path (issue 15): a player's uses of their yearly allowance (table
// vacations, one row per use) and the pause/resume of their correspondence clocks. The
// allowance arithmetic is the pure core's (src/clocks/vacation.ts); this file stores it and
// applies it to the games.
//
// Why a clock pause is not a new game version: nothing happens in the game (no log entry);
// versions are dense (one per log entry), so only `clocks`, `deadline_at` and `remind_at`
// change, and the game's clock revision (games.clock_rev) goes up by one. They are written by a
// conditional UPDATE under the same check as every commit (`WHERE version = the version read
// AND clock_rev = the revision read`), retried from a fresh read on conflict, so a pause never
// overwrites a move. A move never commits over a pause either: every commit checks clock_rev
// too, so a move decided from a row read before the pause (another instance's cached row)
// conflicts and is decided again from a fresh read. Dropping the row from this instance's cache
// and announcing the change on the bus (CLOCKS_CHANGED_CHANNEL) so other instances drop theirs
// is only the fast path: it spares them that conflict and shows the pause at once; a lost
// message costs one retry, never the pause.
import { canPause, DAY, openUse, endVacation as endUse, pause, resume, startVacation as startUse, remainingAllowance, vacationEndsBy, type ClockState, type TimeControl, type VacationAccount, type VacationPolicy } from '../clocks/index.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { findGame } from '../store/games.ts';
import { firstReminder } from './clocks.ts';
import { orderSeats, requirePlayer } from './context.ts';
import { publishClockChange } from './events.ts';
import { plannedRounds } from './league-schedule.ts';
import { shapeOf } from './league-views.ts';
import type { Caller } from './api.ts';
import type { Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { parseClientTime } from './times.ts';

/** Announces a game whose clocks changed without a new version: every instance drops its cached row. */
export const CLOCKS_CHANGED_CHANNEL = 'games:clocks-changed';

/** Drops cached rows of games paused or resumed elsewhere (subscribed once per service; retried while the bus is down). A fast path: clock_rev keeps a missed message harmless. */
export function listenForClockChanges(ctx: Ctx, triesLeft = 30): void {
  ctx.bus.subscribe(CLOCKS_CHANGED_CHANNEL, (m) => {
    const gameId = (m as { gameId?: unknown } | null)?.gameId;
    if (typeof gameId === 'string') ctx.cache.drop(gameId);
  }).catch(() => {
    if (triesLeft <= 0) return ctx.log.warn({}, 'could not listen for clock changes of other instances; cached games may show stale clocks');
    const retry = setTimeout(() => listenForClockChanges(ctx, triesLeft - 1), 1000);
    retry.unref();
  });
}

export interface VacationInfo {
  onVacation: boolean;
  /** When the current vacation started (ISO), or null. */
  since: string | null;
  /** When the current vacation ends by itself (ISO): the planned end or when the allowance runs out; null when not on vacation. */
  endsBy: string | null;
  /** The yearly allowance (ms). */
  allowanceMs: number;
  /** What is left of this calendar year's (UTC) allowance as of now (ms); an open vacation counts up to now. */
  remainingMs: number;
}

interface UseRow {
  id: string;
  startedAt: Date;
  endsBy: Date;
  endedAt: Date | null;
}

type Tx = Pick<Ctx['db'], 'vacation' | '$queryRaw'>;

async function usesOf(tx: Tx, playerId: string): Promise<UseRow[]> {
  return tx.vacation.findMany({ where: { playerId }, orderBy: { startedAt: 'asc' }, select: { id: true, startedAt: true, endsBy: true, endedAt: true } });
}

function accountOf(rows: UseRow[]): VacationAccount {
  return { uses: rows.map((r) => ({ startedAt: r.startedAt.getTime(), endedAt: r.endedAt?.getTime() ?? null })) };
}

function info(rows: UseRow[], policy: VacationPolicy, now: number): VacationInfo {
  const open = rows.length > 0 && rows[rows.length - 1]!.endedAt === null ? rows[rows.length - 1]! : null;
  return {
    onVacation: open !== null,
    since: open ? open.startedAt.toISOString() : null,
    endsBy: open ? open.endsBy.toISOString() : null,
    allowanceMs: policy.allowanceMs,
    remainingMs: remainingAllowance(accountOf(rows), policy, Math.max(now, open?.startedAt.getTime() ?? now)),
  };
}

function problem(p: { code: string; field: string; message: string }): ServiceError {
  const code = p.code === 'vacation-active' || p.code === 'vacation-not-active' ? 'invalid_state' : p.code === 'bad-time' && p.field === 'until' ? 'invalid_request' : 'vacation_not_allowed';
  return new ServiceError(code, p.message.charAt(0).toUpperCase() + p.message.slice(1) + '.', { reason: p.code, ...(p.field ? { field: p.field } : {}) });
}

/** `until` as given in a request: an ISO 8601 time with a time zone, or undefined. */
export function parseUntil(input: unknown): number | undefined {
  if (input === undefined || input === null) return undefined;
  const t = parseClientTime(input);
  if (t === null) throw new ServiceError('invalid_request', 'until must be an ISO 8601 time with a time zone, e.g. 2026-12-24T00:00:00Z.', { field: 'until' });
  return t;
}

// The operator's token is a Caller with no player (playerId ''): requirePlayer refuses it with
// 403 forbidden, where the queries below failed on '' as a uuid (a 500).
export async function getVacation(ctx: Ctx, callerIn: Caller): Promise<VacationInfo> {
  const caller = requirePlayer(callerIn);
  return info(await usesOf(ctx.db, caller.playerId), ctx.vacation, ctx.now());
}

/** Starts the caller's vacation now (until: its planned end) and pauses their correspondence clocks. */
export async function startVacation(ctx: Ctx, callerIn: Caller, input: { until?: unknown }): Promise<VacationInfo> {
  const caller = requirePlayer(callerIn);
  const until = parseUntil(input.until);
  const now = ctx.now();
  const rows = await ctx.db.$transaction(async (tx) => {
    // One decision per player at a time: two starts at once must not both open a use.
    await tx.$queryRaw`SELECT id FROM players WHERE id = ${caller.playerId}::uuid FOR UPDATE`;
    const before = await usesOf(tx, caller.playerId);
    const r = startUse(accountOf(before), ctx.vacation, now, until);
    if (!r.ok) throw problem(r.problem);
    const endsBy = Math.min(until ?? Infinity, vacationEndsBy(r.account, ctx.vacation)!);
    const row = await tx.vacation.create({ data: { playerId: caller.playerId, startedAt: new Date(now), endsBy: new Date(endsBy) } });
    return { uses: await usesOf(tx, caller.playerId), account: r.account, endsBy, id: row.id };
  });
  const leagueEndsBy = await applyVacation(ctx, caller.playerId, rows.account, rows.endsBy, now, 'start');
  if (leagueEndsBy !== null) await ctx.db.vacation.update({ where: { id: rows.id }, data: { leagueEndsBy: new Date(leagueEndsBy) } });
  return info(rows.uses, ctx.vacation, now);
}

/**
 * Ends the caller's vacation now and resumes their paused clocks. Crash-safe: the use is closed
 * first (clocks_resumed_at still null), then the clocks resume and the use is marked resumed; a
 * crash in between leaves a closed use not yet resumed, which the clock sweep finds and resumes.
 */
export async function endVacation(ctx: Ctx, callerIn: Caller): Promise<VacationInfo> {
  const caller = requirePlayer(callerIn);
  const now = ctx.now();
  const rows = await closeUse(ctx, caller.playerId, () => now);
  await resumeClosed(ctx, caller.playerId);
  return info(rows, ctx.vacation, now);
}

/**
 * Resumes the clocks of the player's closed uses whose clocks were not resumed yet (at the latest
 * one's end, as if the player had come back then), then marks them resumed. When the player is on
 * a newer vacation already, its clocks stay paused (that use resumes them when it ends): only the
 * mark is written. Repeating it changes nothing (resuming a running clock changes nothing).
 */
async function resumeClosed(ctx: Ctx, playerId: string): Promise<void> {
  const pending = await ctx.db.vacation.findMany({ where: { playerId, clocksResumedAt: null, endedAt: { not: null } }, select: { id: true, endedAt: true } });
  if (pending.length === 0) return;
  const open = await ctx.db.vacation.findFirst({ where: { playerId, endedAt: null }, select: { id: true } });
  if (!open) await resumeAll(ctx, playerId, Math.max(...pending.map((v) => v.endedAt!.getTime())));
  await ctx.db.vacation.updateMany({ where: { id: { in: pending.map((v) => v.id) }, clocksResumedAt: null }, data: { clocksResumedAt: new Date(ctx.now()) } });
}

/** Closes the player's open use at at(open use's ends_by); refused when none is open. */
async function closeUse(ctx: Ctx, playerId: string, at: (endsBy: number) => number): Promise<UseRow[]> {
  return ctx.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM players WHERE id = ${playerId}::uuid FOR UPDATE`;
    const before = await usesOf(tx, playerId);
    const open = before.length > 0 && before[before.length - 1]!.endedAt === null ? before[before.length - 1]! : null;
    const end = open ? Math.max(open.startedAt.getTime(), at(open.endsBy.getTime())) : ctx.now();
    const r = endUse(accountOf(before), end);
    if (!r.ok) throw problem(r.problem);
    await tx.vacation.update({ where: { id: open!.id }, data: { endedAt: new Date(end) } });
    return usesOf(tx, playerId);
  });
}

/** The player's active games with a pausable clock. */
async function pausableGames(ctx: Ctx, playerId: string): Promise<string[]> {
  const { rows } = await ctx.sql.query<{ id: string }>({
    text: `SELECT DISTINCT g.id::text AS id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.player_id = $1::uuid AND g.status = 'active' AND g.clocks IS NOT NULL`,
    values: [playerId],
  });
  return rows.map((r) => r.id);
}

/**
 * Pauses (or resumes) the seats of `playerId` in game `id` at `at`. The clocks and deadline_at
 * are written under the game's version and clock revision check, bumping the revision; a
 * conflict (a move, or another pause or resume, committed meanwhile) re-reads the game and
 * decides again. True when the clocks changed.
 */
async function setPaused(ctx: Ctx, id: string, playerId: string, at: number, paused: boolean): Promise<boolean> {
  for (let attempt = 1; attempt <= 8; attempt++) {
    const game = await findGame(ctx.sql, id);
    if (!game || game.status !== 'active' || game.clocks === null || game.timeControl === null) return false;
    const control = game.timeControl as unknown as TimeControl;
    if (!canPause(control)) return false;
    let state = game.clocks as unknown as ClockState;
    const before = state;
    for (const seat of game.seats) {
      if (seat.playerId !== playerId || !state.seats[seat.role]) continue;
      // Never before a running clock's last charge (the pure core refuses time running backwards).
      const t = Math.max(at, state.seats[seat.role]!.runningSince ?? at);
      state = paused ? pause(state, control, seat.role, t) : resume(state, control, seat.role, t);
    }
    if (state === before) return false;
    let earliest: number | null = null;
    for (const s of Object.values(state.seats)) if (s.deadline !== null && (earliest === null || s.deadline < earliest)) earliest = s.deadline;
    // remind_at follows the running seats like deadline_at (a paused seat gets no reminder; sent ones are not sent again).
    const remindAt = earliest === null ? null : firstReminder(state, control, ctx.reminders);
    const res = await ctx.sql.query({
      text: `UPDATE games SET clocks = $1::jsonb, deadline_at = $2::timestamptz, remind_at = $3::timestamptz, clock_rev = clock_rev + 1
             WHERE id = $4::uuid AND version = $5 AND clock_rev = $6`,
      values: [JSON.stringify(state), earliest === null ? null : new Date(earliest), remindAt, id, game.version, game.clockRev],
    });
    ctx.cache.drop(id);
    if (res.rowCount === 1) {
      // The version did not move: tell other instances at once (their next commit from a cached row would conflict on clock_rev anyway).
      await ctx.bus.publish(CLOCKS_CHANGED_CHANNEL, { gameId: id }).catch((err: unknown) => ctx.log.warn({ err: String(err), gameId: id }, 'bus publish failed (the clocks are paused/resumed)'));
      // The game's listeners (SSE, GraphQL) get the new clock so countdowns stop or start.
      const after = { ...game, clocks: state as unknown as Prisma.JsonValue, deadlineAt: earliest === null ? null : new Date(earliest), clockRev: game.clockRev + 1 };
      void publishClockChange(ctx, orderSeats(ctx, after), ctx.now());
      return true;
    }
  }
  ctx.log.warn({ gameId: id, playerId }, 'the vacation could not pause or resume this game\'s clocks: it kept changing');
  return false;
}

/**
 * What a league asks of a vacation in game `id` (the account's vacation open): `pause` false
 * when the league forbids it (last round) or its own allowance is used up; `resumeAt` when the
 * league's own smaller allowance runs out before the server's (null otherwise).
 */
async function leagueRule(ctx: Ctx, id: string, account: VacationAccount): Promise<{ pause: boolean; resumeAt: number | null }> {
  const l = await leagueOf(ctx, id);
  if (!l) return { pause: true, resumeAt: null };
  if (l.lastRound && l.settings.noVacationInLastRound === true) return { pause: false, resumeAt: null };
  const days = l.settings.vacationDays;
  if (typeof days !== 'number' || days * DAY >= ctx.vacation.allowanceMs) return { pause: true, resumeAt: null };
  const policy: VacationPolicy = { allowanceMs: days * DAY, minChargeMs: Math.min(ctx.vacation.minChargeMs, days * DAY) };
  const open = openUse(account)!;
  const ends = vacationEndsBy(account, policy)!;
  return ends <= open.startedAt ? { pause: false, resumeAt: null } : { pause: true, resumeAt: ends };
}

/**
 * Applies the player's vacation (open in `account`) to their games: `pause` at `at`, or resumes
 * the league games whose league allowance ran out by `at`. Returns the next league resume time.
 */
async function applyVacation(ctx: Ctx, playerId: string, account: VacationAccount, endsBy: number, at: number, mode: 'start' | 'league-sweep'): Promise<number | null> {
  let next: number | null = null;
  for (const id of await pausableGames(ctx, playerId)) {
    const rule = await leagueRule(ctx, id, account);
    if (!rule.pause) continue;
    if (rule.resumeAt !== null && rule.resumeAt <= at) {
      if (mode === 'league-sweep') await setPaused(ctx, id, playerId, rule.resumeAt, false);
      continue;
    }
    if (mode === 'start') await setPaused(ctx, id, playerId, at, true);
    if (rule.resumeAt !== null && rule.resumeAt < endsBy && (next === null || rule.resumeAt < next)) next = rule.resumeAt;
  }
  return next;
}

/**
 * A game that just started (its clocks running) pauses the seats of players on vacation, as
 * their other games are. One query per game start when nobody is on vacation; nothing per move.
 */
export async function pauseOnStart(ctx: Ctx, gameId: string, playerIds: readonly (string | null)[], at: number): Promise<boolean> {
  const ids = [...new Set(playerIds.filter((p): p is string => p !== null))];
  if (ids.length === 0) return false;
  let changed = false;
  const open = await ctx.db.vacation.findMany({ where: { playerId: { in: ids }, endedAt: null }, select: { id: true, playerId: true, endsBy: true, leagueEndsBy: true } });
  for (const v of open) {
    const account = accountOf(await usesOf(ctx.db, v.playerId));
    if (!openUse(account)) continue;
    const rule = await leagueRule(ctx, gameId, account);
    if (!rule.pause || (rule.resumeAt !== null && rule.resumeAt <= at)) continue;
    if (await setPaused(ctx, gameId, v.playerId, at, true)) changed = true;
    if (rule.resumeAt !== null && rule.resumeAt < v.endsBy.getTime() && (v.leagueEndsBy === null || rule.resumeAt < v.leagueEndsBy.getTime())) {
      await ctx.db.vacation.update({ where: { id: v.id }, data: { leagueEndsBy: new Date(rule.resumeAt) } });
    }
  }
  return changed;
}

/** Resumes every paused seat of the player (the vacation ended) at `at`. */
async function resumeAll(ctx: Ctx, playerId: string, at: number): Promise<void> {
  for (const id of await pausableGames(ctx, playerId)) await setPaused(ctx, id, playerId, at, false);
}

/** The league of a league game: its settings and whether the game is in its last round (the format's planned rounds, league-schedule.ts). */
async function leagueOf(ctx: Ctx, gameId: string): Promise<{ settings: Record<string, unknown>; lastRound: boolean } | null> {
  const { rows } = await ctx.sql.query<{ round: number; format: string; settings: Record<string, unknown>; seed: string; entrants: number }>({
    text: `SELECT p.round, l.format::text AS format, l.settings, l.seed, (SELECT count(*)::int FROM league_entrants e WHERE e.league_id = l.id) AS entrants
             FROM league_pairings p JOIN leagues l ON l.id = p.league_id WHERE p.game_id = $1::uuid`,
    values: [gameId],
  });
  const r = rows[0];
  if (!r) return null;
  const shape = shapeOf({ format: r.format, settings: r.settings as never, seed: r.seed });
  return { settings: r.settings, lastRound: r.round === plannedRounds(shape, r.entrants) };
}

/**
 * Ends every vacation whose ends_by has come (clock sweep): its clocks resume at ends_by, as if
 * the player had come back then. How many it ended; another instance ending the same one at
 * once finds it closed and does nothing. Then resumes the clocks of uses ended but not resumed
 * (a crash between closing a use and resuming its clocks).
 */
/**
 * What the sweep has to do, in one statement on the pool (it runs every few seconds and there is
 * usually nothing to do; Prisma's query compiler costs noticeable CPU per call): open uses past
 * their end, closed uses not resumed, open uses past their league limit (200 of each at most).
 */
async function sweepWork(ctx: Ctx): Promise<{
  due: { playerId: string; endsBy: Date }[];
  unresumed: { playerId: string }[];
  leagueDue: { id: string; playerId: string; endsBy: Date }[];
}> {
  const { rows } = await ctx.sql.query<{ what: 'due' | 'unresumed' | 'league'; id: string; player_id: string; ends_by: Date }>({
    name: 'herald-vacation-sweep',
    text: `(SELECT 'due' AS what, id::text AS id, player_id::text AS player_id, ends_by FROM vacations
        WHERE ended_at IS NULL AND ends_by <= $1::timestamptz ORDER BY ends_by LIMIT 200)
      UNION ALL (SELECT 'unresumed', id::text, player_id::text, ends_by FROM vacations
        WHERE clocks_resumed_at IS NULL AND ended_at IS NOT NULL LIMIT 200)
      UNION ALL (SELECT 'league', id::text, player_id::text, ends_by FROM vacations
        WHERE ended_at IS NULL AND league_ends_by <= $1::timestamptz LIMIT 200)`,
    values: [new Date(ctx.now()).toISOString()],
  });
  const of = (what: string) => rows.filter((r) => r.what === what).map((r) => ({ id: r.id, playerId: r.player_id, endsBy: new Date(r.ends_by) }));
  return { due: of('due'), unresumed: of('unresumed'), leagueDue: of('league') };
}

export async function sweepVacations(ctx: Ctx): Promise<number> {
  // Read again after a step that did something, so each step sees what the previous one left.
  let work = await sweepWork(ctx);
  let ended = 0;
  for (const v of work.due) {
    try {
      // As endVacation: closed first, then resumed; a crash in between is repaired below.
      await closeUse(ctx, v.playerId, (endsBy) => endsBy);
      ended++;
      await resumeClosed(ctx, v.playerId);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'invalid_state') continue; // ended meanwhile
      ctx.log.warn({ err: String(err), playerId: v.playerId }, 'a vacation could not be ended; the next sweep tries again');
    }
  }
  // Uses closed but whose clocks were not resumed (a crash between the two steps of an end): one
  // query on the index of clocks_resumed_at, whose null entries are the open uses and these.
  if (work.due.length > 0) work = await sweepWork(ctx);
  for (const playerId of new Set(work.unresumed.map((v) => v.playerId))) {
    try {
      await resumeClosed(ctx, playerId);
    } catch (err) {
      ctx.log.warn({ err: String(err), playerId }, "an ended vacation's clocks could not be resumed; the next sweep tries again");
    }
  }
  // League games whose league's own (smaller) allowance ran out: their seats resume while the
  // vacation goes on elsewhere.
  if (work.unresumed.length > 0) work = await sweepWork(ctx);
  for (const v of work.leagueDue) {
    try {
      const account = accountOf(await usesOf(ctx.db, v.playerId));
      if (!openUse(account)) continue;
      const next = await applyVacation(ctx, v.playerId, account, v.endsBy.getTime(), ctx.now(), 'league-sweep');
      await ctx.db.vacation.updateMany({ where: { id: v.id, endedAt: null }, data: { leagueEndsBy: next === null ? null : new Date(next) } });
    } catch (err) {
      ctx.log.warn({ err: String(err), playerId: v.playerId }, 'a league vacation limit could not be applied; the next sweep tries again');
    }
  }
  return ended;
}
