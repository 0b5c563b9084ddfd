/**
 * The game service's public contract: what REST routes, GraphQL resolvers and
 * the notification fan-out (SSE, subscriptions) may use. Import only from this
 * file; the implementation lives beside it (service.ts and friends).
 *
 * Versions. A game's `version` starts at 0 when it is created and is bumped by
 * one for every committed change — a seat taken or left, the start, every
 * engine action, a resignation, an abort — and each bump is one entry of the
 * game's log (table `actions`, `seq` = the version after it). Versions are
 * therefore dense: `listEventsSince(gameId, v)` returns exactly the events
 * v+1 … current, and every one of them was published on `game:<id>` after it
 * was committed. (Bumping for lifecycle changes too means a client that
 * resumes from a version never misses a start, resignation or abort.)
 *
 * Errors. Every rejection is a ServiceError with a stable `code`, a `detail`
 * sentence and `extensions` (e.g. `legalActions`, `currentVersion`); no HTTP
 * status: src/http/service-errors.ts gives each code one, so a REST route
 * just lets it throw (the errors plugin answers problem+json) and GraphQL
 * maps `code` to `extensions.code` and copies `extensions`.
 *
 * In the Fastify app: `app.gameService` (a GameServiceApi, decorated by the
 * plugin 'herald-game-service', src/http/plugins/service.ts) and
 * `request.caller` (Caller | null, set by the plugin 'herald-auth',
 * src/http/plugins/auth.ts, from `Authorization: Bearer <key>` and
 * `X-Act-As`); `requireCaller(request)` from auth.ts throws unauthorized.
 */
import type { Language } from '../i18n/index.ts';
import type { Choice, ChoiceNode } from './choices.ts';
import type { Json } from '../bus/bus.ts';
import type { OptionDeclaration } from '../engine/types.ts';

export type { OptionDeclaration };

// ─── Callers ────────────────────────────────────────────────────────────────

/**
 * Who is calling. `player`: a player's own key. `app`: an application key;
 * `playerId` is the application's own player id, or, with `X-Act-As`, the id
 * of a player that application created (then `appId` is the application's).
 * `admin`: the operator token (HERALD_ADMIN_TOKEN); `playerId` and `keyId` are
 * '' and only the operator functions accept it.
 */
export type CallerKind = 'player' | 'app' | 'admin';
export interface Caller {
  playerId: string;
  keyId: string;
  kind: CallerKind;
  /** For kind 'app' acting as one of its players: the application's player id. */
  appId?: string;
}

// ─── Errors ─────────────────────────────────────────────────────────────────

export type { VacationInfo } from './vacation.ts';
export type { GameDataFile, GameDataSet } from './game-data.ts';
import type { GameDataFile, GameDataSet } from './game-data.ts';
import type { VacationInfo } from './vacation.ts';
import type { DeliveryInfo, WebhookInfo } from './webhooks.ts';
export type { DeliveryInfo, WebhookInfo } from './webhooks.ts';
export { ERROR_CODES, ServiceError, type ErrorCode } from './errors.ts';
import type { BoardPicture, BoardPictureOptions } from './pictures.ts';
export { PICTURE_FORMATS, type BoardPicture, type BoardPictureOptions, type PictureFormat } from './pictures.ts';

// ─── Players and keys ───────────────────────────────────────────────────────

export interface PlayerInfo {
  id: string;
  name: string;
  /** 'app' for application accounts (they own the players they create). */
  kind: 'player' | 'app';
  isBot: boolean;
  /** E.g. a Discord user id; unique among the players of one application. */
  externalId: string | null;
  /** The application that created this player, if any. */
  createdBy: string | null;
  createdAt: string;
}

