// Clocks on the write path (issue 15): the stored clock fields of a change, the deadline check
// of a move, the timeout that ends a game, and the clock part of a summary. The arithmetic is
// the pure core's (src/clocks/); this file only decides when to call it. A game without a time
// control (time_control null) costs one null check per change.
import type { Prisma } from '../generated/prisma/client.ts';
import type { Json } from '../bus/bus.ts';
import { afterChange, firstReminderAt, isFlagged, reminderTimes, remindersDue, remaining, start, timeoutAt, timeoutPolicy, validateTimeControl, type ClockState, type Reminder, type ReminderOptions, type TimeControl, type TimeoutOutcome } from '../clocks/index.ts';
import { findGame, type GameRow } from '../store/games.ts';
import { playerChannel, type Caller, type ClaimableEvent, type GameClock, type GameStatus, type GameSummary, type ReminderEvent } from './api.ts';
import { mutate, type Decision } from './commit.ts';
import { actingRole, isOver, moduleOf, orderSeats, requirePlayer, summarize, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { reminderEvent } from './webhooks.ts';
import { enqueueSql } from '../store/webhooks.ts';
import { isPlainObject } from './json.ts';

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
  // deadlines(state).earliest without its sorted list: this runs on every handover of a clocked game.
  let earliest: number | null = null;
  for (const s of Object.values(state.seats)) if (s.deadline !== null && (earliest === null || s.deadline < earliest)) earliest = s.deadline;
  const remind = earliest === null ? null : firstReminderAt(state, control, opts);
  return { clocks: state as unknown as Prisma.InputJsonValue, deadlineAt: earliest === null ? null : new Date(earliest), remindAt: remind === null ? null : new Date(remind) };
}

/** The first reminder time of freshly started clocks (a league round's games), for games.remind_at. */
export function firstReminder(state: ClockState, control: TimeControl, opts: ReminderOptions | undefined): Date | null {
  const at = firstReminderAt(state, control, opts);
  return at === null ? null : new Date(at);
}

/**
 * The earliest reminder time among the running seats' reminders that `pending` keeps; null for none.
 * On a clock change (fields, firstReminder: firstReminderAt) every reminder of the new state counts,
 * sent or not (the write path does not read reminders_sent): a seat whose turn went on gets its
 * sent reminder's time again, and the sweep then finds nothing due and moves remind_at on — one
 * extra look, never a missed reminder.
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
 * handed over whenever the seats that must act change (nothing, {}, while the same seats still
 * must act: see below), all stopped when it ends (deadline null).
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
  // The same seats still must act and the actor (if any) is one of them: nobody hands over and no
  // turn begins, so only the running seats would be charged, and that changes no deadline, no
  // reminder and no remaining time as read later (remainingMs − (t − runningSince) is the same
  // whether charged now or at the next handover; ranOutAt is runningSince + remainingMs either
  // way). So nothing is written: most actions (a Richard III turn is several) skip the clocks.
  if (sameRoles && (actor === null || game.activeRoles.includes(actor))) return {};
  return fields(afterChange(state, control, { activeBefore: game.activeRoles, activeAfter, actor }, notBefore(state, now)), control, ctx.reminders);
}

/**
 * The seats of `game` whose time has run out at `now` and whose timeout ends the game by itself
 * ([] without a clock or when not active): any under the `loss` policy; under `claim` only an
 * abort or a draw (nobody has to claim those), so a flagged seat may still move until claimed.
 */
export function flaggedAt(game: GameRow, now: number): string[] {
  if (game.status !== 'active' || game.clocks === null || game.timeControl === null) return [];
  // The stored earliest deadline answers the common case (nobody out of time) without the clocks.
  if (game.deadlineAt === null || game.deadlineAt.getTime() > now) return [];
  const state = game.clocks as unknown as ClockState;
  const t = notBefore(state, now);
  const flagged = isFlagged(state, t).map((f) => f.role);
  if (flagged.length === 0 || timeoutPolicy(game.timeControl as unknown as TimeControl) === 'loss') return flagged;
  const outcome = timeoutAt(state, t, 'claim');
  return outcome === null || outcome.kind === 'claimable' ? [] : flagged;
}

type Ending = Exclude<TimeoutOutcome, { kind: 'claimable' }>;

/**
 * The change that ends a game by a timeout outcome: the seat that ran out loses (a claimed win
 * reads the same), an abort leaves it abandoned and unrated. One `timeout` entry naming the
 * seat that ran out, as records.ts expects on import.
 */
