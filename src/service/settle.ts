// Settling a game that is over: both players' Glicko-2 ratings (rated games) and the league
// result (league games), exactly once per game.
//
// Once: the transaction starts by claiming the game (`UPDATE … SET settled_at = now() WHERE
// settled_at IS NULL`); a second settlement of the same game, concurrent or later, claims
// nothing and does nothing, and a settlement that fails rolls its claim back with everything
// else, so the sweep finds the game again.
//
// When: right after the commit that ended the game, awaited by that request (a client that
// reads right after its final move sees the new rating), and by the sweep (src/jobs/), which
// settles what a crash or a failed settlement left behind. A failed settlement never fails the
// request that ended the game: that commit stands.
import type { Prisma } from '../generated/prisma/client.ts';
import { ageRating, newRating, rateGame, type Rating, type Score } from '../leagues/ratings.ts';
import { findModule, type Ctx } from './context.ts';
import { settleLeagueGame } from './league-results.ts';
import { runAfterCommit } from './league-tx.ts';

interface ClaimedGame {
  id: string;
  game_type: string;
  status: string;
  result: unknown;
  rated: boolean;
  settled_at: Date;
}

interface RatingRow {
  player_id: string;
  rating: number;
  rd: number;
  vol: number;
  games: number;
  updated_at: Date;
}

// As long as a league change may take: the last game of a round may publish the next one (league-tx.ts).
const TX_OPTIONS = { maxWait: 30_000, timeout: 120_000 };

/**
 * A float parameter as its shortest exact decimal text: Prisma's driver adapter sends a JS
 * number with fewer digits than a double holds, and a rating must be stored exactly as computed.
 */
const f8 = (x: number): string => String(x);

/**
 * Settles a game that is over, once: true when this call settled it; false when there is
 * nothing to settle (not over, already settled, no such game). Throws when the settlement
 * failed (nothing of it is kept).
 */
export async function settleGame(ctx: Ctx, gameId: string): Promise<boolean> {
  // Most games are neither rated nor a league board: settling them is only the mark, one
  // statement on the pool (no transaction). Any other game claims nothing here and is
  // settled below.
  if (await markSettledIfPlain(ctx, gameId)) return true;
  const afterCommit = await ctx.db.$transaction(async (tx) => {
    const claimed = await tx.$queryRaw<ClaimedGame[]>`
      UPDATE games SET settled_at = now()
      WHERE id = ${gameId}::uuid AND status IN ('finished', 'abandoned') AND settled_at IS NULL
      RETURNING id::text AS id, game_type, status::text AS status, result, rated, settled_at`;
    const game = claimed[0];
    if (!game) return null;
    if (game.rated && game.status === 'finished') await rate(ctx, tx, game);
    return settleLeagueGame(ctx, tx, { id: game.id, status: game.status, result: game.result });
  }, TX_OPTIONS);
  if (afterCommit === null) return false;
  // Publishing, the league's next round…: after the commit, never failing the settlement.
  await runAfterCommit(ctx, afterCommit);
  return true;
}

/** Marks the game settled when it is over, not settled, and has nothing else to settle (not rated-and-finished, no league board). */
async function markSettledIfPlain(ctx: Ctx, gameId: string): Promise<boolean> {
  const { rowCount } = await ctx.sql.query({
    name: 'herald-settle-plain',
    text: `UPDATE games g SET settled_at = now()
      WHERE g.id = $1::uuid AND g.status IN ('finished', 'abandoned') AND g.settled_at IS NULL
        AND (NOT g.rated OR g.status = 'abandoned')
        AND NOT EXISTS (SELECT 1 FROM league_pairings lp WHERE lp.game_id = g.id)`,
    values: [gameId],
  });
  return rowCount === 1;
}

/** settleGame for the request that ended the game: a failure is logged, never thrown (the sweep retries). */
export async function settleEnded(ctx: Ctx, gameId: string): Promise<void> {
  try {
    await settleGame(ctx, gameId);
  } catch (err) {
    ctx.log.warn({ err, gameId }, 'settling a game that ended failed; the sweep settles it later');
  }
}

/**
 * Both players' ratings after a rated game, in the settlement's transaction. Only games of two
 * seats held by two different players are rated (a hot-seat game, or one whose seat was never
 * taken, is not); the winner is the result's role, or a draw when it names none.
 */
