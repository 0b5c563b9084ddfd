// Ratings as players and clients read them: player profiles, rating history and leaderboards.
// Ratings are written by settle.ts when a rated game ends; here they are only read, with the
// rating deviation aged to now (it grows with inactivity: src/leagues/ratings.ts).
//
// Answers round rating, RD and rating changes to one decimal; volatility is given as stored.
// An unknown game type is not_found (it is a path segment in REST: /game-types/{id}/…).
import { Prisma } from '../generated/prisma/client.ts';
import { ageRating, DEFAULT_GLICKO, GLICKO2_SCALE, isProvisional, type Rating } from '../leagues/ratings.ts';
import type {
  Caller, EntrantStatus, LeaderboardEntry, LeagueFormat, LeagueStatus, Page, PlayerProfile, PlayerRef, PlayerResult, RatingHistoryEntry, RatingInfo,
} from './api.ts';
import { findModule, isUuid, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isStorableTime } from './times.ts';

/** Recent results on a profile. */
export const RECENT_RESULTS = 20;
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

const round1 = (x: number): number => Math.round(x * 10) / 10;

interface PlayerRow {
  id: string;
  name: string;
  is_bot: boolean;
  created_at: Date;
}

/** The player, unless the id is not a player's (unknown, malformed, or an application account). */
async function findPlayer(ctx: Ctx, playerId: string): Promise<PlayerRow> {
  if (!isUuid(playerId)) throw new ServiceError('not_found', `No player ${String(playerId).slice(0, 100)}.`);
  const rows = await ctx.db.$queryRaw<PlayerRow[]>`
    SELECT id::text AS id, name, is_bot, created_at FROM players WHERE id = ${playerId}::uuid AND kind = 'player'`;
  const p = rows[0];
  if (!p) throw new ServiceError('not_found', `No player ${playerId}.`);
  return p;
}

function requireGameType(ctx: Ctx, gameType: unknown): string {
  if (!findModule(ctx, gameType)) {
    throw new ServiceError('not_found', `No game type ${String(gameType).slice(0, 100)}: this server hosts ${Object.keys(ctx.games).join(', ')}.`);
  }
  return gameType as string;
}

function pageLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return DEFAULT_PAGE;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new ServiceError('invalid_request', `limit must be an integer from 1 to ${MAX_PAGE}.`);
  }
  return limit;
}

/** Opaque cursors: the keyset position of the last item, as base64url JSON. */
function encodeCursor(v: unknown[]): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

function decodeCursor(cursor: unknown, check: (v: unknown[]) => boolean): unknown[] | null {
  if (cursor === undefined || cursor === null) return null;
  const bad = () => new ServiceError('invalid_request', 'cursor is not a cursor this list gave (pass nextCursor as it is).');
  if (typeof cursor !== 'string' || cursor.length > 300) throw bad();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(v) || !check(v)) throw bad();
  return v;
}

/** Games the caller may see: public ones, and private ones where they hold a seat or that they created. */
function visibleTo(caller: Caller | null): Prisma.Sql {
  if (!caller || caller.kind === 'admin' || !isUuid(caller.playerId)) return Prisma.sql`g.visibility = 'public'`;
  return Prisma.sql`(g.visibility = 'public' OR g.created_by_id = ${caller.playerId}::uuid
    OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = ${caller.playerId}::uuid))`;
}

interface RatingRow {
  game_type: string;
  rating: number;
  rd: number;
  vol: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  updated_at: Date;
}

function ratingOf(r: Pick<RatingRow, 'rating' | 'rd' | 'vol' | 'games' | 'updated_at'>): Rating {
  return { rating: r.rating, rd: r.rd, vol: r.vol, games: r.games, updatedAt: new Date(r.updated_at).getTime() };
}