export interface ApiKeyInfo {
  id: string;
  /** The first characters of the key, shown for support ("hk_ab12cd34…"). */
  prefix: string;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A new key: `key` is shown this once; only its hash is stored. */
export interface NewApiKey extends ApiKeyInfo {
  key: string;
}

export interface CreatePlayerInput {
  name: string;
  isBot?: boolean;
  externalId?: string;
}

// ─── Games ──────────────────────────────────────────────────────────────────

/**
 * A game this server hosts: its seats, scenarios and, per scenario, the options a new game accepts.
 * A game whose numbers an owner must type in (Black & White) is listed even when its data file is
 * missing or invalid: then `playable` is false, `missing` says why, and it has no roles or scenarios.
 */
export interface GameTypeInfo {
  id: string;
  title: string;
  /** Games of this type can be created. */
  playable: boolean;
  /** The game's numbers are made up (its data file says so): true only for a playable game that needs data. */
  invented: boolean;
  /** Why it is not playable ([] when it is): each a sentence, and the data file and JSON pointer of a problem in it. */
  missing: { message: string; file: string | null; path: string | null }[];
  roles: string[];
  scenarios: { id: string; name: string; description: string; options: OptionDeclaration[] }[];
  /** The levels Herald's AI plays this game at (random always; the search levels where the module samples states); [] when not playable. */
  aiLevels: string[];
}

export type GameStatus = 'setup' | 'active' | 'finished' | 'abandoned';
export type Visibility = 'public' | 'private';

export interface GameResult {
  /** Winning role, or null for a draw / no winner. */
  winner: string | null;
  reason: string;
}

export interface SeatInfo {
  role: string;
  player: { id: string; name: string; isBot: boolean } | null;
  /** An unused invite code is waiting for this seat. */
  invited: boolean;
  /** Herald's AI plays this seat, at this level (issue 20); null: a person or a bot of their own. */
  ai: { level: string } | null;
}

export interface GameSummary {
  id: string;
  gameType: string;
  scenario: string;
  options: Record<string, Json>;
  visibility: Visibility;
  status: GameStatus;
  version: number;
  activeRoles: string[];
  seats: SeatInfo[];
  result: GameResult | null;
  createdBy: string;
  /** Start automatically when the last seat is taken (default true). */
  autoStart: boolean;
  /** Finishing it updates both players' ratings. */
  rated: boolean;
  /** The league board this game is, if any. */
  league: { id: string; round: number; board: number } | null;
  /** The rematch of this game (POST /games/{id}/rematch), once someone has asked for it. */
  rematchId: string | null;
  /** Only once the game is over (finished or abandoned). */
  seed?: string;
  /** Each seat's clock as of the answer; null when the game has no time control. */
  clock: GameClock | null;
  createdAt: string;
  updatedAt: string;
}

/** A game's time control and each seat's clock (remaining time as of the answer). */
export interface GameClock {
  /** The canonical time control (src/clocks/controls.ts): correspondence {startMs, incrementMs, capMs} or fischer {initialMs, incrementMs}. */
  control: { kind: 'correspondence'; startMs: number; incrementMs: number; capMs: number; onTimeout?: 'claim' } | { kind: 'fischer'; initialMs: number; incrementMs: number; onTimeout?: 'claim' };
  /** What a timeout does: `loss` (the seat that ran out loses at once) or `claim` (its opponent may claim the win). */
  onTimeout: 'loss' | 'claim';
  /**
   * Under `claim`: the seat whose time ran out, when, and the seats that may claim the win now
   * (claimTimeout); null when nobody can claim.
   */
  claimable: { flagged: string; ranOutAt: string; claimants: string[] } | null;
  seats: Array<{
    role: string;
    /** Time left now (never below 0); null = unlimited. */
    remainingMs: number | null;
    /** When the seat runs out (ISO 8601) while its clock runs; else null. */
    deadline: string | null;
    /** The seat must act now and its clock runs. */
    running: boolean;
    /** The seat's player is on vacation: the clock stands still, keeping remainingMs (a client shows a paused countdown). */
    paused: boolean;
  }>;
}

export interface CreateGameInput {
  gameType: string;
  scenario: string;
  options?: Record<string, Json>;
  /** For tests and tournaments; kept secret until the game is over. Default: random. */
  seed?: string;
  visibility?: Visibility;
  /** Roles the creator takes at once (hot-seat: all of them). */
  roles?: string[];
  /** Roles Herald's AI takes, with its level: `{"Lancaster": "random"}` (levels: random, easy, normal, hard; see GameType.aiLevels). */
  ai?: Record<string, Json> | null;
  autoStart?: boolean;
  /** Update both players' Glicko-2 ratings when the game finishes (default false). */
  rated?: boolean;
  /**
   * The time control (default none): {kind: 'correspondence', daysPerMove: 1–14}, {kind: 'preset', name},
   * or a canonical correspondence / fischer control; each may add `onTimeout: 'loss' | 'claim'`
   * (default loss). A bad one is 422 invalid_time_control.
   */
  timeControl?: Json | null;
}

export interface JoinInput {
  /** Which seat; default: the invited seat (with inviteCode) or the first open one. */
  role?: string;
  inviteCode?: string;
}

export interface Invite {
  gameId: string;
  role: string;
  /** One-time code, shown once (stored hashed). */
  code: string;
}

/** The seat view the caller is entitled to: its seat's, or the spectator's (role null). */
export interface GameViewResult {
  gameId: string;
  version: number;
  status: GameStatus;
  role: string | null;
  activeRoles: string[];
  /** engine.view(state, role): never the raw state. Null before the start (no state yet). */
  view: Json | null;
  /** Each seat's clock as of the answer (public to every seat and spectator); null without a time control or for an earlier version. */
  clock: GameClock | null;
}

export interface LegalActionsResult {
  gameId: string;
  version: number;
  role: string;
  /** True when `role` may act now. */
  active: boolean;
  actions: Json[];
  /** The language of the labels (the caller's, English when unknown). */
  lang: Language;
  /** The same actions, in the same order, each with its stable id and a label in `lang` (issue 16). */
  choices: Choice[];
  /** With group "tree": the actions as nested choices, at most 25 per step, each leaf an action id. */
  tree?: ChoiceNode;
}

export interface SubmitActionInput {
  /** Required when the caller holds more than one seat. */
  role?: string;
  /** The action's machine form; or give `actionId` instead. */
  action?: Json;
  /** The id of one of the current legal actions (LegalActionsResult.choices), instead of `action`. */
  actionId?: string;
  /** Stale ⇒ version_conflict (409) with `currentVersion`. */
  expectedVersion?: number;
  /**
   * Per game and acting player. A retry with the same key returns the stored
   * result of the committed original and commits nothing; a rejected request
   * stores nothing (its retry is decided afresh); the same key with another
   * request is invalid_request.
   */
  idempotencyKey?: string;
}

export interface SubmitActionResult {
  version: number;
  role: string;
  game: GameSummary;
  /** The acting seat's view after the action. */
  view: Json;
  /** The acting seat's legal actions after the action ([] when it is not to act): a client that moves again needs no second request. */
  legalActions: Json[];
  /** True when this is the stored answer to an earlier request with the same Idempotency-Key. */
  replayed?: boolean;
}

export type LogEntryKind = 'join' | 'leave' | 'start' | 'action' | 'resign' | 'abort' | 'timeout';

export interface LogEntry {
  version: number;
  kind: LogEntryKind;
  role: string | null;
  playerId: string | null;
  /** The action itself: only for the caller's own seats, or for everyone once the game is over. */
  action?: Json;
  createdAt: string;
}

export interface GameLog {
  gameId: string;
  version: number;
  role: string | null;
  entries: LogEntry[];
  /** The log lines as that seat (or a spectator) may read them, worded in `lang`. */
  lines: string[];
  lang: Language;
}

export interface GameFilter {
  status?: GameStatus;
  gameType?: string;
  /** Games where this player holds a seat. */
  playerId?: string;
  /** Only games where the caller holds a seat whose role is active now. */
  myTurn?: boolean;
}

export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface GameRecord {
  format: 'herald-game-record';
  formatVersion: 1;
  gameType: string;
  scenario: string;
  options: Record<string, Json>;
  /** Present only once the game is over (required by import). */
  seed?: string;
  status: GameStatus;
  result: GameResult | null;
  /** The game's time control (null: none); import takes a result "timeout" only with one. */
  timeControl?: Record<string, Json> | null;
  version: number;
  actions: { role: string; action: Json }[];
}

export interface ImportInput {
  record: GameRecord;
  visibility?: Visibility;
}

/** A game a player holds seats in, for catch-up of `player:<id>`. */
export interface PlayerGame {
  gameId: string;
  version: number;
  status: GameStatus;
  roles: string[];
  activeRoles: string[];
  /** The game's clock as of the read; null without a time control. */
  clock: GameClock | null;
}

/** A player an application created, as the application's stream names it. */
export interface AppPlayer {
  id: string;
  name: string;
  externalId: string | null;
}

/** A game not over where players of an application hold seats, for the application's stream. */
export interface AppGame {
  gameId: string;
  version: number;
  status: GameStatus;
  activeRoles: string[];
  /** The roles each of the application's players holds (other seats left out). */
  seats: { playerId: string; roles: string[] }[];
  clock: GameClock | null;
}

// ─── Events (published after commit) ────────────────────────────────────────

export const gameChannel = (gameId: string): string => `game:${gameId}`;
export const playerChannel = (playerId: string): string => `player:${playerId}`;

/**
 * On `game:<gameId>`, once per version bump, after commit. The service issues
 * the publish without waiting for it (a slow Redis never delays or fails a
 * request); a subscriber that sees a version jump catches up with listEventsSince.
 */
export interface GameEvent {
  type: LogEntryKind;
  gameId: string;
  version: number;
  role: string | null;
  playerId: string | null;
  activeRoles: string[];
  status: GameStatus;
  /** When the version was committed (server clock, ISO 8601 with milliseconds). */
  at: string;
  /**
   * Live messages only: each seat's clock right after the commit (as of `at`), on the last event
   * of a commit (null without a time control). Events read back from the log do not have it.
   */
  clock?: GameClock | null;
}

/**
 * On `game:<gameId>` when a vacation pauses or resumes a seat's clock: the game's version does not
 * move (nothing happens in the game), only its clocks. A live notice so countdowns update; the
 * next view, summary or version event shows the same clock.
 */
export interface ClockEvent {
  type: 'clock';
  gameId: string;
  /** The game's version (unchanged by the pause). */
  version: number;
  /** Each seat's clock as of the change. */
  clock: GameClock;
}

/** A message of `game:<id>` that is a ClockEvent (the bus carries any JSON; version events have a log kind as type). */
export function isClockEvent(m: unknown): m is ClockEvent {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  const e = m as Record<string, unknown>;
  return e.type === 'clock' && typeof e.gameId === 'string' && Number.isInteger(e.version) && typeof e.clock === 'object' && e.clock !== null;
}

/** On `player:<playerId>` for each seat holder who is active after a commit. */
export interface YourTurnEvent {
  type: 'your_turn';
  gameId: string;
  version: number;
  roles: string[];
  /**
   * Each seat's clock at that version (null without a time control). Live messages carry it; the
   * SSE/GraphQL notices carry it when it is the game's newest version (null for a version the
   * game had moved past when the notice was sent).
   */
  clock?: GameClock | null;
}

/**
 * On `player:<playerId>` for both players of each board when a league round is
 * published (after its commit): the new game and the seat the player holds.
 * A live notice only (no log replays it); the game itself is found again by
 * playerGames, so a feed that missed the message still reports its turns.
 */
export interface SeatedEvent {
  type: 'seated';
  gameId: string;
  role: string;
  leagueId: string;
  round: number;
  board: number;
}

/**
 * On `player:<playerId>` for a seat whose correspondence clock runs (src/clocks/reminders.ts):
 * `share-used` once the seat has used a share of its turn's time (default 80%), `low-time` when
 * 24 hours (10% for turns under 2 days) are left. Each goes out once per seat and turn (claimed
 * in games.reminders_sent before it is published); a live notice only, not a game change.
 */
export interface ReminderEvent {
  type: 'reminder';
  gameId: string;
  role: string;
  kind: 'share-used' | 'low-time';
  /** Time the seat had left when the reminder was sent. */
  remainingMs: number;
  /** The seat's deadline (ISO 8601). */
  deadline: string;
}

/**
 * On `player:<playerId>` for each seat that may claim a win on time (a game whose control says
 * `onTimeout: 'claim'`, when the opponent's time has run out). Sent once per flag (claimed in
 * games.reminders_sent before it is published); a live notice only, not a game change: the
 * game's clock summary shows the same (`claimable`).
 */
export interface ClaimableEvent {
  type: 'claimable';
  gameId: string;
  /** The seat of the player told, which may claim (claimTimeout). */
  role: string;
  /** The seat whose time ran out. */
  flagged: string;
  /** When it ran out (ISO 8601). */
  ranOutAt: string;
}

/** The messages of `player:<playerId>`. */
export type PlayerEvent = YourTurnEvent | SeatedEvent | ReminderEvent | ClaimableEvent;

/** A message of `player:<id>` that is a well-formed ClaimableEvent (the bus carries any JSON). */
export function isClaimableEvent(m: unknown): m is ClaimableEvent {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  const e = m as Record<string, unknown>;
  return e.type === 'claimable' && typeof e.gameId === 'string' && typeof e.role === 'string' && typeof e.flagged === 'string' && typeof e.ranOutAt === 'string';
}

/** A message of `player:<id>` that is a well-formed ReminderEvent (the bus carries any JSON). */
export function isReminderEvent(m: unknown): m is ReminderEvent {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  const e = m as Record<string, unknown>;
  return (
    e.type === 'reminder' && typeof e.gameId === 'string' && typeof e.role === 'string' &&
    (e.kind === 'share-used' || e.kind === 'low-time') && Number.isInteger(e.remainingMs) && typeof e.deadline === 'string'
  );
}

/** A message of `player:<id>` that is a well-formed SeatedEvent (the bus carries any JSON). */
export function isSeatedEvent(m: unknown): m is SeatedEvent {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return false;
  const e = m as Record<string, unknown>;
  return (
    e.type === 'seated' && typeof e.gameId === 'string' && typeof e.role === 'string' && typeof e.leagueId === 'string' &&
    Number.isInteger(e.round) && Number.isInteger(e.board)
  );
}

/** Hooks for metrics (DELIVERY): called synchronously, must not throw. */
export interface ServiceObserver {
  publishFailed?(channel: string, err: unknown): void;
  /** One committed engine action; `ms` from the start of submitAction to commit. */
  actionCommitted?(ms: number, gameType: string): void;
  /** One commit statement sent to the database, carrying `changes` commits (group commit: more than one). */
  commitStatement?(changes: number): void;
}

// ─── The service ────────────────────────────────────────────────────────────

export interface GameServiceApi {
  /** Raw `Authorization: Bearer` key (+ optional X-Act-As) → Caller; unauthorized / forbidden otherwise. */
  authenticate(rawKey: string, actAs?: string): Promise<Caller>;
  /** authenticate() answered from this instance's key cache without waiting; undefined: ask authenticate(). */
  cachedCaller(rawKey: string, actAs?: string): Caller | undefined;
  /** The operator token (constant-time compare); false when no token is configured. */
  isAdminToken(raw: string): boolean;

