/**
 * The floor server of `npm run bench:service -- --server floor` (issue 18): the
 * least a server can do to serve the bench client exactly as Herald does, so
 * that Herald's CPU per action can be compared with what the work itself needs.
 *
 * Same routes and bodies as the bench client uses (POST /players, POST /games,
 * POST /games/{id}/join, GET /games/{id}, GET /games/{id}/actions,
 * POST /games/{id}/actions, GET /games/{id}/events, GET /metrics, GET /readyz);
 * same work per action as Herald's write path (src/service/actions.ts): the
 * bearer key's SHA-256 looked up in a key cache (10 s, as key-cache.ts) or the
 * database; the game from an in-process cache (the commit's version check
 * catches a stale row; a refusal is decided again on a fresh read); the same
 * engine calls (legalActions, apply, status, activeRoles, view, logChange, the
 * next legalActions); the same commit statements (the one-change and the
 * batch statement of store/games.ts, sent by the same group commit,
 * store/group-commit.ts: version check, log entry, idempotency record, webhook
 * outbox CTE); the same Redis publishes (game:<id> event, player:<id>
 * your_turn, auto-pipelined) with the echo of a watched channel received and
 * dropped; the same SSE version events with the seat's view; the unrated
 * settlement claim when a game ends. Reads check the cached row's version in
 * the database as Herald's reads do.
 *
 * None of the framework: node:http, pg, ioredis; no Fastify, Prisma, plugins,
 * metrics library or logger. Where Herald does work the request does not need
 * (a request hash without an Idempotency-Key, canonical JSON to compare an
 * action, a seat view built once per watcher rather than once per version),
 * the floor does not: it is the fastest plain implementation of the same
 * behaviour, the mark Herald is measured against.
 *
 * Environment: DATABASE_URL, REDIS_URL, PORT, HOST, BUS_PREFIX, SSE_HEARTBEAT_SECONDS.
 */
import http from 'node:http';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { games as GAME_MODULES } from '../src/games/index.ts';
import type { GameModule } from '../src/engine/types.ts';
import { CommitGroup } from '../src/store/group-commit.ts';
import type { Change } from '../src/store/games.ts';
import { enqueueSql } from '../src/store/webhooks.ts';
import { COMMIT, COMMIT_HOOKS, COMMIT_MANY, COMMIT_MANY_HOOKS, entryRows } from '../src/store/games.ts';
import { runMigrations, pendingMigrations } from '../src/store/migrate.ts';
import { labelledActions } from '../src/service/choices.ts';
import { hashJson } from '../src/service/json.ts';
import { DEFAULT_LANGUAGE } from '../src/i18n/index.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const DATABASE_URL = process.env.DATABASE_URL!;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = Number(process.env.PORT ?? 3000);
const HOST = process.env.HOST ?? '127.0.0.1';
const PREFIX = process.env.BUS_PREFIX ?? '';
const HEARTBEAT_MS = Number(process.env.SSE_HEARTBEAT_SECONDS ?? 15) * 1000;
const KEY_TTL_MS = 10_000;
const MAX_ATTEMPTS = 8;

if ((await pendingMigrations(DATABASE_URL)).length > 0) await runMigrations(DATABASE_URL);

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
pool.on('error', () => {});
const publisher = new Redis(REDIS_URL, { enableAutoPipelining: true, maxRetriesPerRequest: 2 });
const subscriber = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
publisher.on('error', () => {});
subscriber.on('error', () => {});

// ─── Store: the same statements as src/store/games.ts ─────────────────────────

class VersionConflict extends Error {}

// Herald's own commit statements (with the outbox part only when a change has webhook events, as Herald).

