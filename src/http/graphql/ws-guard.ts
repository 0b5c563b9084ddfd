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
import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';

/** The part of a ws WebSocket the guard uses. */
export interface GuardedSocket {
  emit(event: string | symbol, ...args: unknown[]): boolean;
  once(event: 'close', listener: () => void): unknown;
}

/** A client message as parsed (fields unchecked). */
export interface ClientMessage {
  type?: unknown;
  id?: unknown;
  payload?: unknown;
}

const START_TYPES = new Set(['subscribe', 'start']);
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

  /**
   * Screen this socket's messages; call before anything else listens to it. `observe` sees each
   * message that is a JSON object, as received, before Mercurius reads it (ws-connections.ts).
   */
  watch(socket: GuardedSocket, observe?: (message: ClientMessage) => void): void {
    const kept = new Set<string>();
    const emit = socket.emit;
    const screen = (data: unknown) => this.screen(data, kept, observe);
    // Overriding this socket's emit is the one place that sees a message before
    // every listener (Mercurius iterates the 'message' events itself).
    socket.emit = function (this: GuardedSocket, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'message') args[0] = screen(args[0]);
      return emit.call(this, event, ...args);
    };
    // Refusals of messages Mercurius never started (the connection closed, or was not acknowledged).
    socket.once('close', () => {
      for (const id of kept) this.refusals.delete(id);
    });
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

  /** The message as received, or with a refused text replaced by a stand-in. */
  private screen(data: unknown, kept: Set<string>, observe?: (message: ClientMessage) => void): unknown {
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : null;
    if (text === null) return data;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return data; // Mercurius answers "Message must be a JSON string".
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return data;
    observe?.(message as ClientMessage);
    if (!START_TYPES.has((message as { type?: unknown }).type as string)) return data;
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
    if (!refusal) return data;
    const id = randomUUID();
    this.refusals.set(id, { error: refusal, kept });
    kept.add(id);
    const { operationName: _dropped, ...rest } = payload;
    return Buffer.from(JSON.stringify({ ...message, payload: { ...rest, query: standIn(id) } }));
  }
}