  // players, keys, applications
  /**
   * No caller: self-signup (a player and its first key; refused when
   * HERALD_OPEN_SIGNUP=false). App caller: a player owned by the app, without a
   * key (the app acts for it with X-Act-As); get-or-create by externalId
   * (`created` false when it existed). Player callers are refused.
   */
  createPlayer(caller: Caller | null, input: CreatePlayerInput): Promise<{ player: PlayerInfo; key?: NewApiKey; created: boolean }>;
  getPlayer(caller: Caller): Promise<PlayerInfo>;
  /** The caller's vacation: on it or not, since when, ends by, what is left of this year's allowance. */
  getVacation(caller: Caller): Promise<VacationInfo>;
  /** Starts the caller's vacation now (until: planned end, ISO): their correspondence clocks stop. */
  startVacation(caller: Caller, input: { until?: unknown }): Promise<VacationInfo>;
  /** Ends the caller's vacation now: their paused clocks run again. */
  endVacation(caller: Caller): Promise<VacationInfo>;
  listKeys(caller: Caller): Promise<ApiKeyInfo[]>;
  createKey(caller: Caller, label?: string): Promise<NewApiKey>;
  revokeKey(caller: Caller, keyId: string): Promise<void>;
  /**
   * Of these key ids, those that no longer authenticate (revoked or unknown):
   * live streams opened with such a key end (http/key-streams.ts).
   */
  revokedKeys(keyIds: readonly string[]): Promise<string[]>;
  /** Operator: a new application account and its key. */
  createApp(caller: Caller, input: { name: string }): Promise<{ app: PlayerInfo; key: NewApiKey }>;

