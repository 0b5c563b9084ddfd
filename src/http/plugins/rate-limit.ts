// Rate limits: a fixed window of `windowMs` per client, counted per API key
// (the Bearer token, or `?access_token=` on the SSE routes) or, without a key,
// per client IP. An application key acting for a player (`X-Act-As`) is
// counted per player acted for — each has the per-key budget, so one busy
// player cannot starve the app's others — and against the app-wide ceiling
// (`appMax`), which bounds what the key does for all its players together.
// The ceiling counts only requests the player's budget let through, so a
// player hammering past its own limit does not eat the others' share. The
// limiter runs before authentication: the X-Act-As value is taken as sent
// (a player the key did not create is refused by authentication, and still
// counted against the ceiling) (request.ip: behind a reverse proxy, set TRUST_PROXY so it is
// the client's address from X-Forwarded-For, not the proxy's). With Redis configured the counters live there (one atomic
// INCR + PEXPIRE script), so every instance shares them; otherwise in memory.
// If Redis fails, this instance counts locally until it is back: a Redis
// outage must not take the API down with it.
//
// Every limited response carries RateLimit-Limit, RateLimit-Remaining,
// RateLimit-Reset (seconds) and RateLimit-Policy (IETF draft
// "RateLimit header fields for HTTP"); with X-Act-As they describe the tighter
// of the two limits (fewer requests left; on a tie, the later reset), and
// RateLimit-Policy lists both, the one shown first. Over a limit: 429
// problem+json, code rate_limited, with Retry-After and `scope` (key, player,
// app or address) naming the limit that refused (at /graphql a GraphQL error with
// the same extensions; on the pages, an HTML error page for a browser). Health, readiness and metrics are exempt
// (probes and scrapers must never be refused).
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import { withTimeout } from '../../bus/bus.ts';
import { errorMessage } from '../../errors.ts';
import { HttpProblem } from '../problem.ts';

export const EXEMPT_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

export interface RateLimitOptions {
  limits: Config['rateLimit'];
  /** Redis for counters shared by every instance; null: in memory. */
  redisUrl: string | null;
  /** Key prefix in Redis (the deployment's BUS_PREFIX). */
  prefix: string;
}