function endingDecision(outcome: Ending | { kind: 'claimed'; flagged: string; claimants: string[] }): Decision {
  const loser = outcome.kind === 'loss' ? outcome.loser : outcome.kind === 'draw' ? outcome.flagged[0]! : outcome.flagged;
  if (outcome.kind === 'aborted') {
    return {
      game: { status: 'abandoned', activeRoles: [], result: { winner: null, reason: 'timeout' } },
      entries: [{ kind: 'timeout', role: loser, playerId: null, status: 'abandoned', activeRoles: [] }],
    };
  }
  const winners = outcome.kind === 'loss' ? outcome.winners : outcome.kind === 'claimed' ? outcome.claimants : [];
  const winner = winners.length === 1 ? winners[0]! : null;
  return {
    game: { status: 'finished', activeRoles: [], result: { winner, reason: 'timeout' } },
    entries: [{ kind: 'timeout', role: loser, playerId: null, status: 'finished', activeRoles: [] }],
  };
}

class NoTimeout extends Error {}

/** A claimable flag that one of Herald's AI seats may claim: the flagged seat must act, a claimant is the AI's. */
function aiClaims(game: GameRow, outcome: Extract<TimeoutOutcome, { kind: 'claimable' }>): boolean {
  if (!game.activeRoles.includes(outcome.flagged)) return false;
  return outcome.claimants.some((role) => game.seats.some((s) => s.role === role && s.player?.aiLevel != null));
}

/** The game needs a claim (policy `claim`): the sweep tells the claimants instead of ending it. */
class Claimable extends Error {
  readonly game: GameRow;
  readonly outcome: Extract<TimeoutOutcome, { kind: 'claimable' }>;
  readonly now: number;
  constructor(game: GameRow, outcome: Extract<TimeoutOutcome, { kind: 'claimable' }>, now: number) {
    super('claimable');
    this.game = game;
    this.outcome = outcome;
    this.now = now;
  }
}

/**
 * Ends the game by timeout if a seat's time has run out at ctx.now(); true when this call ended
 * it. Through mutate(): the commit's version check makes it exactly once (a racing move or
 * another instance's timeout commits first, and this call re-decides and finds nothing to do).
 * The seat that ran out loses; when some seat has not moved yet the game is abandoned (unrated).
 * Under the `claim` policy a loss is not automatic: the claimants are told once
 * (noticeClaimable) and the game goes on.
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
      const t = notBefore(state, now);
      const outcome = timeoutAt(state, t, timeoutPolicy(game.timeControl as unknown as TimeControl));
      if (outcome === null) throw new NoTimeout();
      if (outcome.kind === 'claimable') {
        // Herald's AI claims at once, as a player would: it never calls claim-timeout, so a
        // human who ran out against it would otherwise play on with no time, never losing.
        if (aiClaims(game, outcome)) return endingDecision({ kind: 'claimed', flagged: outcome.flagged, claimants: outcome.claimants });
        throw new Claimable(game, outcome, t);
      }
      return endingDecision(outcome);
    }, load);
    return true;
  } catch (err) {
    if (err instanceof NoTimeout) return false;
    if (err instanceof Claimable) {
      await noticeClaimable(ctx, err.game, err.outcome, err.now);
      return false;
    }
    throw err;
  }
}

/**
 * A seat's request that came after its clock ran out: the game ends by timeout (fireTimeout, as
 * the sweep would a moment later) and the request is refused with 409 deadline_passed, naming
 * the version the game is at now (after the ending, when this call committed it). `fired`:
 * whether this call ended the game (false: the row read was stale, nothing was due on the stored
 * one). A failure after the ending committed (settling or publishing it) is the sweep's to
 * finish: the request is refused all the same, since the game did end.
 */
export async function endLate(ctx: Ctx, gameId: string, flagged: string[], version: number): Promise<{ fired: boolean; refusal: ServiceError }> {
  let fired: boolean;
  try {
    fired = await fireTimeout(ctx, gameId);
  } catch (err) {
    const row = await findGame(ctx.sql, gameId).catch(() => null);
    if (!row || !isOver(row.status)) throw err;
    ctx.log.warn({ err, gameId }, 'a game ended by timeout, but settling or publishing its ending failed: the sweep retries');
    fired = true;
  }
  const current = fired ? ((await findGame(ctx.sql, gameId).catch(() => null))?.version ?? version) : version;
  const refusal = new ServiceError('deadline_passed', `The deadline of ${flagged.join(', ')} has passed: the game is over by timeout.`, { flaggedRoles: flagged, currentVersion: current });
  return { fired, refusal };
}