async function rate(ctx: Ctx, tx: Prisma.TransactionClient, game: ClaimedGame): Promise<void> {
  const roles = findModule(ctx, game.game_type)?.roles;
  if (!roles || roles.length !== 2) return;
  const [firstRole, secondRole] = roles as [string, string];
  const seats = await tx.$queryRaw<{ role: string; player_id: string | null }[]>`
    SELECT role, player_id::text AS player_id FROM seats WHERE game_id = ${game.id}::uuid`;
  const first = seats.find((s) => s.role === firstRole)?.player_id ?? null;
  const second = seats.find((s) => s.role === secondRole)?.player_id ?? null;
  if (first === null || second === null || first === second) return;
  const winner = (game.result as { winner?: unknown } | null)?.winner;
  let score: Score;
  if (winner === firstRole) score = 1;
  else if (winner === secondRole) score = 0;
  else if (winner === null) score = 0.5;
  else {
    ctx.log.warn({ gameId: game.id, winner }, 'a rated game whose winner is not one of its roles: not rated');
    return;
  }

  // A player's first rated game of this type creates their rating. Then both rows are locked
  // in player-id order, so that two settlements of games of the same player wait for each
  // other (neither update is lost) and two settlements never lock in opposite orders.
  const fresh = newRating(game.settled_at.getTime());
  await tx.$executeRaw`
    INSERT INTO ratings (player_id, game_type, rating, rd, vol, updated_at)
    SELECT p, ${game.game_type}::text, ${f8(fresh.rating)}::float8, ${f8(fresh.rd)}::float8, ${f8(fresh.vol)}::float8, ${game.settled_at}::timestamptz
    FROM unnest(ARRAY[${first}::uuid, ${second}::uuid]) AS p ORDER BY p
    ON CONFLICT (player_id, game_type) DO NOTHING`;
  const rows = await tx.$queryRaw<RatingRow[]>`
    SELECT player_id::text AS player_id, rating, rd, vol, games, updated_at FROM ratings
    WHERE game_type = ${game.game_type} AND player_id IN (${first}::uuid, ${second}::uuid)
    ORDER BY player_id FOR UPDATE`;
  const rowOf = (id: string): RatingRow => {
    const r = rows.find((x) => x.player_id === id);
    if (!r) throw new Error(`rating of ${id} vanished while settling ${game.id}`);
    return r;
  };
  const a = toRating(rowOf(first));
  const b = toRating(rowOf(second));
  // Never before either rating's last update (a settlement that waited for the lock).
  const at = Math.max(game.settled_at.getTime(), a.updatedAt, b.updatedAt);
  const [a2, b2] = rateGame(a, b, score, at);
  await record(tx, game, first, second, ageRating(a, at), a2, score, at);
  await record(tx, game, second, first, ageRating(b, at), b2, (1 - score) as Score, at);
}

function toRating(r: RatingRow): Rating {
  return { rating: r.rating, rd: r.rd, vol: r.vol, games: r.games, updatedAt: new Date(r.updated_at).getTime() };
}

/** One player's new rating and its history entry (rating_changes: before is the RD aged to the game). */
async function record(
  tx: Prisma.TransactionClient,
  game: ClaimedGame,
  playerId: string,
  opponentId: string,
  before: Rating,
  after: Rating,
  score: Score,
  atMs: number,
): Promise<void> {
  const at = new Date(atMs);
  const [w, d, l] = score === 1 ? [1, 0, 0] : score === 0 ? [0, 0, 1] : [0, 1, 0];
  await tx.$executeRaw`
    UPDATE ratings SET rating = ${f8(after.rating)}::float8, rd = ${f8(after.rd)}::float8, vol = ${f8(after.vol)}::float8, games = games + 1,
      wins = wins + ${w}::int, draws = draws + ${d}::int, losses = losses + ${l}::int, updated_at = ${at}::timestamptz
    WHERE player_id = ${playerId}::uuid AND game_type = ${game.game_type}`;
  await tx.$executeRaw`
    INSERT INTO rating_changes (game_id, player_id, game_type, opponent_id, score, rating_before, rd_before, rating, rd, vol, at)
    VALUES (${game.id}::uuid, ${playerId}::uuid, ${game.game_type}, ${opponentId}::uuid, ${f8(score)}::float8, ${f8(before.rating)}::float8, ${f8(before.rd)}::float8,
      ${f8(after.rating)}::float8, ${f8(after.rd)}::float8, ${f8(after.vol)}::float8, ${at}::timestamptz)`;
}

/**
 * Settles every game that is over and not settled (after a crash, or a settlement that
 * failed); returns how many it settled. Games that are neither rated nor league boards have
 * nothing to settle but the mark: those are marked in one statement.
 */
export async function sweepUnsettled(ctx: Ctx, opts: { batch?: number } = {}): Promise<number> {
  const batch = opts.batch ?? 200;
  let settled = await ctx.db.$executeRaw`
    UPDATE games g SET settled_at = now()
    WHERE g.status IN ('finished', 'abandoned') AND g.settled_at IS NULL
      AND (NOT g.rated OR g.status = 'abandoned')
      AND NOT EXISTS (SELECT 1 FROM league_pairings lp WHERE lp.game_id = g.id)`;
  // A game whose settlement fails is left for the next sweep, not retried in a loop.
  const failed: string[] = [];
  for (;;) {
    const rows = await ctx.db.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM games
      WHERE status IN ('finished', 'abandoned') AND settled_at IS NULL AND NOT (id = ANY(${failed}::uuid[]))
      ORDER BY updated_at, id LIMIT ${batch}`;
    if (rows.length === 0) return settled;
    for (const { id } of rows) {
      try {
        if (await settleGame(ctx, id)) settled++;
      } catch (err) {
        failed.push(id);
        ctx.log.warn({ err, gameId: id }, 'settling a game failed; the next sweep tries again');
      }
    }
  }
}
