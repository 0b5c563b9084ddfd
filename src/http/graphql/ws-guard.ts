// Size limits for GraphQL over WebSocket, on the raw text before Mercurius
// parses it. Mercurius (lib/subscription-connection.js, handleGQLStart) calls
// graphql-js parse() on a subscription's text as soon as its message is read,
// before the first hook (preSubscriptionParsing) runs, and without parser
// options: a document nested thousands of levels deep overflows the recursive
// parser, and the client got "Maximum call stack size exceeded", untyped.
//
// The guard reads every message of a socket before Mercurius does. A start
// message ("subscribe", or "start" in the older graphql-ws subprotocol) whose
// text a check refuses goes on with a small stand-in text instead, naming a
// refusal the guard keeps. Mercurius parses the stand-in, runs
// preSubscriptionParsing, and the hook there throws the kept refusal
// (take()): the typed error reaches the client through Mercurius's own error
// path, under the message's id and in order (after connection_ack, as for any
// other error), and only on a connection Mercurius accepted. The same way
// carries the refusals of a start message Mercurius would answer untyped (a
// syntax error, variables that do not fit, a query sent as a subscription:
// input.ts subscriptionStartError).
//
// It also holds the protocol where Mercurius does not. Mercurius keeps a
// socket's operations in a map by id: a start reusing the id of one still
// running replaced it there, and the first ran on, never stopped by a
// complete nor by the socket's close, holding its slot among the caller's live
// streams (STREAMS_PER_KEY) and its database polling until the server stopped.
// So a start whose id is in use on the socket closes it with 4409 "Subscriber
// for <id> already exists", and a start without a text id closes it with 4400
// (graphql-transport-ws); an id is free again after the client's complete
// (stop) or the server's complete or error for it. The JSON message null
// (Mercurius destructured it: a TypeError logged as an error, the socket
// closed) goes on as {}, answered like any message of no known type. Each
// socket's streams also end when it closes (closed(): the subscription
// resolvers' backstop, whatever the protocol state).
import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';

/** The part of a ws WebSocket the guard uses. */
export interface GuardedSocket {
  emit(event: string | symbol, ...args: unknown[]): boolean;
  once(event: 'close', listener: () => void): unknown;
  send?(data: unknown, ...rest: unknown[]): unknown;
  close?(code?: number, reason?: string): unknown;
}

/** Registers a function run when the socket closes (at once if it has); returns its removal. */
export type SocketClosed = (fn: () => void) => () => void;

interface SocketState {
  /** Ids of operations started on the socket and not yet ended. */
  live: Set<string>;
  closed: boolean;
  onClose: Set<() => void>;
}

/** A client message as parsed (fields unchecked). */
export interface ClientMessage {
  type?: unknown;
  id?: unknown;
  payload?: unknown;
}

const START_TYPES = new Set(['subscribe', 'start']);
// A client's end of an operation: graphql-transport-ws "complete", the older subprotocol's "stop".
const STOP_TYPES = new Set(['complete', 'stop']);
// The server's end of one (both subprotocols); Mercurius writes {"type", "id", "payload"} in that order.
const ENDED = /^\{"type":"(?:complete|error)","id":("(?:[^"\\]|\\.)*")/;
// A subscription operation (Mercurius runs the hooks for subscriptions only),
// unnamed (the client's operationName is dropped with its text). The id is
// random and the guard's own: a client writing this comment names no refusal.
const standIn = (id: string) => `# refused before parsing: ${id}\nsubscription { __typename }`;
const STAND_IN = /^# refused before parsing: ([0-9a-f-]{36})\nsubscription \{ __typename \}$/;

export class WebSocketSourceGuard {
  private readonly refusals = new Map<string, { error: GraphQLError; kept: Set<string> }>();

  private readonly check: (source: string, payload: Record<string, unknown>) => GraphQLError | null;
  /** `check` gets the start message's text and its whole payload (variables, operationName). */
  constructor(check: (source: string, payload: Record<string, unknown>) => GraphQLError | null) {
    this.check = check;
  }

  private readonly sockets = new WeakMap<GuardedSocket, SocketState>();