  /** The installed games, their scenarios and each scenario's option declarations (no caller needed). */
  listGameTypes(): GameTypeInfo[];
  /** A game type's published data files (map, blocks, cards, scenarios, options) with their content hashes; not_found for an unknown type. */
  getGameData(gameType: string): GameDataSet;
  /** One data file at that content hash; not_found for an unknown type, name, or a hash that is not the current one. */
  getGameDataFile(gameType: string, hash: string, name: string): GameDataFile;

  // lifecycle
  /**
   * `options` must pass the scenario's declaration (listGameTypes): an unknown
   * option, a value of another type or out of range is invalid_options (422,
   * extensions.option names it) and nothing is stored. The game keeps every
   * declared option, defaults filled in.
   */
  createGame(caller: Caller, input: CreateGameInput): Promise<GameSummary>;
  join(caller: Caller, gameId: string, input: JoinInput): Promise<GameSummary>;
  leave(caller: Caller, gameId: string, input: { role?: string }): Promise<GameSummary>;
  createInvite(caller: Caller, gameId: string, input: { role: string }): Promise<Invite>;
  start(caller: Caller, gameId: string): Promise<GameSummary>;
  resign(caller: Caller, gameId: string, input: { role?: string }): Promise<GameSummary>;
  /**
   * Claims the win on time (games whose control says `onTimeout: 'claim'`): the caller's seat
   * (`role`, or its only one) wins when the opponent's time has run out and it has not moved
   * since. Else 409 not_claimable (extensions.reason), nothing changed.
   */
  claimTimeout(caller: Caller, gameId: string, input: { role?: string }): Promise<GameSummary>;
  abort(caller: Caller, gameId: string): Promise<GameSummary>;
  /**
   * A rematch of a game that is over (not a league game): the same game type, scenario,
   * options, visibility, rating and time control, a new seed, each player in the other seat.
   * The first player to ask creates it with their own seat taken; the opponent's seat is kept
   * for the opponent (reserved: nobody else can join it) unless the caller may act for them
   * too (the same player, or an application that created both), and then it starts at once.
   * The opponent accepts with the same call on the old game, which seats them in the new one
   * (and starts it). Asking again returns the same game; two players asking at once get one game.
   */
  rematch(caller: Caller, gameId: string): Promise<GameSummary>;

