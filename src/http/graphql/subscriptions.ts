// Subscription resolvers, fed by the Bus (Redis when configured, so an action
// committed on any instance reaches subscribers on every instance).
//
// gameEvents: on each `game:<id>` message newer than what the subscriber has,
// the subscriber's own view is read from the database (getView: the seat's
// view, or the spectator's) and sent. Versions that committed while a view was
// being read are covered by that read (the update carries the view's version),
// so a burst of actions may yield fewer updates than versions, never a stale
// view. With `since`, a subscriber that reconnects is caught up from the
// database before live updates (a `since` ahead of the game is refused, as REST
// refuses such a Last-Event-ID). The stream completes once the game is over.
// Bus messages can be lost (Redis down, a publish that failed after commit), so
// each subscription also checks the game's version every `pollMs` and catches
// up from the database when it is behind (as the SSE feeds do).
//
// myTurn: `player:<id>` messages, after one notice for every game where it is
// the caller's turn at subscription time (playerGames), so a reconnecting
// client misses no turn; the player's games are read again every `pollMs`, so
// a turn whose message was lost (Redis down) is announced all the same.
//
// mySeats: `seated` messages of `player:<id>` (a published league round gave
// the caller a seat in a new game), live only: nothing stores them to replay,
// and the game shows up in myGames and myTurn anyway.
//
// myReminders: `reminder` messages of `player:<id>` (the caller's clock is
// running low), live only like mySeats.
//
// myClaimableTimeouts: `claimable` messages of `player:<id>` (the opponent's
// time ran out in a game whose control says onTimeout claim), live only too.
//
// appEvents: an application's stream over all its players (src/notify/app-feed.ts,
// the same feed as GET /apps/me/events, with its cursor as `after`).
//
// gameClock: `clock` messages of `game:<id>` (a vacation paused or resumed a
// seat's clock; the version does not move, so gameEvents has nothing to send),
// live only: every gameEvents update carries the clock too.
import { checkArguments } from './input.ts';
import type { Bus, Json, Unsubscribe } from '../../bus/bus.ts';
import {
  ServiceError,
  gameChannel,
  isClaimableEvent,
  isClockEvent,
  isReminderEvent,
  isSeatedEvent,
  playerChannel,
  type Caller,
  type ClaimableEvent,
  type ClockEvent,
  type GameClock,
  type GameEvent,
  type GameServiceApi,
  type GameViewResult,
  type PlayerGame,
  type ReminderEvent,
  type SeatedEvent,
  type YourTurnEvent,
} from '../../service/api.ts';
import type { HeraldContext } from './context.ts';
import type { FastifyBaseLogger } from 'fastify';
import { publicError } from './errors.ts';
import { EventStream } from './stream.ts';
import type { Fanout } from '../../notify/fanout.ts';
import { AppFeed, type AppNotice } from '../../notify/app-feed.ts';
import { appFeedSource } from '../../notify/sources.ts';
import { decodeAppCursor } from '../../notify/turn-cursor.ts';
import { streamOwner, type StreamSlots } from '../stream-slots.ts';
import { keyRevokedError, type KeyStreams } from '../key-streams.ts';

export interface GameUpdate {
  gameId: string;
  version: number;
  kind: GameEvent['type'];
  actor: string | null;
  playerId: string | null;
  status: GameViewResult['status'];
  activeRoles: string[];
  role: string | null;
  view: Json | null;
  at: string | null;
  clock: GameClock | null;
}

export interface TurnNotice {
  gameId: string;
  version: number;
  roles: string[];
  clock: GameClock | null;
}

function isGameEvent(m: Json): m is Json & GameEvent {
  return m !== null && typeof m === 'object' && !Array.isArray(m) && typeof m.version === 'number' && typeof m.gameId === 'string' && m.type !== 'clock';
}

