// Webhook endpoints, the outbox (webhook_messages) and the delivery log (webhook_attempts): the
// named operations of service/webhooks.ts. Messages are written by the change that causes them,
// in its own statement or transaction (ENQUEUE, used by games.ts's commit statements), and
// claimed by the delivery job with a lease (claimDue), sent outside any transaction, then
// recorded (recordAttempts, a batch in one statement): no lock or transaction is held while a
// request is in flight, which also keeps the embedded database's single connection free.
import type { Prisma, PrismaClient, WebhookEndpoint } from '../generated/prisma/client.ts';
import type { Sql } from './games.ts';

export type { WebhookEndpoint };

/**
 * One event for the outbox, before it is matched with endpoints: `player_id` is the player it
 * concerns (endpoints of that player, and of the application that created it, receive it);
 * `ord` keeps the events of one change in order. `payload.data.player` is filled in by SQL
 * from the players table.
 */
export interface OutboxEvent {
  ord: number;
  type: string;
  player_id: string;
  game_id: string | null;
  payload: unknown;
}

/**
 * The INSERT of an outbox: `events` (a jsonb list of OutboxEvent) matched with the enabled
 * endpoints that want each type; `extra` a condition (the commit statements' "the game row was
 * updated"). With no endpoint of those players this is an index look-up on owner_id per event.
 */
export function enqueueSql(events: string, extraFrom = '', extraWhere = 'TRUE'): string {
  return `INSERT INTO webhook_messages (id, endpoint_id, event_type, payload, game_id)
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, ev.type,
      jsonb_set(ev.payload, '{data,player}', jsonb_build_object('id', p.id, 'name', p.name, 'externalId', p.external_id)),
      ev.game_id
    FROM ${extraFrom} jsonb_to_recordset(${events}) AS ev(ord int, type text, player_id uuid, game_id uuid, payload jsonb)
    -- Index look-ups per event (players' primary key, endpoints' owner_id): OFFSET 0 keeps the
    -- planner from joining whole tables (it guesses 100 rows for the list; there are a few).
    CROSS JOIN LATERAL (SELECT id, name, external_id, created_by_id FROM players WHERE id = ev.player_id OFFSET 0) p
    CROSS JOIN LATERAL (
      SELECT id FROM webhook_endpoints
      WHERE owner_id = ANY(ARRAY[p.id, p.created_by_id]) AND enabled AND ev.type = ANY(events) OFFSET 0
    ) e
    WHERE ${extraWhere}
    ORDER BY ev.ord, e.id`;
}

/** Writes events to the outbox on its own (a test ping, a notice outside a game commit); how many messages. */
export async function enqueue(sql: Sql, events: OutboxEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const r = await sql.query({ text: enqueueSql('$1::jsonb'), values: [JSON.stringify(events)] });
  return r.rowCount ?? 0;
}

/** The same inside a transaction (a league change): the messages commit or roll back with it. */
export async function enqueueTx(tx: Prisma.TransactionClient, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRawUnsafe(enqueueSql('$1::jsonb'), JSON.stringify(events));
}

export interface NewEndpoint {
  ownerId: string;
  url: string;
  events: string[];
  format: string;
  secret: string;
}

/**
 * Registers the endpoint unless its owner has `max` already (0: no cap); null then. The owner's
 * player row is locked for the count and the insert, so concurrent registrations of one owner
 * take turns and cannot together pass the cap.
 */
export function createEndpoint(db: PrismaClient, e: NewEndpoint, max = 0): Promise<WebhookEndpoint | null> {
  if (max <= 0) return db.webhookEndpoint.create({ data: e });
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM players WHERE id = ${e.ownerId}::uuid FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { ownerId: e.ownerId } })) >= max) return null;
    return tx.webhookEndpoint.create({ data: e });
  });
}