async function commitOne(sql: pg.Pool | Pick<pg.Pool, 'query'>, c: Change): Promise<number> {
  const g = c.game;
  const idem = c.idempotency ?? null;
  const hooks = c.webhooks !== undefined && c.webhooks.length > 0;
  const values: unknown[] = [
    c.expectedVersion + c.entries.length, g.status ?? null,
    g.state !== undefined, g.state === undefined ? null : JSON.stringify(g.state),
    g.result !== undefined, g.result === undefined ? null : JSON.stringify(g.result),
    g.activeRoles !== undefined, g.activeRoles ?? [],
    c.gameId, c.expectedVersion, JSON.stringify(entryRows(c)),
    idem !== null, idem?.playerId ?? null, idem?.key ?? null, idem?.requestHash ?? null, idem ? JSON.stringify(idem.response) : null,
    (c.at ?? new Date()).toISOString(),
    false, null, null, null, c.expectedClockRev,
  ];
  if (hooks) values.push(JSON.stringify(c.webhooks));
  const { rows } = await sql.query<{ updated: number }>(hooks ? { name: 'herald-commit-hooks', text: COMMIT_HOOKS, values } : { name: 'herald-commit', text: COMMIT, values });
  if (rows[0]?.updated !== 1) throw new VersionConflict();
  return c.expectedVersion + c.entries.length;
}

async function commitMany(sql: Pick<pg.Pool, 'query'>, cs: Change[]): Promise<Set<number>> {
  const rows = cs.map((c, i) => {
    const g = c.game;
    const idem = c.idempotency ?? null;
    return {
      i, game_id: c.gameId, expected: c.expectedVersion, expected_rev: c.expectedClockRev, version: c.expectedVersion + c.entries.length,
      status: g.status ?? null, set_state: g.state !== undefined, state: g.state ?? null, set_result: g.result !== undefined, result: g.result ?? null,
      set_roles: g.activeRoles !== undefined, active_roles: g.activeRoles ?? [], set_clocks: false, clocks: null, deadline_at: null, remind_at: null,
      entries: entryRows(c), idem: idem !== null, idem_player: idem?.playerId ?? null, idem_key: idem?.key ?? null, idem_hash: idem?.requestHash ?? null,
      idem_response: idem?.response ?? null, at: (c.at ?? new Date()).toISOString(), webhooks: c.webhooks ?? [],
    };
  });
  const hooks = cs.some((c) => c.webhooks !== undefined && c.webhooks.length > 0);
  const { rows: done } = await sql.query<{ i: number }>(
    hooks ? { name: 'herald-commit-many-hooks', text: COMMIT_MANY_HOOKS, values: [JSON.stringify(rows)] } : { name: 'herald-commit-many', text: COMMIT_MANY, values: [JSON.stringify(rows)] },
  );
  return new Set(done.map((r) => r.i));
}

const stats = { statements: 0, changes: 0 };
const commits = new CommitGroup(pool, {
  one: commitOne,
  many: commitMany,
  conflict: () => new VersionConflict(),
  perChange: (err) => (err as { code?: string } | null)?.code === '23505' || (err as { code?: string } | null)?.code === '40P01',
  onStatement: (n) => {
    stats.statements++;
    stats.changes += n;
  },
});

// ─── Games in memory (as service/game-cache.ts) ───────────────────────────────

interface Seat { role: string; playerId: string | null; player: { id: string; name: string; isBot: boolean } | null; inviteCodeHash: string | null }
interface Game {
  id: string; gameType: string; scenario: string; status: string; version: number; options: Json; seed: string; visibility: string;
  state: unknown; result: Json; activeRoles: string[]; autoStart: boolean; rated: boolean; createdById: string | null;
  createdAt: string; updatedAt: string; clockRev: number; rematchId: string | null; seats: Seat[];
}

const FIND_GAME = `
  SELECT g.id::text AS id, g.game_type, g.scenario, g.status::text AS status, g.version, g.options, g.seed,
    g.visibility::text AS visibility, g.state, g.result, g.active_roles, g.auto_start, g.created_by_id::text AS created_by_id,
    g.created_at, g.updated_at, g.rated, g.clock_rev, g.rematch_id::text AS rematch_id,
    COALESCE((SELECT json_agg(json_build_object(
        'role', s.role, 'playerId', s.player_id, 'inviteCodeHash', s.invite_code_hash,
        'player', CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'name', p.name, 'isBot', p.is_bot) END
      ) ORDER BY s.role)
      FROM seats s LEFT JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id), '[]'::json) AS seats
  FROM games g WHERE g.id = $1::uuid`;

