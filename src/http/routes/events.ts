// Server-Sent Events: GET /games/:gameId/events (every version of a game, with
// the caller's seat view or the spectator view) and GET /me/events (the
// caller's "your turn" notifications across its games, and "seated" notices
// when a league round gives the caller a new game, "reminder" notices when
// the caller's correspondence clock runs low, and "claimable" notices when the
// caller may claim a win on time), and GET /apps/me/events (an application
// key's stream: the /me/events notices of every player the application
// created, each naming its player; see src/notify/app-feed.ts). All resume from
// Last-Event-ID (header, or ?lastEventId= for a first connection that resumes)
// without gaps or duplicates; see src/notify for how.
//
// Authentication as elsewhere (Authorization: Bearer, X-Act-As), or
// ?access_token=<key> because browsers' EventSource cannot set headers. A key
// in a URL can end up in logs: prefer the header where the client allows it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, type Caller, type ClockEvent } from '../../service/api.ts';
import { ADMIN_CALLER } from '../plugins/auth.ts';
import { GameFeeds, isOverStatus, type VersionEvent } from '../../notify/game-feed.ts';
import { TurnFeed } from '../../notify/turn-feed.ts';
import { decodeAppCursor, decodeTurnCursor } from '../../notify/turn-cursor.ts';
import { AppFeed } from '../../notify/app-feed.ts';
import { appFeedSource, gameFeedSource, turnFeedSource } from '../../notify/sources.ts';
import { SseStream, sseEvent } from '../../notify/sse.ts';
import { errorMessage } from '../../errors.ts';
import { knownProblem } from '../service-errors.ts';
import { query, str, type IdParams } from './query.ts';
import { streamOwner } from '../stream-slots.ts';
import { keyRevokedError } from '../key-streams.ts';

export interface EventRoutesOptions {
  /** Heartbeat comment interval; also the interval of the database check for missed events. */
  heartbeatMs: number;
}

/**
 * request.caller, or the caller named by ?access_token= (EventSource cannot send headers). Both
 * given must name the same key: the header used to win silently over a different token.
 */
async function streamCaller(app: FastifyInstance, request: FastifyRequest): Promise<Caller | null> {
  const token = str(query(request), 'access_token');
  if (token !== undefined && request.headers.authorization !== undefined) {
    const fromHeader = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization)?.[1];
    if (fromHeader !== token) throw new ServiceError('invalid_request', 'Authorization and ?access_token= name different keys: give the key once.');
  }
  if (request.caller || token === undefined) return request.caller;
  if (app.gameService.isAdminToken(token)) return ADMIN_CALLER;
  const actAs = request.headers['x-act-as'];
  return app.gameService.authenticate(token, typeof actAs === 'string' && actAs.trim() !== '' ? actAs.trim() : undefined);
}

/**
 * The Last-Event-ID header (sent by EventSource on reconnection) wins over ?lastEventId=.
 * One rule on every stream: an empty (or blank) header is no cursor, as if it were not sent
 * (EventSource never sends an empty one, but a proxy may pass one on). An empty or blank
 * ?lastEventId= is refused, as an empty query parameter is on every route (query.ts str).
 */
function lastEventId(request: FastifyRequest): string | null {
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') return header;
  const given = str(query(request), 'lastEventId');
  if (given !== undefined && given.trim() === '') {
    throw new ServiceError('invalid_request', 'lastEventId is blank: give a value, or leave the parameter out.');
  }
  return given ?? null;
}

function sseHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no'); // nginx: do not buffer the stream
}

/**
 * Streams with the same key read exactly the same thing (same game, same
 * caller, same seat asked for), so they share one feed: one view read and one
 * serialisation per version however many there are.
 */
function feedKey(gameId: string, caller: Caller | null, role: string | undefined): string {
  const who = caller === null ? '-' : `${caller.kind}:${caller.playerId}:${caller.appId ?? ''}`;
  return `${gameId}|${who}|${role ?? ''}`;
}

// An event's encoded frame, kept in a non-enumerable property of the event object (JSON does not
// see it). Not a WeakMap keyed by the event: a new event object per version, and V8's scavenger
// copies the values of a long-lived WeakMap with young keys until a full collection (see
// service/game-cache.ts).
const FRAME = Symbol('herald.sseFrame');

function heldFrame(e: object): Buffer | undefined {
  return (e as { [FRAME]?: Buffer })[FRAME];
}

function holdFrame(e: object, frame: Buffer): Buffer {
  Object.defineProperty(e, FRAME, { value: frame, enumerable: false, writable: false, configurable: false });
  return frame;
}

function problemOf(err: unknown): Record<string, unknown> {
  return knownProblem(err) ?? { status: 500, code: 'internal_error', detail: 'The stream failed; reconnect to resume.' };
}