export function listEndpoints(db: PrismaClient, ownerId: string): Promise<WebhookEndpoint[]> {
  return db.webhookEndpoint.findMany({ where: { ownerId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export function findEndpoint(db: PrismaClient, id: string): Promise<WebhookEndpoint | null> {
  return db.webhookEndpoint.findUnique({ where: { id } });
}

// The service reads an endpoint (is it the caller's?) and then changes it: a
// DELETE of the same endpoint can commit in between. The writes below then
// find no row — null / false, which the service answers as not_found — where
// Prisma's update and delete would throw (a 500).

/** Prisma's "the record to update or delete does not exist". */
function isMissingRecord(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'P2025';
}

/** The endpoint after the change; null when it was deleted meanwhile. */
export async function updateEndpoint(db: PrismaClient, id: string, data: { url?: string; events?: string[]; enabled?: boolean }): Promise<WebhookEndpoint | null> {
  const enabling = data.enabled === true ? { disabledReason: null, disabledAt: null } : data.enabled === false ? { disabledReason: 'disabled by its owner', disabledAt: new Date() } : {};
  try {
    return await db.webhookEndpoint.update({ where: { id }, data: { ...data, ...enabling } });
  } catch (err) {
    if (isMissingRecord(err)) return null;
    throw err;
  }
}

/** False when there was no such endpoint (deleted meanwhile). */
export async function deleteEndpoint(db: PrismaClient, id: string): Promise<boolean> {
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id } });
  return count > 0;
}

/** The new secret signs from now on; the current one keeps signing until `until`. Null when the endpoint was deleted meanwhile. */
export async function rotateSecret(db: PrismaClient, e: WebhookEndpoint, secret: string, until: Date): Promise<WebhookEndpoint | null> {
  try {
    return await db.webhookEndpoint.update({ where: { id: e.id }, data: { secret, previousSecret: e.secret, previousUntil: until } });
  } catch (err) {
    if (isMissingRecord(err)) return null;
    throw err;
  }
}

export interface DeliveryRow {
  id: string;
  eventType: string;
  gameId: string | null;
  createdAt: Date;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  payload: unknown;
  attemptsLog: { at: Date; httpStatus: number | null; error: string | null; latencyMs: number }[];
}

/** The endpoint's messages, newest first, each with its attempts (oldest first). */
export async function listDeliveries(db: PrismaClient, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  return db.webhookMessage.findMany({
    where: { endpointId },
    orderBy: { seq: 'desc' },
    take: limit,
    select: {
      id: true, eventType: true, gameId: true, createdAt: true, status: true, attempts: true, nextAttemptAt: true,
      lastStatus: true, lastError: true, deliveredAt: true, payload: true,
      attemptsLog: { select: { at: true, httpStatus: true, error: true, latencyMs: true }, orderBy: { at: 'asc' } },
    },
  });
}

/**
 * Sends messages again (same webhook-id: a receiver that has it already drops it): pending from
 * now, their retry schedule restarted. `which`: one message, or those created in a time range.
 * How many were queued.
 */
export async function redeliver(sql: Sql, endpointId: string, which: { messageId: string } | { since: Date; until: Date }): Promise<number> {
  const r =
    'messageId' in which
      ? await sql.query({
          text: `UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = now(), leased_until = NULL WHERE endpoint_id = $1::uuid AND id = $2`,
          values: [endpointId, which.messageId],
        })
      : await sql.query({
          text: `UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = now(), leased_until = NULL
                 WHERE endpoint_id = $1::uuid AND created_at >= $2::timestamptz AND created_at < $3::timestamptz`,
          values: [endpointId, which.since.toISOString(), which.until.toISOString()],
        });
  return r.rowCount ?? 0;
}

/** A message claimed for delivery, with what sending it needs. */
export interface ClaimedMessage {
  /** How many candidates the claim looked at: fewer than 4 × limit means nothing more was due. */
  window_rows: number;
  /** Creation order (bigint as text). */
  seq: string;
  id: string;
  endpoint_id: string;
  owner_id: string;
  event_type: string;
  payload: Record<string, unknown>;
  attempts: number;
  url: string;
  format: string;
  secret: string;
  /** The previous secret while it still signs (rotation), else null. */
  previous_secret: string | null;
}

/**
 * Claims up to `limit` due messages for `leaseMs` (exactly one instance gets each: FOR UPDATE SKIP
 * LOCKED, and the lease moves next_attempt_at past now, so nobody else finds it due until the
 * lease runs out — an instance that dies mid-send leaves it to be sent again then). The
 * statement is its own transaction: no lock outlives it.
 * - at most `perEndpoint` messages of one endpoint in flight (leased) at once, across instances;
 *   an endpoint already at that limit is left out before the due window is taken (`busy`), so a
 *   slow endpoint's backlog cannot fill the window and hold back the others';
 * - per endpoint and game, in order: a message waits while an earlier one of the same endpoint
 *   and game is still pending (in flight or waiting for a retry).
 */
export async function claimDue(sql: Sql, o: { limit: number; perEndpoint: number; leaseMs: number }): Promise<ClaimedMessage[]> {
  const { rows } = await sql.query<ClaimedMessage>({
    name: 'herald-webhook-claim',
    text: `
      WITH busy AS (
        -- In flight: leased, so next_attempt_at (the lease's end) is in the future (the index).
        SELECT endpoint_id, count(*) AS n FROM webhook_messages
        WHERE status = 'pending' AND next_attempt_at > now() AND leased_until > now()
        GROUP BY endpoint_id
      ), due AS (
        -- Candidates, read without locking: the oldest due in the index's order (status,
        -- next_attempt_at), so the scan stops after the window instead of reading and sorting
        -- every due message of a burst on every claim.
        SELECT m.id, m.endpoint_id, m.seq FROM webhook_messages m
        JOIN webhook_endpoints e ON e.id = m.endpoint_id AND e.enabled
        WHERE m.status = 'pending' AND m.next_attempt_at <= now()
          AND NOT EXISTS (SELECT 1 FROM busy u WHERE u.endpoint_id = m.endpoint_id AND u.n >= $2)
          AND NOT EXISTS (SELECT 1 FROM webhook_messages b WHERE b.endpoint_id = m.endpoint_id AND b.game_id = m.game_id
                          AND b.status = 'pending' AND b.seq < m.seq)
        ORDER BY m.next_attempt_at
        LIMIT $1 * 4
      ), ranked AS (
        SELECT d.id, row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.seq)
          + COALESCE((SELECT u.n FROM busy u WHERE u.endpoint_id = d.endpoint_id), 0) AS n,
          d.seq
        FROM due d
      ), chosen AS (
        SELECT id FROM ranked WHERE n <= $2 ORDER BY seq LIMIT $1
      ), locked AS (
        -- Only the chosen are locked; one another instance holds (or has leased meanwhile: the
        -- condition is checked again on the row's newest version) is skipped.
        SELECT m.id FROM webhook_messages m
        WHERE m.id = ANY(ARRAY(SELECT id FROM chosen)) AND m.status = 'pending' AND m.next_attempt_at <= now()
        FOR UPDATE SKIP LOCKED
      )
      UPDATE webhook_messages m SET next_attempt_at = now() + $3 * interval '1 millisecond', leased_until = now() + $3 * interval '1 millisecond'
      FROM webhook_endpoints e
      WHERE m.id = ANY(ARRAY(SELECT id FROM locked)) AND e.id = m.endpoint_id
      RETURNING (SELECT count(*) FROM due)::int AS window_rows, m.seq::text AS seq, m.id, m.endpoint_id::text AS endpoint_id, e.owner_id::text AS owner_id, m.event_type, m.payload, m.attempts, e.url, e.format, e.secret,
        CASE WHEN e.previous_until > now() THEN e.previous_secret END AS previous_secret`,
    values: [o.limit, o.perEndpoint, o.leaseMs],
  });
  // Sent oldest first.
  return rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
}

export interface AttemptOutcome {
  messageId: string;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
  /** delivered, pending (again at retryInMs) or failed (given up). */
  status: 'delivered' | 'pending' | 'failed';
  retryInMs?: number;
}

/**
 * Records attempts and their outcomes, any number of them in one statement (its own
 * transaction: all or none); their leases end. A message deleted meanwhile (its endpoint was)
 * is skipped.
 */
export async function recordAttempts(sql: Sql, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  if (outcomes.length === 1) {
    // One (the usual case when deliveries trickle): scalar parameters cost Postgres about half of
    // the list's form (measured: ~250 vs ~450 µs of backend CPU).
    const a = outcomes[0]!;
    await sql.query({
      name: 'herald-webhook-attempt',
      text: `
        WITH u AS (
          UPDATE webhook_messages SET attempts = attempts + 1, status = $5, last_status = $2, last_error = $3, leased_until = NULL,
            delivered_at = CASE WHEN $5 = 'delivered' THEN now() ELSE delivered_at END,
            next_attempt_at = CASE WHEN $5 = 'pending' THEN now() + $6 * interval '1 millisecond' ELSE next_attempt_at END
          WHERE id = $1
          RETURNING id
        )
        INSERT INTO webhook_attempts (message_id, http_status, error, latency_ms) SELECT id, $2, $3, $4 FROM u`,
      values: [a.messageId, a.httpStatus, a.error, a.latencyMs, a.status, a.retryInMs ?? 0],
    });
    return;
  }
  const rows = outcomes.map((a) => ({ id: a.messageId, http_status: a.httpStatus, error: a.error, latency_ms: a.latencyMs, status: a.status, retry_ms: a.retryInMs ?? 0 }));
  await sql.query({
    name: 'herald-webhook-attempts',
    text: `
      WITH o AS (
        SELECT * FROM jsonb_to_recordset($1::jsonb) AS o(id text, http_status int, error text, latency_ms int, status text, retry_ms int)
      ), u AS (
        UPDATE webhook_messages m SET attempts = m.attempts + 1, status = o.status, last_status = o.http_status, last_error = o.error, leased_until = NULL,
          delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE m.delivered_at END,
          next_attempt_at = CASE WHEN o.status = 'pending' THEN now() + o.retry_ms * interval '1 millisecond' ELSE m.next_attempt_at END
        -- = ANY: the primary key's index, whatever the planner guesses of the list's length.
        FROM o WHERE m.id = o.id AND m.id = ANY($2::text[])
        RETURNING m.id
      )
      INSERT INTO webhook_attempts (message_id, http_status, error, latency_ms)
      SELECT o.id, o.http_status, o.error, o.latency_ms FROM o JOIN u ON u.id = o.id`,
    values: [JSON.stringify(rows), rows.map((r) => r.id)],
  });
}

/** One attempt (recordAttempts of one). */
export function recordAttempt(sql: Sql, a: AttemptOutcome): Promise<void> {
  return recordAttempts(sql, [a]);
}

/**
 * Deletes finished messages (delivered, or failed for good) whose last attempt and creation are
 * both before `before`, with their attempts (ON DELETE CASCADE); at most `limit` in one statement,
 * so a long backlog is pruned in short transactions. How many were deleted.
 */
export async function pruneFinished(sql: Sql, before: Date, limit: number): Promise<number> {
  const r = await sql.query({
    name: 'herald-webhook-prune',
    text: `
      DELETE FROM webhook_messages WHERE id IN (
        SELECT id FROM webhook_messages
        WHERE status IN ('delivered', 'failed') AND next_attempt_at < $1::timestamptz AND created_at < $1::timestamptz
          AND COALESCE(delivered_at, next_attempt_at) < $1::timestamptz
        LIMIT $2
      )`,
    values: [before.toISOString(), limit],
  });
  return r.rowCount ?? 0;
}

/**
 * Disables an endpoint (410 Gone, or the retry schedule ran out) and, in the same statement, tells
 * its owner: an `endpoint_disabled` event to the owner's other endpoints that want it. True when
 * this call disabled it (it was enabled).
 */
export async function disableEndpoint(sql: Sql, endpointId: string, reason: string, event: OutboxEvent): Promise<boolean> {
  const { rows } = await sql.query<{ n: number }>({
    text: `
      WITH d AS (
        UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, disabled_at = now()
        WHERE id = $1::uuid AND enabled RETURNING id
      ), w AS (
        ${enqueueSql('$3::jsonb', 'd,', 'e.id <> d.id')}
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM d)::int AS n`,
    values: [endpointId, reason, JSON.stringify([event])],
  });
  return (rows[0]?.n ?? 0) === 1;
}

/** One message straight to one endpoint (a test ping); its id, or null when the endpoint is gone (deleted meanwhile). */
export async function insertMessage(sql: Sql, endpointId: string, type: string, payload: unknown): Promise<string | null> {
  try {
    const { rows } = await sql.query<{ id: string }>({
      text: `INSERT INTO webhook_messages (id, endpoint_id, event_type, payload)
             SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, $2, $3::jsonb FROM webhook_endpoints e WHERE e.id = $1::uuid
             RETURNING id`,
      values: [endpointId, type, JSON.stringify(payload)],
    });
    return rows[0]?.id ?? null;
  } catch (err) {
    // Deleted between the SELECT and the foreign key's check.
    if ((err as { code?: unknown } | null)?.code === '23503') return null;
    throw err;
  }
}
