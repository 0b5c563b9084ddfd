// Signed webhooks (issue 17): endpoints a player or an application registers, the events a change
// sends them (computed here, written to the outbox by the change's own commit: store/games.ts,
// store/webhooks.ts), and their delivery (deliverDue, run by jobs/webhook-deliveries.ts).
//
// Exactly-once enqueue, at-least-once delivery: a message exists iff its change committed; it is
// sent until a 2xx answers (a receiver may get it twice: after a crash mid-send, or a lost
// answer) with the same webhook-id, which receivers use to drop duplicates.
// Payloads never carry hidden information: ids, roles, versions, statuses, results and links.
import type { WebhookEndpoint } from '../generated/prisma/client.ts';
import { checkedAddress, newSecret, parseWebhookUrl, post, retryAfterMs, retryDelay, signatureHeader, UnsafeUrl, RETRY_SCHEDULE_MS } from '../webhooks/index.ts';
import * as store from '../store/webhooks.ts';
import type { OutboxEvent, ClaimedMessage } from '../store/webhooks.ts';
import type { GameRow } from '../store/games.ts';
import type { Caller } from './api.ts';
import { isOver, isUuid, requirePlayer, type Ctx } from './context.ts';
import { ServiceError } from './errors.ts';
import { isPlainObject } from './json.ts';
import { parseClientTime } from './times.ts';

export const EVENT_TYPES = ['your_turn', 'game_started', 'game_ended', 'clock_reminder', 'clock_timeout', 'league_round_published', 'league_result_recorded', 'ping', 'endpoint_disabled'] as const;
export type WebhookEventType = (typeof EVENT_TYPES)[number];
export const FORMATS = ['standard', 'discord'] as const;

/** How long the secret before a rotation still signs. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface WebhookOptions {
  /** HERALD_WEBHOOK_ALLOW_PRIVATE: private, loopback... addresses allowed (operators' own networks, tests). */
  allowPrivate: boolean;
  /** HERALD_PUBLIC_URL: the server's public base URL, for absolute links (Discord's board image); null: none. */
  publicUrl: string | null;
  /** Delays before each retry (default RETRY_SCHEDULE_MS; each with full jitter). */
  retrySchedule: readonly number[];
  /** Messages of one endpoint in flight at once (default 4). */
  perEndpoint: number;
  /** Messages one instance sends at once (default 256: a slow endpoint holds perEndpoint of them, the others keep the rest). */
  maxInFlight: number;
  /** One request's time limit (default 10 s). */
  timeoutMs: number;
  /** HERALD_WEBHOOK_RETENTION_DAYS: finished messages (and their attempts) older than this are deleted (default 30 days). */
  retentionMs: number;
  /** HERALD_WEBHOOK_MAX_ENDPOINTS: endpoints one owner (player or application) may register (default 20; 0: no cap). Absent: the default. */
  maxEndpoints?: number;
}

/** Endpoints per owner when HERALD_WEBHOOK_MAX_ENDPOINTS is not set. */
export const DEFAULT_MAX_ENDPOINTS = 20;

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = { allowPrivate: false, publicUrl: null, retrySchedule: RETRY_SCHEDULE_MS, perEndpoint: 4, maxInFlight: 256, timeoutMs: 10_000, retentionMs: 30 * 86_400_000 };

function opts(ctx: Ctx): WebhookOptions {
  return ctx.webhooks ?? DEFAULT_WEBHOOK_OPTIONS;
}

// ─── Events of a game change ────────────────────────────────────────────────

export interface GameAfter {
  status: string;
  activeRoles: string[];
  version: number;
  result: unknown;
  seats: { role: string; playerId: string | null }[];
}

function gameData(game: GameRow, after: GameAfter, role: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    gameId: game.id,
    gameType: game.gameType,
    version: after.version,
    status: after.status,
    role,
    ...extra,
    links: { game: `/games/${game.id}`, board: `/games/${game.id}/board.png?role=${encodeURIComponent(role)}` },
    // Whether a bare link to the spectator picture works without a key (Discord's image).
    public: game.visibility === 'public',
  };
}