  /** THE write path (REST and GraphQL). */
  submitAction(caller: Caller, gameId: string, input: SubmitActionInput): Promise<SubmitActionResult>;

  // reads (caller null = anonymous spectator of public games)
  getGame(caller: Caller | null, gameId: string): Promise<GameSummary>;
  /**
   * `version` (< current) only for games that are over: replays the log.
   * `knownVersion`: the caller knows the game reached that version (a bus
   * message said so); a view of that version or a later one is current enough,
   * so this instance's cached row may answer without asking the database.
   */
  getView(caller: Caller | null, gameId: string, opts?: { role?: string; version?: number; knownVersion?: number }): Promise<GameViewResult>;
  getLegalActions(caller: Caller, gameId: string, opts?: { role?: string; lang?: Language; group?: 'tree' }): Promise<LegalActionsResult>;
  /**
   * The board picture (SVG or PNG) from the caller's seat or the spectator's
   * (role 'spectator'), at the current version or, once the game is over, an
   * earlier one; authorised as getView. See pictures.ts.
   */
  getBoardPicture(caller: Caller | null, gameId: string, opts: BoardPictureOptions): Promise<BoardPicture>;
  /**
   * Whether games of this type have board pictures (a renderer in src/render);
   * without one, getBoardPicture answers not_found with extensions.reason
   * 'no_pictures', and pages show the log alone.
   */
  hasBoardPictures(gameType: string): boolean;
  getLog(caller: Caller | null, gameId: string, opts?: { role?: string; lang?: Language }): Promise<GameLog>;
  listGames(caller: Caller | null, filter: GameFilter, page?: { cursor?: string; limit?: number }): Promise<Page<GameSummary>>;
  /** Catch-up for SSE / subscriptions: the events after `version`, oldest first (no access check: check getGame first). */
  listEventsSince(gameId: string, version: number, limit?: number): Promise<GameEvent[]>;
  /** Games where the player holds a seat and that are not over. */
  playerGames(playerId: string): Promise<PlayerGame[]>;
  /** The application named by an application key used without X-Act-As (its own stream); forbidden for any other caller. */
  requireApp(caller: Caller): string;
  /** The players the application created (no access check: see requireApp). */
  appPlayers(appId: string): Promise<AppPlayer[]>;
  /** Games not over where the application's players hold seats (no access check: see requireApp). */
  appGames(appId: string): Promise<AppGame[]>;