const cache = new Map<string, Game>();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function readGame(id: string): Promise<Game | null> {
  const { rows } = await pool.query({ name: 'herald-find-game', text: FIND_GAME, values: [id] });
  const r = rows[0];
  if (!r) {
    cache.delete(id);
    return null;
  }
  const m = GAME_MODULES[r.game_type]!;
  const seats = (r.seats as Seat[]).sort((a, b) => m.roles.indexOf(a.role) - m.roles.indexOf(b.role));
  const g: Game = {
    id: r.id, gameType: r.game_type, scenario: r.scenario, status: r.status, version: r.version, options: r.options ?? {}, seed: r.seed,
    visibility: r.visibility, state: r.state, result: r.result, activeRoles: r.active_roles ?? [], autoStart: r.auto_start, rated: r.rated,
    createdById: r.created_by_id, createdAt: new Date(r.created_at).toISOString(), updatedAt: new Date(r.updated_at).toISOString(),
    clockRev: r.clock_rev, rematchId: r.rematch_id, seats,
  };
  if (g.status !== 'setup') cache.set(id, g);
  return g;
}

/** The game as the database holds it now: the cached row after a one-column version check (Herald's reads). */
async function currentGame(id: string, trustCache = false): Promise<Game | null> {
  if (!UUID.test(id)) return null;
  const cached = cache.get(id);
  if (cached) {
    if (trustCache) return cached;
    const { rows } = await pool.query({
      name: 'herald-game-revision',
      text: 'SELECT version, clock_rev, rematch_id::text AS rematch_id FROM games WHERE id = $1::uuid',
      values: [id],
    });
    const r = rows[0];
    if (r && r.version === cached.version && r.clock_rev === cached.clockRev && r.rematch_id === cached.rematchId) return cached;
  }
  return readGame(id);
}

function canSee(g: Game, playerId: string | null): boolean {
  return g.visibility === 'public' || (playerId !== null && (g.createdById === playerId || g.seats.some((s) => s.playerId === playerId)));
}

function summary(g: Game): Record<string, unknown> {
  const over = g.status === 'finished' || g.status === 'abandoned';
  return {
    id: g.id, gameType: g.gameType, scenario: g.scenario, options: g.options, visibility: g.visibility, status: g.status, version: g.version,
    activeRoles: g.activeRoles,
    seats: g.seats.map((s) => ({ role: s.role, player: s.player, invited: s.inviteCodeHash !== null })),
    result: g.result ?? null, createdBy: g.createdById ?? '', autoStart: g.autoStart, rated: g.rated, league: null, rematchId: g.rematchId,
    clock: null, createdAt: g.createdAt, updatedAt: g.updatedAt, ...(over ? { seed: g.seed } : {}),
  };
}