function isYourTurn(m: Json): m is Json & YourTurnEvent {
  return m !== null && typeof m === 'object' && !Array.isArray(m) && m.type === 'your_turn' && typeof m.version === 'number' && typeof m.gameId === 'string';
}

const OVER = new Set(['finished', 'abandoned']);

/** Subscribes before reading, so nothing committed in between is lost; unsubscribes when the stream ends. */
async function attach<T>(bus: Bus, channel: string, stream: EventStream<T>, handler: (m: Json) => void): Promise<void> {
  const unsubscribe: Unsubscribe = await bus.subscribe(channel, handler);
  stream.onClose(unsubscribe);
}

export interface SubscriptionOptions {
  /** Interval of the periodic database check of gameEvents subscriptions, ms (default 15 s). */
  pollMs?: number;
  /** The live streams per key or IP, shared with the SSE routes; absent: no limit. */
  slots?: StreamSlots;
  /** Live streams by key, ended when their key is revoked (key-streams.ts); absent: not tracked. */
  keys?: KeyStreams;
}

/** An appEvents notice: its kind's fields under the kind's name (the GraphQL AppNotice). */
export interface AppUpdate {
  type: AppNotice['type'];
  cursor: string;
  player: AppNotice['player'];
  yourTurn: TurnNotice | null;
  seated: Omit<SeatedEvent, 'type'> | null;
  reminder: Omit<ReminderEvent, 'type'> | null;
  claimable: Omit<ClaimableEvent, 'type'> | null;
}

function appUpdate(n: AppNotice, cursor: string): AppUpdate {
  const u: AppUpdate = { type: n.type, cursor, player: n.player, yourTurn: null, seated: null, reminder: null, claimable: null };
  if (n.type === 'your_turn') u.yourTurn = { gameId: n.gameId, version: n.version, roles: n.roles, clock: n.clock ?? null };
  else if (n.type === 'seated') u.seated = { gameId: n.gameId, role: n.role, leagueId: n.leagueId, round: n.round, board: n.board };
  else if (n.type === 'reminder') u.reminder = { gameId: n.gameId, role: n.role, kind: n.kind, remainingMs: n.remainingMs, deadline: n.deadline };
  else u.claimable = { gameId: n.gameId, role: n.role, flagged: n.flagged, ranOutAt: n.ranOutAt };
  return u;
}