  // records
  exportGame(caller: Caller, gameId: string): Promise<GameRecord>;
  importGame(caller: Caller, input: ImportInput): Promise<GameSummary>;

  observe(observer: ServiceObserver): void;

  // leagues (league-api.ts; service/leagues*.ts)
  createLeague(caller: Caller, input: LeagueSettingsInput): Promise<League>;
  /** Organisers only; format and game type are fixed; most settings only before the start. */
  updateLeague(caller: Caller, leagueId: string, input: LeagueUpdateInput): Promise<League>;
  /** Public leagues to anyone; unlisted ones to anyone with the id. */
  getLeague(caller: Caller | null, leagueId: string): Promise<League>;
  /** Public leagues (and, with playerId/organiserId, the unlisted ones that player is in). */
  listLeagues(caller: Caller | null, filter: LeagueFilter, page?: { cursor?: string; limit?: number }): Promise<Page<League>>;
  addOrganiser(caller: Caller, leagueId: string, playerId: string): Promise<League>;
  removeOrganiser(caller: Caller, leagueId: string, playerId: string): Promise<League>;

  listEntrants(caller: Caller | null, leagueId: string): Promise<Entrant[]>;
  /** The caller joins (registration open, or late entry into a running Swiss). */
  joinLeague(caller: Caller, leagueId: string): Promise<Entrant>;
  /** The caller withdraws: before the start the entry is removed; after, never paired again. */
  withdrawFromLeague(caller: Caller, leagueId: string): Promise<Entrant | null>;
  /** Organiser: add a player (any time registration would let them join, and the entry limit aside). */
  /** An organiser enters a player (`playerId`), or Herald's AI at a level (`ai`: it fills an odd seat; its games are played by the AI job). */
  addEntrant(caller: Caller, leagueId: string, input: { playerId?: string; ai?: unknown; seed?: number }): Promise<Entrant>;
  /** Organiser: seed, withdraw or disqualify (with a reason), or remove before the start. */
  updateEntrant(caller: Caller, leagueId: string, playerId: string, input: { seed?: number | null; status?: 'withdrawn' | 'disqualified'; reason?: string }): Promise<Entrant>;
  removeEntrant(caller: Caller, leagueId: string, playerId: string): Promise<void>;
  /**
   * Organiser: Herald's AI plays an active entrant's games from now on (`ai`: its level; `reason`
   * optional), in a running league played on Herald: their open games pass to it from the current
   * position, their later boards are seated with it; the results count for the entrant.
   */
  setStandIn(caller: Caller, leagueId: string, playerId: string, input: { ai?: unknown; reason?: unknown }): Promise<Entrant>;
  /** Organiser: ends the stand-in; later boards are the entrant's again. */
  removeStandIn(caller: Caller, leagueId: string, playerId: string): Promise<Entrant>;

