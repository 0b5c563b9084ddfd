// Players, applications and API keys; authentication of a request's key.
import type { ApiKey, Player } from '../store/players.ts';
import * as players from '../store/players.ts';
import type { ApiKeyInfo, AppPlayer, Caller, CreatePlayerInput, NewApiKey, PlayerInfo } from './api.ts';
import { isUuid, requirePlayer, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject } from './json.ts';
import type { CachedKey } from './key-cache.ts';
import { newApiKey, sameDigest, secretDigest, sha256 } from './secrets.ts';
import { isUniqueViolation } from '../store/games.ts';

const MAX_NAME = 100;
const MAX_EXTERNAL_ID = 200;
const MAX_LABEL = 100;

export function playerInfo(p: Player): PlayerInfo {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    isBot: p.isBot,
    externalId: p.externalId,
    createdBy: p.createdById,
    createdAt: p.createdAt.toISOString(),
  };
}

export function keyInfo(k: ApiKey): ApiKeyInfo {
  return {
    id: k.id,
    prefix: k.prefix,
    label: k.label,
    createdAt: k.createdAt.toISOString(),
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
  };
}

function text(v: unknown, name: string, max: number, required: boolean): string | undefined {
  if (v === undefined || v === null) {
    if (required) throw new ServiceError('invalid_request', `${name} is required.`);
    return undefined;
  }
  if (typeof v !== 'string' || v.trim() === '' || v.length > max) {
    throw new ServiceError('invalid_request', `${name} must be a non-empty string of at most ${max} characters.`);
  }
  return v.trim();
}

async function issueKey(ctx: Ctx, playerId: string, label: string | null): Promise<NewApiKey> {
  const k = newApiKey();
  const row = await players.insertKey(ctx.sql, { playerId, prefix: k.prefix, hash: k.hash, label });
  return { ...keyInfo(row), key: k.key };
}

/** The key's owner: from this instance's key cache (key-cache.ts) or the database. */
async function keyOf(ctx: Ctx, rawKey: string): Promise<CachedKey> {
  const hash = sha256(rawKey);
  const cached = ctx.keys.get(hash);
  if (cached) return cached;
  // Kept only once this instance hears of revocations (before that, looked up every time).
  const listening = ctx.keys.ready();
  const row = await players.findKeyByHash(ctx.sql, hash);
  if (!row || row.revokedAt) throw new ServiceError('unauthorized', 'Unknown or revoked API key.');
  const key = { id: row.id, playerId: row.playerId, kind: row.player.kind };
  return listening ? ctx.keys.put(hash, key) : { ...key, actAs: new Set(), expiresAt: 0 };
}

export async function authenticate(ctx: Ctx, rawKey: string, actAs?: string): Promise<Caller> {
  if (!rawKey) throw new ServiceError('unauthorized', 'Unknown or revoked API key.');
  const key = await keyOf(ctx, rawKey);
  const known = callerOfKey(key, actAs);
  if (known) return known;
  // An application acting for a player not checked yet.
  const target = isUuid(actAs!) ? await players.findPlayer(ctx.db, actAs!) : null;
  if (!target || target.createdById !== key.playerId) {
    throw new ServiceError('forbidden', `X-Act-As: ${actAs} is not a player this application created.`);
  }
  // A player's creator never changes: once checked, the pair stays good for the key's time in the cache.
  key.actAs.add(actAs!);
  return { playerId: actAs!, keyId: key.id, kind: 'app', appId: key.playerId };
}

/**
 * authenticate() without waiting, for a key this instance has in its cache
 * (every request of a client but its first in KEY_TTL_MS): the caller, the
 * same refusals, or undefined when only authenticate() can tell (a key not in
 * the cache, an X-Act-As player not checked yet). Saves a promise per request.
 */
export function cachedCaller(ctx: Ctx, rawKey: string, actAs?: string): Caller | undefined {
  if (!rawKey) throw new ServiceError('unauthorized', 'Unknown or revoked API key.');
  const key = ctx.keys.get(sha256(rawKey));
  return key === undefined ? undefined : callerOfKey(key, actAs);
}

/** The caller a known key makes, with X-Act-As; undefined while the acted-for player is unchecked. */
function callerOfKey(key: CachedKey, actAs: string | undefined): Caller | undefined {
  if (actAs === undefined || actAs === '') return { playerId: key.playerId, keyId: key.id, kind: key.kind };
  if (key.kind !== 'app') throw new ServiceError('forbidden', 'X-Act-As needs an application key.');
  if (!key.actAs.has(actAs)) return undefined;
  return { playerId: actAs, keyId: key.id, kind: 'app', appId: key.playerId };
}

/** The application an application key names when used as itself (no X-Act-As); anyone else is refused. */
export function requireApp(caller: Caller): string {
  if (caller.kind !== 'app' || caller.appId !== undefined) {
    throw new ServiceError('forbidden', 'This needs an application key used as the application itself (without X-Act-As).');
  }
  return caller.playerId;
}

export async function appPlayers(ctx: Ctx, appId: string): Promise<AppPlayer[]> {
  if (!isUuid(appId)) return [];
  return players.listAppPlayers(ctx.db, appId);
}

/** The operator token's digest, computed once rather than on every request that carries a key. */
let adminDigest: { token: string; digest: Buffer } | null = null;

