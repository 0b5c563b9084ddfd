// GraphQL over WebSocket (Mercurius at /graphql): one state per socket, read from every client
// message before Mercurius reads it, covering what Mercurius does not hold to the protocol.
// (It used to be two per-socket states, ws-guard.ts and ws-connections.ts, each tracking
// subscribes and completes by its own reading of the message types: they disagreed on the
// subprotocol of a socket that named none, and on a message of the other subprotocol's types.)
//
// Size limits, on the raw text. Mercurius (lib/subscription-connection.js, handleGQLStart) calls
// graphql-js parse() on a subscription's text as soon as its message is read, before the first
// hook (preSubscriptionParsing) runs, and without parser options: a document nested thousands of
// levels deep overflowed the recursive parser ("Maximum call stack size exceeded", untyped). A
// start message ("subscribe", "start" in the older graphql-ws subprotocol) whose text a check
// refuses goes on with a small stand-in text instead, naming a refusal kept here. Mercurius
// parses the stand-in, runs preSubscriptionParsing, and the hook there throws the kept refusal
// (take()): the typed error reaches the client through Mercurius's own error path, under the
// message's id and in order, and only on a connection Mercurius accepted. The same way carries
// the refusals of a start Mercurius would answer untyped (a syntax error, variables that do not
// fit, a query sent as a subscription: input.ts subscriptionStartError; a payload that is not an
// object; Mercurius's own `extensions` on the message, below).
//
// Operation ids. Mercurius keeps a socket's operations in a map by id: a start reusing the id of
// one still running replaced it there, and the first ran on, never stopped, holding its slot
// among the caller's live streams (STREAMS_PER_KEY). So a start whose id is in use closes the
// socket with 4409 "Subscriber for <id> already exists", a start without a text id with 4400; an
// id is free again after the client's complete (stop) or the server's complete or error for it.
// A message of a type the socket's subprotocol does not know goes on without its id: Mercurius
// answers it with an error under that id, which would have ended (for the client, and here) an
// operation still running. The JSON message null (Mercurius destructured it: a TypeError logged
// as an error) goes on as {}.
//
// Completes racing their start. Mercurius stops a subscription on the client's complete by ending
// its iterator, which it has only once the resolver's start is over: a complete that came before
// was lost. So each start is also tracked from its message until its resolver hands its stream
// over (subscriptions.ts) or it is refused (starts()); a complete in between marks it, and the
// resolver ends the stream it started. At most MAX_STARTING starts per socket are tracked; an id
// longer than MAX_ID_LENGTH characters closes the socket with 4400.
//
// connection_init. A socket that does not send one within `initWaitMs` is closed with 4408
// (Connection initialisation timeout); a second one closes it with 4429 (Too many initialisation
// requests, graphql-transport-ws): Mercurius ran its context again, taking the caller from the
// new payload, on a connection counted for the first caller. A subscribe before connection_init
// closes a graphql-transport-ws socket with 4401 Unauthorized, as that protocol says (Mercurius
// answered with a connection_error message and a close without a code). One sent right behind
// connection_init is fine: Mercurius reads a socket's messages in order, so it runs after the ack.
//
// Connections per key. Each connection that sent connection_init holds a connection slot per key
// (or per client IP without a key, or with credentials that fail), counted apart from streams
// against the same limit (STREAMS_PER_KEY): past it the socket closes with 4429 and the reason
// `too_many_streams: ...` before connection_ack. The slot is given back when the socket closes.
//
// A revoked key (key-streams.ts). A connection authenticated with an API key ends when the key is
// revoked: its subscriptions fail with unauthorized (each its own error message), then the socket
// closes with 4403 Forbidden (graphql-transport-ws: how a server refuses a connection for its
// credentials; graphql-ws clients may reconnect, with credentials that are then refused). It used
// to stay open, authenticated with the revoked key.
//
// Each socket's streams also end when it closes (closed(): the subscription resolvers' backstop).
import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Caller } from '../../service/api.ts';
import type { KeyStreams } from '../key-streams.ts';
import { HttpProblem } from '../problem.ts';
import { streamOwner, TOO_MANY_STREAMS, type StreamSlots } from '../stream-slots.ts';
import type { Auth } from './context.ts';