/** Structural equality of two JSON values, key order ignored (an action against a legal one). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let n = 0;
  for (const k in ao) {
    if (ao[k] === undefined) continue;
    n++;
    if (!Object.hasOwn(bo, k) || !sameJson(ao[k], bo[k])) return false;
  }
  for (const k in bo) if (bo[k] !== undefined) n--;
  return n === 0;
}

// ─── Keys (as service/key-cache.ts) ───────────────────────────────────────────

const keys = new Map<string, { playerId: string; expiresAt: number }>();
void subscriber.subscribe(`${PREFIX}keys:revoked`).catch(() => {});

class Problem extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;
  constructor(status: number, code: string, detail: string, extra: Record<string, unknown> = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

async function callerOf(req: http.IncomingMessage): Promise<string | null> {
  const h = req.headers.authorization;
  if (h === undefined) return null;
  if (!h.startsWith('Bearer ')) throw new Problem(401, 'unauthorized', 'Authorization must be "Bearer <key>".');
  const hash = createHash('sha256').update(h.slice(7).trim()).digest('hex');
  const now = Date.now();
  const k = keys.get(hash);
  if (k && k.expiresAt > now) return k.playerId;
  const { rows } = await pool.query({
    name: 'herald-find-key',
    text: `SELECT k.id::text AS id, k.player_id::text AS player_id, k.revoked_at, p.kind::text AS kind
      FROM api_keys k JOIN players p ON p.id = k.player_id WHERE k.hash = $1`,
    values: [hash],
  });
  const r = rows[0];
  if (!r || r.revoked_at) throw new Problem(401, 'unauthorized', 'Unknown or revoked API key.');
  keys.set(hash, { playerId: r.player_id, expiresAt: now + KEY_TTL_MS });
  return r.player_id;
}

function requireCaller(c: string | null): string {
  if (c === null) throw new Problem(401, 'unauthorized', 'This needs an API key (Authorization: Bearer <key>).');
  return c;
}

// ─── Publishing and SSE (as service/events.ts, bus/redis.ts, notify/) ─────────

interface Watcher { res: http.ServerResponse; role: string | null; heartbeat: NodeJS.Timeout; poll: NodeJS.Timeout }
const watchers = new Map<string, Set<Watcher>>();
/** Payloads published on watched channels whose echo from Redis is still due. */
const echoes = new Set<string>();

subscriber.on('message', (channel: string, payload: string) => {
  if (echoes.delete(payload)) return;
  // Another instance's message: a catch-up trigger (a single floor instance has none).
  void channel;
});

function publishCommitted(g: Game, entry: { kind: string; role: string | null; playerId: string | null; status: string; activeRoles: string[] }, at: string, ownView: { role: string; view: Json } | null): void {
  const event = { type: entry.kind, gameId: g.id, version: g.version, role: entry.role, playerId: entry.playerId, activeRoles: entry.activeRoles, status: entry.status, at, clock: null };
  const payload = JSON.stringify(event);
  const ws = watchers.get(g.id);
  if (ws) echoes.add(payload);
  publisher.publish(`${PREFIX}game:${g.id}`, payload).catch(() => {});
  if (entry.status === 'active') {
    for (const s of g.seats) {
      if (s.playerId && entry.activeRoles.includes(s.role)) {
        publisher.publish(`${PREFIX}player:${s.playerId}`, JSON.stringify({ type: 'your_turn', gameId: g.id, version: g.version, roles: [s.role], clock: null })).catch(() => {});
      }
    }
  }
  if (ws) deliver(g, ws, { gameId: g.id, version: g.version, type: entry.kind, role: entry.role, playerId: entry.playerId, status: entry.status, activeRoles: entry.activeRoles, at }, ownView);
}

/** The version event to each watcher of the game, each seat's view built and serialised once. */
function deliver(g: Game, ws: Set<Watcher>, e: Record<string, unknown>, ownView: { role: string; view: Json } | null): void {
  const m = GAME_MODULES[g.gameType]!;
  const texts = new Map<string | null, string>();
  const over = g.status === 'finished' || g.status === 'abandoned';
  for (const w of ws) {
    let text = texts.get(w.role);
    if (text === undefined) {
      const view = ownView && ownView.role === w.role ? ownView.view : (m.view(g.state, w.role) as Json);
      const { at, ...rest } = e;
      text = `id: ${g.version}\nevent: version\ndata: ${JSON.stringify({ ...rest, seat: w.role, view, clock: null, at })}\n\n`;
      if (over) text += `event: end\ndata: ${JSON.stringify({ gameId: g.id, version: g.version, status: g.status })}\n\n`;
      texts.set(w.role, text);
    }
    w.res.write(text);
    if (over) w.res.end();
  }
}

