// Players, applications and API keys: the named operations the service needs.
import type pg from 'pg';
import type { PrismaClient, Player, ApiKey } from '../generated/prisma/client.ts';

export type { Player, ApiKey };

export interface NewPlayer {
  name: string;
  kind: 'player' | 'app';
  isBot: boolean;
  externalId: string | null;
  createdById: string | null;
}

export function createPlayer(db: PrismaClient, p: NewPlayer): Promise<Player> {
  return db.player.create({ data: p });
}

export function findPlayer(db: PrismaClient, id: string): Promise<Player | null> {
  return db.player.findUnique({ where: { id } });
}

export function findAppPlayerByExternalId(db: PrismaClient, appId: string, externalId: string): Promise<Player | null> {
  return db.player.findUnique({ where: { createdById_externalId: { createdById: appId, externalId } } });
}

/** The players an application created (oldest first), as its app-wide stream names them. */
export function listAppPlayers(db: PrismaClient, appId: string): Promise<Array<Pick<Player, 'id' | 'name' | 'externalId'>>> {
  return db.player.findMany({ where: { createdById: appId }, select: { id: true, name: true, externalId: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export function insertKey(db: PrismaClient, k: { playerId: string; prefix: string; hash: string; label: string | null }): Promise<ApiKey> {
  return db.apiKey.create({ data: k });
}

export interface KeyOwner {
  id: string;
  playerId: string;
  revokedAt: Date | null;
  player: Pick<Player, 'id' | 'kind'>;
}

/**
 * The key with that hash (revoked or not) and its player's kind. Every
 * authenticated request asks this, so it is one prepared statement on the pool
 * under Prisma (Prisma's compiled queries cost noticeable CPU per call; see bench:service).
 */
export async function findKeyByHash(sql: Pick<pg.Pool, 'query'>, hash: string): Promise<KeyOwner | null> {
  const { rows } = await sql.query<{ id: string; player_id: string; revoked_at: Date | null; kind: 'player' | 'app' }>({
    name: 'herald-find-key',
    text: `SELECT k.id::text AS id, k.player_id::text AS player_id, k.revoked_at, p.kind::text AS kind
      FROM api_keys k JOIN players p ON p.id = k.player_id WHERE k.hash = $1`,
    values: [hash],
  });
  const r = rows[0];
  if (!r) return null;
  return { id: r.id, playerId: r.player_id, revokedAt: r.revoked_at ? new Date(r.revoked_at) : null, player: { id: r.player_id, kind: r.kind } };
}

export function listKeys(db: PrismaClient, playerId: string): Promise<ApiKey[]> {
  return db.apiKey.findMany({ where: { playerId }, orderBy: { createdAt: 'asc' } });
}

/** Revokes a key (of that player when playerId is given); false when there is no such key. */
export async function revokeKey(db: PrismaClient, keyId: string, playerId?: string): Promise<boolean> {
  const r = await db.apiKey.updateMany({
    where: { id: keyId, ...(playerId ? { playerId } : {}), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (r.count > 0) return true;
  // Already revoked counts as done (DELETE is idempotent); unknown is not.
  const k = await db.apiKey.findFirst({ where: { id: keyId, ...(playerId ? { playerId } : {}) } });
  return k !== null;
}
