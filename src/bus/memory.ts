// In-process bus: for a single instance (no REDIS_URL). Same semantics as the
// Redis bus: JSON copies, asynchronous delivery, prefix per bus.
import { BusClosedError, HandlerRegistry, roundTrip, type Bus, type BusHandler, type Json, type Unsubscribe } from './bus.ts';

export interface MemoryBusOptions {
  onHandlerError?: (err: unknown) => void;
}

export function createMemoryBus(options: MemoryBusOptions = {}): Bus {
  const handlers = new HandlerRegistry();
  const onError = options.onHandlerError ?? (() => {});
  let closed = false;

  const bus: Bus = {
    kind: 'memory',
    async publish(channel: string, message: Json) {
      if (closed) throw new BusClosedError();
      const payload = JSON.stringify(message);
      setImmediate(() => handlers.dispatch(channel, payload, onError));
    },
    async subscribe(channel: string, handler: BusHandler): Promise<Unsubscribe> {
      if (closed) throw new BusClosedError();
      handlers.add(channel, handler);
      return async () => {
        handlers.remove(channel, handler);
      };
    },
    ping(timeoutMs = 2000) {
      if (closed) return Promise.reject(new BusClosedError());
      return roundTrip(bus, timeoutMs);
    },
    async close() {
      closed = true;
      handlers.clear();
    },
  };
  return bus;
}
