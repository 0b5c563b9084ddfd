// Games, seats, the per-game log (table actions) and idempotency records: the
// named operations of the service. commitChange() is the one place a game's
// version moves: one transaction with an optimistic `WHERE version = expected
// AND clock_rev = expected` (clock_rev: the clocks changed without a version, a vacation pause).
import { Prisma, type PrismaClient, type Game, type Seat, type Player, type Action, type IdempotencyRecord } from '../generated/prisma/client.ts';
import type { GameStatus } from '../generated/prisma/enums.ts';
import type pg from 'pg';
import { randomUUID } from 'node:crypto';
import { CommitGroup, type GroupCommitOptions } from './group-commit.ts';
import { enqueueSql, type OutboxEvent } from './webhooks.ts';

export type SeatRow = Seat & { player: Pick<Player, 'id' | 'name' | 'isBot' | 'aiLevel'> | null };
/** The league board a game is (league_pairings.game_id), if any. */
export type PairingRef = {
  leagueId: string;
  round: number;
  board: number;
  /** The league's organisers: they may read its games, private ones (unlisted leagues) too. */
  organisers: string[];
};
// remind_at and reminders_sent are the reminder sweep's own (service/clocks.ts reads them itself).
export type GameRow = Omit<Game, 'remindAt' | 'remindersSent'> & { seats: SeatRow[]; pairing?: PairingRef | null };
export type { Action as LogRow, IdempotencyRecord };

const withSeats = {
  seats: { include: { player: { select: { id: true, name: true, isBot: true, aiLevel: true } } }, orderBy: { role: 'asc' as const } },
  pairing: { select: { leagueId: true, round: true, board: true, league: { select: { organisers: { select: { playerId: true } } } } } },
};

/** The columns of a game row (alias g) in the RawGame shape; seats and pairing are added by each statement. */
const GAME_COLUMNS = `g.id::text AS id, g.game_type, g.scenario, g.status::text AS status, g.version, g.options, g.seed,
    g.visibility::text AS visibility, g.state, g.result, g.active_roles, g.auto_start, g.created_by_id::text AS created_by_id,
    g.created_at, g.updated_at, g.rated, g.settled_at, g.time_control, g.clocks, g.deadline_at, g.clock_rev, g.rematch_id::text AS rematch_id`;

/** A seat (alias s, its player p) as the JSON of a SeatRow. */
const SEAT_JSON = `json_build_object(
        'gameId', s.game_id, 'role', s.role, 'playerId', s.player_id, 'inviteCodeHash', s.invite_code_hash,
        'player', CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'name', p.name, 'isBot', p.is_bot, 'aiLevel', p.ai_level) END
      )`;

type PrismaGame = Prisma.GameGetPayload<{ include: typeof withSeats }>;

/** A game read through Prisma in the GameRow shape findGame gives. */
function toRow(g: PrismaGame): GameRow {
  const { pairing, ...rest } = g;
  return {
    ...rest,
    pairing: pairing ? { leagueId: pairing.leagueId, round: pairing.round, board: pairing.board, organisers: pairing.league.organisers.map((o) => o.playerId) } : null,
  };
}

type JsonIn = Prisma.InputJsonValue;

export interface NewGame {
  gameType: string;
  scenario: string;
  options: JsonIn;
  seed: string;
  visibility: 'public' | 'private';
  autoStart: boolean;
  /** Rate the game (Glicko-2) when it finishes (default false). */
  rated?: boolean;
  /** The validated time control; omitted = no clock. */
  timeControl?: JsonIn;
  createdById: string;
  /** One per role, in the module's role order; an invite code's hash reserves an open seat. */
  seats: { role: string; playerId: string | null; inviteCodeHash?: string | null }[];
}

/**
 * Creates a game and its seats in one statement on the pool and returns it as
 * findGame reads it (a new game is on no league board). Prisma's nested create
 * with include costs eight statements and its query compiler's CPU (bench:service).
 */