async function openStream(req: http.IncomingMessage, res: http.ServerResponse, caller: string | null, id: string, role: string | null): Promise<void> {
  const g = await currentGame(id);
  if (!g || !canSee(g, caller)) throw new Problem(404, 'not_found', `No game ${id}.`);
  const held = g.seats.filter((s) => s.playerId !== null && s.playerId === caller).map((s) => s.role);
  const seat = role ?? (held.length === 1 ? held[0]! : null);
  if (seat !== null && !held.includes(seat)) throw new Problem(403, 'forbidden', `The ${seat} seat is not yours.`);
  let ws = watchers.get(id);
  if (!ws) {
    watchers.set(id, (ws = new Set()));
    await subscriber.subscribe(`${PREFIX}game:${id}`);
  }
  // The current version with its event (who did what), read from the log as Herald's feed does.
  const { rows } = g.version > 0
    ? await pool.query({ name: 'floor-last-entry', text: 'SELECT kind, role, player_id::text AS player_id, status::text AS status, active_roles, created_at FROM actions WHERE game_id = $1::uuid AND seq = $2', values: [id, g.version] })
    : { rows: [] as any[] };
  const last = rows[0];
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
  res.write('retry: 2000\n\n');
  const w: Watcher = {
    res,
    role: seat,
    heartbeat: setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS),
    // The periodic check for versions a lost message would hide (Herald's feed: currentVersion each heartbeat).
    poll: setInterval(() => void currentGame(id).catch(() => null), HEARTBEAT_MS),
  };
  ws.add(w);
  const close = () => {
    clearInterval(w.heartbeat);
    clearInterval(w.poll);
    ws!.delete(w);
    if (ws!.size === 0 && watchers.get(id) === ws) {
      watchers.delete(id);
      void subscriber.unsubscribe(`${PREFIX}game:${id}`).catch(() => {});
    }
  };
  res.on('close', close);
  deliver(g, new Set([w]), {
    gameId: id, version: g.version, type: last?.kind ?? 'created', role: last?.role ?? null, playerId: last?.player_id ?? null,
    status: g.status, activeRoles: g.activeRoles, ...(last ? { at: new Date(last.created_at).toISOString() } : {}),
  }, null);
}

// ─── The write path (as service/actions.ts) ───────────────────────────────────

function gameEvents(before: Game, after: Game, at: string): unknown[] {
  const out: unknown[] = [];
  const started = after.status === 'active' && before.status !== 'active';
  const ended = (after.status === 'finished' || after.status === 'abandoned') && before.status !== after.status;
  const add = (type: string, playerId: string, role: string, extra: Record<string, unknown> = {}) =>
    out.push({
      ord: out.length, type, player_id: playerId, game_id: after.id,
      payload: {
        type, timestamp: at,
        data: {
          gameId: after.id, gameType: after.gameType, version: after.version, status: after.status, role, ...extra,
          links: { game: `/games/${after.id}`, board: `/games/${after.id}/board.png?role=${encodeURIComponent(role)}` }, public: after.visibility === 'public',
        },
      },
    });
  for (const s of after.seats) {
    if (s.playerId === null) continue;
    if (started) add('game_started', s.playerId, s.role);
    if (after.status === 'active' && after.activeRoles.includes(s.role) && (started || !before.activeRoles.includes(s.role))) add('your_turn', s.playerId, s.role);
    if (ended) add('game_ended', s.playerId, s.role, { result: after.result });
  }
  return out;
}

