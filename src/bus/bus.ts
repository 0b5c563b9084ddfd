// Publish/subscribe between server instances (e.g. "game X changed" so every
// instance can push it to its subscribers). Two implementations with one
// contract (test/bus/contract.ts): Redis for several instances, in-process for
// one. Messages are JSON values; a handler receives its own copy, never the
// publisher's object, and delivery is asynchronous in both implementations.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type BusHandler = (message: Json, channel: string) => void;
export type Unsubscribe = () => Promise<void>;

export interface Bus {
  readonly kind: 'redis' | 'memory';
  publish(channel: string, message: Json): Promise<void>;
  /** Resolves once the subscription is active (messages published after it are received). */
  subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe>;
  /** A full publish → subscriber round trip; rejects on failure or after timeoutMs. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export class BusClosedError extends Error {
  constructor() {
    super('bus is closed');
    this.name = 'BusClosedError';
  }
}

/** Channel → handlers, shared by both implementations. */
export class HandlerRegistry {
  private readonly byChannel = new Map<string, Set<BusHandler>>();

  /** Returns true when this is the channel's first handler. */
  add(channel: string, handler: BusHandler): boolean {
    let set = this.byChannel.get(channel);
    const first = set === undefined;
    if (!set) this.byChannel.set(channel, (set = new Set()));
    set.add(handler);
    return first;
  }

  /** Returns true when the channel has no handler left. */
  remove(channel: string, handler: BusHandler): boolean {
    const set = this.byChannel.get(channel);
    if (!set || !set.delete(handler)) return false;
    if (set.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.byChannel.has(channel);
  }

  /** Calls each handler with its own parsed copy; a throwing handler does not stop the others. */
  dispatch(channel: string, payload: string, onError: (err: unknown) => void): void {
    const set = this.byChannel.get(channel);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(JSON.parse(payload) as Json, channel);
      } catch (err) {
        onError(err);
      }
    }
  }

  clear(): void {
    this.byChannel.clear();
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** ping() for any Bus: subscribe to a one-off channel, publish a nonce, wait for it. */
export async function roundTrip(bus: Bus, timeoutMs: number): Promise<void> {
  const nonce = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const channel = `__ping:${nonce}`;
  let received!: () => void;
  const arrived = new Promise<void>((resolve) => (received = resolve));
  const subscription = bus.subscribe(channel, (msg) => {
    if (msg === nonce) received();
  });
  try {
    await withTimeout(
      (async () => {
        await subscription;
        await bus.publish(channel, nonce);
        await arrived;
      })(),
      timeoutMs,
      `${bus.kind} bus round trip`,
    );
  } finally {
    // Unsubscribe whenever the subscription settles (it may still be pending).
    subscription.then((unsubscribe) => unsubscribe()).catch(() => {});
  }
}