export async function insertGame(sql: Sql, g: NewGame): Promise<GameRow> {
  const { rows } = await sql.query<RawGame>({
    name: 'herald-insert-game',
    text: INSERT_GAME,
    values: [
      randomUUID(),
      g.gameType,
      g.scenario,
      JSON.stringify(g.options),
      g.seed,
      g.visibility,
      g.autoStart,
      g.rated ?? false,
      g.timeControl === undefined ? null : JSON.stringify(g.timeControl),
      g.createdById,
      JSON.stringify(g.seats.map((s) => ({ role: s.role, player_id: s.playerId, invite_code_hash: s.inviteCodeHash ?? null }))),
    ],
  });
  return rowOf(rows[0]!);
}

const INSERT_GAME = `
  WITH g AS (
    INSERT INTO games (id, game_type, scenario, options, seed, visibility, auto_start, rated, time_control, created_by_id, created_at, updated_at)
    VALUES ($1::uuid, $2, $3, $4::jsonb, $5, $6::visibility, $7, $8, $9::jsonb, $10::uuid, now(), now())
    RETURNING *
  ), s AS (
    INSERT INTO seats (game_id, role, player_id, invite_code_hash)
    SELECT g.id, x.role, x.player_id, x.invite_code_hash FROM g, jsonb_to_recordset($11::jsonb) AS x(role text, player_id uuid, invite_code_hash text)
    RETURNING *
  )
  SELECT ${GAME_COLUMNS}, NULL::json AS pairing,
    COALESCE((SELECT json_agg(${SEAT_JSON} ORDER BY s.role) FROM s LEFT JOIN players p ON p.id = s.player_id), '[]'::json) AS seats
  FROM g`;

/** insertGame inside a Prisma transaction (the rematch's). */
async function insertGameTx(db: Prisma.TransactionClient, g: NewGame): Promise<GameRow> {
  const { seats, ...data } = g;
  return toRow(await db.game.create({ data: { ...data, seats: { create: seats } }, include: withSeats }));
}

/**
 * Creates `g` as the rematch of game `of`, in one transaction: the new game,
 * and `of`'s rematch_id set to it if it had none. Returns null (and creates
 * nothing) when `of` already has a rematch: someone asked first.
 */
export async function insertRematch(db: PrismaClient, of: string, g: NewGame): Promise<GameRow | null> {
  try {
    return await db.$transaction(async (tx) => {
      const created = await insertGameTx(tx, g);
      const claimed = await tx.game.updateMany({ where: { id: of, rematchId: null }, data: { rematchId: created.id } });
      if (claimed.count !== 1) throw new RematchTaken();
      return created;
    });
  } catch (err) {
    if (err instanceof RematchTaken) return null;
    throw err;
  }
}

class RematchTaken extends Error {}

interface RawGame {
  id: string;
  game_type: string;
  scenario: string;
  status: GameStatus;
  version: number;
  options: Prisma.JsonValue;
  seed: string;
  visibility: 'public' | 'private';
  state: Prisma.JsonValue | null;
  result: Prisma.JsonValue | null;
  active_roles: string[] | null;
  auto_start: boolean;
  created_by_id: string | null;
  created_at: Date;
  updated_at: Date;
  rated: boolean;
  settled_at: Date | null;
  time_control: Prisma.JsonValue | null;
  clocks: Prisma.JsonValue | null;
  deadline_at: Date | null;
  clock_rev: number;
  rematch_id: string | null;
  pairing: PairingRef | string | null;
  seats: SeatRow[] | string;
}

/** The hot statements run on the pool under Prisma (Store.pool), not through Prisma. */
export type Sql = Pick<pg.Pool, 'query'>;

