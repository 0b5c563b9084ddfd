// Players, applications and API keys: the named operations the service needs.
import type pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { PrismaClient, Player, ApiKey } from '../generated/prisma/client.ts';

export type { Player, ApiKey };

type Sql = Pick<pg.Pool, 'query'>;

export interface NewPlayer {
  name: string;
  kind: 'player' | 'app';
  isBot: boolean;
  externalId: string | null;
  createdById: string | null;
}

interface RawPlayer {
  id: string;
  name: string;
  kind: 'player' | 'app';
  is_bot: boolean;
  external_id: string | null;
  created_by_id: string | null;
  created_at: Date;
}

/**
 * A new player: one prepared statement on the pool (sign-ups come in bursts: a bot fleet
 * starting; Prisma's query compiler costs noticeable CPU per call). A second player with the
 * same externalId of one application fails with a unique violation (23505).
 */
export async function createPlayer(sql: Sql, p: NewPlayer): Promise<Player> {
  const { rows } = await sql.query<RawPlayer>({
    name: 'herald-create-player',
    text: `INSERT INTO players (id, name, kind, is_bot, external_id, created_by_id, created_at)
      VALUES ($1::uuid, $2, $3::player_kind, $4, $5, $6::uuid, now())
      RETURNING id::text AS id, name, kind::text AS kind, is_bot, external_id, created_by_id::text AS created_by_id, created_at`,
    values: [randomUUID(), p.name, p.kind, p.isBot, p.externalId, p.createdById],
  });
  const r = rows[0]!;
  return { id: r.id, name: r.name, kind: r.kind, isBot: r.is_bot, externalId: r.external_id, createdById: r.created_by_id, aiLevel: null, createdAt: new Date(r.created_at) };
}

/**
 * Herald's computer player of each level (players.ai_level), made on first use: a bot
 * player with no key, so nobody can act as it but the AI job. Two servers making them at
 * once get the same rows (the unique index on ai_level).
 */
export async function ensureAiPlayers(sql: Sql, levels: readonly { level: string; name: string }[]): Promise<Map<string, string>> {
  await sql.query({
    text: `INSERT INTO players (id, name, kind, is_bot, ai_level, created_at)
      SELECT gen_random_uuid(), x.name, 'player'::player_kind, true, x.level, now()
      FROM unnest($1::text[], $2::text[]) AS x(level, name)
      ON CONFLICT (ai_level) DO NOTHING`,
    values: [levels.map((l) => l.level), levels.map((l) => l.name)],
  });
  return findAiPlayers(sql);
}

/** The AI players made so far, level → id. */
export async function findAiPlayers(sql: Sql): Promise<Map<string, string>> {
  const { rows } = await sql.query<{ id: string; ai_level: string }>('SELECT id::text AS id, ai_level FROM players WHERE ai_level IS NOT NULL');
  return new Map(rows.map((r) => [r.ai_level, r.id]));
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

export async function insertKey(sql: Sql, k: { playerId: string; prefix: string; hash: string; label: string | null }): Promise<ApiKey> {
  const { rows } = await sql.query<{ id: string; player_id: string; prefix: string; hash: string; label: string | null; created_at: Date; revoked_at: Date | null }>({
    name: 'herald-insert-key',
    text: `INSERT INTO api_keys (id, player_id, prefix, hash, label, created_at) VALUES ($1::uuid, $2::uuid, $3, $4, $5, now())
      RETURNING id::text AS id, player_id::text AS player_id, prefix, hash, label, created_at, revoked_at`,
    values: [randomUUID(), k.playerId, k.prefix, k.hash, k.label],
  });
  const r = rows[0]!;
  return { id: r.id, playerId: r.player_id, prefix: r.prefix, hash: r.hash, label: r.label, createdAt: new Date(r.created_at), revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at) };
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

/**
 * Of these key ids, those that no longer authenticate: revoked, or gone. One
 * query for every key with a live stream on an instance (the streams' periodic
 * check, http/key-streams.ts).
 */
export async function unusableKeys(sql: Pick<pg.Pool, 'query'>, keyIds: readonly string[]): Promise<string[]> {
  if (keyIds.length === 0) return [];
  const { rows } = await sql.query<{ id: string }>({
    name: 'herald-live-keys',
    text: 'SELECT id::text AS id FROM api_keys WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL',
    values: [keyIds],
  });
  const live = new Set(rows.map((r) => r.id));
  return keyIds.filter((id) => !live.has(id));
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
