// API keys this instance checked lately.
//
// Every request carries a key, and looking it up costs a database round trip.
// A key that was found valid is kept for a short while (KEY_TTL_MS), with the
// players its application may act for. Revoking a key drops it here at once
// and tells every other instance on the bus (`keys:revoked`), which drop it
// too. A revocation message lost while the bus is down is covered by the TTL:
// another instance refuses the key at the latest KEY_TTL_MS after the revoke.
// Unknown and revoked keys are never kept (a fuzzer's random keys fill nothing).
import type { Bus, Json } from '../bus/bus.ts';

export const KEY_TTL_MS = 10_000;
export const KEYS_REVOKED_CHANNEL = 'keys:revoked';

export interface CachedKey {
  id: string;
  playerId: string;
  kind: 'player' | 'app';
  /** Players an application key was checked to act for. */
  actAs: Set<string>;
  expiresAt: number;
}

export class KeyCache {
  private readonly byHash = new Map<string, CachedKey>();
  private listening = false;
  private subscribing = false;
  private retryAt = 0;

  private readonly bus: Bus;
  private readonly capacity;
  private readonly ttlMs;
  private readonly now: () => number;
  constructor(
    bus: Bus,
    capacity = 10_000,
    ttlMs = KEY_TTL_MS,
    /** The service's clock (GameServiceOptions.now), so that tests move past the TTL without waiting. */
    now: () => number = Date.now,
  ) {
    this.bus = bus;
    this.capacity = capacity;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  /**
   * Whether keys may be kept: only once this instance listens for revocations.
   * The first call subscribes in the background (the subscription lasts as
   * long as the bus); a failed one is tried again a second later. Never waits:
   * a request is not held up by a bus that is down.
   */
  ready(): boolean {
    if (this.listening) return true;
    const now = Date.now();
    if (!this.subscribing && now >= this.retryAt) {
      this.subscribing = true;
      this.bus.subscribe(KEYS_REVOKED_CHANNEL, (m) => this.onRevoked(m)).then(
        () => {
          this.listening = true;
          this.subscribing = false;
        },
        () => {
          this.subscribing = false;
          this.retryAt = Date.now() + 1000;
        },
      );
    }
    return false;
  }

  get(hash: string): CachedKey | undefined {
    const k = this.byHash.get(hash);
    if (k && k.expiresAt <= this.now()) {
      this.byHash.delete(hash);
      return undefined;
    }
    return k;
  }

  put(hash: string, key: Omit<CachedKey, 'expiresAt' | 'actAs'>): CachedKey {
    const entry: CachedKey = { ...key, actAs: new Set(), expiresAt: this.now() + this.ttlMs };
    this.byHash.delete(hash);
    this.byHash.set(hash, entry);
    if (this.byHash.size > this.capacity) {
      const oldest = this.byHash.keys().next().value;
      if (oldest !== undefined) this.byHash.delete(oldest);
    }
    return entry;
  }

  /** Drops the key here and announces the revocation to the other instances. */
  async revoked(keyId: string): Promise<void> {
    this.drop(keyId);
    await this.bus.publish(KEYS_REVOKED_CHANNEL, { keyId });
  }

  private onRevoked(m: Json): void {
    const keyId = (m as { keyId?: unknown } | null)?.keyId;
    if (typeof keyId === 'string') this.drop(keyId);
  }

  private drop(keyId: string): void {
    for (const [hash, k] of this.byHash) if (k.id === keyId) this.byHash.delete(hash);
  }
}
