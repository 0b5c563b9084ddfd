// Live connections per client: SSE streams (GET /games/:id/events, /me/events,
// /apps/me/events) and GraphQL subscriptions, counted together, per API key
// (an application key acting for its players counts as the key) or, without
// a key, per client IP. Each stream holds a slot from before its first
// database read until it ends by any path (client hang-up, server close, game
// over, failure). Counted per instance, in memory: behind a load balancer a
// client may hold this many streams on each instance. GraphQL WebSocket connections are
// counted apart, in a StreamSlots of their own with the same limit (graphql/ws-sockets.ts).
import type { Caller } from '../service/api.ts';
import { HttpProblem } from './problem.ts';

export const TOO_MANY_STREAMS = 'too_many_streams';

/** Whom a stream counts against: the key (not the player acted for), or the address without a key. */
export function streamOwner(caller: Caller | null, ip: string): string {
  if (caller === null) return `ip:${ip}`;
  if (caller.kind === 'admin') return 'admin';
  return `key:${caller.keyId}`;
}

export class StreamSlots {
  private readonly held = new Map<string, number>();
  /** Streams per owner; 0 = no limit. */
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  /** Streams `owner` holds now. */
  count(owner: string): number {
    return this.held.get(owner) ?? 0;
  }

  /** Streams held by every owner together. */
  total(): number {
    let n = 0;
    for (const v of this.held.values()) n += v;
    return n;
  }

  /**
   * A slot for `owner`: its release function (idempotent), or a
   * too_many_streams problem (429) when the owner holds the limit already
   * (`retryAfter`: a hint, as no slot frees at a known time).
   */
  acquire(owner: string, retryAfterSeconds = 15): () => void {
    const n = this.count(owner);
    if (this.limit > 0 && n >= this.limit) {
      throw new HttpProblem(
        429,
        TOO_MANY_STREAMS,
        `This client already holds ${n} live streams (SSE streams and GraphQL subscriptions together), the most allowed: close one before opening another.`,
        { limit: this.limit, retryAfter: retryAfterSeconds },
      );
    }
    this.held.set(owner, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(owner) ?? 1) - 1;
      if (left <= 0) this.held.delete(owner);
      else this.held.set(owner, left);
    };
  }
}