const FIND_GAME = `
  SELECT ${GAME_COLUMNS},
    (SELECT json_build_object('leagueId', lp.league_id, 'round', lp.round, 'board', lp.board,
        'organisers', COALESCE((SELECT json_agg(lo.player_id) FROM league_organisers lo WHERE lo.league_id = lp.league_id), '[]'::json))
      FROM league_pairings lp WHERE lp.game_id = g.id) AS pairing,
    COALESCE((SELECT json_agg(${SEAT_JSON} ORDER BY s.role)
      FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id), '[]'::json) AS seats
  FROM games g WHERE g.id = $1::uuid`;

function rowOf(r: RawGame): GameRow {
  return {
    id: r.id,
    gameType: r.game_type,
    scenario: r.scenario,
    status: r.status,
    version: r.version,
    options: r.options ?? {},
    seed: r.seed,
    visibility: r.visibility,
    state: r.state,
    result: r.result,
    activeRoles: r.active_roles ?? [],
    autoStart: r.auto_start,
    createdById: r.created_by_id,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    rated: r.rated,
    settledAt: r.settled_at === null ? null : new Date(r.settled_at),
    timeControl: r.time_control,
    clocks: r.clocks,
    deadlineAt: r.deadline_at === null ? null : new Date(r.deadline_at),
    clockRev: r.clock_rev,
    rematchId: r.rematch_id,
    pairing: typeof r.pairing === 'string' ? (JSON.parse(r.pairing) as PairingRef) : r.pairing,
    seats: typeof r.seats === 'string' ? (JSON.parse(r.seats) as SeatRow[]) : r.seats,
  };
}

/**
 * The game with its seats in one round trip. Every request reads a game, so
 * this is one prepared statement on the pool: Prisma's include costs a second
 * query and, with the Wasm query compiler, noticeable CPU per call (bench:service).
 */
export async function findGame(sql: Sql, id: string): Promise<GameRow | null> {
  const { rows } = await sql.query<RawGame>({ name: 'herald-find-game', text: FIND_GAME, values: [id] });
  const r = rows[0];
  return r ? rowOf(r) : null;
}

/** A game's version and clock revision: together they say whether a row read earlier is still current. */
export interface GameRevision {
  version: number;
  clockRev: number;
  /** Set once, without a new version (a rematch asked for). */
  rematchId: string | null;
}

/** The game's version, clock revision and rematch now, or null when there is no such game: the cheap check behind the game cache. */
export async function gameRevision(sql: Sql, id: string): Promise<GameRevision | null> {
  const { rows } = await sql.query<{ version: number; clock_rev: number; rematch_id: string | null }>({
    name: 'herald-game-revision',
    text: 'SELECT version, clock_rev, rematch_id::text AS rematch_id FROM games WHERE id = $1::uuid',
    values: [id],
  });
  const r = rows[0];
  return r ? { version: r.version, clockRev: r.clock_rev, rematchId: r.rematch_id } : null;
}

export async function findGames(db: PrismaClient, ids: string[]): Promise<GameRow[]> {
  return (await db.game.findMany({ where: { id: { in: ids } }, include: withSeats })).map(toRow);
}

export interface LogEntryInput {
  kind: string;
  role: string | null;
  playerId: string | null;
  action?: JsonIn;
  /** The change this entry made to the game log (engine logChange). */
  log?: JsonIn;
  idempotencyKey?: string | null;
  status: GameStatus;
  activeRoles: string[];
}

export interface Change {
  gameId: string;
  /** The version the change was computed from; the commit fails when the game moved on. */
  expectedVersion: number;
  /**
   * The clock revision (games.clock_rev) the change was computed from: a pause or resume of the
   * clocks in between (which keeps the version) makes the commit fail like a new version does.
   */
  expectedClockRev: number;
  /** New game fields (the version is bumped by the number of entries). */
  game: {
    status?: GameStatus;
    state?: JsonIn | null;
    result?: JsonIn | null;
    activeRoles?: string[];
    /** The seats' clocks after the change (ClockState) and their earliest running deadline; omitted = unchanged. */
    clocks?: JsonIn | null;
    deadlineAt?: Date | null;
    /** The earliest reminder time of the clocks (set with them). */
    remindAt?: Date | null;
  };
  seats?: { role: string; playerId: string | null; inviteCodeHash?: string | null }[];
  /** One per version step (at least one). */
  entries: LogEntryInput[];
  idempotency?: { playerId: string; key: string; requestHash: string; response: JsonIn };
  /** The entries' time (created_at), also published with them as the commit time; default now. */
  at?: Date;
  /** Webhook events of the change: written to the outbox (for the endpoints that want them) by the same commit. */
  webhooks?: OutboxEvent[];
}

