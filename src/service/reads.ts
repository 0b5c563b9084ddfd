// Reads: summaries, the caller's seat view (or the spectator's), legal
// actions, the per-seat log, lists with keyset pagination, catch-up events,
// and views of a finished game at an earlier version (by replaying its log).
import type { Json } from '../bus/bus.ts';
import { gamesOfAppPlayers, gamesOfPlayer, findGames, listEntries, queryGameIds, type GameQuery, type GameRow, type LogRow } from '../store/games.ts';
import type {
  AppGame, Caller, GameEvent, GameFilter, GameLog, GameSummary, GameViewResult, LegalActionsResult, LogEntry, Page, PlayerGame,
} from './api.ts';
import { actingRole, heldRoles, isOver, isUuid, loadGame, moduleOf, orderSeats, requirePlayer, summarize, viewingRole, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { eventOf } from './events.ts';
import { clockSummary } from './clocks.ts';
import { viewOfRow } from './game-cache.ts';
import { isPlainObject } from './json.ts';
import { foldLog, type LogChange } from '../engine/types.ts';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/index.ts';
import { choiceTree, labelledActions, logLines } from './choices.ts';
import { isStorableTime } from './times.ts';

function isLogChange(v: unknown): v is LogChange {
  return isPlainObject(v) && typeof v.from === 'number' && Array.isArray(v.entries);
}

const STATUSES: readonly string[] = ['setup', 'active', 'finished', 'abandoned'];
const MAX_LIMIT = 100;

export async function getGame(ctx: Ctx, caller: Caller | null, gameId: string): Promise<GameSummary> {
  return summarize(await loadGame(ctx, caller, gameId), ctx.now());
}

/** The engine state after the first `version` log entries (null before the start). */
export async function stateAt(ctx: Ctx, game: GameRow, version: number): Promise<unknown> {
  const entries = await listEntries(ctx.sql, game.id, { upToSeq: version });
  if (!entries.some((e) => e.kind === 'start')) return null;
  const m = moduleOf(ctx, game.gameType);
  let state = m.setup({ scenario: game.scenario, seed: game.seed, options: game.options as Record<string, unknown> });
  for (const e of entries) if (e.kind === 'action') state = m.apply(state, e.role!, e.action);
  return state;
}

export async function getView(ctx: Ctx, caller: Caller | null, gameId: string, opts: { role?: string; version?: number; knownVersion?: number } = {}): Promise<GameViewResult> {
  const known = opts.knownVersion;
  const game = await loadGame(ctx, caller, gameId, Number.isSafeInteger(known) ? { knownVersion: known } : {});
  const role = viewingRole(ctx, game, caller, opts.role);
  const m = moduleOf(ctx, game.gameType);
  let state: unknown = game.state;
  let version = game.version;
  let activeRoles = game.activeRoles;
  let status = game.status;
  if (opts.version !== undefined && opts.version !== version) {
    if (!Number.isSafeInteger(opts.version) || opts.version < 0 || opts.version > game.version) {
      throw new ServiceError('invalid_request', `version must be an integer from 0 to ${game.version}.`, { currentVersion: game.version });
    }
    if (!isOver(game.status)) {
      throw new ServiceError('forbidden', 'Earlier versions can be viewed once the game is over.', { gameStatus: game.status });
    }
    version = opts.version;
    state = await stateAt(ctx, game, version);
    const entry = version === 0 ? null : (await listEntries(ctx.sql, game.id, { afterSeq: version - 1, upToSeq: version }))[0];
    activeRoles = entry?.activeRoles ?? [];
    status = entry?.status ?? 'setup';
  }
  return {
    gameId: game.id,
    version,
    status,
    role,
    activeRoles,
    // The current version's view is kept with the (immutable) cached row: built once per seat, however many read it.
    view: state === null ? null : version === game.version ? viewOfRow(game, role, () => m.view(state, role) as Json) : (m.view(state, role) as Json),
    // The clock is public (every seat and spectator sees both seats' time); only the current version has one.
    clock: version === game.version ? clockSummary(game, ctx.now()) : null,
  };
}

export async function getLegalActions(
  ctx: Ctx, callerIn: Caller, gameId: string, opts: { role?: string; lang?: Language; group?: 'tree' } = {},
): Promise<LegalActionsResult> {
  const caller = requirePlayer(callerIn);
  const game = await loadGame(ctx, caller, gameId);
  const role = actingRole(ctx, game, caller, opts.role);
  const active = game.status === 'active' && game.activeRoles.includes(role);
  const m = moduleOf(ctx, game.gameType);
  const actions = active ? (m.legalActions(game.state, role) as Json[]) : [];
  const lang = opts.lang ?? DEFAULT_LANGUAGE;
  const choices = labelledActions(m, game.state, role, actions, lang);
  const out: LegalActionsResult = { gameId: game.id, version: game.version, role, active, actions, lang, choices };
  if (opts.group === 'tree') out.tree = choiceTree(m, game.state, role, choices, lang);
  return out;
}

function logEntry(e: LogRow, showAction: boolean): LogEntry {
  const out: LogEntry = { version: e.seq, kind: e.kind as LogEntry['kind'], role: e.role, playerId: e.playerId, createdAt: e.createdAt.toISOString() };
  if (e.kind === 'action' && showAction) out.action = e.action as Json;
  return out;
}

export async function getLog(ctx: Ctx, caller: Caller | null, gameId: string, opts: { role?: string; lang?: Language } = {}): Promise<GameLog> {
  const game = await loadGame(ctx, caller, gameId);
  const role = viewingRole(ctx, game, caller, opts.role);
  const over = isOver(game.status);
  const held = heldRoles(game, caller);
  const rows = await listEntries(ctx.sql, game.id);
  const entries = rows.map((e) =>
    // An opponent's action names hidden blocks: only a seat's own actions, until the game is over.
    logEntry(e, over || (e.role !== null && (e.role === role || (role !== null && held.includes(e.role))))),
  );
  // The log is the fold of every version's change to it, each line as this seat may read it.
  const m = moduleOf(ctx, game.gameType);
  const lang = opts.lang ?? DEFAULT_LANGUAGE;
  const lines = logLines(m, foldLog(rows.flatMap((e) => (isLogChange(e.log) ? [e.log] : []))), role, lang);
  return { gameId: game.id, version: game.version, role, entries, lines, lang };
}

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${createdAt.toISOString()}|${id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !isUuid(id) || !isStorableTime(createdAt)) throw new ServiceError('invalid_request', 'cursor is not one this server returned.');
  return { createdAt, id };
}