/**
 * The webhook events of a change of `game` to `after` (the outbox rows are then written by the
 * commit, for the endpoints that want them): game_started / game_ended for every seated player,
 * your_turn for each player whose seat has to act now and did not before, clock_timeout when a
 * seat ran out of time. [] for most actions (the same seats still act).
 */
export function gameEvents(game: GameRow, after: GameAfter, entries: { kind: string; role: string | null }[], at: Date): OutboxEvent[] {
  const out: OutboxEvent[] = [];
  const timestamp = at.toISOString();
  const add = (type: WebhookEventType, playerId: string, data: Record<string, unknown>): void => {
    out.push({ ord: out.length, type, player_id: playerId, game_id: game.id, payload: { type, timestamp, data } });
  };
  const seated = after.seats.filter((s): s is { role: string; playerId: string } => s.playerId !== null);
  const started = after.status === 'active' && game.status !== 'active' && !isOver(game.status);
  const ended = isOver(after.status) && !isOver(game.status);
  if (started) for (const s of seated) add('game_started', s.playerId, gameData(game, after, s.role));
  if (after.status === 'active') {
    const before = started ? [] : game.activeRoles;
    for (const s of seated) if (after.activeRoles.includes(s.role) && !before.includes(s.role)) add('your_turn', s.playerId, gameData(game, after, s.role));
  }
  if (ended) {
    const timeout = entries.find((e) => e.kind === 'timeout');
    for (const s of seated) {
      if (timeout) add('clock_timeout', s.playerId, gameData(game, after, s.role, { ranOut: timeout.role }));
      add('game_ended', s.playerId, gameData(game, after, s.role, { result: after.result ?? null }));
    }
  }
  return out;
}

/** The clock_reminder event of a reminder claimed by the clock sweep (service/clocks.ts). */
export function reminderEvent(gameId: string, playerId: string, role: string, kind: string, deadline: Date, at: Date): OutboxEvent {
  const payload = { type: 'clock_reminder', timestamp: at.toISOString(), data: { gameId, role, kind, deadline: deadline.toISOString(), links: { game: `/games/${gameId}` } } };
  return { ord: 0, type: 'clock_reminder', player_id: playerId, game_id: gameId, payload };
}

/** A league board as the league events describe it. */
export interface BoardRef {
  leagueId: string;
  round: number;
  board: number;
  id: string;
  firstId: string;
  secondId: string | null;
  gameId: string | null;
}

/** One event per player of the board (league_round_published, league_result_recorded). */
export function boardEvents(type: 'league_round_published' | 'league_result_recorded', b: BoardRef, at: Date, extra: Record<string, unknown> = {}): OutboxEvent[] {
  const players = [b.firstId, ...(b.secondId ? [b.secondId] : [])];
  return players.map((playerId, i) => ({
    ord: i,
    type,
    player_id: playerId,
    game_id: b.gameId,
    payload: {
      type,
      timestamp: at.toISOString(),
      data: {
        leagueId: b.leagueId, round: b.round, board: b.board, pairingId: b.id, gameId: b.gameId, bye: b.secondId === null, ...extra,
        links: { league: `/leagues/${b.leagueId}`, round: `/leagues/${b.leagueId}/rounds/${b.round}`, ...(b.gameId ? { game: `/games/${b.gameId}` } : {}) },
      },
    },
  }));
}

// ─── Endpoints ──────────────────────────────────────────────────────────────

export interface WebhookInfo {
  id: string;
  url: string;
  events: string[];
  format: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  /** Until when the secret before the last rotation still signs; null when none does. */
  previousSecretUntil: string | null;
  createdAt: string;
}

function info(e: WebhookEndpoint, now: number): WebhookInfo {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    format: e.format,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    previousSecretUntil: e.previousUntil && e.previousUntil.getTime() > now ? e.previousUntil.toISOString() : null,
    createdAt: e.createdAt.toISOString(),
  };
}

