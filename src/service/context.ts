// What every service module works with: the database, the bus, settings and
// the game modules; plus the helpers shared by the lifecycle, the write path
// and the reads (access checks, role resolution, summaries).
import type { PrismaClient } from '../generated/prisma/client.ts';
import type { Bus } from '../bus/bus.ts';
import type { Json } from '../bus/bus.ts';
import type { GameModule } from '../engine/types.ts';
import type { GameRow, Sql } from '../store/games.ts';
import type { CommitGroup } from '../store/group-commit.ts';
import { findGame, gameRevision } from '../store/games.ts';
import type { VacationPolicy } from '../clocks/vacation.ts';
import type { GameCache } from './game-cache.ts';
import type { KeyCache } from './key-cache.ts';
import type { Caller, GameResult, GameSummary, ServiceObserver } from './api.ts';
import { clockSummary } from './clocks.ts';
import type { ReminderOptions } from '../clocks/reminders.ts';
import { ServiceError } from './errors.ts';
import type { DeliverySignal, WebhookOptions } from './webhooks.ts';
import type { DataGameStatus } from './installed-games.ts';
import type { AiPool } from './ai-pool.ts';

export interface Ctx {
  db: PrismaClient;
  /** The pool under Prisma, for the statements every request runs (store/games.ts). */
  sql: Sql;
  /** Commits of concurrent requests, sent together (store/group-commit.ts). */
  commits: CommitGroup;
  cache: GameCache;
  /** API keys checked lately (key-cache.ts). */
  keys: KeyCache;
  bus: Bus;
  adminToken: string | null;
  openSignup: boolean;
  /** The playable game modules by id. */
  games: Record<string, GameModule>;
  /** The game types that need a data file, playable or not (installed-games.ts); absent: none. */
  dataGames?: DataGameStatus[];
  observers: ServiceObserver[];
  log: { warn(obj: object, msg: string): void };
  /** The one source of time for clocks and deadlines (injectable: GameServiceOptions.now). */
  now: () => number;
  /** The server's vacation allowance (HERALD_VACATION_DAYS). */
  vacation: VacationPolicy;
  /** When reminders go out (GameServiceOptions.reminders; default DEFAULT_REMINDERS). */
  reminders?: ReminderOptions;
  /** Webhook delivery settings (webhooks.ts; default DEFAULT_WEBHOOK_OPTIONS). */
  webhooks?: WebhookOptions;
  /** Woken by a commit that wrote webhook messages: the delivery run claims them at once (webhooks.ts). */
  deliveries?: DeliverySignal;
  /** The AI's worker threads (ai-pool.ts); absent on an instance that runs no jobs (AI seats are then played by another). */
  aiPool?: AiPool;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID.test(v);
}

/** The installed module of that id; own keys only ("constructor" or "__proto__" is no game). */
export function findModule(ctx: Ctx, gameType: unknown): GameModule | undefined {
  return typeof gameType === 'string' && Object.hasOwn(ctx.games, gameType) ? ctx.games[gameType] : undefined;
}

/**
 * The refusal of a game type that is not playable here: unknown, or one whose
 * data file is missing or invalid (then the reasons, as GET /game-types lists them).
 * Every request naming a game type to create something refuses through this.
 */
export function unplayableGameType(ctx: Ctx, gameType: unknown, field = 'gameType'): ServiceError {
  const playable = Object.keys(ctx.games);
  const known = ctx.dataGames?.find((g) => g.id === gameType && g.missing.length > 0);
  if (!known) return new ServiceError('invalid_request', `${field} must be one of ${playable.join(', ')}.`, { field, playable });
  const first = known.missing[0]!;
  const more = known.missing.length > 1 ? ` (and ${known.missing.length - 1} more problems: GET /game-types lists them)` : '';
  return new ServiceError(
    'invalid_request',
    `${known.title} (${known.id}) is not playable on this server: ${first.path ? `${first.file} ${first.path}: ` : ''}${first.message}${more}. Playable: ${playable.join(', ')}.`,
    { field, playable, gameType: known.id, missing: known.missing },
  );
}