export class VersionConflict extends Error {
  constructor() {
    super('the game changed meanwhile');
    this.name = 'VersionConflict';
  }
}

/**
 * Applies a change atomically, in one statement: the game row (only if still at
 * expectedVersion and expectedClockRev, else VersionConflict and nothing is
 * written), seats, log entries (seq = expectedVersion+1 …), idempotency record,
 * outbox rows. Returns the new version. A change without seat updates goes
 * through the group commit (`commits`); one with seats (join, leave: rare) alone.
 */
export async function commitChange(sql: Sql, commits: CommitGroup, c: Change): Promise<number> {
  if (!c.seats || c.seats.length === 0) return commits.commit(c);
  return commitInOneStatement(sql, c);
}

/** True for a unique-constraint violation, from the Prisma client or from a raw statement. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; meta?: { code?: string }; cause?: { code?: string }; message?: string };
  return e?.code === 'P2002' || e?.code === '23505' || e?.meta?.code === '23505' || e?.cause?.code === '23505' || /\b23505\b|unique constraint/i.test(e?.message ?? '');
}

/** A change's log entries as the rows the commit statements insert. */
/** A change's log entries as the rows of the commit statements' recordset (exported for the floor server too). */
export function entryRows(c: Change) {
  return c.entries.map((e, i) => ({
    seq: c.expectedVersion + 1 + i,
    kind: e.kind,
    role: e.role,
    player_id: e.playerId,
    action: e.action === undefined ? null : e.action,
    log: e.log === undefined ? null : e.log,
    idempotency_key: e.idempotencyKey ?? null,
    status: e.status,
    active_roles: e.activeRoles,
  }));
}

/**
 * commitChange without seat updates (every action, most lifecycle steps) as a
 * single statement — atomic without an explicit transaction, one round trip:
 * the game update carries the version check; the inserts select from it, so
 * they write nothing when it matched no row.
 */
async function commitInOneStatement(sql: Sql, c: Change): Promise<number> {
  const newVersion = c.expectedVersion + c.entries.length;
  const g = c.game;
  const entries = entryRows(c);
  const idem = c.idempotency ?? null;
  const seats = c.seats && c.seats.length > 0 ? c.seats : null;
  // Without events (most actions), the statement without the outbox's INSERT: nothing of it is
  // planned, locked or run. A seat change (join, leave: rare) always has the outbox part.
  const hooks = seats !== null || (c.webhooks !== undefined && c.webhooks.length > 0);
  const values: unknown[] = [
    newVersion,
    g.status ?? null,
    g.state !== undefined,
    g.state == null ? null : JSON.stringify(g.state),
    g.result !== undefined,
    g.result == null ? null : JSON.stringify(g.result),
    g.activeRoles !== undefined,
    g.activeRoles ?? [],
    c.gameId,
    c.expectedVersion,
    JSON.stringify(entries),
    idem !== null,
    idem?.playerId ?? null,
    idem?.key ?? null,
    idem?.requestHash ?? null,
    idem ? JSON.stringify(idem.response) : null,
    c.at ?? new Date(),
    g.clocks !== undefined,
    g.clocks === undefined || g.clocks === null ? null : JSON.stringify(g.clocks),
    // An ISO string: pg's own Date formatting costs more than the clock arithmetic.
    g.deadlineAt ? g.deadlineAt.toISOString() : null,
    g.remindAt ? g.remindAt.toISOString() : null,
    c.expectedClockRev,
  ];
  if (hooks) values.push(JSON.stringify(c.webhooks ?? []));
  if (seats) values.push(JSON.stringify(seats.map((x) => ({ role: x.role, player_id: x.playerId, set_invite: x.inviteCodeHash !== undefined, invite_code_hash: x.inviteCodeHash ?? null }))));
  const statement = seats ? { name: 'herald-commit-seats', text: COMMIT_SEATS } : hooks ? { name: 'herald-commit-hooks', text: COMMIT_HOOKS } : { name: 'herald-commit', text: COMMIT };
  const { rows } = await sql.query<{ updated: number }>({ ...statement, values });
  if (Number(rows[0]?.updated ?? 0) !== 1) throw new VersionConflict();
  return newVersion;
}