function bad(detail: string, field?: string): ServiceError {
  return new ServiceError('invalid_request', detail, field ? { field } : {});
}

function onlyFields(input: Record<string, unknown>, allowed: readonly string[]): void {
  const unknown = Object.keys(input).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) throw bad(`Unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}: this body takes ${allowed.join(', ')}.`);
}

async function checkUrl(ctx: Ctx, raw: unknown): Promise<string> {
  try {
    const url = parseWebhookUrl(raw);
    await checkedAddress(url, opts(ctx).allowPrivate);
    return url.toString();
  } catch (err) {
    if (err instanceof UnsafeUrl) throw bad(`${err.message}.`, 'url');
    throw err;
  }
}

function checkEvents(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > EVENT_TYPES.length) throw bad(`events must be a non-empty list of event types (${EVENT_TYPES.join(', ')}).`, 'events');
  const unknown = raw.filter((t) => typeof t !== 'string' || !(EVENT_TYPES as readonly string[]).includes(t));
  // Named by their text or their kind: a value sent here may be nested too deep to print as JSON.
  const name = (t: unknown) => (typeof t === 'string' ? JSON.stringify(t.slice(0, 40)) : Array.isArray(t) ? 'a list' : t === null ? 'null' : `a ${typeof t}`);
  if (unknown.length > 0) throw bad(`Unknown event type ${unknown.slice(0, 5).map(name).join(', ')}: the types are ${EVENT_TYPES.join(', ')}.`, 'events');
  return [...new Set(raw as string[])];
}

function input(raw: unknown): Record<string, unknown> {
  if (!isPlainObject(raw)) throw bad('The body must be a JSON object.');
  return raw;
}

/** The caller's endpoint of that id; not_found for anyone else's (or none). */
async function ownEndpoint(ctx: Ctx, caller: Caller, id: string): Promise<WebhookEndpoint> {
  const e = isUuid(id) ? await store.findEndpoint(ctx.db, id) : null;
  if (!e || e.ownerId !== caller.playerId) throw new ServiceError('not_found', `No webhook ${id} of yours.`);
  return e;
}

/** The endpoint was found, then deleted (a concurrent DELETE) before the change: as if it had not been found. */
function gone(id: string): never {
  throw new ServiceError('not_found', `No webhook ${id} of yours.`);
}

export async function createWebhook(ctx: Ctx, callerIn: Caller | null, raw: unknown): Promise<{ webhook: WebhookInfo; secret: string }> {
  const caller = requirePlayer(callerIn);
  const b = input(raw);
  onlyFields(b, ['url', 'events', 'format']);
  const events = checkEvents(b.events);
  const format = b.format ?? 'standard';
  if (typeof format !== 'string' || !(FORMATS as readonly string[]).includes(format)) throw bad(`format must be one of ${FORMATS.join(', ')}.`, 'format');
  const url = await checkUrl(ctx, b.url);
  const secret = newSecret();
  const max = opts(ctx).maxEndpoints ?? DEFAULT_MAX_ENDPOINTS;
  const e = await store.createEndpoint(ctx.db, { ownerId: caller.playerId, url, events, format, secret }, max);
  if (!e) throw new ServiceError('limit_reached', `You have ${max} webhook endpoints, the most one owner may register: delete one of them before registering another.`, { limit: max });
  return { webhook: info(e, ctx.now()), secret };
}

export async function listWebhooks(ctx: Ctx, callerIn: Caller | null): Promise<{ webhooks: WebhookInfo[] }> {
  const caller = requirePlayer(callerIn);
  const now = ctx.now();
  return { webhooks: (await store.listEndpoints(ctx.db, caller.playerId)).map((e) => info(e, now)) };
}

export async function getWebhook(ctx: Ctx, callerIn: Caller | null, id: string): Promise<WebhookInfo> {
  return info(await ownEndpoint(ctx, requirePlayer(callerIn), id), ctx.now());
}