/** The key in games.reminders_sent that records the claimants were told of a flag. */
const claimKey = (role: string, at: number): string => `timeout:${role}:${at}`;

/**
 * Tells the claimants of a game under the `claim` policy, once, that they may claim the win, and
 * takes the game out of the timeout sweep until its clocks change again.
 *
 * Exactly once, as reminders: the flag's key is claimed by a conditional UPDATE of
 * reminders_sent (not there yet, and the clocks still those the outcome was computed from: a
 * move, a claim or a vacation in between changed them) and published only after it committed.
 * The same UPDATE moves deadline_at past the flagged seats (to the earliest deadline of a
 * running seat still in time, or null), so the sweep no longer selects the game every run. A
 * later clock change writes the flagged seat's past deadline back (clockChange does not read
 * reminders_sent): the sweep then looks once more, finds the key and only moves deadline_at on.
 * Keys of flags that lapsed (the seat moved) are dropped by the same UPDATE.
 */
async function noticeClaimable(ctx: Ctx, game: GameRow, outcome: Extract<TimeoutOutcome, { kind: 'claimable' }>, now: number): Promise<number> {
  const state = game.clocks as unknown as ClockState;
  const flags = isFlagged(state, now);
  const flagged = new Set(flags.map((f) => f.role));
  let next: number | null = null;
  for (const [role, s] of Object.entries(state.seats)) if (s.deadline !== null && !flagged.has(role) && (next === null || s.deadline < next)) next = s.deadline;
  const key = claimKey(outcome.flagged, outcome.at);
  const values = [game.id, key, flags.map((f) => claimKey(f.role, f.at)), next === null ? null : new Date(next), game.version, JSON.stringify(state)];
  const claimed = await ctx.sql.query({
    name: 'herald-claimable-notice',
    text: `UPDATE games SET reminders_sent = array_append(ARRAY(SELECT k FROM unnest(reminders_sent) AS k WHERE k NOT LIKE 'timeout:%' OR k = ANY($3::text[])), $2::text),
             deadline_at = $4::timestamptz
           WHERE id = $1::uuid AND version = $5 AND status = 'active' AND clocks = $6::jsonb AND NOT ($2::text = ANY(reminders_sent))
           RETURNING 1`,
    values,
  });
  if (claimed.rowCount !== 1) {
    // Told already (by another instance, or before a clock change put the past deadline back): only move the sweep on.
    await ctx.sql.query({
      name: 'herald-claimable-next',
      text: `UPDATE games SET deadline_at = $2::timestamptz WHERE id = $1::uuid AND version = $3 AND status = 'active' AND clocks = $4::jsonb AND $5::text = ANY(reminders_sent)`,
      values: [game.id, values[3], game.version, values[5], key],
    });
    return 0;
  }
  let sent = 0;
  // Only a seat that must still act can be claimed against (claimTimeout, and records.ts on import).
  const open = game.activeRoles.includes(outcome.flagged);
  for (const role of open ? outcome.claimants : []) {
    const playerId = game.seats.find((s) => s.role === role)?.playerId;
    if (!playerId) continue;
    const event: ClaimableEvent = { type: 'claimable', gameId: game.id, role, flagged: outcome.flagged, ranOutAt: new Date(outcome.at).toISOString() };
    sent++;
    await ctx.bus
      .publish(playerChannel(playerId), event as unknown as Json)
      .catch((err: unknown) => ctx.log.warn({ err: String(err), gameId: game.id }, 'bus publish failed (the claimable notice is recorded as sent)'));
  }
  return sent;
}

/** A claim refused: 409 not_claimable naming the reason. */
function notClaimable(reason: 'policy' | 'time_left' | 'own_time', detail: string, extra: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('not_claimable', detail, { reason, ...extra });
}

