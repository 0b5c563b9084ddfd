// Redis bus: one connection publishes, another subscribes (a subscribed Redis
// connection cannot publish). ioredis reconnects with back-off and re-subscribes
// by itself; while Redis is down, publish() fails fast after a few retries
// instead of queueing forever, and ping() (used by /readyz) rejects.
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

export function createRedisBus(options: RedisBusOptions): Bus {
  const prefix = options.prefix ?? '';
  const onError = options.onHandlerError ?? (() => {});
  const publisher = connect(options.url, 'publisher', options);
  const subscriber = connect(options.url, 'subscriber', options);
  const handlers = new HandlerRegistry();
  let closed = false;

  subscriber.on('message', (redisChannel: string, payload: string) => {
    if (!redisChannel.startsWith(prefix)) return;
    handlers.dispatch(redisChannel.slice(prefix.length), payload, onError);
  });

  const bus: Bus = {
    kind: 'redis',
    async publish(channel: string, message: Json) {
      if (closed) throw new BusClosedError();
      await publisher.publish(prefix + channel, JSON.stringify(message));
    },
    async subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe> {
      if (closed) throw new BusClosedError();
      if (handlers.add(channel, handler)) {
        try {
          await subscriber.subscribe(prefix + channel);
        } catch (err) {
          handlers.remove(channel, handler);
          throw err;
        }
      }
      return async () => {
        if (handlers.remove(channel, handler) && !closed) {
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