  /** Organiser: close registration, seed by rating, and (autoPair) publish round 1. */
  startLeague(caller: Caller, leagueId: string): Promise<League>;
  listRounds(caller: Caller | null, leagueId: string): Promise<Round[]>;
  getRound(caller: Caller | null, leagueId: string, round: number): Promise<Round>;
  /** Organiser: pair the next round as a draft (refused while a round is open). */
  generateRound(caller: Caller, leagueId: string): Promise<Round>;
  /** Organiser: edit a draft round's pairings. */
  editPairings(caller: Caller, leagueId: string, round: number, edits: PairingEdit[]): Promise<Round>;
  /** Organiser: publish a draft round: games created with seats assigned, players told on the bus. */
  publishRound(caller: Caller, leagueId: string, round: number): Promise<Round>;
  /** Organiser: throw away a draft round. */
  deleteDraftRound(caller: Caller, leagueId: string, round: number): Promise<void>;

  /** A player of the pairing reports a game played elsewhere; the opponent's matching report or an organiser's makes it final. */
  reportResult(caller: Caller, leagueId: string, pairingId: string, input: { result: ReportableResult }): Promise<Pairing>;
  /** The opponent (or an organiser) confirms a pending report. */
  confirmResult(caller: Caller, leagueId: string, pairingId: string): Promise<Pairing>;
  /** Organiser: set or correct any result, forfeits and double forfeits included; a reason is required. */
  setResult(caller: Caller, leagueId: string, pairingId: string, input: { result: PairingResult | null; reason: string }): Promise<Pairing>;
  /** Organisers see every change; a player sees the changes to their own pairings. */
  listResultChanges(caller: Caller, leagueId: string, opts?: { pairingId?: string }): Promise<ResultChange[]>;