function ratingInfo(r: RatingRow, now: number): RatingInfo {
  const rating = ratingOf(r);
  return {
    gameType: r.game_type,
    rating: round1(r.rating),
    rd: round1(ageRating(rating, now).rd),
    vol: r.vol,
    games: r.games,
    wins: r.wins,
    draws: r.draws,
    losses: r.losses,
    provisional: isProvisional(rating, now),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function getPlayerProfile(ctx: Ctx, caller: Caller | null, playerId: string): Promise<PlayerProfile> {
  const p = await findPlayer(ctx, playerId);
  const now = Date.now();
  const self = caller !== null && caller.playerId === p.id;

  const ratings = await ctx.db.$queryRaw<RatingRow[]>`
    SELECT game_type, rating, rd, vol, games, wins, draws, losses, updated_at FROM ratings
    WHERE player_id = ${p.id}::uuid ORDER BY game_type`;

  // Entries and organiser roles; unlisted leagues only on one's own profile.
  const leagues = await ctx.db.$queryRaw<
    { id: string; name: string; game_type: string; format: string; status: string; entrant_status: string | null; organiser: boolean }[]
  >`
    SELECT l.id::text AS id, l.name, l.game_type, l.format, l.status::text AS status, e.status AS entrant_status, (o.player_id IS NOT NULL) AS organiser
    FROM leagues l
      LEFT JOIN league_entrants e ON e.league_id = l.id AND e.player_id = ${p.id}::uuid
      LEFT JOIN league_organisers o ON o.league_id = l.id AND o.player_id = ${p.id}::uuid
    WHERE (e.player_id IS NOT NULL OR o.player_id IS NOT NULL) AND (l.visibility = 'public' OR ${self})
    ORDER BY l.created_at DESC, l.id`;

  const results = await ctx.db.$queryRaw<
    {
      id: string; game_type: string; role: string; result: { winner?: string | null; reason?: string } | null; rated: boolean; updated_at: Date;
      opponent_id: string | null; opponent_name: string | null; opponent_bot: boolean | null; rating: number | null; rating_before: number | null; league_id: string | null;
    }[]
  >`
    SELECT g.id::text AS id, g.game_type, s.role, g.result, g.rated, g.updated_at,
      op.id::text AS opponent_id, op.name AS opponent_name, op.is_bot AS opponent_bot,
      rc.rating, rc.rating_before, lp.league_id::text AS league_id
    FROM games g
      JOIN seats s ON s.game_id = g.id AND s.player_id = ${p.id}::uuid
      LEFT JOIN LATERAL (
        SELECT pl.id, pl.name, pl.is_bot FROM seats o JOIN players pl ON pl.id = o.player_id
        WHERE o.game_id = g.id AND o.role <> s.role AND o.player_id <> ${p.id}::uuid
        ORDER BY o.role LIMIT 1
      ) op ON true
      LEFT JOIN rating_changes rc ON rc.game_id = g.id AND rc.player_id = ${p.id}::uuid
      LEFT JOIN league_pairings lp ON lp.game_id = g.id
    WHERE g.status = 'finished' AND ${visibleTo(caller)}
      -- a game against oneself (every seat held by this player) is practice, not a result
      AND EXISTS (SELECT 1 FROM seats x WHERE x.game_id = g.id AND x.player_id IS DISTINCT FROM ${p.id}::uuid)
    ORDER BY g.updated_at DESC, g.id DESC
    LIMIT ${RECENT_RESULTS}`;

  return {
    player: { id: p.id, name: p.name, isBot: p.is_bot, createdAt: new Date(p.created_at).toISOString() },
    ratings: ratings.map((r) => ratingInfo(r, now)),
    leagues: leagues.map((l) => ({
      league: { id: l.id, name: l.name, gameType: l.game_type, format: l.format as LeagueFormat, status: l.status as LeagueStatus },
      status: l.entrant_status as EntrantStatus | null,
      organiser: l.organiser,
    })),
    recentResults: results.map((r): PlayerResult => {
      const winner = r.result?.winner;
      const outcome = r.result === null ? null : winner === r.role ? 'win' : winner === null || winner === undefined ? 'draw' : 'loss';
      return {
        gameId: r.id,
        gameType: r.game_type,
        role: r.role,
        opponent: r.opponent_id === null ? null : { id: r.opponent_id, name: r.opponent_name ?? '', isBot: r.opponent_bot ?? false },
        outcome,
        reason: r.result?.reason ?? '',
        rated: r.rated,
        ratingChange: r.rating === null || r.rating_before === null ? null : round1(r.rating - r.rating_before),
        leagueId: r.league_id,
        endedAt: new Date(r.updated_at).toISOString(),
      };
    }),
  };
}

/**
 * The player's rating after each rated game of the type, newest first. Games the caller may
 * not see (another player's private games) are left out.
 */
export async function getRatingHistory(
  ctx: Ctx,
  caller: Caller | null,
  playerId: string,
  gameType: string,
  page: { cursor?: string; limit?: number } = {},
): Promise<Page<RatingHistoryEntry>> {
  const p = await findPlayer(ctx, playerId);
  const type = requireGameType(ctx, gameType);
  const limit = pageLimit(page.limit);
  const after = decodeCursor(page.cursor, (v) => v.length === 2 && typeof v[0] === 'string' && isStorableTime(new Date(v[0])) && isUuid(v[1]));
  const rows = await ctx.db.$queryRaw<
    { game_id: string; at: Date; score: number; rating_before: number; rating: number; rd: number; opponent_id: string; opponent_name: string; opponent_bot: boolean }[]
  >`
    SELECT rc.game_id::text AS game_id, rc.at, rc.score, rc.rating_before, rc.rating, rc.rd,
      op.id::text AS opponent_id, op.name AS opponent_name, op.is_bot AS opponent_bot
    FROM rating_changes rc
      JOIN games g ON g.id = rc.game_id
      JOIN players op ON op.id = rc.opponent_id
    WHERE rc.player_id = ${p.id}::uuid AND rc.game_type = ${type} AND ${visibleTo(caller)}
      ${after ? Prisma.sql`AND (rc.at, rc.game_id) < (${after[0] as string}::timestamptz, ${after[1] as string}::uuid)` : Prisma.empty}
    ORDER BY rc.at DESC, rc.game_id DESC
    LIMIT ${limit + 1}`;
  const items = rows.slice(0, limit).map((r) => ({
    gameId: r.game_id,
    opponent: { id: r.opponent_id, name: r.opponent_name, isBot: r.opponent_bot },
    score: r.score,
    ratingBefore: round1(r.rating_before),
    rating: round1(r.rating),
    rd: round1(r.rd),
    at: new Date(r.at).toISOString(),
  }));
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor([last.at, last.gameId]) : null };
}

/**
 * Players by rating (highest first, then player id), ranked 1, 2, … among those listed.
 * Provisional ratings (RD aged to now above 110) are left out unless includeProvisional.
 */
export async function getLeaderboard(
  ctx: Ctx,
  gameType: string,
  opts: { includeProvisional?: boolean; cursor?: string; limit?: number } = {},
): Promise<Page<LeaderboardEntry>> {
  const type = requireGameType(ctx, gameType);
  const limit = pageLimit(opts.limit);
  if (opts.includeProvisional !== undefined && opts.includeProvisional !== null && typeof opts.includeProvisional !== 'boolean') {
    throw new ServiceError('invalid_request', 'includeProvisional must be a boolean.');
  }
  const after = decodeCursor(opts.cursor, (v) => v.length === 2 && typeof v[0] === 'number' && Number.isFinite(v[0]) && isUuid(v[1]));
  const now = new Date();
  const g = DEFAULT_GLICKO;
  // The RD aged to now as src/leagues/ratings.ts ages it (ageRating: one step 6 per whole
  // rating period since the last update, capped at the unrated RD), so that the provisional
  // filter and the ranks are decided in the database, page by page.
  const rows = await ctx.db.$queryRaw<
    { player_id: string; name: string; is_bot: boolean; rating: number; rd: number; vol: number; games: number; updated_at: Date; rank: bigint | number }[]
  >`
    WITH aged AS (
      SELECT r.player_id, r.rating, r.rd, r.vol, r.games, r.updated_at,
        LEAST(${g.initialRd}::float8, sqrt(power(r.rd, 2) + GREATEST(0, floor(extract(epoch FROM (${now}::timestamptz - r.updated_at)) / ${g.periodDays * 86_400}::float8))
          * power(r.vol * ${GLICKO2_SCALE}::float8, 2))) AS aged_rd
      FROM ratings r WHERE r.game_type = ${type}
    ), ranked AS (
      SELECT a.*, row_number() OVER (ORDER BY a.rating DESC, a.player_id) AS rank FROM aged a
      WHERE ${opts.includeProvisional === true} OR a.aged_rd <= ${g.provisionalRd}::float8
    )
    SELECT k.player_id::text AS player_id, p.name, p.is_bot, k.rating, k.rd, k.vol, k.games, k.updated_at, k.rank
    FROM ranked k JOIN players p ON p.id = k.player_id
    -- the cursor's rating as exact decimal text (a number parameter would lose digits)
    ${after ? Prisma.sql`WHERE (k.rating < ${String(after[0])}::float8 OR (k.rating = ${String(after[0])}::float8 AND k.player_id > ${after[1] as string}::uuid))` : Prisma.empty}
    ORDER BY k.rating DESC, k.player_id
    LIMIT ${limit + 1}`;
  const t = now.getTime();
  const page = rows.slice(0, limit);
  const items = page.map((r) => {
    const rating = ratingOf(r);
    return {
      rank: Number(r.rank),
      player: { id: r.player_id, name: r.name, isBot: r.is_bot } satisfies PlayerRef,
      rating: round1(r.rating),
      rd: round1(ageRating(rating, t).rd),
      games: r.games,
      provisional: isProvisional(rating, t),
    };
  });
  const last = page[page.length - 1];
  // The cursor keeps the stored rating (not the rounded one): the keyset must be exact.
  return { items, nextCursor: rows.length > limit && last ? encodeCursor([last.rating, last.player_id]) : null };
}
