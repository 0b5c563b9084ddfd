// GraphQL WebSocket connections (Mercurius at /graphql): what a connection may hold before and
// after connection_init.
//
// Subscriptions hold stream slots (stream-slots.ts), but a socket with none held nothing: one
// key could keep thousands of idle connections open. So each connection that sent
// connection_init holds a connection slot, per key (or per client IP without a key, or with
// credentials that fail), counted apart from streams and against the same limit
// (STREAMS_PER_KEY): every useful connection carries at least one subscription, itself a
// stream, so a client within the stream limit never needs more connections than that. Past it
// the socket is closed with 4429 and the reason `too_many_streams: ...` before connection_ack
// (4429 is a close code the graphql-ws client does not retry). The slot is given back when the
// socket closes.
//
// A connection that does not send connection_init within `initWaitMs` is closed with 4408
// (`Connection initialisation timeout`, as in the graphql-transport-ws protocol): until then it
// holds no slot, so that wait bounds it (upgrades are rate-limited as any request).
//
// Subscriptions completed while they start. Mercurius stops a subscription on the client's
// complete ("stop" in the older graphql-ws subprotocol) by ending its iterator, which it has only
// once the resolver's start is over: a complete that came before was lost, and the stream went
// on (holding its slot, sending events) until the socket closed. So each start is tracked from
// its message (seen here before Mercurius reads it) until its resolver hands its stream over
// (subscriptions.ts) or it is refused; a complete in between marks it, and the resolver ends
// the stream it started. At most MAX_STARTING starts per connection are tracked (ids up to
// MAX_ID_LENGTH characters): a start Mercurius refuses before our hooks run is forgotten only
// when the socket closes.
import type { Caller } from '../../service/api.ts';
import { HttpProblem } from '../problem.ts';
import { streamOwner, TOO_MANY_STREAMS, type StreamSlots } from '../stream-slots.ts';
import type { Auth } from './context.ts';
import type { ClientMessage } from './ws-guard.ts';

/** Close codes (graphql-transport-ws's numbers). */
export const CLOSE_INIT_TIMEOUT = 4408;
export const CLOSE_TOO_MANY = 4429;

/** The part of a ws WebSocket used here. */
export interface ConnectionSocket {
  readonly readyState: number;
  /** The subprotocol: graphql-transport-ws, or the older graphql-ws. */
  readonly protocol: string;
  close(code?: number, reason?: string): void;
  once(event: 'close', listener: () => void): unknown;
}

const OPEN = 1; // WebSocket.OPEN

const MAX_STARTING = 100;
const MAX_ID_LENGTH = 128;

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

class Starts implements SubscriptionStarts {
  private readonly byId = new Map<string, PendingStart>();
  begin(id: unknown): void {
    if (typeof id !== 'string' || id.length > MAX_ID_LENGTH) return;
    this.byId.delete(id);
    if (this.byId.size >= MAX_STARTING) return;
    this.byId.set(id, { completed: false });
  }
  complete(id: unknown): void {
    if (typeof id !== 'string') return;
    const start = this.byId.get(id);
    if (start) start.completed = true; // kept until settled: the resolver may not have looked yet
  }
  get(id: unknown): PendingStart | undefined {
    return typeof id === 'string' ? this.byId.get(id) : undefined;
  }
  settle(id: unknown, start?: PendingStart): void {
    if (typeof id !== 'string') return;
    if (start === undefined || this.byId.get(id) === start) this.byId.delete(id);
  }
  clear(): void {
    this.byId.clear();
  }
}

class Connection {
  readonly starts = new Starts();
  initPayload: unknown = undefined;
  initialised = false;
  admitted = false;
  closed = false;
  release: (() => void) | null = null;
  timer: NodeJS.Timeout | null = null;
}

export interface WebSocketConnectionsOptions {
  /** Connections per key or IP (the app's webSocketSlots). */
  slots: StreamSlots;
  /** How long a new socket may wait before its connection_init, ms. */
  initWaitMs: number;
}

export class WebSocketConnections {
  private readonly connections = new WeakMap<object, Connection>();
  private readonly slots: StreamSlots;
  private readonly initWaitMs: number;
  constructor(options: WebSocketConnectionsOptions) {
    this.slots = options.slots;
    this.initWaitMs = options.initWaitMs;
  }

  /** A new socket: starts its connection_init wait. */
  watch(socket: ConnectionSocket): void {
    const c = new Connection();
    this.connections.set(socket, c);
    c.timer = setTimeout(() => {
      c.timer = null;
      if (!c.initialised && socket.readyState === OPEN) socket.close(CLOSE_INIT_TIMEOUT, 'Connection initialisation timeout');
    }, this.initWaitMs);
    c.timer.unref();
    socket.once('close', () => {
      c.closed = true;
      c.starts.clear();
      if (c.timer) clearTimeout(c.timer);
      c.timer = null;
      c.release?.();
    });
  }

  /** Each message of the socket, before Mercurius reads it. */
  observe(socket: ConnectionSocket, message: ClientMessage): void {
    const c = this.connections.get(socket);
    if (!c) return;
    const legacy = socket.protocol === 'graphql-ws';
    if (message.type === (legacy ? 'start' : 'subscribe')) c.starts.begin(message.id);
    else if (message.type === (legacy ? 'stop' : 'complete')) c.starts.complete(message.id);
    if (message.type !== 'connection_init') return;
    c.initialised = true;
    c.initPayload = message.payload;
    if (c.timer) clearTimeout(c.timer);
    c.timer = null;
  }

  /** The socket's subscription starts under way (for the subscription context). */
  starts(socket: ConnectionSocket): SubscriptionStarts | undefined {
    return this.connections.get(socket)?.starts;
  }

  /** The payload of the socket's latest connection_init (undefined: none, or no payload). */
  initPayload(socket: ConnectionSocket): unknown {
    return this.connections.get(socket)?.initPayload;
  }

  /**
   * At connection_init, before connection_ack: takes the connection's slot for the caller `auth`
   * names (once per connection), or closes the socket with 4429 when the caller holds the limit.
   */
  async admit(socket: ConnectionSocket, auth: Auth, ip: string): Promise<void> {
    const c = this.connections.get(socket);
    if (!c || c.admitted) return;
    c.admitted = true;
    // Bad credentials fail every subscription (unauthorized); the connection counts as the address's.
    const caller: Caller | null = await auth.optional().catch(() => null);
    if (c.closed) return;
    try {
      c.release = this.slots.acquire(streamOwner(caller, ip));
    } catch (err) {
      if (!(err instanceof HttpProblem)) throw err;
      socket.close(CLOSE_TOO_MANY, `${TOO_MANY_STREAMS}: ${this.slots.limit} GraphQL WebSocket connections open for this client, the most allowed`);
    }
  }
}