async function submitAction(caller: string, id: string, body: any): Promise<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Problem(400, 'invalid_request', 'The body must be a JSON object.');
  const input = body.action;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Problem(400, 'invalid_request', 'action must be a JSON object.');
  const expected: number | null = body.expectedVersion ?? null;
  if (expected !== null && (!Number.isSafeInteger(expected) || expected < 0)) throw new Problem(400, 'invalid_request', 'expectedVersion must be a non-negative integer.');
  const key: string | null = body.idempotencyKey ?? null;
  let fresh = false;
  for (let attempt = 1; ; attempt++) {
    const g = await currentGame(id, !fresh);
    if (!g || !canSee(g, caller)) throw new Problem(404, 'not_found', `No game ${id}.`);
    const m = GAME_MODULES[g.gameType] as GameModule;
    let role: string;
    let next: unknown;
    try {
      if (g.status !== 'active') throw new Problem(409, g.status === 'setup' ? 'invalid_state' : 'game_over', `The game is ${g.status}.`);
      const held = g.seats.filter((s) => s.playerId === caller).map((s) => s.role);
      role = body.role ?? held[0];
      if (!held.includes(role)) throw new Problem(403, 'forbidden', 'You hold no seat in this game.');
      if (expected !== null && expected !== g.version) throw new Problem(409, 'version_conflict', `The game is at version ${g.version}, not ${expected}.`, { currentVersion: g.version });
      if (!g.activeRoles.includes(role)) throw new Problem(403, 'not_your_turn', `${role} may not act now.`, { currentVersion: g.version });
      const legal = m.legalActions(g.state, role);
      if (!legal.some((a) => sameJson(a, input))) throw new Problem(422, 'illegal_action', `That is not a legal action for ${role} now.`, { legalActions: legal as Json[] });
      next = m.apply(g.state, role, input);
    } catch (err) {
      if (!fresh) {
        fresh = true;
        attempt--;
        continue;
      }
      throw err;
    }
    const st = m.status(next);
    const status = st.over ? 'finished' : 'active';
    const activeRoles = st.over ? [] : m.activeRoles(next);
    const result = st.over ? { winner: st.winner, reason: st.reason ?? 'game over' } : null;
    const at = new Date().toISOString();
    const after: Game = { ...g, status, version: g.version + 1, activeRoles, state: next, result, updatedAt: at };
    const view = m.view(next, role) as Json;
    const response = {
      version: after.version, role, game: summary(after), view,
      legalActions: activeRoles.includes(role) ? (m.legalActions(next, role) as Json[]) : [],
    };
    const entry = { kind: 'action', role, playerId: caller, action: input, log: m.logChange(next) as unknown as Json, idempotencyKey: key, status, activeRoles };
    try {
      await commits.commit({
        gameId: g.id, expectedVersion: g.version, expectedClockRev: g.clockRev, at: new Date(at),
        game: { status: status as 'active', state: next as any, activeRoles, ...(result ? { result } : {}) },
        entries: [entry as any],
        webhooks: gameEvents(g, after, at) as any,
        ...(key !== null
          ? { idempotency: { playerId: caller, key, requestHash: hashJson({ role: body.role ?? null, expectedVersion: expected, action: input }), response: JSON.stringify(response) } }
          : {}),
      });
    } catch (err) {
      if (err instanceof VersionConflict && attempt < MAX_ATTEMPTS) {
        if (expected !== null) {
          const now = await currentGame(id);
          if (now && now.version !== expected) throw new Problem(409, 'version_conflict', `The game is at version ${now.version}, not ${expected}.`, { currentVersion: now.version });
        }
        fresh = true;
        continue;
      }
      throw err;
    }
    cache.set(g.id, after);
    publishCommitted(after, entry, at, { role, view });
    if (status === 'finished') {
      await pool.query({
        name: 'floor-settle',
        text: `UPDATE games SET settled_at = now() WHERE id = $1::uuid AND status IN ('finished', 'abandoned') AND settled_at IS NULL`,
        values: [g.id],
      });
    }
    return response;
  }
}

// ─── Lifecycle: sign-up, create, join with auto-start (rare; plain SQL) ──────

async function createPlayer(body: any): Promise<Record<string, unknown>> {
  const name = String(body?.name ?? '').trim();
  if (name === '') throw new Problem(400, 'invalid_request', 'name must be a non-empty string.');
  const isBot = body?.isBot === true;
  const key = `hk_${randomBytes(24).toString('base64url')}`;
  const hash = createHash('sha256').update(key).digest('hex');
  const { rows } = await pool.query(
    `WITH p AS (INSERT INTO players (id, name, kind, is_bot) VALUES ($1::uuid, $2, 'player', $3) RETURNING id, created_at)
     INSERT INTO api_keys (id, player_id, prefix, hash, label) SELECT gen_random_uuid(), p.id, $4, $5, 'first key' FROM p RETURNING id::text AS id, created_at`,
    [randomUUID(), name, isBot, key.slice(0, 11), hash],
  );
  return { player: { name, isBot }, key: { id: rows[0].id, prefix: key.slice(0, 11), key } };
}