/** Close codes (graphql-transport-ws's numbers). */
export const CLOSE_BAD_REQUEST = 4400;
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_INIT_TIMEOUT = 4408;
export const CLOSE_SUBSCRIBER_EXISTS = 4409;
export const CLOSE_TOO_MANY = 4429;

/** The reason a socket authenticated with a revoked key closes with. */
export const KEY_REVOKED_REASON = 'Forbidden: the API key of this connection has been revoked';

/** The part of a ws WebSocket used here. */
export interface WatchedSocket {
  /** ws's readyState (1: open); absent counts as open. */
  readonly readyState?: number;
  /** The subprotocol: graphql-transport-ws, or the older graphql-ws (a socket naming none is never watched). */
  readonly protocol?: string;
  emit(event: string | symbol, ...args: unknown[]): boolean;
  once(event: 'close', listener: () => void): unknown;
  send?(data: unknown, ...rest: unknown[]): unknown;
  close?(code?: number, reason?: string): unknown;
}

/** Registers a function run when the socket closes (at once if it has); returns its removal. */
export type SocketClosed = (fn: () => void) => () => void;

/** A subscription's start, from its message until its stream is handed to Mercurius. */
export interface PendingStart {
  /** The client completed the subscription meanwhile. */
  completed: boolean;
}

/** The starts of one connection's subscriptions that are under way. */
export interface SubscriptionStarts {
  /** The start under way of the subscription `id` (undefined: not tracked). */
  get(id: unknown): PendingStart | undefined;
  /** The start of `id` is over (its stream handed over, or refused): a complete is Mercurius's now. */
  settle(id: unknown, start?: PendingStart): void;
}

const OPEN = 1; // WebSocket.OPEN
const MAX_STARTING = 100;
const MAX_ID_LENGTH = 128;
/** After a revocation, how long the socket waits for its operations' errors to be sent before it closes, ms. */
const REVOKED_CLOSE_WAIT_MS = 1000;

/** The client message types of each subprotocol (Mercurius's lib/subscription-protocol.js). */
interface Protocol {
  start: string;
  stop: string;
  known: ReadonlySet<string>;
}
const TRANSPORT_WS: Protocol = { start: 'subscribe', stop: 'complete', known: new Set(['connection_init', 'subscribe', 'complete', 'ping', 'pong', 'connection_terminate']) };
const LEGACY_WS: Protocol = { start: 'start', stop: 'stop', known: new Set(['connection_init', 'start', 'stop', 'connection_terminate']) };
// A socket that names neither (or none) is closed before it is watched (plugins/graphql.ts).
const protocolOf = (socket: WatchedSocket): Protocol => (socket.protocol === 'graphql-transport-ws' ? TRANSPORT_WS : LEGACY_WS);

// The server's end of one operation (both subprotocols); Mercurius writes {"type", "id", "payload"} in that order.
const ENDED = /^\{"type":"(?:complete|error)","id":("(?:[^"\\]|\\.)*")/;
// Mercurius's answers to a message that is not JSON ("Message must be a JSON string") or of no
// type the subprotocol knows ("Invalid payload type"): errors without extensions.code, the one
// untyped answer a client could get (found probing). Sent on with the code invalid_request.
const UNTYPED_ANSWER = /^\{"type":"error",(?:"id":null,)?"payload":\[\{"message":"(Message must be a JSON string|Invalid payload type)"\}\]\}$/;
const typedAnswer = (data: string): string => {
  const message = UNTYPED_ANSWER.exec(data)?.[1];
  if (message === undefined) return data;
  return JSON.stringify({ type: 'error', ...(data.includes('"id":null') ? { id: null } : {}), payload: [{ message, extensions: { code: 'invalid_request' } }] });
};
// A subscription operation (Mercurius runs the hooks for subscriptions only), unnamed (the
// client's operationName is dropped with its text). The id is random and ours: a client writing
// this comment names no refusal.
const standIn = (id: string) => `# refused before parsing: ${id}\nsubscription { __typename }`;
const STAND_IN = /^# refused before parsing: ([0-9a-f-]{36})\nsubscription \{ __typename \}$/;