export async function updateWebhook(ctx: Ctx, callerIn: Caller | null, id: string, raw: unknown): Promise<WebhookInfo> {
  const caller = requirePlayer(callerIn);
  const b = input(raw);
  onlyFields(b, ['url', 'events', 'enabled']);
  const e = await ownEndpoint(ctx, caller, id);
  const data: { url?: string; events?: string[]; enabled?: boolean } = {};
  if (b.events !== undefined) data.events = checkEvents(b.events);
  if (b.enabled !== undefined) {
    if (typeof b.enabled !== 'boolean') throw bad('enabled must be true or false.', 'enabled');
    data.enabled = b.enabled;
  }
  if (b.url !== undefined) data.url = await checkUrl(ctx, b.url);
  if (Object.keys(data).length === 0) return info(e, ctx.now());
  return info((await store.updateEndpoint(ctx.db, e.id, data)) ?? gone(id), ctx.now());
}

export async function deleteWebhook(ctx: Ctx, callerIn: Caller | null, id: string): Promise<void> {
  const e = await ownEndpoint(ctx, requirePlayer(callerIn), id);
  if (!(await store.deleteEndpoint(ctx.db, e.id))) gone(id);
}

export async function rotateWebhookSecret(ctx: Ctx, callerIn: Caller | null, id: string): Promise<{ webhook: WebhookInfo; secret: string }> {
  const e = await ownEndpoint(ctx, requirePlayer(callerIn), id);
  const secret = newSecret();
  const after = (await store.rotateSecret(ctx.db, e, secret, new Date(ctx.now() + ROTATION_OVERLAP_MS))) ?? gone(id);
  return { webhook: info(after, ctx.now()), secret };
}

export interface DeliveryInfo {
  id: string;
  eventType: string;
  gameId: string | null;
  createdAt: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  payload: unknown;
  attemptLog: { at: string; httpStatus: number | null; error: string | null; latencyMs: number }[];
}

export async function listWebhookDeliveries(ctx: Ctx, callerIn: Caller | null, id: string, o: { limit?: number } = {}): Promise<{ deliveries: DeliveryInfo[] }> {
  const e = await ownEndpoint(ctx, requirePlayer(callerIn), id);
  const limit = o.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw bad('limit must be from 1 to 200.', 'limit');
  const rows = await store.listDeliveries(ctx.db, e.id, limit);
  return {
    deliveries: rows.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      gameId: r.gameId,
      createdAt: r.createdAt.toISOString(),
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
      lastStatus: r.lastStatus,
      lastError: r.lastError,
      deliveredAt: r.deliveredAt?.toISOString() ?? null,
      payload: r.payload,
      attemptLog: r.attemptsLog.map((a) => ({ at: a.at.toISOString(), httpStatus: a.httpStatus, error: a.error, latencyMs: a.latencyMs })),
    })),
  };
}

export async function redeliverMessage(ctx: Ctx, callerIn: Caller | null, id: string, messageId: string): Promise<{ queued: number }> {
  const e = await ownEndpoint(ctx, requirePlayer(callerIn), id);
  const queued = await store.redeliver(ctx.sql, e.id, { messageId });
  if (queued === 0) throw new ServiceError('not_found', `No message ${messageId} of webhook ${id}.`);
  return { queued };
}

function time(v: unknown, field: string): Date {
  // The rule of every time a client sends (times.ts): with Z or an offset (not the server's
  // local time), a real date (not 2026-02-30, which JavaScript reads as 2 March), years 1–9999.
  const t = parseClientTime(v);
  if (t === null) throw bad(`${field} must be an ISO 8601 date-time with Z or an offset, a real date from year 1 to 9999 (e.g. 2026-12-01T18:00:00Z).`, field);
  return new Date(t);
}