  getStandings(caller: Caller | null, leagueId: string, opts?: { round?: number }): Promise<LeagueStandings>;
  /** CSV of the standings (one row per player, tie-breaks as columns). */
  exportStandingsCsv(caller: Caller | null, leagueId: string, opts?: { round?: number }): Promise<string>;

  // ratings and profiles
  getPlayerProfile(caller: Caller | null, playerId: string): Promise<PlayerProfile>;
  getRatingHistory(caller: Caller | null, playerId: string, gameType: string, page?: { cursor?: string; limit?: number }): Promise<Page<RatingHistoryEntry>>;
  getLeaderboard(gameType: string, opts?: { includeProvisional?: boolean; cursor?: string; limit?: number }): Promise<Page<LeaderboardEntry>>;

  // ── Webhooks (webhooks.ts): endpoints of the caller's player (an application's own endpoints receive its players' events) ──
  /** Registers an endpoint; the signing secret is in the answer, once. */
  createWebhook(caller: Caller | null, input: unknown): Promise<{ webhook: WebhookInfo; secret: string }>;
  listWebhooks(caller: Caller | null): Promise<{ webhooks: WebhookInfo[] }>;
  getWebhook(caller: Caller | null, id: string): Promise<WebhookInfo>;
  updateWebhook(caller: Caller | null, id: string, input: unknown): Promise<WebhookInfo>;
  deleteWebhook(caller: Caller | null, id: string): Promise<void>;
  /** A new secret (shown once); the old one still signs for ROTATION_OVERLAP_MS. */
  rotateWebhookSecret(caller: Caller | null, id: string): Promise<{ webhook: WebhookInfo; secret: string }>;
  listWebhookDeliveries(caller: Caller | null, id: string, opts?: { limit?: number }): Promise<{ deliveries: DeliveryInfo[] }>;
  redeliverWebhookMessage(caller: Caller | null, id: string, messageId: string): Promise<{ queued: number }>;
  redeliverWebhookRange(caller: Caller | null, id: string, input: unknown): Promise<{ queued: number }>;
  testWebhook(caller: Caller | null, id: string): Promise<{ messageId: string }>;
}

export * from './league-api.ts';
import type {
  Entrant, League, LeagueFilter, LeagueSettingsInput, LeagueStandings, LeagueUpdateInput, LeaderboardEntry, Pairing, PairingEdit,
  PairingResult, PlayerProfile, RatingHistoryEntry, ReportableResult, ResultChange, Round,
} from './league-api.ts';

export { GameService, createGameService, type GameServiceOptions } from './service.ts';