async function createGame(caller: string, body: any): Promise<Game> {
  const m = GAME_MODULES[body?.gameType];
  if (!m || !m.scenarios.some((s) => s.id === body.scenario)) throw new Problem(400, 'invalid_request', 'gameType and scenario must name an installed game.');
  const options: Record<string, Json> = {};
  for (const o of m.scenarios.find((s) => s.id === body.scenario)!.options) options[o.name] = (body.options?.[o.name] ?? o.default) as Json;
  const seed = randomBytes(16).toString('hex');
  m.setup({ scenario: body.scenario, seed, options });
  const roles: string[] = body.roles ?? [];
  const id = randomUUID();
  await pool.query(
    `WITH g AS (INSERT INTO games (id, game_type, scenario, options, seed, visibility, auto_start, rated, created_by_id, updated_at)
       VALUES ($1::uuid, $2, $3, $4::jsonb, $5, 'public', true, false, $6::uuid, now()) RETURNING id)
     INSERT INTO seats (game_id, role, player_id) SELECT g.id, r.role, CASE WHEN r.role = ANY($8::text[]) THEN $6::uuid END FROM g, unnest($7::text[]) AS r(role)`,
    [id, m.id, body.scenario, JSON.stringify(options), seed, caller, m.roles, roles],
  );
  return (await readGame(id))!;
}

async function join(caller: string, id: string): Promise<Game> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const g = await readGame(id);
    if (!g) throw new Problem(404, 'not_found', `No game ${id}.`);
    if (g.status !== 'setup') throw new Problem(409, 'invalid_state', `Cannot join: the game is ${g.status}.`);
    const seat = g.seats.find((s) => s.playerId === null && s.inviteCodeHash === null);
    if (!seat) throw new Problem(409, 'invalid_state', 'No open seat to join.');
    const m = GAME_MODULES[g.gameType]!;
    const seats = g.seats.map((s) => (s === seat ? { ...s, playerId: caller } : s));
    const entries: Record<string, unknown>[] = [{ seq: g.version + 1, kind: 'join', role: seat.role, player_id: caller, status: 'setup', active_roles: [] }];
    let after: Game = { ...g, seats, version: g.version + 1 };
    if (g.autoStart && seats.every((s) => s.playerId !== null)) {
      const state = m.setup({ scenario: g.scenario, seed: g.seed, options: g.options as Record<string, unknown> });
      const activeRoles = m.activeRoles(state);
      entries.push({ seq: g.version + 2, kind: 'start', role: null, player_id: null, status: 'active', active_roles: activeRoles, log: m.logChange(state) });
      after = { ...after, status: 'active', state, activeRoles, version: g.version + 2 };
    }
    const at = new Date().toISOString();
    after.updatedAt = at;
    const client = await pool.connect();
    let ok = false;
    try {
      await client.query('BEGIN');
      const u = await client.query(
        `UPDATE games SET version = $2, status = $3::game_status, state = $4::jsonb, active_roles = $5::text[], updated_at = now()
         WHERE id = $1::uuid AND version = $6 AND clock_rev = $7`,
        [id, after.version, after.status, after.state === null ? null : JSON.stringify(after.state), after.activeRoles, g.version, g.clockRev],
      );
      if (u.rowCount === 1) {
        await client.query('UPDATE seats SET player_id = $3::uuid, invite_code_hash = NULL WHERE game_id = $1::uuid AND role = $2', [id, seat.role, caller]);
        await client.query(
          `INSERT INTO actions (game_id, seq, kind, role, player_id, log, status, active_roles, created_at)
           SELECT $1::uuid, e.seq, e.kind, e.role, e.player_id, e.log, e.status::game_status, e.active_roles, $3::timestamptz
           FROM jsonb_to_recordset($2::jsonb) AS e(seq int, kind text, role text, player_id uuid, log jsonb, status text, active_roles text[])`,
          [id, JSON.stringify(entries), at],
        );
        await client.query(`${enqueueSql('$1::jsonb')}`, [JSON.stringify(gameEvents(g, after, at))]);
        ok = true;
      }
      await client.query(ok ? 'COMMIT' : 'ROLLBACK');
    } finally {
      client.release();
    }
    if (!ok) continue;
    const fresh = (await readGame(id))!;
    // One event per version, the last one with the watchers' views.
    for (const e of entries) {
      const v = e.seq as number;
      const ev = { kind: e.kind as string, role: e.role as string | null, playerId: e.player_id as string | null, status: e.status as string, activeRoles: e.active_roles as string[] };
      publishCommitted({ ...fresh, version: v }, ev, at, null);
    }
    return fresh;
  }
  throw new Problem(409, 'version_conflict', 'The game kept changing while this request was handled; try again.');
}