export async function redeliverRange(ctx: Ctx, callerIn: Caller | null, id: string, raw: unknown): Promise<{ queued: number }> {
  const caller = requirePlayer(callerIn);
  const b = input(raw);
  onlyFields(b, ['since', 'until']);
  const since = time(b.since, 'since');
  const until = b.until === undefined ? new Date(ctx.now()) : time(b.until, 'until');
  if (until.getTime() <= since.getTime()) throw bad('until must be after since.', 'until');
  const e = await ownEndpoint(ctx, caller, id);
  return { queued: await store.redeliver(ctx.sql, e.id, { since, until }) };
}

/** Queues a `ping` message to this endpoint (whatever its event list). */
export async function testWebhook(ctx: Ctx, callerIn: Caller | null, id: string): Promise<{ messageId: string }> {
  const e = await ownEndpoint(ctx, requirePlayer(callerIn), id);
  const payload = { type: 'ping', timestamp: new Date(ctx.now()).toISOString(), data: { webhookId: e.id } };
  return { messageId: (await store.insertMessage(ctx.sql, e.id, 'ping', payload)) ?? gone(id) };
}

// ─── Delivery ───────────────────────────────────────────────────────────────

/** The request body in the endpoint's format. */
export function body(m: Pick<ClaimedMessage, 'format' | 'event_type' | 'payload'>, publicUrl: string | null): string {
  if (m.format !== 'discord') return JSON.stringify(m.payload);
  const data = (m.payload.data ?? {}) as Record<string, unknown>;
  const player = (data.player ?? {}) as { name?: string };
  const game = typeof data.gameId === 'string' ? data.gameId : null;
  const who = player.name ? `${player.name}` : 'You';
  const lines: Record<string, string> = {
    your_turn: `${who}: your turn (${String(data.role)})`,
    game_started: `${who}: the game started; you play ${String(data.role)}`,
    game_ended: `${who}: the game is over`,
    clock_reminder: `${who}: your time is running out (${String(data.role)})`,
    clock_timeout: `${who}: time ran out for ${String(data.ranOut)}`,
    ping: 'Herald webhook test',
    endpoint_disabled: `A webhook was disabled: ${String(data.reason)}`,
  };
  const content = lines[m.event_type] ?? `${who}: ${m.event_type}`;
  const base = publicUrl?.replace(/\/$/, '') ?? null;
  const embed: Record<string, unknown> = { title: content, description: game ? `Game ${game}${typeof data.version === 'number' ? `, version ${data.version}` : ''}` : m.event_type };
  if (base && game) {
    embed.url = `${base}/games/${game}`;
    // The spectator picture: the only one a bare link (no key) may show, and only of a public game.
    if (data.public === true) embed.image = { url: `${base}/games/${game}/board.png?role=spectator` };
  }
  return JSON.stringify({ content, embeds: [embed] });
}

const THROTTLED = new Set([429, 502, 503, 504]);

/** An attempt's outcome to record, and the endpoint to disable with it (410, schedule over). */
interface Finished {
  m: ClaimedMessage;
  outcome: store.AttemptOutcome;
  disable: string | null;
}

/** Sends one claimed message (no database access); what to record. */
async function attempt(ctx: Ctx, m: ClaimedMessage): Promise<Finished> {
  const o = opts(ctx);
  const payload = body(m, o.publicUrl);
  let result: { status: number | null; error: string | null; retryAfter?: string | undefined; latencyMs: number };
  try {
    const url = parseWebhookUrl(m.url);
    const to = await checkedAddress(url, o.allowPrivate);
    // The wall clock, not the service's (tests move that one): receivers check it is within minutes of theirs.
    const at = new Date();
    const secrets = m.previous_secret ? [m.secret, m.previous_secret] : [m.secret];
    const headers = { 'webhook-id': m.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatureHeader(secrets, m.id, at, payload) };
    result = await post(url, to, headers, payload, o.timeoutMs, { key: m.endpoint_id, maxSockets: o.perEndpoint });
  } catch (err) {
    result = { status: null, error: err instanceof UnsafeUrl ? `refused: ${err.message}` : String(err), latencyMs: 0 };
  }
  const attempts = m.attempts + 1;
  const s = result.status;
  const base = { messageId: m.id, httpStatus: s, latencyMs: result.latencyMs };
  if (s !== null && s >= 200 && s < 300) return { m, outcome: { ...base, error: null, status: 'delivered' }, disable: null };
  const error = result.error ?? (s !== null && s >= 300 && s < 400 ? `redirect (${s}) not followed` : null);
  if (s === 410) return { m, outcome: { ...base, error, status: 'failed' }, disable: 'the endpoint answered 410 Gone' };
  const after = s !== null && THROTTLED.has(s) ? retryAfterMs(result.retryAfter, ctx.now()) : null;
  const delay = retryDelay(attempts, o.retrySchedule);
  if (delay === null) return { m, outcome: { ...base, error, status: 'failed' }, disable: `no delivery succeeded after ${attempts} attempts` };
  return { m, outcome: { ...base, error, status: 'pending', retryInMs: after ?? delay }, disable: null };
}