interface Hit {
  /** Requests in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

interface Counters {
  hit(key: string, windowMs: number): Promise<Hit>;
  close(): Promise<void>;
}

export function memoryCounters(): Counters {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Expired windows are dropped now and then, so idle clients do not accumulate.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) windows.set(key, (w = { count: 0, resetAt: now + windowMs }));
      w.count += 1;
      return { count: w.count, resetMs: w.resetAt - now };
    },
    async close() {
      clearInterval(sweep);
      windows.clear();
    },
  };
}

// INCR and, for the window's first request, PEXPIRE — atomically, so a crash
// in between cannot leave a counter without expiry. A counter found without a
// TTL (set by hand, or by an older version) gets one.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & { heraldHit(key: string, windowMs: number): Promise<[number, number]> };

export function redisCounters(url: string, prefix: string, onError: (err: unknown) => void, onRestored: () => void): Counters {
  const redis = new Redis(url, {
    connectionName: `herald-ratelimit-${prefix.replace(/[^\w:.-]/g, '_')}`,
    // Fail fast while Redis is away: the local fallback answers instead of queueing requests.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  }) as RedisWithHit;
  redis.defineCommand('heraldHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  redis.on('error', () => {}); // reported through failed hits (the bus logs connection problems too)
  // Before the first connection (start-up) hits quietly count locally.
  let connected = false;
  redis.once('ready', () => (connected = true));
  const local = memoryCounters();
  let degraded = false;
  return {
    async hit(key, windowMs) {
      try {
        const [count, ttl] = await withTimeout(redis.heraldHit(`${prefix}ratelimit:${key}`, windowMs), 1000, 'redis rate-limit counter');
        if (degraded) {
          degraded = false;
          onRestored();
        }
        return { count, resetMs: ttl };
      } catch (err) {
        if (!degraded && connected) onError(err);
        degraded = connected;
        return local.hit(key, windowMs);
      }
    },
    async close() {
      await local.close();
      if (redis.status === 'ready') await withTimeout(redis.quit(), 2000, 'redis quit').catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

/** The client a request is counted for: its API key (hashed: never keep keys) or its IP; with X-Act-As, the player acted for. */
export function clientOf(request: FastifyRequest): { key: string; authenticated: boolean; actAs: string | null } {
  const header = request.headers.authorization;
  let token: string | undefined;
  if (typeof header === 'string' && /^bearer\s+/i.test(header)) token = header.replace(/^bearer\s+/i, '').trim();
  else {
    const q = (request.query as Record<string, unknown> | undefined)?.access_token;
    if (typeof q === 'string' && q !== '') token = q;
  }
  if (!token) return { key: `ip:${request.ip}`, authenticated: false, actAs: null };
  const actAs = request.headers['x-act-as'];
  const player = typeof actAs === 'string' && actAs.trim() !== '' ? actAs.trim() : null;
  return { key: `key:${hashed(token)}`, authenticated: true, actAs: player === null ? null : hashed(player) };
}

function hashed(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

type Scope = 'key' | 'player' | 'app' | 'address';

interface Counted extends Hit {
  scope: Scope;
  limit: number;
}

const left = (c: Counted): number => Math.max(0, c.limit - c.count);

/** The limit the headers describe: the one with fewer requests left (on a tie, the later reset). */
function tighter(a: Counted, b: Counted): Counted {
  if (left(a) !== left(b)) return left(a) < left(b) ? a : b;
  return a.resetMs >= b.resetMs ? a : b;
}

const WHO: Record<Scope, string> = {
  key: 'this API key',
  player: 'this player of the application (X-Act-As)',
  app: 'this application key, all its players together',
  address: 'this address (send an API key for a higher limit)',
};

async function rateLimit(app: FastifyInstance, opts: RateLimitOptions): Promise<void> {
  const { max, anonymousMax, appMax, windowMs } = opts.limits;
  if (max === 0 && anonymousMax === 0 && appMax === 0) return; // unlimited

  const counters =
    opts.redisUrl === null
      ? memoryCounters()
      : redisCounters(
          opts.redisUrl,
          opts.prefix,
          (err) => app.log.warn({ error: errorMessage(err) }, 'rate limits: Redis unavailable, counting per instance until it is back'),
          () => app.log.info('rate limits: Redis counters restored'),
        );
  app.addHook('onClose', () => counters.close());

  const count = async (key: string, scope: Scope, limit: number): Promise<Counted> => ({ ...(await counters.hit(key, windowMs)), scope, limit });

  /** The counts this request adds to, the tightest first; empty: not limited. */
  async function countRequest(client: ReturnType<typeof clientOf>): Promise<Counted[]> {
    if (!client.authenticated) return anonymousMax === 0 ? [] : [await count(client.key, 'address', anonymousMax)];
    if (client.actAs === null) return max === 0 ? [] : [await count(client.key, 'key', max)];
    // The player's own budget first: a request it refuses does not count against the app's ceiling.
    const own = max === 0 ? null : await count(`${client.key}:as:${client.actAs}`, 'player', max);
    if (own && own.count > own.limit) return [own];
    const all = appMax === 0 ? null : await count(`${client.key}:app`, 'app', appMax);
    if (own && all) return tighter(own, all) === own ? [own, all] : [all, own];
    return own ? [own] : all ? [all] : [];
  }

  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && EXEMPT_ROUTES.has(route)) return;
    const counted = await countRequest(clientOf(request));
    if (counted.length === 0) return;
    const over = counted.filter((c) => c.count > c.limit);
    // Refused: the limit that refused (both must have room again, so the later of the exceeded ones).
    const refusing = over.length === 0 ? null : over.reduce((a, b) => (b.resetMs > a.resetMs ? b : a));
    const shown = refusing ?? counted[0]!;
    const seconds = (c: Counted) => Math.max(1, Math.ceil(c.resetMs / 1000));
    const policy = (c: Counted) => `${c.limit};w=${Math.round(windowMs / 1000)}`;
    reply.header('ratelimit-limit', String(shown.limit));
    reply.header('ratelimit-remaining', String(left(shown)));
    reply.header('ratelimit-reset', String(seconds(shown)));
    reply.header('ratelimit-policy', [shown, ...counted.filter((c) => c !== shown)].map(policy).join(', '));
    if (refusing === null) return;
    const reset = seconds(refusing);
    reply.header('retry-after', String(reset));
    // Thrown, not sent: each route's error handler answers it as it answers its other refusals
    // (problem+json; a GraphQL error at /graphql; an HTML page for a browser on the pages).
    throw new HttpProblem(429, 'rate_limited', `Too many requests for ${WHO[refusing.scope]}: at most ${refusing.limit} per ${Math.round(windowMs / 1000)} s. Retry in ${reset} s.`, {
      limit: refusing.limit,
      scope: refusing.scope,
      retryAfter: reset,
    });
  });
}

export default fp(rateLimit, { name: 'herald-rate-limit', dependencies: ['herald-errors'] });
