// Named operations over the league tables (prisma/schema.prisma, "Leagues"). Every change to a
// league runs in one transaction that first takes the league row's lock (lockLeague), so two
// organisers, a game ending and a player joining never interleave their reads and writes.
import type { Prisma, PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient | Prisma.TransactionClient;

const playerRef = { select: { id: true, name: true, isBot: true } } as const;

export const leagueInclude = {
  organisers: { include: { player: playerRef }, orderBy: { addedAt: 'asc' as const } },
  _count: { select: { entrants: true, rounds: true } },
  // The last published round: when the next one is due on a schedule (League.nextRoundAt).
  rounds: { where: { status: { not: 'draft' } }, orderBy: { number: 'desc' as const }, take: 1, select: { number: true, publishedAt: true } },
} satisfies Prisma.LeagueInclude;

export type LeagueRow = Prisma.LeagueGetPayload<{ include: typeof leagueInclude }>;
export type EntrantRow = Prisma.LeagueEntrantGetPayload<{ include: { player: typeof playerRef } }>;
export type PairingRow = Prisma.LeaguePairingGetPayload<object>;
export type RoundRow = Prisma.LeagueRoundGetPayload<object>;

/** Locks the league row for the rest of the transaction; false when there is no such league. */
export async function lockLeague(tx: Prisma.TransactionClient, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM leagues WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length === 1;
}

export function findLeague(db: Db, id: string): Promise<LeagueRow | null> {
  return db.league.findUnique({ where: { id }, include: leagueInclude });
}

/** One more committed change of the league. */
export function bumpLeague(tx: Prisma.TransactionClient, id: string, data: Prisma.LeagueUpdateInput = {}): Promise<unknown> {
  return tx.league.update({ where: { id }, data: { ...data, version: { increment: 1 } } });
}

export function listEntrantRows(db: Db, leagueId: string): Promise<EntrantRow[]> {
  return db.leagueEntrant.findMany({ where: { leagueId }, include: { player: playerRef }, orderBy: [{ joinedAt: 'asc' }, { playerId: 'asc' }] });
}

export function listRoundRows(db: Db, leagueId: string): Promise<RoundRow[]> {
  return db.leagueRound.findMany({ where: { leagueId }, orderBy: { number: 'asc' } });
}

export function listPairingRows(db: Db, leagueId: string, round?: number): Promise<PairingRow[]> {
  return db.leaguePairing.findMany({ where: { leagueId, ...(round !== undefined ? { round } : {}) }, orderBy: [{ round: 'asc' }, { board: 'asc' }] });
}

export function playerRefs(db: Db, ids: string[]): Promise<{ id: string; name: string; isBot: boolean }[]> {
  return db.player.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, isBot: true } });
}

/** Current ratings (stored value; the caller ages the RD) of these players in one game type. */
export function ratingRows(db: Db, gameType: string, playerIds: string[]) {
  return db.rating.findMany({ where: { gameType, playerId: { in: playerIds } } });
}

export interface LeagueListQuery {
  gameType?: string;
  status?: 'registration' | 'running' | 'finished';
  playerId?: string;
  organiserId?: string;
  /** Include unlisted leagues (only when filtering by the caller's own player id). */
  includeUnlisted: boolean;
  after?: { createdAt: Date; id: string };
  limit: number;
}

/** Newest first, keyset-paged on (created_at, id). */
export function queryLeagues(db: Db, q: LeagueListQuery): Promise<LeagueRow[]> {
  const where: Prisma.LeagueWhereInput = {
    ...(q.gameType ? { gameType: q.gameType } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.playerId ? { entrants: { some: { playerId: q.playerId } } } : {}),
    ...(q.organiserId ? { organisers: { some: { playerId: q.organiserId } } } : {}),
    ...(q.includeUnlisted ? {} : { visibility: 'public' }),
    ...(q.after
      ? { OR: [{ createdAt: { lt: q.after.createdAt } }, { createdAt: q.after.createdAt, id: { lt: q.after.id } }] }
      : {}),
  };
  return db.league.findMany({ where, include: leagueInclude, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: q.limit });
}