/**
 * The rules of a stored game. A game type the server lists but cannot play now (its data file
 * unset, missing or invalid since the game was made) is the server's state, not the client's
 * mistake nor a bug: a typed 409 naming the game type and why, where a plain Error was a 500.
 */
export function moduleOf(ctx: Ctx, gameType: string): GameModule {
  const m = findModule(ctx, gameType);
  if (!m) {
    const known = ctx.dataGames?.find((g) => g.id === gameType);
    const why = known?.missing[0] ? ` (${known.missing[0].path ? `${known.missing[0].file} ${known.missing[0].path}: ` : ''}${known.missing[0].message})` : '';
    throw new ServiceError(
      'game_type_unavailable',
      `${known?.title ?? gameType} is not playable on this server now${why}, so this game cannot be shown or played; GET /game-types says why.`,
      { gameType, missing: known?.missing ?? [] },
    );
  }
  return m;
}

export function requirePlayer(caller: Caller | null): Caller {
  if (!caller) throw new ServiceError('unauthorized', 'This needs an API key (Authorization: Bearer <key>).');
  if (caller.kind === 'admin') throw new ServiceError('forbidden', 'The operator token is for /admin endpoints only; use a player or application key.');
  return caller;
}

/** Public games, or private ones where the caller holds a seat, created the game or organises its league. */
export function canSee(game: GameRow, caller: Caller | null): boolean {
  if (game.visibility === 'public') return true;
  if (!caller || caller.kind === 'admin') return false;
  return (
    game.createdById === caller.playerId ||
    game.seats.some((s) => s.playerId === caller.playerId) ||
    // A league's organisers read its games (those of an unlisted league are private).
    (game.pairing?.organisers.includes(caller.playerId) ?? false)
  );
}

export interface LoadOptions {
  /** Use a cached row without asking the database for the version (see loadGame). */
  trustCache?: boolean;
  /**
   * The game is known to have reached this version: a cached row at that
   * version or later is as current as the caller needs (versions are dense and
   * a committed version never changes), so no version query.
   */
  knownVersion?: number;
}

/** True when the database still holds `row`'s version, clock revision (a pause keeps the version) and rematch (set without a version). */
async function isCurrent(ctx: Ctx, row: GameRow): Promise<boolean> {
  const now = await gameRevision(ctx.sql, row.id);
  return now !== null && now.version === row.version && now.clockRev === row.clockRev && now.rematchId === (row.rematchId ?? null);
}

/**
 * The game as it is in the database now (the cached row when its version is
 * still the current one), with its seats in role order. Never mutate it.
 */
export async function currentGame(ctx: Ctx, gameId: string, opts: LoadOptions = {}): Promise<GameRow | null> {
  if (!isUuid(gameId)) return null;
  const cached = ctx.cache.get(gameId);
  if (cached && (opts.trustCache || (opts.knownVersion !== undefined && cached.version >= opts.knownVersion) || (await isCurrent(ctx, cached)))) {
    return cached;
  }
  const game = await findGame(ctx.sql, gameId);
  if (!game) {
    ctx.cache.drop(gameId);
    return null;
  }
  orderSeats(ctx, game);
  ctx.cache.put(game);
  return game;
}

/**
 * The game, if it exists and the caller may see it; not_found otherwise (a
 * private game's existence is not revealed). `trustCache`: a cached row is
 * used without asking the database for the version — only for a caller that
 * commits with `WHERE version = row.version` and decides again when that fails.
 */
export async function loadGame(ctx: Ctx, caller: Caller | null, gameId: string, opts: LoadOptions = {}): Promise<GameRow> {
  const game = await currentGame(ctx, gameId, opts);
  if (!game || !canSee(game, caller)) throw new ServiceError('not_found', `No game ${gameId}.`);
  return game;
}