/** The commit statement: with the outbox's INSERT when `hooks` ($23), with seat updates when `seats` ($24; needs hooks). */
function commitSql(hooks: boolean, seats: boolean): string {
  return `
  WITH g AS (
    UPDATE games SET
      version = $1,
      status = COALESCE($2::game_status, status),
      state = CASE WHEN $3::boolean THEN $4::jsonb ELSE state END,
      result = CASE WHEN $5::boolean THEN $6::jsonb ELSE result END,
      active_roles = CASE WHEN $7::boolean THEN $8::text[] ELSE active_roles END,
      clocks = CASE WHEN $18::boolean THEN $19::jsonb ELSE clocks END,
      deadline_at = CASE WHEN $18::boolean THEN $20::timestamptz ELSE deadline_at END,
      remind_at = CASE WHEN $18::boolean THEN $21::timestamptz ELSE remind_at END,
      updated_at = now()
    WHERE id = $9::uuid AND version = $10 AND clock_rev = $22
    RETURNING id
  ), a AS (
    INSERT INTO actions (game_id, seq, kind, role, player_id, action, log, idempotency_key, status, active_roles, created_at)
    SELECT g.id, e.seq, e.kind, e.role, e.player_id, e.action, e.log, e.idempotency_key, e.status::game_status, e.active_roles, $17::timestamptz
    FROM g, jsonb_to_recordset($11::jsonb)
      AS e(seq int, kind text, role text, player_id uuid, action jsonb, log jsonb, idempotency_key text, status text, active_roles text[])
    RETURNING 1
  ), i AS (
    INSERT INTO idempotency_records (game_id, player_id, key, request_hash, response, created_at)
    SELECT g.id, $13::uuid, $14, $15, $16::jsonb, now()
    FROM g WHERE $12::boolean
    RETURNING 1
  )${
    hooks
      ? `, w AS (
    ${enqueueSql('$23::jsonb', 'g,')}
    RETURNING 1
  )`
      : ''
  }${seats
    ? `, s AS (
    UPDATE seats SET player_id = x.player_id,
      invite_code_hash = CASE WHEN x.set_invite THEN x.invite_code_hash ELSE seats.invite_code_hash END
    FROM g, jsonb_to_recordset($24::jsonb) AS x(role text, player_id uuid, set_invite boolean, invite_code_hash text)
    WHERE seats.game_id = g.id AND seats.role = x.role
    RETURNING 1
  )`
    : ''}
  SELECT (SELECT count(*) FROM g)::int AS updated`;
}

// Exported for the benchmark's floor server (scripts/bench-floor-server.ts), which must send the same statements.
export const COMMIT = commitSql(false, false);
export const COMMIT_HOOKS = commitSql(true, false);
/** COMMIT with seat updates ($24: [{role, player_id, set_invite, invite_code_hash}]). */
const COMMIT_SEATS = commitSql(true, true);

/**
 * Several seat-less changes (of different games, usually) in one statement:
 * the same version check, updates and inserts as COMMIT, per change. Returns
 * the indexes of the changes committed; the others' games had moved on.
 */