/**
 * Records finished attempts, all in one statement (one by one if that fails, so one bad row
 * cannot keep the others' outcomes unrecorded), then disables the endpoints that have to be; how
 * many were delivered. An outcome that cannot be recorded is logged: its message is sent again
 * when its lease ends.
 */
async function record(ctx: Ctx, done: Finished[]): Promise<number> {
  let recorded = done;
  try {
    await store.recordAttempts(ctx.sql, done.map((f) => f.outcome));
  } catch {
    recorded = [];
    for (const f of done) {
      try {
        await store.recordAttempt(ctx.sql, f.outcome);
        recorded.push(f);
      } catch (err) {
        ctx.log.warn({ err: String(err), messageId: f.m.id }, 'a webhook delivery could not be recorded; it is sent again when its lease ends');
      }
    }
  }
  for (const f of recorded) {
    if (f.disable === null) continue;
    const event: OutboxEvent = {
      ord: 0, type: 'endpoint_disabled', player_id: f.m.owner_id, game_id: null,
      payload: { type: 'endpoint_disabled', timestamp: new Date(ctx.now()).toISOString(), data: { webhookId: f.m.endpoint_id, url: f.m.url, reason: f.disable } },
    };
    await store.disableEndpoint(ctx.sql, f.m.endpoint_id, f.disable, event).catch((err: unknown) => {
      ctx.log.warn({ err: String(err), endpointId: f.m.endpoint_id }, 'a webhook endpoint could not be disabled; its next failure tries again');
    });
  }
  return recorded.filter((f) => f.outcome.status === 'delivered').length;
}

/**
 * After a wake, how long more commits' wakes are gathered before claiming: one claim (and mostly
 * one record) for them all instead of a claim and a record per message when deliveries trickle.
 */
const WAKE_GATHER_MS = 50;
/** How long after the delivery job last found messages commits still wake it. */
const WAKE_ARMED_MS = 10_000;

/**
 * Tells the delivery job that a commit of this instance wrote webhook messages, so it claims them
 * now rather than at its next poll. Wakes count only while the job has been finding messages
 * lately (armed): a server whose webhooks are idle, or have no endpoints, pays nothing per commit.
 */
export class DeliverySignal {
  private readonly waiters = new Set<() => void>();
  private armedUntil = 0;
  /** A wake that came while nobody waited (a claim was on its way): the next wait ends at once. */
  private pending = false;

  /** The job found messages: commits' wakes count for a while. */
  arm(): void {
    this.armedUntil = performance.now() + WAKE_ARMED_MS;
  }

  wake(): void {
    if (performance.now() > this.armedUntil) return;
    if (this.waiters.size === 0) this.pending = true;
    else this.interrupt(WAKE_GATHER_MS);
  }

  /** Ends every wait (after `afterMs`): the job is stopping, or there is work. */
  interrupt(afterMs = 0): void {
    const ws = [...this.waiters];
    this.waiters.clear();
    for (const w of ws) {
      if (afterMs > 0) setTimeout(w, afterMs).unref();
      else w();
    }
  }