export function heldRoles(game: GameRow, caller: Caller | null): string[] {
  if (!caller || caller.kind === 'admin') return [];
  return game.seats.filter((s) => s.playerId === caller.playerId).map((s) => s.role);
}

export function checkRoleName(ctx: Ctx, game: GameRow, role: unknown): string {
  const roles = moduleOf(ctx, game.gameType).roles;
  if (typeof role !== 'string' || !roles.includes(role)) {
    throw new ServiceError('invalid_request', `role must be one of ${roles.join(', ')}.`, { roles: [...roles] });
  }
  return role;
}

/**
 * The seat the caller acts for. With a role named it must be the caller's;
 * without one the caller must hold exactly one seat (a player holding both
 * seats names the role).
 */
export function actingRole(ctx: Ctx, game: GameRow, caller: Caller, role: unknown): string {
  const held = heldRoles(game, caller);
  if (role !== undefined && role !== null) {
    const r = checkRoleName(ctx, game, role);
    if (!held.includes(r)) throw new ServiceError('forbidden', `The ${r} seat is not yours.`, { yourRoles: held });
    return r;
  }
  if (held.length === 0) throw new ServiceError('forbidden', 'You hold no seat in this game.');
  if (held.length > 1) throw new ServiceError('invalid_request', `You hold several seats (${held.join(', ')}): name the role.`, { yourRoles: held });
  return held[0]!;
}

/** The seat whose view the caller reads: the named one (must be held), its only seat, or null (spectator). */
export function viewingRole(ctx: Ctx, game: GameRow, caller: Caller | null, role: unknown): string | null {
  const held = heldRoles(game, caller);
  if (role !== undefined && role !== null && role !== '') {
    const r = checkRoleName(ctx, game, role);
    // Once the game is over nothing is hidden any more (its record, with the seed and every
    // action, is open to whoever may see the game): any seat's view may be read, e.g. by the
    // creator of an all-AI game, who holds no seat. Before that, only the seat's holder.
    if (!held.includes(r) && !isOver(game.status)) throw new ServiceError('forbidden', `The ${r} seat is not yours: you may read the spectator view (no role) until the game is over.`);
    return r;
  }
  return held.length === 1 ? held[0]! : null;
}

export function isOver(status: string): boolean {
  return status === 'finished' || status === 'abandoned';
}

/** The game as answers show it; `now` (ctx.now()) is the time the clocks' remaining time is read at. */
export function summarize(game: GameRow, now: number): GameSummary {
  const s: GameSummary = {
    id: game.id,
    gameType: game.gameType,
    scenario: game.scenario,
    options: (game.options ?? {}) as Record<string, Json>,
    visibility: game.visibility,
    status: game.status,
    version: game.version,
    activeRoles: game.activeRoles ?? [],
    seats: game.seats.map((seat) => ({
      role: seat.role,
      player: seat.player ? { id: seat.player.id, name: seat.player.name, isBot: seat.player.isBot } : null,
      invited: seat.inviteCodeHash !== null,
      ai: seat.player?.aiLevel ? { level: seat.player.aiLevel } : null,
    })),
    result: (game.result ?? null) as GameResult | null,
    createdBy: game.createdById ?? '',
    autoStart: game.autoStart,
    rated: game.rated,
    league: game.pairing ? { id: game.pairing.leagueId, round: game.pairing.round, board: game.pairing.board } : null,
    rematchId: game.rematchId ?? null,
    clock: clockSummary(game, now),
    createdAt: game.createdAt.toISOString(),
    updatedAt: game.updatedAt.toISOString(),
  };
  // The seed would let a player predict every card and die roll: only once the game is over.
  if (isOver(game.status)) s.seed = game.seed;
  return s;
}

/** Seats ordered as the game module lists its roles. */
export function orderSeats(ctx: Ctx, game: GameRow): GameRow {
  const roles = ctx.games[game.gameType]?.roles ?? [];
  game.seats.sort((a, b) => roles.indexOf(a.role) - roles.indexOf(b.role));
  return game;
}