async function commitManyInOneStatement(sql: Sql, cs: Change[]): Promise<Set<number>> {
  const rows = cs.map((c, i) => {
    const g = c.game;
    const idem = c.idempotency ?? null;
    return {
      i,
      game_id: c.gameId,
      expected: c.expectedVersion,
      expected_rev: c.expectedClockRev,
      version: c.expectedVersion + c.entries.length,
      status: g.status ?? null,
      set_state: g.state !== undefined,
      state: g.state ?? null,
      set_result: g.result !== undefined,
      result: g.result ?? null,
      set_roles: g.activeRoles !== undefined,
      active_roles: g.activeRoles ?? [],
      set_clocks: g.clocks !== undefined,
      clocks: g.clocks ?? null,
      deadline_at: g.deadlineAt ? g.deadlineAt.toISOString() : null,
      remind_at: g.remindAt ? g.remindAt.toISOString() : null,
      entries: entryRows(c),
      idem: idem !== null,
      idem_player: idem?.playerId ?? null,
      idem_key: idem?.key ?? null,
      idem_hash: idem?.requestHash ?? null,
      idem_response: idem?.response ?? null,
      at: (c.at ?? new Date()).toISOString(),
      webhooks: c.webhooks ?? [],
    };
  });
  const hooks = cs.some((c) => c.webhooks !== undefined && c.webhooks.length > 0);
  const { rows: done } = await sql.query<{ i: number }>(
    hooks ? { name: 'herald-commit-many-hooks', text: COMMIT_MANY_HOOKS, values: [JSON.stringify(rows)] } : { name: 'herald-commit-many', text: COMMIT_MANY, values: [JSON.stringify(rows)] },
  );
  return new Set(done.map((r) => r.i));
}

const commitManySql = (hooks: boolean) => `
  WITH c AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS c(
      i int, game_id uuid, expected int, expected_rev int, version int, status text,
      set_state boolean, state jsonb, set_result boolean, result jsonb, set_roles boolean, active_roles text[],
      set_clocks boolean, clocks jsonb, deadline_at timestamptz, remind_at timestamptz,
      entries jsonb, idem boolean, idem_player uuid, idem_key text, idem_hash text, idem_response jsonb, at timestamptz, webhooks jsonb)
  ), g AS (
    UPDATE games SET
      version = c.version,
      status = COALESCE(c.status::game_status, games.status),
      state = CASE WHEN c.set_state THEN c.state ELSE games.state END,
      result = CASE WHEN c.set_result THEN c.result ELSE games.result END,
      active_roles = CASE WHEN c.set_roles THEN c.active_roles ELSE games.active_roles END,
      clocks = CASE WHEN c.set_clocks THEN c.clocks ELSE games.clocks END,
      deadline_at = CASE WHEN c.set_clocks THEN c.deadline_at ELSE games.deadline_at END,
      remind_at = CASE WHEN c.set_clocks THEN c.remind_at ELSE games.remind_at END,
      updated_at = now()
    FROM c
    WHERE games.id = c.game_id AND games.version = c.expected AND games.clock_rev = c.expected_rev
    RETURNING c.i
  ), a AS (
    INSERT INTO actions (game_id, seq, kind, role, player_id, action, log, idempotency_key, status, active_roles, created_at)
    SELECT c.game_id, e.seq, e.kind, e.role, e.player_id, e.action, e.log, e.idempotency_key, e.status::game_status, e.active_roles, c.at
    FROM g JOIN c ON c.i = g.i, jsonb_to_recordset(c.entries)
      AS e(seq int, kind text, role text, player_id uuid, action jsonb, log jsonb, idempotency_key text, status text, active_roles text[])
    RETURNING 1
  ), r AS (
    INSERT INTO idempotency_records (game_id, player_id, key, request_hash, response, created_at)
    SELECT c.game_id, c.idem_player, c.idem_key, c.idem_hash, c.idem_response, now()
    FROM g JOIN c ON c.i = g.i WHERE c.idem
    RETURNING 1
  )${
    hooks
      ? `, w AS (
    ${enqueueSql('c.webhooks', 'g JOIN c ON c.i = g.i CROSS JOIN LATERAL')}
    RETURNING 1
  )`
      : ''
  }
  SELECT i FROM g`;
