// The commit loop shared by lifecycle changes and actions: read the game,
// decide the change from what was read, commit it with `WHERE version =
// read version`; when another request committed first, decide again from the
// new state (a bounded number of times), so no decision is ever based on a
// stale read. After the commit: publish the committed row (no re-read); a commit that ended the game settles it
// (ratings, league result: settle.ts) before the request is answered.
import { commitChange, findGame, VersionConflict, type Change, type GameRow } from '../store/games.ts';
import type { Caller } from './api.ts';
import { isOver, loadGame, orderSeats, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { publishCommitted } from './events.ts';
import { settleEnded } from './settle.ts';
import { clockChange, endLate, flaggedAt } from './clocks.ts';
import { pauseOnStart } from './vacation.ts';
import { gameEvents } from './webhooks.ts';

export const MAX_ATTEMPTS = 8;

export type Decision = Omit<Change, 'gameId' | 'expectedVersion' | 'expectedClockRev'>;

/**
 * The game as the commit of `d` left it. Without seat changes it is the row read
 * plus the change (the commit's version check guarantees nothing else changed
 * in between), so no read; seat changes (join, leave) need the players' names: one read.
 */
async function committedRow(ctx: Ctx, game: GameRow, d: Decision, at: Date): Promise<GameRow> {
  if (d.seats && d.seats.length > 0) {
    const after = await findGame(ctx.sql, game.id);
    if (!after) throw new Error(`game ${game.id} vanished after a commit`);
    return orderSeats(ctx, after);
  }
  const g = d.game;
  return {
    ...game,
    version: game.version + d.entries.length,
    updatedAt: at,
    ...(g.status !== undefined ? { status: g.status } : {}),
    ...(g.state !== undefined ? { state: g.state as GameRow['state'] } : {}),
    ...(g.result !== undefined ? { result: g.result as GameRow['result'] } : {}),
    ...(g.activeRoles !== undefined ? { activeRoles: g.activeRoles } : {}),
    ...(g.clocks !== undefined ? { clocks: g.clocks as GameRow['clocks'], deadlineAt: g.deadlineAt ?? null } : {}),
  };
}

export async function mutate(
  ctx: Ctx,
  caller: Caller | null,
  gameId: string,
  /** `now`: the service's time for this attempt (ctx.now()), the time the clocks are charged at. */
  decide: (game: GameRow, now: number) => Decision | Promise<Decision>,
  load: (gameId: string) => Promise<GameRow> = (id) => loadGame(ctx, caller, id),
  /**
   * `expired: 'refuse'` (the default for a caller's request): a change decided on a game whose
   * clock has run out (a deadline that ends it by itself, flaggedAt) is not committed; the game
   * ends by timeout first (fireTimeout, as the sweep would a moment later) and the request is
   * refused with 409 deadline_passed, as a late move is (actions.ts). `'decide'`: the decision
   * handles timeouts itself (the sweep, a claim) or is the system's (league), not a seat's.
   */
  opts: { expired?: 'refuse' | 'decide' } = {},
): Promise<GameRow> {
  const refuseExpired = (opts.expired ?? (caller === null ? 'decide' : 'refuse')) === 'refuse';
  for (let attempt = 1; ; attempt++) {
    const game = await load(gameId);
    const now = ctx.now();
    let d = await decide(game, now);
    // Authorised and valid, but too late: the clock that ran out decides the game, not this request.
    const flagged = refuseExpired && game.timeControl !== null ? flaggedAt(game, now) : [];
    if (flagged.length > 0) {
      const { fired, refusal } = await endLate(ctx, game.id, flagged, game.version);
      // Not fired: the row read was stale (a move or another timeout came first): decide again on the new one.
      if (!fired && attempt < MAX_ATTEMPTS) continue;
      throw refusal;
    }
    // The clocks follow every change of status or active roles (a decision may set them itself).
    if (game.timeControl !== null && d.game.clocks === undefined) {
      const next = { status: d.game.status ?? game.status, activeRoles: d.game.activeRoles ?? game.activeRoles };
      const c = clockChange(ctx, game, next, null, now);
      if (c.clocks !== undefined) d = { ...d, game: { ...d.game, ...c } };
    }
    const at = new Date(now);
    const seats = game.seats.map((s) => ({ role: s.role, playerId: d.seats?.find((c) => c.role === s.role)?.playerId ?? (d.seats?.some((c) => c.role === s.role) ? null : s.playerId) }));
    const webhooks = gameEvents(
      game,
      { status: d.game.status ?? game.status, activeRoles: d.game.activeRoles ?? game.activeRoles, version: game.version + d.entries.length, result: d.game.result === undefined ? game.result : d.game.result, seats },
      d.entries,
      at,
    );
    try {
      await commitChange(ctx.sql, ctx.commits, { gameId: game.id, expectedVersion: game.version, expectedClockRev: game.clockRev, at, ...d, webhooks });
      if (webhooks.length > 0) ctx.deliveries?.wake();
    } catch (err) {
      if (err instanceof VersionConflict && attempt < MAX_ATTEMPTS) continue;
      if (err instanceof VersionConflict) {
        throw new ServiceError('version_conflict', 'The game kept changing while this request was handled; try again.', { currentVersion: game.version });
      }
      throw err;
    }
    const after = await committedRow(ctx, game, d, at);
    ctx.cache.put(after);
    void publishCommitted(ctx, after, game.version + 1, d.entries, at);
    if (isOver(after.status) && !isOver(game.status)) await settleEnded(ctx, after.id);
    // A game that starts now runs its clocks: the seats of players on vacation stop at once.
    if (after.status === 'active' && game.status !== 'active' && after.timeControl !== null && (await pauseOnStart(ctx, after.id, after.seats.map((s) => s.playerId), now))) {
      const paused = await findGame(ctx.sql, after.id);
      if (paused) return orderSeats(ctx, paused);
    }
    return after;
  }
}