export function isAdminToken(ctx: Ctx, raw: string): boolean {
  if (ctx.adminToken === null || raw === '') return false;
  if (adminDigest?.token !== ctx.adminToken) adminDigest = { token: ctx.adminToken, digest: secretDigest(ctx.adminToken) };
  return sameDigest(raw, adminDigest.digest);
}

export async function createPlayer(ctx: Ctx, caller: Caller | null, input: CreatePlayerInput): Promise<{ player: PlayerInfo; key?: NewApiKey; created: boolean }> {
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const name = text(input.name, 'name', MAX_NAME, true)!;
  const externalId = text(input.externalId, 'externalId', MAX_EXTERNAL_ID, false) ?? null;
  if (input.isBot !== undefined && typeof input.isBot !== 'boolean') throw new ServiceError('invalid_request', 'isBot must be a boolean.');
  const isBot = input.isBot ?? false;

  if (caller === null) {
    if (!ctx.openSignup) throw new ServiceError('forbidden', 'Self-signup is disabled on this server; ask an operator or an application for a player.');
    if (externalId !== null) throw new ServiceError('invalid_request', 'externalId is for players created by an application.');
    const player = await players.createPlayer(ctx.sql, { name, kind: 'player', isBot, externalId: null, createdById: null });
    return { player: playerInfo(player), key: await issueKey(ctx, player.id, 'first key'), created: true };
  }
  if (caller.kind !== 'app' || caller.appId !== undefined) {
    throw new ServiceError('forbidden', 'Only an application key (without X-Act-As) creates players; others sign up without a key.');
  }
  if (externalId !== null) {
    const existing = await players.findAppPlayerByExternalId(ctx.db, caller.playerId, externalId);
    if (existing) return { player: playerInfo(existing), created: false };
  }
  try {
    const player = await players.createPlayer(ctx.sql, { name, kind: 'player', isBot, externalId, createdById: caller.playerId });
    return { player: playerInfo(player), created: true };
  } catch (err) {
    // Two concurrent creations of one externalId: the loser returns the winner's player.
    if (isUniqueViolation(err) && externalId !== null) {
      const existing = await players.findAppPlayerByExternalId(ctx.db, caller.playerId, externalId);
      if (existing) return { player: playerInfo(existing), created: false };
    }
    throw err;
  }
}

export async function getPlayer(ctx: Ctx, caller: Caller): Promise<PlayerInfo> {
  const c = requirePlayer(caller);
  const p = await players.findPlayer(ctx.db, c.playerId);
  if (!p) throw new ServiceError('not_found', 'Your player no longer exists.');
  return playerInfo(p);
}

/** Keys belong to the account that holds them: an app acting as a player manages no keys. */
function keyOwner(caller: Caller): string {
  const c = requirePlayer(caller);
  if (c.appId !== undefined) throw new ServiceError('forbidden', 'Players created by an application have no keys; the application acts for them.');
  return c.playerId;
}

export async function listKeys(ctx: Ctx, caller: Caller): Promise<ApiKeyInfo[]> {
  return (await players.listKeys(ctx.db, keyOwner(caller))).map(keyInfo);
}

export async function createKey(ctx: Ctx, caller: Caller, label?: string): Promise<NewApiKey> {
  const owner = keyOwner(caller);
  return issueKey(ctx, owner, text(label, 'label', MAX_LABEL, false) ?? null);
}

export async function revokeKey(ctx: Ctx, caller: Caller, keyId: string): Promise<void> {
  if (caller.kind === 'admin') {
    if (!isUuid(keyId) || !(await players.revokeKey(ctx.db, keyId))) throw new ServiceError('not_found', `No key ${keyId}.`);
  } else {
    const owner = keyOwner(caller);
    if (!isUuid(keyId) || !(await players.revokeKey(ctx.db, keyId, owner))) throw new ServiceError('not_found', `No key ${keyId} of yours.`);
  }
  // Committed: other instances that keep the key are told (a lost message is covered by the cache's TTL).
  await ctx.keys.revoked(keyId).catch((err: unknown) => {
    ctx.log.warn({ keyId, err: err instanceof Error ? err.message : String(err) }, 'key revocation not announced on the bus (other instances drop the key within the key cache TTL)');
  });
}

/** Of these key ids, those revoked or unknown (a malformed id is unknown). */
export async function revokedKeys(ctx: Ctx, keyIds: readonly string[]): Promise<string[]> {
  const wellFormed = keyIds.filter(isUuid);
  const gone = new Set(await players.unusableKeys(ctx.sql, wellFormed));
  return keyIds.filter((id) => !isUuid(id) || gone.has(id));
}

export async function createApp(ctx: Ctx, caller: Caller, input: { name: string }): Promise<{ app: PlayerInfo; key: NewApiKey }> {
  if (caller.kind !== 'admin') throw new ServiceError('forbidden', 'Operator token required.');
  if (!isPlainObject(input)) throw new ServiceError('invalid_request', 'The body must be a JSON object.');
  const name = text(input.name, 'name', MAX_NAME, true)!;
  const app = await players.createPlayer(ctx.sql, { name, kind: 'app', isBot: true, externalId: null, createdById: null });
  return { app: playerInfo(app), key: await issueKey(ctx, app.id, 'application key') };
}
