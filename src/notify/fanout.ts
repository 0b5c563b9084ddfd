// Bus → local listeners. Every SSE stream (and any other in-process consumer)
// listens through one Fanout per app instance, which holds one bus
// subscription per channel however many listeners that channel has, and drops
// it when the last listener leaves.
//
// The bus is a hint, not the source of truth: a message can be lost (Redis
// down, a publish that failed after commit). Listeners therefore treat a
// message as "something changed, catch up from the database" (see
// game-feed.ts, turn-feed.ts), and also catch up periodically. So a failed
// subscription is not fatal either: listen() resolves anyway and the Fanout
// keeps retrying in the background while the channel has listeners.
import type { Bus, Json, Unsubscribe } from '../bus/bus.ts';
import { errorMessage } from '../errors.ts';

export type Listener = (message: Json, channel: string) => void;

export interface FanoutLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface FanoutOptions {
  log?: FanoutLogger;
  /** First delay before re-trying a failed subscription (doubles up to 10×). */
  retryMs?: number;
}

interface ChannelEntry {
  listeners: Set<Listener>;
  /** The bus subscription, once made. */
  unsubscribe: Unsubscribe | null;
  /** The subscription attempt in progress (listen() waits for it). */
  attempt: Promise<void> | null;
  retryTimer: NodeJS.Timeout | null;
  failures: number;
}

const silent: FanoutLogger = { warn() {}, error() {} };

export class Fanout {
  private readonly channels = new Map<string, ChannelEntry>();
  private readonly log: FanoutLogger;
  private readonly retryMs: number;
  private closed = false;

  private readonly bus: Bus;
  constructor(
    bus: Bus,
    options: FanoutOptions = {},
  ) {
    this.bus = bus;
    this.log = options.log ?? silent;
    this.retryMs = options.retryMs ?? 500;
  }

  /**
   * Adds a listener; resolves once the channel's bus subscription was tried
   * (messages published after that are delivered when it succeeded). Returns
   * the function that removes the listener.
   */
  async listen(channel: string, listener: Listener): Promise<() => void> {
    if (this.closed) throw new Error('fanout is closed');
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { listeners: new Set(), unsubscribe: null, attempt: null, retryTimer: null, failures: 0 };
      this.channels.set(channel, entry);
    }
    // Each call gets its own wrapper, so the same function may listen twice.
    const own: Listener = (m, c) => listener(m, c);
    entry.listeners.add(own);
    if (!entry.unsubscribe && !entry.attempt && !entry.retryTimer) this.subscribe(channel, entry);
    if (entry.attempt) await entry.attempt;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.remove(channel, own);
    };
  }

  /** Channels with at least one listener (for tests and diagnostics). */
  channelCount(): number {
    return this.channels.size;
  }

  listenerCount(channel: string): number {
    return this.channels.get(channel)?.listeners.size ?? 0;
  }

  /** Drops every listener and bus subscription. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const entries = [...this.channels.values()];
    this.channels.clear();
    await Promise.allSettled(
      entries.map(async (e) => {
        if (e.retryTimer) clearTimeout(e.retryTimer);
        e.listeners.clear();
        if (e.attempt) await e.attempt;
        await e.unsubscribe?.();
      }),
    );
  }

  private subscribe(channel: string, entry: ChannelEntry): void {
    const dispatch = (message: Json, ch: string) => {
      for (const l of [...entry.listeners]) {
        try {
          l(message, ch);
        } catch (err) {
          this.log.error({ channel, err }, 'notification listener failed');
        }
      }
    };
    entry.attempt = this.bus.subscribe(channel, dispatch).then(
      (unsubscribe) => {
        entry.attempt = null;
        entry.failures = 0;
        // Every listener left (or the fanout closed) while subscribing.
        if (this.channels.get(channel) !== entry) void unsubscribe().catch(() => {});
        else entry.unsubscribe = unsubscribe;
      },
      (err: unknown) => {
        entry.attempt = null;
        entry.failures += 1;
        if (this.channels.get(channel) !== entry) return;
        if (entry.failures === 1) this.log.warn({ channel, error: errorMessage(err) }, 'bus subscription failed; retrying (listeners catch up from the database meanwhile)');
        const delay = this.retryMs * Math.min(2 ** (entry.failures - 1), 10);
        entry.retryTimer = setTimeout(() => {
          entry.retryTimer = null;
          if (this.channels.get(channel) === entry && !this.closed) this.subscribe(channel, entry);
        }, delay);
        entry.retryTimer.unref();
      },
    );
  }

  private remove(channel: string, listener: Listener): void {
    const entry = this.channels.get(channel);
    if (!entry || !entry.listeners.delete(listener) || entry.listeners.size > 0) return;
    this.channels.delete(channel);
    if (entry.retryTimer) clearTimeout(entry.retryTimer);
    // A pending attempt unsubscribes itself when it lands (the entry is gone).
    if (entry.unsubscribe) void entry.unsubscribe().catch(() => {});
  }
}