export default async function eventRoutes(app: FastifyInstance, opts: EventRoutesOptions): Promise<void> {
  const svc = app.gameService;
  const open = new Set<SseStream>();
  const metrics = app.hasDecorator('metrics') ? app.metrics : null;
  const gameFeeds = new GameFeeds({ fanout: app.notify, pollMs: opts.heartbeatMs, ...(metrics ? { viewRead: () => metrics.sseViewRead() } : {}) });
  // A version event goes to every stream of its feed that is due it: serialised once (the feed hands them all the same object).
  const frameOf = (e: VersionEvent): Buffer => {
    let frame = heldFrame(e);
    if (!frame) {
      frame = holdFrame(e, Buffer.from(sseEvent('version', String(e.version), e)));
      metrics?.sseEventEncoded();
    }
    return frame;
  };
  // Clock notices likewise (no id: a reconnect resumes from the last version, whose events carry the clock too).
  const clockFrameOf = (e: ClockEvent): Buffer => heldFrame(e) ?? holdFrame(e, Buffer.from(sseEvent('clock', null, e)));

  function track(stream: SseStream, kind: 'game' | 'me' | 'app', caller: Caller | null, reply: FastifyReply, release: () => void, close: () => void): void {
    open.add(stream);
    // A stream opened with a key ends when the key is revoked, on whichever instance (key-streams.ts).
    const unwatch = app.keyStreams.watch(caller, () => {
      stream.event('problem', null, problemOf(keyRevokedError()));
      stream.end();
    });
    // The stream ends with its response, whatever ends that: Fastify destroys the body when the
    // client hangs up, but not on every path. A HEAD request runs this GET route and sends the
    // headers without the body, so without this its stream (slot, feed, heartbeat) lived on
    // until restart, and 100 HEADs locked a key out of every stream (found in review).
    reply.raw.once('close', () => stream.end());
    metrics?.sseOpened(kind);
    stream.onClose(() => {
      open.delete(stream);
      unwatch();
      metrics?.sseClosed(kind);
      release();
      close();
    });
  }

  /**
   * A slot among the caller's live streams (stream-slots.ts), or a 429 problem
   * (with Retry-After) when it holds the most allowed. Taken before the
   * stream's first database read; released with the stream (track), or by the
   * caller when the route answers without one.
   */
  function slot(request: FastifyRequest, reply: FastifyReply, caller: Caller | null): () => void {
    const retryAfter = Math.max(1, Math.round(opts.heartbeatMs / 1000));
    try {
      return app.streamSlots.acquire(streamOwner(caller, request.ip), retryAfter);
    } catch (err) {
      void reply.header('retry-after', String(retryAfter));
      throw err;
    }
  }

  // Open streams never finish by themselves: end them so close() does not wait
  // for them (clients reconnect, to another instance, and resume).
  app.addHook('preClose', async () => {
    for (const stream of [...open]) {
      stream.comment('server shutting down: reconnect to resume');
      stream.end();
    }
  });

  app.get<{ Params: IdParams }>('/games/:gameId/events', async (request, reply) => {
    const caller = await streamCaller(app, request);
    const { gameId } = request.params;
    const role = str(query(request), 'role');
    const raw = lastEventId(request);
    if (raw !== null && !/^\d{1,9}$/.test(raw.trim())) {
      throw new ServiceError('invalid_request', 'Last-Event-ID must be a game version (a non-negative integer).');
    }
    const after = raw === null ? null : Number(raw.trim());
    const release = slot(request, reply, caller);
    let source = gameFeedSource(svc, caller, gameId, role);
    let reader = caller;
    try {
      // Checks access (404 / 403 problem) before the stream starts.
      const now = await source.currentView();
      if (caller !== null && now.role === null && role === undefined) {
        // A signed-in spectator of a game anyone may read reads what anyone reads: it shares
        // the anonymous spectators' feed (the spectator view hides what every seat hides).
        const anonymous = gameFeedSource(svc, null, gameId);
        if (await anonymous.currentView(now.version).then(() => true, () => false)) {
          source = anonymous;
          reader = null;
        }
      }
      if (after !== null && after > now.version) {
        throw new ServiceError('invalid_request', `Last-Event-ID ${after} is ahead of the game (version ${now.version}).`, { currentVersion: now.version });
      }
      // Nothing more will ever come: 204 tells EventSource to stop reconnecting.
      if (after !== null && after === now.version && isOverStatus(now.status)) {
        release();
        return reply.code(204).send();
      }
    } catch (err) {
      release();
      throw err;
    }

    const stream = new SseStream(opts.heartbeatMs);
    let remove: (() => void) | null = null;
    track(stream, 'game', caller, reply, release, () => remove?.());
    void sseHeaders(reply).send(stream.body);
    gameFeeds
      .add(
        feedKey(gameId, reader, role),
        gameId,
        () => source,
        {
          deliver: (e) => {
            stream.send(frameOf(e));
            metrics?.sseEventsSent(1);
          },
          clock: (e) => stream.send(clockFrameOf(e)),
          end: (status, version) => {
            stream.event('end', null, { gameId, version, status });
            stream.end();
          },
          error: (err, fatal) => {
            if (!fatal) {
              request.log.warn({ gameId, error: errorMessage(err) }, 'SSE catch-up failed; retrying at the next heartbeat');
              return;
            }
            stream.event('problem', null, problemOf(err));
            stream.end();
          },
        },
        after,
      )
      .then(
        (stop) => {
          if (stream.isClosed) stop();
          else remove = stop;
        },
        (err: unknown) => {
          request.log.warn({ gameId, error: errorMessage(err) }, 'SSE stream failed to start');
          stream.event('problem', null, problemOf(err));
          stream.end();
        },
      );
    return reply;
  });

  app.get('/me/events', async (request, reply) => {
    const caller = await streamCaller(app, request);
    if (!caller) throw new ServiceError('unauthorized', 'This needs an API key (Authorization: Bearer <key>, or ?access_token=<key>).');
    if (caller.kind === 'admin') throw new ServiceError('forbidden', 'The operator holds no seats: use a player or application key.');
    const raw = lastEventId(request);
    const cursor = raw === null ? null : decodeTurnCursor(raw);
    if (raw !== null && cursor === null) {
      throw new ServiceError('invalid_request', 'Last-Event-ID must be an id of this stream (gameId@version, comma-separated).');
    }
    const release = slot(request, reply, caller);

    const stream = new SseStream(opts.heartbeatMs);
    const feed = new TurnFeed({
      playerId: caller.playerId,
      source: turnFeedSource(svc, caller.playerId),
      fanout: app.notify,
      cursor,
      pollMs: opts.heartbeatMs,
      deliver: (e, id) => stream.event('your_turn', id, e),
      seated: (e, id) => stream.event('seated', id, e),
      reminder: (e, id) => stream.event('reminder', id, e),
      claimable: (e, id) => stream.event('claimable', id, e),
      error: (err, fatal) => {
        if (!fatal) {
          request.log.warn({ playerId: caller.playerId, error: errorMessage(err) }, 'SSE catch-up failed; retrying at the next heartbeat');
          return;
        }
        stream.event('problem', null, problemOf(err));
        stream.end();
      },
    });
    track(stream, 'me', caller, reply, release, () => feed.close());
    void sseHeaders(reply).send(stream.body);
    feed.start().catch((err: unknown) => {
      request.log.warn({ playerId: caller.playerId, error: errorMessage(err) }, 'SSE stream failed to start');
      stream.event('problem', null, problemOf(err));
      stream.end();
    });
    return reply;
  });

  // Not /me/events with an application key: that stays the application's own
  // seats (an application may play under its own name); this is the stream of
  // the players it acts for, which needs a cursor over all of them.
  app.get('/apps/me/events', async (request, reply) => {
    const caller = await streamCaller(app, request);
    if (!caller) throw new ServiceError('unauthorized', 'This needs an application key (Authorization: Bearer <key>, or ?access_token=<key>).');
    const appId = svc.requireApp(caller);
    const raw = lastEventId(request);
    const cursor = raw === null ? null : decodeAppCursor(raw);
    if (raw !== null && cursor === null) {
      throw new ServiceError('invalid_request', 'Last-Event-ID must be an id of this stream (gameId@version or gameId@version~n, comma-separated).');
    }
    const release = slot(request, reply, caller);

    const stream = new SseStream(opts.heartbeatMs);
    const feed = new AppFeed({
      source: appFeedSource(svc, appId),
      fanout: app.notify,
      cursor,
      pollMs: opts.heartbeatMs,
      deliver: (e, id) => stream.event(e.type, id, e),
      error: (err, fatal) => {
        if (!fatal) {
          request.log.warn({ appId, error: errorMessage(err) }, 'SSE catch-up failed; retrying at the next heartbeat');
          return;
        }
        stream.event('problem', null, problemOf(err));
        stream.end();
      },
    });
    track(stream, 'app', caller, reply, release, () => feed.close());
    void sseHeaders(reply).send(stream.body);
    feed.start().catch((err: unknown) => {
      request.log.warn({ appId, error: errorMessage(err) }, 'SSE stream failed to start');
      stream.event('problem', null, problemOf(err));
      stream.end();
    });
    return reply;
  });
}