  /**
   * Screen this socket's messages; call before anything else listens to it. `observe` sees each
   * message that is a JSON object and passed on, as received, before Mercurius reads it
   * (ws-connections.ts).
   */
  watch(socket: GuardedSocket, observe?: (message: ClientMessage) => void): void {
    const kept = new Set<string>();
    const state: SocketState = { live: new Set(), closed: false, onClose: new Set() };
    this.sockets.set(socket, state);
    const emit = socket.emit;
    const screen = (data: unknown) => this.screen(data, kept, state.live, observe);
    // Overriding this socket's emit is the one place that sees a message before
    // every listener (Mercurius iterates the 'message' events itself).
    socket.emit = function (this: GuardedSocket, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message') {
        const screened = screen(args[0]);
        if ('close' in screened) {
          // Not passed on: the socket closes, and Mercurius ends every operation it holds.
          socket.close?.(screened.close, screened.reason);
          return true;
        }
        args[0] = screened.data;
      }
      return emit.call(this, event, ...args);
    };
    const send = socket.send;
    if (send) {
      socket.send = function (this: GuardedSocket, data: unknown, ...rest: unknown[]): unknown {
        if (typeof data === 'string') {
          const ended = ENDED.exec(data)?.[1];
          if (ended !== undefined) state.live.delete(JSON.parse(ended) as string);
        }
        return send.call(this, data, ...rest);
      };
    }
    // Refusals of messages Mercurius never started (the connection closed, or was not acknowledged).
    socket.once('close', () => {
      for (const id of kept) this.refusals.delete(id);
      state.closed = true;
      state.live.clear();
      for (const fn of [...state.onClose]) fn();
      state.onClose.clear();
    });
  }

  /** For a watched socket: registers what to run when it closes; undefined for another. */
  closed(socket: GuardedSocket): SocketClosed | undefined {
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
   * The message as received, or with a refused text replaced by a stand-in; or
   * the close code and reason of a start the protocol does not allow.
   */
  private screen(data: unknown, kept: Set<string>, live: Set<string>, observe?: (message: ClientMessage) => void): { data: unknown } | { close: number; reason: string } {
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : null;
    if (text === null) return { data };
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return { data }; // Mercurius answers "Message must be a JSON string".
    }
    if (message === null) return { data: Buffer.from('{}') }; // answered "Invalid payload type", as any message of no known type
    if (typeof message !== 'object') return { data };
    const { type, id } = message as { type?: unknown; id?: unknown };
    if (STOP_TYPES.has(type as string) && typeof id === 'string') live.delete(id);
    if (!START_TYPES.has(type as string)) {
      if (!Array.isArray(message)) observe?.(message as ClientMessage);
      return { data };
    }
    if (typeof id !== 'string' || id === '') return { close: 4400, reason: 'Invalid message received: a subscribe message needs an id' };
    if (live.has(id)) return { close: 4409, reason: `Subscriber for ${id.slice(0, 64)} already exists` };
    observe?.(message as ClientMessage);
    live.add(id);
    const rawPayload = (message as { payload?: unknown }).payload;
    // A start without an object payload, or whose query is not a text: Mercurius read them as they
    // came (a missing payload, a query that is a number or an object taken for a parsed document)
    // and answered with a TypeError's message. Refused the same way as the others, typed.
    const payload = typeof rawPayload === 'object' && rawPayload !== null && !Array.isArray(rawPayload) ? (rawPayload as Record<string, unknown>) : {};
    const query = payload.query;
    const refusal = payload !== rawPayload
      ? new GraphQLError('A subscribe message needs a payload object with a query.', { extensions: { code: 'invalid_request' } })
      : typeof query !== 'string'
        ? new GraphQLError('query must be a string holding a GraphQL document.', { extensions: { code: 'invalid_request' } })
        : this.check(query, payload);
    if (!refusal) return { data };
    const refusalId = randomUUID();
    this.refusals.set(refusalId, { error: refusal, kept });
    kept.add(refusalId);
    const { operationName: _dropped, ...rest } = payload;
    return { data: Buffer.from(JSON.stringify({ ...message, payload: { ...rest, query: standIn(refusalId) } })) };
  }
}