const invalidRequest = (message: string) => new GraphQLError(message, { extensions: { code: 'invalid_request' } });

/** One socket's state. */
class SocketState {
  readonly protocol: Protocol;
  /** Ids of operations started and not yet ended (by either side). */
  readonly live = new Set<string>();
  /** Starts under way, by id: until the resolver hands the stream over. */
  readonly starting = new Map<string, PendingStart>();
  /** Refusals kept for this socket's stand-ins. */
  readonly kept = new Set<string>();
  readonly onClose = new Set<() => void>();
  initialised = false;
  initPayload: unknown = undefined;
  admitted = false;
  closed = false;
  /** The key of the connection was revoked: the socket closes once its operations ended. */
  revoked = false;
  release: (() => void) | null = null;
  timer: NodeJS.Timeout | null = null;
  constructor(protocol: Protocol) {
    this.protocol = protocol;
  }
}

type Screened = { data: unknown } | { close: number; reason: string };

export interface WebSocketSocketsOptions {
  /** The start message's text and whole payload (variables, operationName): the refusal, or null. */
  check: (source: string, payload: Record<string, unknown>) => GraphQLError | null;
  /** Connections per key or IP (the app's webSocketSlots); absent: no limit. */
  slots?: StreamSlots;
  /** How long a new socket may wait before its connection_init, ms. */
  initWaitMs: number;
  /** Live streams by key: a connection is ended when its key is revoked; absent: not tracked. */
  keys?: KeyStreams;
}

export class WebSocketSockets {
  private readonly sockets = new WeakMap<object, SocketState>();
  private readonly refusals = new Map<string, { error: GraphQLError; kept: Set<string> }>();
  private readonly options: WebSocketSocketsOptions;
  constructor(options: WebSocketSocketsOptions) {
    this.options = options;
  }

