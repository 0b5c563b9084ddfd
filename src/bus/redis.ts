// Redis bus: one connection publishes, another subscribes (a subscribed Redis
// connection cannot publish). ioredis reconnects with back-off and re-subscribes
// by itself; while Redis is down, publish() fails fast after a few retries
// instead of queueing forever, and ping() (used by /readyz) rejects.
//
// Local first: a message is handed to this instance's own subscribers at once
// (asynchronously, as a copy), not after its round trip through Redis, and the
// copy Redis then echoes back is skipped. Most listeners of a busy game are on
// the instance that committed its actions, so this takes Redis off their path
// (its latency, its outages); other instances still hear it through Redis.
// Pings are the exception: they exist to test that round trip.
import { Redis } from 'ioredis';
import { BusClosedError, HandlerRegistry, roundTrip, withTimeout, type Bus, type BusHandler, type Json, type Unsubscribe } from './bus.ts';

export interface RedisBusOptions {
  url: string;
  /** Prepended to every channel name in Redis. */
  prefix?: string;
  onHandlerError?: (err: unknown) => void;
  /** Connection problems (reported once per outage, not on every retry). */
  onConnectionError?: (err: Error, connection: 'publisher' | 'subscriber') => void;
  onReconnected?: (connection: 'publisher' | 'subscriber') => void;
}

function connect(url: string, name: 'publisher' | 'subscriber', options: RedisBusOptions): Redis {
  const redis = new Redis(url, {
    // CLIENT LIST shows which deployment (prefix) and role a connection has.
    connectionName: `herald-${name}-${(options.prefix ?? '').replace(/[^\w:.-]/g, '_')}`,
    maxRetriesPerRequest: 2,
    connectTimeout: 5000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // The publishes of one commit (game channel, then players) go out in one write.
    enableAutoPipelining: name === 'publisher',
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (!down) options.onConnectionError?.(err, name);
    down = true;
  });
  redis.on('ready', () => {
    if (down) options.onReconnected?.(name);
    down = false;
  });
  return redis;
}

/**
 * Resolves once the connection is past its handshake. Between 'connect' and
 * 'ready' ioredis writes a SUBSCRIBE at once (Redis allows it while loading),
 * which puts the connection in subscriber mode before ioredis's ready check
 * sends INFO: the check failed ("Connection in subscriber mode, only
 * subscriber commands may be used", logged as a lost connection), the
 * connection was dropped and the SUBSCRIBE refused. At a server's start the AI
 * job subscribes to its players' turns in that window (most starts on a busy
 * machine): its moves then waited for the sweep. Before and after the
 * handshake a command queues or goes out as usual.
 */
function pastHandshake(redis: Redis): Promise<void> {
  if (redis.status !== 'connect') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      redis.off('ready', done);
      redis.off('close', done);
      resolve();
    };
    redis.on('ready', done);
    redis.on('close', done);
  });
}

/** QUIT when connected (lets pending replies arrive), else just drop the socket. */
async function disconnect(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await withTimeout(redis.quit(), 2000, 'redis quit');
      return;
    } catch {
      // fall through
    }
  }
  redis.disconnect();
}

/**
 * Messages this instance published and delivered locally, whose echo from
 * Redis is still due. An echo that never comes (Redis down, or the channel was
 * unsubscribed meanwhile) is forgotten after one to two ECHO_TTL_MS: two
 * generations of entries, the older dropped at each rotation.
 */
class EchoFilter {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  private rotatedAt = Date.now();

  expect(channel: string, payload: string): void {
    this.rotate();
    const key = `${channel}\n${payload}`;
    this.current.set(key, (this.current.get(key) ?? 0) + 1);
  }

  /** True when this message is the echo of one already delivered (which is then forgotten). */
  take(channel: string, payload: string): boolean {
    this.rotate();
    if (this.current.size === 0 && this.previous.size === 0) return false;
    const key = `${channel}\n${payload}`;
    return takeOne(this.current, key) || takeOne(this.previous, key);
  }

  private rotate(): void {
    const now = Date.now();
    if (now - this.rotatedAt < ECHO_TTL_MS) return;
    this.previous = now - this.rotatedAt < 2 * ECHO_TTL_MS ? this.current : new Map();
    this.current = new Map();
    this.rotatedAt = now;
  }
}

function takeOne(counts: Map<string, number>, key: string): boolean {
  const n = counts.get(key);
  if (n === undefined) return false;
  if (n > 1) counts.set(key, n - 1);
  else counts.delete(key);
  return true;
}

const ECHO_TTL_MS = 10_000;
const PING_PREFIX = '__ping:';

export function createRedisBus(options: RedisBusOptions): Bus {
  const prefix = options.prefix ?? '';
  const onError = options.onHandlerError ?? (() => {});
  const publisher = connect(options.url, 'publisher', options);
  const subscriber = connect(options.url, 'subscriber', options);
  const handlers = new HandlerRegistry();
  const echoes = new EchoFilter();
  let closed = false;

  subscriber.on('message', (redisChannel: string, payload: string) => {
    if (!redisChannel.startsWith(prefix)) return;
    const channel = redisChannel.slice(prefix.length);
    if (echoes.take(channel, payload)) return;
    handlers.dispatch(channel, payload, onError);
  });

  const bus: Bus = {
    kind: 'redis',
    async publish(channel: string, message: Json) {
      if (closed) throw new BusClosedError();
      const payload = JSON.stringify(message);
      if (!channel.startsWith(PING_PREFIX) && handlers.has(channel)) {
        // Only a channel with local subscribers echoes back to this connection.
        echoes.expect(channel, payload);
        setImmediate(() => handlers.dispatch(channel, payload, onError));
      }
      await publisher.publish(prefix + channel, payload);
    },
    async subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe> {
      if (closed) throw new BusClosedError();
      if (handlers.add(channel, handler)) {
        try {
          await pastHandshake(subscriber);
          await subscriber.subscribe(prefix + channel);
        } catch (err) {
          handlers.remove(channel, handler);
          throw err;
        }
      }
      return async () => {
        if (handlers.remove(channel, handler) && !closed) {
          await pastHandshake(subscriber);
          await subscriber.unsubscribe(prefix + channel).catch(() => {});
        }
      };
    },
    ping(timeoutMs = 2000) {
      if (closed) return Promise.reject(new BusClosedError());
      return roundTrip(bus, timeoutMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      handlers.clear();
      await Promise.all([disconnect(publisher), disconnect(subscriber)]);
    },
  };
  return bus;
}