/**
 * A seat claims the win on time (policy `claim`): the opponent's time has run out and it has not
 * handed the turn over since. The same change as an automatic loss (a `timeout` entry naming
 * the seat that ran out, result {winner, reason: 'timeout'}), through mutate's version check, so
 * a claim and a late move of the flagged seat racing never both commit: whichever commits
 * second decides again on the new state (the move finds the game over; the claim finds the
 * opponent in time again: not_claimable). Settlement (ratings, league) follows as for any end.
 * When the outcome needs no claim because a seat never moved (abort, unrated), the opponent's
 * claim ends the game that way, as the sweep would have a moment later; a seat out of time
 * itself (the flagged one, or both at the same millisecond: a draw the sweep records) may not.
 */
export async function claimTimeout(ctx: Ctx, callerIn: Caller, gameId: string, input: { role?: string }): Promise<GameSummary> {
  const caller = requirePlayer(callerIn);
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const after = await mutate(ctx, caller, gameId, (game, now) => {
    if (isOver(game.status)) throw new ServiceError('game_over', `Cannot claim: the game is ${game.status}.`, { gameStatus: game.status, result: game.result });
    if (game.status !== 'active') throw new ServiceError('invalid_state', 'Cannot claim: the game has not started yet.', { gameStatus: game.status });
    const role = actingRole(ctx, game, caller, input.role);
    const control = game.timeControl as unknown as TimeControl | null;
    if (control === null || timeoutPolicy(control) !== 'claim') {
      throw notClaimable('policy', control === null ? 'This game has no clock.' : 'In this game a timeout is an automatic loss (onTimeout loss): there is nothing to claim.', { onTimeout: control === null ? null : timeoutPolicy(control) });
    }
    const state = game.clocks as unknown as ClockState | null;
    const t = state === null ? now : notBefore(state, now);
    const outcome = state === null ? null : timeoutAt(state, t, 'claim');
    if (outcome === null) throw notClaimable('time_left', 'Nobody is out of time.');
    if (outcome.kind === 'draw' || (outcome.kind !== 'loss' && role === outcome.flagged) || (outcome.kind === 'claimable' && !outcome.claimants.includes(role))) {
      const flagged = outcome.kind === 'draw' ? outcome.flagged : [outcome.flagged];
      throw notClaimable('own_time', `The ${role} seat is out of time itself: it cannot claim.`, { flagged });
    }
    if (outcome.kind !== 'claimable') return endingDecision(outcome);
    if (!game.activeRoles.includes(outcome.flagged)) throw notClaimable('time_left', `${outcome.flagged} is not to act now.`, { flagged: [outcome.flagged] });
    return endingDecision({ kind: 'claimed', flagged: outcome.flagged, claimants: outcome.claimants });
  }, undefined, { expired: 'decide' });
  return summarize(after, ctx.now());
}


/**
 * How the sweeps take the due games (timeouts and reminders alike):
 * - in batches of SWEEP_BATCH, and again at once while a batch comes back full, so a burst (many
 *   deadlines at one instant, or every timeout that came due while all instances were down) is
 *   worked off in one run instead of SWEEP_BATCH per interval;
 * - SWEEP_PARALLEL games of a batch at a time: a timeout is mostly waiting on Postgres (a few
 *   round trips, the commit, the settlement), and concurrent commits share one transaction
 *   (store/group-commit.ts);
 * - each instance takes a random SWEEP_BATCH of the SWEEP_WINDOW most overdue games, so two
 *   instances sweeping one burst mostly take different games (about SWEEP_BATCH / SWEEP_WINDOW
 *   of them collide) instead of racing for the same oldest ones. Collisions cost work, never
 *   correctness: the commit's version check (timeouts) and the reminders_sent claim (reminders)
 *   make each one happen once. No lock or lease is held, so an instance killed mid-batch leaves
 *   nothing behind: what it did not commit is still due and the next sweep of any instance takes it.
 * With nothing due a sweep is one indexed query, as before.
 */
const SWEEP_BATCH = 100;
const SWEEP_WINDOW = 20 * SWEEP_BATCH;
const SWEEP_PARALLEL = 4;

/** The due games of one batch: a random SWEEP_BATCH of the SWEEP_WINDOW earliest by `column`, `skip` left out (exported for bench:scheduler's EXPLAIN). */
export function dueBatch(column: 'deadline_at' | 'remind_at'): string {
  return `SELECT id FROM (
            SELECT id::text AS id FROM games
            WHERE status = 'active' AND ${column} <= $1::timestamptz AND NOT (id = ANY($2::uuid[]))
            ORDER BY ${column} LIMIT ${SWEEP_WINDOW}
          ) due ORDER BY random() LIMIT ${SWEEP_BATCH}`;
}

