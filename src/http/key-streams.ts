// Live streams by the API key that opened them: SSE streams (routes/events.ts)
// and GraphQL subscriptions (graphql/subscriptions.ts). A stream is authorised
// once, when it opens; without this, a stream opened with a key that is then
// revoked went on sending the seat's private view until the client hung up.
//
// Revoking a key (service/accounts.ts revokeKey) announces it on the bus
// (`keys:revoked`, the channel every instance's key cache listens to): every
// instance's registry hears it and ends that key's streams at once (SSE: a last
// `problem` event, unauthorized; GraphQL: an error with extensions.code
// unauthorized). A message lost on the bus (Redis down) is covered by a
// periodic check (every SSE_HEARTBEAT_SECONDS): one query for the keys of all
// the instance's live streams, ending those of keys that no longer
// authenticate. Streams without a key (anonymous) and the operator token's are
// not tracked.
import type { FastifyBaseLogger } from 'fastify';
import type { Bus, Json, Unsubscribe } from '../bus/bus.ts';
import type { Caller } from '../service/api.ts';
import { ServiceError } from '../service/errors.ts';
import { KEYS_REVOKED_CHANNEL } from '../service/key-cache.ts';

/** Why a stream ends: the error each kind of stream reports to its client. */
export const KEY_REVOKED_DETAIL = 'The API key this stream was opened with has been revoked: the stream ends. Open it again with a valid key.';

export function keyRevokedError(): ServiceError {
  return new ServiceError('unauthorized', KEY_REVOKED_DETAIL);
}

type End = () => void;

export interface KeyStreamsOptions {
  bus: Bus;
  /** Of these key ids, those that no longer authenticate (service revokedKeys). */
  revokedKeys: (keyIds: readonly string[]) => Promise<string[]>;
  /** Interval of the check that covers lost bus messages, ms. */
  checkMs: number;
  log: FastifyBaseLogger;
}

export class KeyStreams {
  private readonly byKey = new Map<string, Set<End>>();
  private readonly options: KeyStreamsOptions;
  private unsubscribe: Unsubscribe | null = null;
  private subscribing = false;
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  private closed = false;

  constructor(options: KeyStreamsOptions) {
    this.options = options;
  }

  /** Listens for revocations and starts the periodic check. */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.tick(), this.options.checkMs);
    this.timer.unref();
    await this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    await unsubscribe?.().catch(() => {});
  }

  /**
   * Tracks a stream opened by `caller`: `end` runs (once) if its key is
   * revoked. Returns the removal, to call when the stream ends otherwise.
   */
  watch(caller: Caller | null, end: End): () => void {
    if (caller === null || caller.kind === 'admin') return () => {};
    const keyId = caller.keyId;
    let set = this.byKey.get(keyId);
    if (!set) this.byKey.set(keyId, (set = new Set()));
    let done = false;
    const once: End = () => {
      if (done) return;
      done = true;
      end();
    };
    set.add(once);
    return () => {
      done = true;
      const s = this.byKey.get(keyId);
      if (!s) return;
      s.delete(once);
      if (s.size === 0) this.byKey.delete(keyId);
    };
  }

  /** Live streams of this key on this instance. */
  count(keyId: string): number {
    return this.byKey.get(keyId)?.size ?? 0;
  }

  /** Ends every stream of this key on this instance. */
  revoked(keyId: string): void {
    const set = this.byKey.get(keyId);
    if (!set) return;
    this.byKey.delete(keyId);
    for (const end of [...set]) {
      try {
        end();
      } catch (err) {
        this.options.log.warn({ keyId, err: err instanceof Error ? err.message : String(err) }, 'ending a revoked key’s stream failed');
      }
    }
  }

  /** Subscribes to revocations; a failed attempt is tried again at the next check. */
  private async listen(): Promise<void> {
    if (this.unsubscribe || this.subscribing || this.closed) return;
    this.subscribing = true;
    try {
      const unsubscribe = await this.options.bus.subscribe(KEYS_REVOKED_CHANNEL, (m: Json) => {
        const keyId = (m as { keyId?: unknown } | null)?.keyId;
        if (typeof keyId === 'string') this.revoked(keyId);
      });
      if (this.closed) await unsubscribe().catch(() => {});
      else this.unsubscribe = unsubscribe;
    } catch (err) {
      this.options.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'not listening for key revocations yet (streams of revoked keys end at the periodic check)');
    } finally {
      this.subscribing = false;
    }
  }

  /** The periodic check: keys of live streams that no longer authenticate lose their streams. */
  private async tick(): Promise<void> {
    if (this.closed) return;
    void this.listen();
    if (this.checking || this.byKey.size === 0) return;
    this.checking = true;
    try {
      for (const keyId of await this.options.revokedKeys([...this.byKey.keys()])) this.revoked(keyId);
    } catch (err) {
      this.options.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'checking the keys of live streams failed; retrying at the next check');
    } finally {
      this.checking = false;
    }
  }
}