export const COMMIT_MANY = commitManySql(false);
export const COMMIT_MANY_HOOKS = commitManySql(true);

/** The group commit of one pool (group-commit.ts): every seat-less change goes through it. */
export function commitGroup(
  sql: Sql,
  onStatement?: (changes: number) => void,
  tuning: Pick<GroupCommitOptions, 'maxInFlight' | 'maxBatch' | 'maxWaitMs'> = {},
): CommitGroup {
  return new CommitGroup(sql, {
    one: commitInOneStatement,
    many: commitManyInOneStatement,
    conflict: () => new VersionConflict(),
    perChange: (err) => isUniqueViolation(err) || (err as { code?: string } | null)?.code === '40P01',
    onStatement,
    ...tuning,
  });
}

/** Sets (or clears) a seat's invite code while the game is still being set up; false otherwise. */
export async function setInvite(db: PrismaClient, gameId: string, role: string, hash: string): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE seats SET invite_code_hash = ${hash}
    WHERE game_id = ${gameId}::uuid AND role = ${role} AND player_id IS NULL
      AND EXISTS (SELECT 1 FROM games WHERE id = ${gameId}::uuid AND status = 'setup')`;
  return n === 1;
}

export async function findIdempotency(sql: Sql, gameId: string, playerId: string, key: string): Promise<Pick<IdempotencyRecord, 'requestHash' | 'response'> | null> {
  const { rows } = await sql.query<{ request_hash: string; response: IdempotencyRecord['response'] }>({
    name: 'herald-find-idempotency',
    text: 'SELECT request_hash, response FROM idempotency_records WHERE game_id = $1::uuid AND player_id = $2::uuid AND key = $3',
    values: [gameId, playerId, key],
  });
  const r = rows[0];
  return r ? { requestHash: r.request_hash, response: r.response } : null;
}

/**
 * Log entries after `afterSeq` (up to `upToSeq`), oldest first: a prepared
 * statement on the pool (a catching-up event stream reads them per connection).
 */
export async function listEntries(sql: Sql, gameId: string, opts: { afterSeq?: number; upToSeq?: number; limit?: number; kind?: string } = {}): Promise<Action[]> {
  const { rows } = await sql.query<RawEntry>({
    name: 'herald-list-entries',
    text: LIST_ENTRIES,
    values: [gameId, opts.afterSeq ?? 0, opts.upToSeq ?? null, opts.kind ?? null, opts.limit ?? null],
  });
  return rows.map((r) => ({
    gameId: r.game_id,
    seq: r.seq,
    kind: r.kind,
    role: r.role,
    playerId: r.player_id,
    action: r.action,
    log: r.log,
    idempotencyKey: r.idempotency_key,
    status: r.status,
    activeRoles: r.active_roles ?? [],
    createdAt: new Date(r.created_at),
  }));
}

interface RawEntry {
  game_id: string;
  seq: number;
  kind: string;
  role: string | null;
  player_id: string | null;
  action: Prisma.JsonValue | null;
  log: Prisma.JsonValue | null;
  idempotency_key: string | null;
  status: GameStatus;
  active_roles: string[] | null;
  created_at: Date;
}

const LIST_ENTRIES = `
  SELECT game_id::text AS game_id, seq, kind, role, player_id::text AS player_id, action, log, idempotency_key,
    status::text AS status, active_roles, created_at
  FROM actions
  WHERE game_id = $1::uuid AND seq > $2::int AND ($3::int IS NULL OR seq <= $3::int) AND ($4::text IS NULL OR kind = $4::text)
  ORDER BY seq
  LIMIT $5::int`;

export async function countActions(db: PrismaClient, gameId: string): Promise<number> {
  return db.action.count({ where: { gameId, kind: 'action' } });
}

export interface GameQuery {
  /** null: anonymous (public games only). */
  viewerId: string | null;
  status?: GameStatus;
  gameType?: string;
  playerId?: string;
  myTurn?: boolean;
  /** Keyset cursor: strictly older than (createdAt, id). */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/** Ids of the games matching the query, newest first. */
export async function queryGameIds(db: PrismaClient, q: GameQuery): Promise<{ id: string; createdAt: Date }[]> {
  const where: Prisma.Sql[] = [];
  if (q.viewerId === null) where.push(Prisma.sql`g.visibility = 'public'`);
  else {
    where.push(Prisma.sql`(g.visibility = 'public' OR g.created_by_id = ${q.viewerId}::uuid
      OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = ${q.viewerId}::uuid))`);
  }
  if (q.status) where.push(Prisma.sql`g.status = ${q.status}::game_status`);
  if (q.gameType) where.push(Prisma.sql`g.game_type = ${q.gameType}`);
  if (q.playerId) where.push(Prisma.sql`EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = ${q.playerId}::uuid)`);
  if (q.myTurn && q.viewerId) {
    where.push(Prisma.sql`g.status = 'active' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id
      AND s.player_id = ${q.viewerId}::uuid AND s.role = ANY(g.active_roles))`);
  }
  if (q.before) where.push(Prisma.sql`(g.created_at, g.id) < (${q.before.createdAt}::timestamptz, ${q.before.id}::uuid)`);
  const rows = await db.$queryRaw<{ id: string; created_at: Date }[]>`
    SELECT g.id::text AS id, g.created_at FROM games g
    WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY g.created_at DESC, g.id DESC
    LIMIT ${q.limit}`;
  return rows.map((r) => ({ id: r.id, createdAt: new Date(r.created_at) }));
}

/** Games (not over) where the player holds a seat. */
/** Games not over where a player the application created holds a seat (its app-wide stream), with those seats. */
export async function gamesOfAppPlayers(db: PrismaClient, appId: string): Promise<Array<GameRow & { appSeats: { role: string; playerId: string }[] }>> {
  const rows = await db.game.findMany({
    where: { status: { in: ['setup', 'active'] }, seats: { some: { player: { createdById: appId } } } },
    include: withSeats,
    orderBy: { createdAt: 'desc' },
  });
  if (rows.length === 0) return [];
  const seats = await db.seat.findMany({
    where: { gameId: { in: rows.map((g) => g.id) }, player: { createdById: appId } },
    select: { gameId: true, role: true, playerId: true },
    orderBy: [{ gameId: 'asc' }, { role: 'asc' }],
  });
  return rows.map((g) => ({
    ...toRow(g),
    appSeats: seats.filter((s) => s.gameId === g.id && s.playerId !== null).map((s) => ({ role: s.role, playerId: s.playerId! })),
  }));
}

export async function gamesOfPlayer(db: PrismaClient, playerId: string): Promise<GameRow[]> {
  const rows = await db.game.findMany({
    where: { status: { in: ['setup', 'active'] }, seats: { some: { playerId } } },
    include: withSeats,
    orderBy: { createdAt: 'desc' },
  });
  return rows.map(toRow);
}

/** Active games where a seat held by an AI player (players.ai_level) is among the active roles, least recently changed first. */
export async function aiTurnGames(sql: Sql, limit: number, gameTypes: readonly string[]): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>({
    name: 'herald-ai-turn-games',
    text: `SELECT g.id::text AS id FROM players p
      JOIN seats s ON s.player_id = p.id
      JOIN games g ON g.id = s.game_id
      WHERE p.ai_level IS NOT NULL AND g.status = 'active' AND s.role = ANY(g.active_roles) AND g.game_type = ANY($2::text[])
      GROUP BY g.id, g.updated_at ORDER BY g.updated_at LIMIT $1`,
    values: [limit, [...gameTypes]],
  });
  return rows.map((r) => r.id);
}