/**
 * Runs `handle` on every game `column` says is due at `now`, batch after batch (see above); the
 * sum of what it returns. A game it handled without effect (another instance was first) or that
 * failed is not taken again in this run, so the run ends even if one stays due.
 */
async function sweepDue(ctx: Ctx, name: string, column: 'deadline_at' | 'remind_at', now: number, handle: (gameId: string) => Promise<number>, what: string): Promise<number> {
  const skip: string[] = [];
  let total = 0;
  for (;;) {
    const { rows } = await ctx.sql.query<{ id: string }>({ name, text: dueBatch(column), values: [new Date(now), skip] });
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < rows.length) {
        const id = rows[next++]!.id;
        try {
          const n = await handle(id);
          total += n;
          if (n === 0) skip.push(id);
        } catch (err) {
          // One game's failure (a conflict storm, a settlement error) does not hold up the others.
          skip.push(id);
          ctx.log.warn({ err: String(err), gameId: id }, `${what}; the next sweep tries again`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SWEEP_PARALLEL, rows.length) }, worker));
    if (rows.length < SWEEP_BATCH) return total;
  }
}

/**
 * Fires every timeout due at ctx.now() (jobs/clock-sweep.ts); how many games this call ended.
 * Another instance sweeping the same games at once ends each of them once in all.
 */
export async function sweepTimeouts(ctx: Ctx): Promise<number> {
  return sweepDue(ctx, 'herald-due-timeouts', 'deadline_at', ctx.now(), async (id) => ((await fireTimeout(ctx, id)) ? 1 : 0), 'a timeout could not be fired');
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
    const playerId = row.players[r.role];
    const deadline = state.seats[r.role]!.deadline!;
    // The clock_reminder webhook is written by the claim itself: sent iff claimed.
    const hooks = playerId ? [reminderEvent(gameId, playerId, r.role, r.kind, new Date(deadline), new Date(now))] : [];
    const claimed = await ctx.sql.query<{ n: number }>({
      name: 'herald-reminder-claim',
      // Claim-notice keys (timeout:…, noticeClaimable) are kept: that notice prunes its own.
      text: `WITH c AS (
               UPDATE games SET reminders_sent = array_append(ARRAY(SELECT k FROM unnest(reminders_sent) AS k WHERE k = ANY($3::text[]) OR k LIKE 'timeout:%'), $2::text)
               WHERE id = $1::uuid AND version = $4 AND clock_rev = $5 AND status = 'active' AND NOT ($2::text = ANY(reminders_sent))
               RETURNING 1
             ), w AS (
               ${enqueueSql('$6::jsonb', 'c,')}
               RETURNING 1
             )
             SELECT (SELECT count(*) FROM c)::int AS n`,
      values: [gameId, r.key, current, row.version, row.clock_rev, JSON.stringify(hooks)],
    });
    if (claimed.rows[0]?.n !== 1) continue;
    sent++;
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
 * games are one indexed query on games.remind_at (status, remind_at), like the timeouts, taken
 * the same way (sweepDue).
 */
export async function sweepReminders(ctx: Ctx): Promise<number> {
  const now = ctx.now();
  return sweepDue(ctx, 'herald-due-reminders', 'remind_at', now, (id) => sendDueReminders(ctx, id, now), 'reminders could not be sent');
}

/** The clock part of a game's summary as of `now`; null without a time control. */
export function clockSummary(game: GameRow, now: number): GameClock | null {
  // `== null`: a row built by hand (a league round's new games) may leave the clock fields out.
  if (game.timeControl == null) return null;
  const control = game.timeControl as unknown as TimeControl;
  const state = game.clocks as unknown as ClockState | null;
  const roles = game.seats.map((s) => s.role);
  const running = !isOver(game.status);
  const policy = timeoutPolicy(control);
  let claimable: GameClock['claimable'] = null;
  if (policy === 'claim' && game.status === 'active' && state !== null) {
    const outcome = timeoutAt(state, notBefore(state, now), 'claim');
    if (outcome?.kind === 'claimable' && game.activeRoles.includes(outcome.flagged)) {
      claimable = { flagged: outcome.flagged, ranOutAt: new Date(outcome.at).toISOString(), claimants: outcome.claimants };
    }
  }
  return {
    control: control as unknown as GameClock['control'],
    onTimeout: policy,
    claimable,
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