// ─── HTTP ─────────────────────────────────────────────────────────────────────

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<any> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      if (text === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new Problem(400, 'invalid_request', 'The body is not JSON.'));
      }
    });
    req.on('error', reject);
  });
}

async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const parts = path.split('/');
  const method = req.method;
  if (path === '/readyz') return send(res, 200, { ok: true });
  if (path === '/metrics') {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(`herald_commit_statements_total ${stats.statements}\nherald_commit_changes_total ${stats.changes}\n`);
    return;
  }
  const caller = await callerOf(req);
  if (parts[1] === 'players' && parts.length === 2 && method === 'POST') return send(res, 201, await createPlayer(await readBody(req)));
  if (parts[1] !== 'games') throw new Problem(404, 'not_found', 'No such route.');
  if (parts.length === 2 && method === 'POST') {
    const g = await createGame(requireCaller(caller), await readBody(req));
    return send(res, 201, summary(g));
  }
  const id = parts[2]!;
  const sub = parts[3];
  if (parts.length === 3 && method === 'GET') {
    const g = await currentGame(id);
    if (!g || !canSee(g, caller)) throw new Problem(404, 'not_found', `No game ${id}.`);
    return send(res, 200, summary(g));
  }
  if (parts.length !== 4) throw new Problem(404, 'not_found', 'No such route.');
  if (sub === 'actions' && method === 'POST') {
    const body = await readBody(req);
    return send(res, 200, await submitAction(requireCaller(caller), id, body));
  }
  if (sub === 'actions' && method === 'GET') {
    const me = requireCaller(caller);
    const g = await currentGame(id);
    if (!g || !canSee(g, me)) throw new Problem(404, 'not_found', `No game ${id}.`);
    const role = g.seats.find((s) => s.playerId === me)?.role;
    if (role === undefined) throw new Problem(403, 'forbidden', 'You hold no seat in this game.');
    const m = GAME_MODULES[g.gameType] as GameModule;
    const active = g.status === 'active' && g.activeRoles.includes(role);
    const actions = active ? (m.legalActions(g.state, role) as Json[]) : [];
    const lang = DEFAULT_LANGUAGE;
    return send(res, 200, { gameId: g.id, version: g.version, role, active, actions, lang, choices: labelledActions(m, g.state, role, actions, lang) });
  }
  if (sub === 'join' && method === 'POST') {
    await readBody(req);
    return send(res, 200, summary(await join(requireCaller(caller), id)));
  }
  if (sub === 'events' && method === 'GET') {
    const role = q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('role');
    return openStream(req, res, caller, id, role);
  }
  throw new Problem(404, 'not_found', 'No such route.');
}

const server = http.createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  route(req, res).catch((err: unknown) => {
    if (res.headersSent) return void res.end();
    if (err instanceof Problem) {
      res.writeHead(err.status, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ status: err.status, code: err.code, detail: err.message, ...err.extra }));
    } else {
      console.error(err);
      send(res, 500, { status: 500, code: 'internal_error', detail: 'internal error' });
    }
  });
});
server.listen(PORT, HOST);

async function shutdown(): Promise<void> {
  for (const ws of watchers.values()) for (const w of ws) w.res.end();
  server.close();
  server.closeIdleConnections();
  await Promise.allSettled([publisher.quit(), subscriber.quit(), pool.end()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