export function subscriptionResolvers(service: GameServiceApi, bus: Bus, fanout: Fanout, log: FastifyBaseLogger, options: SubscriptionOptions = {}) {
  const pollMs = options.pollMs ?? 15_000;
  // Errors leave through Mercurius without its errorFormatter: map them here.
  const guard = <T>(p: Promise<T>): Promise<T> => p.catch((err: unknown) => Promise.reject(publicError(err, log)));
  // Every subscription holds a slot among its caller's live streams (stream-slots.ts) from
  // before its first read until it ends, however it ends (complete, socket closed, game over).
  // A stream also ends when its socket closes, whatever Mercurius still knows of it (it used to
  // forget a stream whose id a client reused: that stream held its slot and polled for ever).
  // A complete the client sent while the start was under way (ws-sockets.ts) ends the
  // stream as soon as it is started: Mercurius could not stop what it did not have yet.
  const slots = options.slots;
  // A subscription opened with a key ends with an unauthorized error when the key is revoked
  // (key-streams.ts); and as a socket keeps the caller it authenticated for its whole life, a key
  // revoked since then starts nothing more on it.
  const keys = options.keys;
  async function limited<S extends { onClose(fn: () => unknown): void; return(): Promise<unknown>; fail(err: unknown): void }>(ctx: HeraldContext, start: () => Promise<S>): Promise<S> {
    const pending = ctx.starts?.get(ctx.id);
    let release = () => {};
    try {
      const caller = await ctx.auth.optional();
      if (slots) release = slots.acquire(streamOwner(caller, ctx.ip ?? '-'));
      if (keys && caller !== null && caller.kind !== 'admin' && (await service.revokedKeys([caller.keyId])).length > 0) throw keyRevokedError();
      const stream = await start();
      stream.onClose(release);
      if (keys) stream.onClose(keys.watch(caller, () => stream.fail(publicError(keyRevokedError(), log))));
      if (ctx.socketClosed) stream.onClose(ctx.socketClosed(() => void stream.return()));
      if (pending?.completed) await stream.return();
      return stream;
    } catch (err) {
      release();
      throw err;
    } finally {
      ctx.starts?.settle(ctx.id, pending);
    }
  }
  async function gameEvents(args: { gameId: string; role?: string | null; since?: number | null }, ctx: HeraldContext) {
    checkArguments(args);
    const caller: Caller | null = await ctx.auth.optional();
    const role = args.role ?? undefined;
    if (args.since != null && (!Number.isInteger(args.since) || args.since < 0)) {
      throw new ServiceError('invalid_request', 'since must be a version (an integer ≥ 0)');
    }
    const stream = new EventStream<{ gameEvents: GameUpdate }>((err) => publicError(err, log));
    let delivered = -1;
    // The event that produced a version (for kind/actor), from the bus message or the log.
    const eventAt = async (version: number, hint: GameEvent | null): Promise<GameEvent | null> => {
      if (hint && hint.version === version) return hint;
      if (version === 0) return null;
      const [e] = await service.listEventsSince(args.gameId, version - 1, 1);
      return e && e.version === version ? e : null;
    };
    const deliver = async (hint: GameEvent | null) => {
      // A message names a committed version: a cached view of it (or later) needs no database check.
      const v = await service.getView(caller, args.gameId, { role, ...(hint ? { knownVersion: hint.version } : {}) });
      if (v.version <= delivered) return;
      delivered = v.version;
      const e = await eventAt(v.version, hint);
      stream.push({
        gameEvents: {
          gameId: v.gameId,
          version: v.version,
          kind: e?.type ?? 'start',
          actor: e?.role ?? null,
          playerId: e?.playerId ?? null,
          status: v.status,
          activeRoles: v.activeRoles,
          role: v.role,
          view: v.view,
          at: e?.version === v.version ? e.at : null,
          clock: v.clock,
        },
      });
      if (OVER.has(v.status)) stream.end(); // after the queued update
    };

    await attach(bus, gameChannel(args.gameId), stream, (m) => {
      if (!isGameEvent(m) || m.gameId !== args.gameId || m.version <= delivered) return;
      stream.serial(() => deliver(m));
    });
    try {
      // Access check (and the role argument's) before anything is sent; fixes the baseline.
      const first = await service.getView(caller, args.gameId, { role });
      // As REST refuses a Last-Event-ID ahead of the game (not a version this server gave).
      if (args.since != null && args.since > first.version) {
        throw new ServiceError('invalid_request', `since ${args.since} is ahead of the game (version ${first.version}).`, { currentVersion: first.version });
      }
      if (args.since != null && args.since < first.version) {
        stream.serial(() => deliver(null));
      } else {
        delivered = Math.max(delivered, first.version);
        if (OVER.has(first.status)) stream.end();
      }
      // Covers messages lost on the bus: a failed check (database down) is retried at the next tick.
      const timer = setInterval(() => {
        if (stream.isClosed) return;
        service.getGame(caller, args.gameId).then(
          (g) => {
            if (g.version > delivered) stream.serial(() => deliver(null));
          },
          (err: unknown) => {
            const code = (err as { code?: unknown } | null)?.code;
            if (code === 'not_found' || code === 'forbidden' || code === 'unauthorized') stream.fail(publicError(err, log));
          },
        );
      }, pollMs);
      timer.unref();
      stream.onClose(() => clearInterval(timer));
    } catch (err) {
      await stream.return();
      throw err;
    }
    return stream;
  }

  async function myTurn(ctx: HeraldContext) {
    const caller = await ctx.auth.required();
    const stream = new EventStream<{ myTurn: TurnNotice }>((err) => publicError(err, log));
    const seen = new Map<string, number>();
    const notify = (n: TurnNotice) => {
      if ((seen.get(n.gameId) ?? -1) >= n.version) return;
      seen.set(n.gameId, n.version);
      stream.push({ myTurn: n });
    };
    await attach(bus, playerChannel(caller.playerId), stream, (m) => {
      if (!isYourTurn(m)) return;
      stream.serial(async () => notify({ gameId: m.gameId, version: m.version, roles: m.roles, clock: m.clock ?? null }));
    });
    // The player's games now: a notice for each where it is the player's turn at a version not yet announced.
    const fromDatabase = (games: PlayerGame[]) => {
      for (const g of games) {
        const roles = g.roles.filter((r) => g.activeRoles.includes(r));
        if (roles.length > 0 && !OVER.has(g.status)) notify({ gameId: g.gameId, version: g.version, roles, clock: g.clock });
      }
    };
    try {
      const games = await service.playerGames(caller.playerId);
      stream.serial(async () => fromDatabase(games));
    } catch (err) {
      await stream.return();
      throw err;
    }
    // Covers notices lost on the bus (Redis down): the database is read again
    // every pollMs. A turn that came and went while no notice arrived is not
    // announced late; the turn the player has now is. (SSE /me/events replays
    // every turn from the log.) A failed read is retried at the next tick.
    const timer = setInterval(() => {
      if (stream.isClosed) return;
      stream.serial(async () => {
        const games = await service.playerGames(caller.playerId).catch(() => null);
        if (games) fromDatabase(games);
      });
    }, pollMs);
    timer.unref();
    stream.onClose(() => clearInterval(timer));
    return stream;
  }

  async function mySeats(ctx: HeraldContext) {
    const caller = await ctx.auth.required();
    const stream = new EventStream<{ mySeats: Omit<SeatedEvent, 'type'> }>((err) => publicError(err, log));
    await attach(bus, playerChannel(caller.playerId), stream, (m) => {
      if (!isSeatedEvent(m)) return;
      const { gameId, role, leagueId, round, board } = m;
      stream.serial(async () => stream.push({ mySeats: { gameId, role, leagueId, round, board } }));
    });
    return stream;
  }

  async function gameClock(args: { gameId: string }, ctx: HeraldContext) {
    checkArguments(args);
    const caller: Caller | null = await ctx.auth.optional();
    const stream = new EventStream<{ gameClock: Omit<ClockEvent, 'type'> }>((err) => publicError(err, log));
    await attach(bus, gameChannel(args.gameId), stream, (m) => {
      if (isClockEvent(m) && m.gameId === args.gameId) {
        const { gameId, version, clock } = m;
        stream.serial(async () => stream.push({ gameClock: { gameId, version, clock } }));
      } else if (isGameEvent(m) && OVER.has(m.status)) {
        stream.serial(async () => stream.end()); // no clock changes once the game is over
      }
    });
    try {
      // The access check (a private game's existence is not revealed) before anything is sent.
      const g = await service.getGame(caller, args.gameId);
      if (OVER.has(g.status)) stream.end();
    } catch (err) {
      await stream.return();
      throw err;
    }
    return stream;
  }

  async function myReminders(ctx: HeraldContext) {
    const caller = await ctx.auth.required();
    const stream = new EventStream<{ myReminders: Omit<ReminderEvent, 'type'> }>((err) => publicError(err, log));
    await attach(bus, playerChannel(caller.playerId), stream, (m) => {
      if (!isReminderEvent(m)) return;
      const { gameId, role, kind, remainingMs, deadline } = m;
      stream.serial(async () => stream.push({ myReminders: { gameId, role, kind, remainingMs, deadline } }));
    });
    return stream;
  }

  async function myClaimableTimeouts(ctx: HeraldContext) {
    const caller = await ctx.auth.required();
    const stream = new EventStream<{ myClaimableTimeouts: Omit<ClaimableEvent, 'type'> }>((err) => publicError(err, log));
    await attach(bus, playerChannel(caller.playerId), stream, (m) => {
      if (!isClaimableEvent(m)) return;
      const { gameId, role, flagged, ranOutAt } = m;
      stream.serial(async () => stream.push({ myClaimableTimeouts: { gameId, role, flagged, ranOutAt } }));
    });
    return stream;
  }

  async function appEvents(args: { after?: string | null }, ctx: HeraldContext) {
    checkArguments(args);
    const appId = service.requireApp(await ctx.auth.required());
    const cursor = args.after == null ? null : decodeAppCursor(args.after);
    if (args.after != null && cursor === null) {
      throw new ServiceError('invalid_request', 'after must be a cursor of this stream (gameId@version or gameId@version~n, comma-separated).');
    }
    const stream = new EventStream<{ appEvents: AppUpdate }>((err) => publicError(err, log));
    const feed = new AppFeed({
      source: appFeedSource(service, appId),
      fanout,
      cursor,
      pollMs,
      deliver: (n, id) => stream.push({ appEvents: appUpdate(n, id) }),
      // A failed catch-up (database down) is retried at the next check; access cannot be lost (the key is the app's).
      error: (err, fatal) => {
        if (fatal) stream.fail(publicError(err, log));
        else log.warn({ appId, err: err instanceof Error ? err.message : String(err) }, 'appEvents catch-up failed; retrying at the next check');
      },
    });
    stream.onClose(() => feed.close());
    try {
      await feed.start();
    } catch (err) {
      await stream.return();
      throw err;
    }
    return stream;
  }

  // A subscription document sent over plain HTTP is executed like a query, with
  // no event as the root value: refuse it as a client error (not a null for a
  // non-null field, which would be an internal error).
  const resolveEvent = (field: string) => (payload: Record<string, unknown> | null | undefined) => {
    const value = payload?.[field];
    if (value === undefined) throw new ServiceError('invalid_request', 'Subscriptions are served over WebSocket only (graphql-ws protocol at /graphql).');
    return value;
  };
  return {
    gameEvents: {
      subscribe: (_root: unknown, args: { gameId: string; role?: string | null; since?: number | null }, ctx: HeraldContext) => guard(limited(ctx, () => gameEvents(args, ctx))),
      resolve: resolveEvent('gameEvents'),
    },
    myTurn: {
      subscribe: (_root: unknown, _args: unknown, ctx: HeraldContext) => guard(limited(ctx, () => myTurn(ctx))),
      resolve: resolveEvent('myTurn'),
    },
    mySeats: {
      subscribe: (_root: unknown, _args: unknown, ctx: HeraldContext) => guard(limited(ctx, () => mySeats(ctx))),
      resolve: resolveEvent('mySeats'),
    },
    myReminders: {
      subscribe: (_root: unknown, _args: unknown, ctx: HeraldContext) => guard(limited(ctx, () => myReminders(ctx))),
      resolve: resolveEvent('myReminders'),
    },
    myClaimableTimeouts: {
      subscribe: (_root: unknown, _args: unknown, ctx: HeraldContext) => guard(limited(ctx, () => myClaimableTimeouts(ctx))),
      resolve: resolveEvent('myClaimableTimeouts'),
    },
    gameClock: {
      subscribe: (_root: unknown, args: { gameId: string }, ctx: HeraldContext) => guard(limited(ctx, () => gameClock(args, ctx))),
      resolve: resolveEvent('gameClock'),
    },
    appEvents: {
      subscribe: (_root: unknown, args: { after?: string | null }, ctx: HeraldContext) => guard(limited(ctx, () => appEvents(args, ctx))),
      resolve: resolveEvent('appEvents'),
    },
  };
}