  /** A new socket: call before anything else listens to it. */
  watch(socket: WatchedSocket): void {
    const state = new SocketState(protocolOf(socket));
    this.sockets.set(socket, state);
    const close = (code: number, reason: string) => {
      if (!state.closed && (socket.readyState ?? OPEN) === OPEN) socket.close?.(code, reason);
    };
    state.timer = setTimeout(() => {
      state.timer = null;
      if (!state.initialised) close(CLOSE_INIT_TIMEOUT, 'Connection initialisation timeout');
    }, this.options.initWaitMs);
    state.timer.unref();

    const emit = socket.emit;
    const screen = (data: unknown) => this.screen(data, state);
    // Overriding this socket's emit is the one place that sees a message before every listener
    // (Mercurius iterates the 'message' events itself).
    socket.emit = function (this: WatchedSocket, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message') {
        const screened = screen(args[0]);
        if ('close' in screened) {
          // Not passed on: the socket closes, and Mercurius ends every operation it holds.
          close(screened.close, screened.reason);
          return true;
        }
        args[0] = screened.data;
      }
      return emit.call(this, event, ...args);
    };
    const send = socket.send;
    if (send) {
      socket.send = function (this: WatchedSocket, data: unknown, ...rest: unknown[]): unknown {
        if (typeof data === 'string') {
          const ended = ENDED.exec(data)?.[1];
          if (ended !== undefined) state.live.delete(JSON.parse(ended) as string);
          else data = typedAnswer(data);
        }
        const sent = send.call(this, data, ...rest);
        // A revoked connection closes after its operations' last errors (written in order before the close).
        if (state.revoked && state.live.size === 0) close(CLOSE_FORBIDDEN, KEY_REVOKED_REASON);
        return sent;
      };
    }
    socket.once('close', () => {
      state.closed = true;
      // Refusals of messages Mercurius never started (the connection closed, or was not acknowledged).
      for (const id of state.kept) this.refusals.delete(id);
      state.kept.clear();
      state.live.clear();
      state.starting.clear();
      if (state.timer) clearTimeout(state.timer);
      state.timer = null;
      state.release?.();
      state.release = null;
      for (const fn of [...state.onClose]) fn();
      state.onClose.clear();
    });
  }

  /** For a watched socket: registers what to run when it closes; undefined for another. */
  closed(socket: object): SocketClosed | undefined {
    const state = this.sockets.get(socket);
    if (!state) return undefined;
    return (fn) => {
      if (state.closed) {
        fn();
        return () => {};
      }
      state.onClose.add(fn);
      return () => state.onClose.delete(fn);
    };
  }

  /** The socket's subscription starts under way (for the subscription context). */
  starts(socket: object): SubscriptionStarts | undefined {
    const state = this.sockets.get(socket);
    if (!state) return undefined;
    return {
      get: (id) => (typeof id === 'string' ? state.starting.get(id) : undefined),
      settle: (id, start) => {
        if (typeof id !== 'string') return;
        if (start === undefined || state.starting.get(id) === start) state.starting.delete(id);
      },
    };
  }

  /** The payload of the socket's connection_init (undefined: none, or no payload). */
  initPayload(socket: object): unknown {
    return this.sockets.get(socket)?.initPayload;
  }

  /** The refusal a stand-in text names (once), or null for any other text. */
  take(source: string): GraphQLError | null {
    const id = STAND_IN.exec(source)?.[1];
    const refusal = id === undefined ? undefined : this.refusals.get(id);
    if (id === undefined || refusal === undefined) return null;
    this.refusals.delete(id);
    refusal.kept.delete(id);
    return refusal.error;
  }

  /**
   * At connection_init, before connection_ack: takes the connection's slot for the caller `auth`
   * names (once per connection), or closes the socket with 4429 when the caller holds the limit;
   * and ends the connection if the caller's key is revoked.
   */
  async admit(socket: WatchedSocket, auth: Auth, ip: string): Promise<void> {
    const state = this.sockets.get(socket);
    if (!state || state.admitted) return;
    state.admitted = true;
    // Bad credentials fail every subscription (unauthorized); the connection counts as the address's.
    const caller: Caller | null = await auth.optional().catch(() => null);
    if (state.closed) return;
    const { slots, keys } = this.options;
    if (slots) {
      try {
        state.release = slots.acquire(streamOwner(caller, ip));
      } catch (err) {
        if (!(err instanceof HttpProblem)) throw err;
        socket.close?.(CLOSE_TOO_MANY, `${TOO_MANY_STREAMS}: ${slots.limit} GraphQL WebSocket connections open for this client, the most allowed`);
        return;
      }
    }
    if (keys) {
      const unwatch = keys.watch(caller, () => this.revoke(socket, state));
      state.onClose.add(unwatch);
    }
  }

  /** The connection's key was revoked: close once its operations' errors are out (or after a wait). */
  private revoke(socket: WatchedSocket, state: SocketState): void {
    if (state.closed) return;
    state.revoked = true;
    const close = () => {
      if (!state.closed && (socket.readyState ?? OPEN) === OPEN) socket.close?.(CLOSE_FORBIDDEN, KEY_REVOKED_REASON);
    };
    // Its subscriptions end in the same turn (key-streams.ts), each with an error sent a few
    // ticks later; one that never answers does not keep the socket open.
    if (state.live.size === 0) setImmediate(close);
    setTimeout(close, REVOKED_CLOSE_WAIT_MS).unref();
  }

  /**
   * The message as received, or rewritten (a refused text replaced by a stand-in, an id dropped);
   * or the close code and reason of a message the protocol does not allow.
   */
  private screen(data: unknown, state: SocketState): Screened {
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : null;
    if (text === null) return { data };
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return { data }; // Mercurius answers "Message must be a JSON string".
    }
    if (message === null) return { data: Buffer.from('{}') }; // answered "Invalid payload type", as any message of no known type
    if (typeof message !== 'object' || Array.isArray(message)) return { data };
    const m = message as Record<string, unknown>;
    const { type, id } = m;
    const p = state.protocol;
    if (typeof type !== 'string' || !p.known.has(type)) {
      // Answered "Invalid payload type"; without the id, that error ends no operation of the client's.
      if (!('id' in m)) return { data };
      const { id: _dropped, ...rest } = m;
      return { data: Buffer.from(JSON.stringify(rest)) };
    }
    if (type === 'connection_init') {
      if (state.initialised) return { close: CLOSE_TOO_MANY, reason: 'Too many initialisation requests' };
      state.initialised = true;
      state.initPayload = m.payload;
      if (state.timer) clearTimeout(state.timer);
      state.timer = null;
      return { data };
    }
    if (type === p.stop) {
      if (typeof id === 'string') {
        state.live.delete(id);
        const start = state.starting.get(id);
        if (start) start.completed = true; // kept until settled: the resolver may not have looked yet
      }
      return { data };
    }
    if (type !== p.start) return { data };
    if (p === TRANSPORT_WS && !state.initialised) return { close: CLOSE_UNAUTHORIZED, reason: 'Unauthorized' };
    if (typeof id !== 'string' || id === '') return { close: CLOSE_BAD_REQUEST, reason: 'Invalid message received: a subscribe message needs an id' };
    // The id comes back on every message of its operation: one of up to the 1 MiB message size
    // was echoed on each event (found probing). Clients use short ids (graphql-ws: a UUID).
    if (id.length > MAX_ID_LENGTH) return { close: CLOSE_BAD_REQUEST, reason: `Invalid message received: an id is at most ${MAX_ID_LENGTH} characters` };
    if (state.live.has(id)) return { close: CLOSE_SUBSCRIBER_EXISTS, reason: `Subscriber for ${id.slice(0, 64)} already exists` };
    state.live.add(id);
    state.starting.delete(id);
    if (state.starting.size < MAX_STARTING) state.starting.set(id, { completed: false });

    const rawPayload = m.payload;
    // A start without an object payload, or whose query is not a text: Mercurius read them as they
    // came (a missing payload, a query that is a number or an object taken for a parsed document)
    // and answered with a TypeError's message. Refused the same way as the others, typed.
    const payload = typeof rawPayload === 'object' && rawPayload !== null && !Array.isArray(rawPayload) ? (rawPayload as Record<string, unknown>) : {};
    const query = payload.query;
    // `extensions` on the message (not in its payload) is Mercurius's own: a list whose
    // {"type": "connectionInit", "payload"} entries it hands to an onConnect hook Herald does not
    // have, so credentials there were dropped silently and the operation ran as the
    // connection's caller; any other entry was an untyped error. Refused: credentials belong in
    // connection_init. (payload.extensions, the GraphQL request's own, is ignored as over HTTP.)
    const refusal = 'extensions' in m
      ? invalidRequest('A subscribe message has no "extensions" (credentials go in the connection_init payload; a request\'s extensions go in its payload).')
      : payload !== rawPayload
        ? invalidRequest('A subscribe message needs a payload object with a query.')
        : typeof query !== 'string'
          ? invalidRequest('query must be a string holding a GraphQL document.')
          : this.options.check(query, payload);
    if (!refusal) return { data };
    const refusalId = randomUUID();
    this.refusals.set(refusalId, { error: refusal, kept: state.kept });
    state.kept.add(refusalId);
    const { operationName: _name, ...rest } = payload;
    const { extensions: _extensions, ...fields } = m;
    return { data: Buffer.from(JSON.stringify({ ...fields, payload: { ...rest, query: standIn(refusalId) } })) };
  }
}