export async function listGames(ctx: Ctx, caller: Caller | null, filter: GameFilter, page: { cursor?: string; limit?: number } = {}): Promise<Page<GameSummary>> {
  if (!isPlainObject(filter)) throw new ServiceError('invalid_request', 'filter must be an object.');
  if (filter.status !== undefined && !STATUSES.includes(filter.status as string)) throw new ServiceError('invalid_request', `status must be one of ${STATUSES.join(', ')}.`);
  if (filter.gameType !== undefined && typeof filter.gameType !== 'string') throw new ServiceError('invalid_request', 'gameType must be a string.');
  if (filter.playerId !== undefined && !isUuid(filter.playerId)) throw new ServiceError('invalid_request', 'player must be a player id.');
  if (filter.myTurn && (!caller || caller.kind === 'admin')) throw new ServiceError('unauthorized', '"my turn" needs an API key.');
  const limit = page.limit ?? 20;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new ServiceError('invalid_request', `limit must be an integer from 1 to ${MAX_LIMIT}.`);
  const viewerId = caller && caller.kind !== 'admin' ? caller.playerId : null;
  const rows = await queryGameIds(ctx.db, {
    viewerId,
    ...(filter.status ? { status: filter.status as GameQuery['status'] } : {}),
    ...(filter.gameType ? { gameType: filter.gameType } : {}),
    ...(filter.playerId ? { playerId: filter.playerId } : {}),
    ...(filter.myTurn ? { myTurn: true } : {}),
    ...(page.cursor ? { before: decodeCursor(page.cursor) } : {}),
    limit: limit + 1,
  });
  const pageRows = rows.slice(0, limit);
  const byId = new Map((await findGames(ctx.db, pageRows.map((r) => r.id))).map((g) => [g.id, g]));
  const items = pageRows.map((r) => byId.get(r.id)).filter((g): g is GameRow => g !== undefined).map((g) => summarize(orderSeats(ctx, g), ctx.now()));
  const last = pageRows[pageRows.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
}

export async function listEventsSince(ctx: Ctx, gameId: string, version: number, limit = 1000): Promise<GameEvent[]> {
  if (!isUuid(gameId)) return [];
  const rows = await listEntries(ctx.sql, gameId, { afterSeq: Math.max(0, Math.floor(version)), limit });
  return rows.map((e) => eventOf(gameId, e.seq, { kind: e.kind, role: e.role, playerId: e.playerId, status: e.status, activeRoles: e.activeRoles ?? [] }, e.createdAt));
}

export async function appGames(ctx: Ctx, appId: string): Promise<AppGame[]> {
  if (!isUuid(appId)) return [];
  const games = await gamesOfAppPlayers(ctx.db, appId);
  return games.map((g) => {
    const byPlayer = new Map<string, string[]>();
    for (const s of g.appSeats) byPlayer.set(s.playerId, [...(byPlayer.get(s.playerId) ?? []), s.role]);
    const { appSeats: _, ...row } = g;
    return {
      gameId: g.id,
      version: g.version,
      status: g.status,
      activeRoles: g.activeRoles ?? [],
      clock: clockSummary(orderSeats(ctx, row), ctx.now()),
      seats: [...byPlayer].map(([playerId, roles]) => ({ playerId, roles })),
    };
  });
}

export async function playerGames(ctx: Ctx, playerId: string): Promise<PlayerGame[]> {
  if (!isUuid(playerId)) return [];
  return (await gamesOfPlayer(ctx.db, playerId)).map((g) => ({
    gameId: g.id,
    version: g.version,
    status: g.status,
    roles: g.seats.filter((s) => s.playerId === playerId).map((s) => s.role),
    activeRoles: g.activeRoles ?? [],
    clock: clockSummary(orderSeats(ctx, g), ctx.now()),
  }));
}