  /** Resolves when woken, or after `ms`; `also` (a request finished) ends it too. */
  wait(ms: number, also?: (end: () => void) => void): Promise<void> {
    return new Promise((resolve) => {
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        this.waiters.delete(end);
        resolve();
      };
      const timer = setTimeout(end, this.pending ? WAKE_GATHER_MS : ms);
      timer.unref();
      this.pending = false;
      this.waiters.add(end);
      also?.(end);
    });
  }
}

/** A claim's lease: longer than a request may take, so a message is never sent twice at once. */
const LEASE_MARGIN_MS = 50_000;

/** While requests are in flight, how often a run also looks for newly due messages. */
export const DELIVERY_POLL_MS = 200;

/**
 * Sends what is due (jobs/webhook-deliveries.ts), continuously: up to maxInFlight requests at once
 * (at most perEndpoint per endpoint, across instances: the claim counts the leases), claiming
 * more whenever a request finishes (and every DELIVERY_POLL_MS meanwhile), so a slow or dead
 * endpoint holds only its own slots: the others' deliveries go on while it hangs. Finished
 * attempts are recorded together, one statement per batch. Each claim is one statement; no
 * transaction is open while a request is in flight. The run ends when nothing is in flight and
 * nothing is due, or once `stopping()` (no new claims; the requests in flight are finished and
 * recorded). How many were delivered.
 */
export async function deliverDue(ctx: Ctx, stopping: () => boolean = () => false, job = false): Promise<number> {
  const signal = ctx.deliveries ?? new DeliverySignal();
  const o = opts(ctx);
  const leaseMs = o.timeoutMs + LEASE_MARGIN_MS;
  const finished: Finished[] = [];
  let inFlight = 0;
  let delivered = 0;
  let wake: (() => void) | null = null;
  let claim = true;
  for (;;) {
    if (finished.length > 0) {
      delivered += await record(ctx, finished.splice(0));
      // A recorded outcome frees a slot of its endpoint, and may let the next message of its game go.
      claim = true;
    }
    if (claim && inFlight < o.maxInFlight && !stopping()) {
      const limit = o.maxInFlight - inFlight;
      const batch = await store.claimDue(ctx.sql, { limit, perEndpoint: o.perEndpoint, leaseMs });
      if (job && batch.length > 0) signal.arm();
      for (const m of batch) {
        inFlight++;
        void attempt(ctx, m).then(
          (f) => {
            inFlight--;
            finished.push(f);
            wake?.();
          },
          (err: unknown) => {
            // Not sent (nothing to record): it goes again when its lease ends.
            inFlight--;
            ctx.log.warn({ err: String(err), messageId: m.id }, 'a webhook message could not be sent; it is sent again when its lease ends');
            wake?.();
          },
        );
      }
      // The candidates' window was full: claim again at once (an endpoint that reached its limit
      // is left out now, so the window holds the others'). Else everything due was looked at:
      // wait for a request, a commit's wake or the poll.
      claim = batch.length > 0 && batch[0]!.window_rows >= limit * 4;
      if (claim) continue;
    }
    if (inFlight === 0 && finished.length === 0 && (!claim || stopping())) return delivered;
    if (finished.length === 0) {
      // A request finishing, a commit's wake, or the poll: then claim again.
      await signal.wait(DELIVERY_POLL_MS, (end) => {
        wake = end;
      });
      wake = null;
      claim = true;
    }
  }
}

/** Finished messages deleted per statement (short transactions however long the backlog). */
const PRUNE_BATCH = 5_000;

/**
 * Deletes finished messages (delivered, or failed for good) and their attempts once older than
 * the retention, by the service's clock; pending ones stay whatever their age. How many.
 */
export async function pruneFinished(ctx: Ctx): Promise<number> {
  const before = new Date(ctx.now() - opts(ctx).retentionMs);
  let deleted = 0;
  for (;;) {
    const n = await store.pruneFinished(ctx.sql, before, PRUNE_BATCH);
    deleted += n;
    if (n < PRUNE_BATCH) return deleted;
  }
}
