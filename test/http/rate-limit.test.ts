// Rate limits: per API key (or per IP without one), RateLimit-* headers, 429
// problem+json with Retry-After, shared between instances through Redis,
// in memory without Redis, and never on health, readiness or metrics.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig, uniquePrefix } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const limits = { max: 3, anonymousMax: 2, windowMs: 60_000 };

t.test('shared across two instances through Redis: the 4th request with one key is refused', async (t) => {
  const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, busPrefix: uniquePrefix(), rateLimit: limits });
  const a = await buildApp(config, { store });
  t.teardown(() => a.close());
  const b = await buildApp(config, { store });
  t.teardown(() => b.close());
  // Signing up is an anonymous request on instance a (1 of the IP's 2).
  const york = await signup(a, 'York');
  const get = (app: typeof a) => app.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${york.key}` } });

  const r1 = await get(a);
  t.equal(r1.statusCode, 200);
  t.equal(r1.headers['ratelimit-limit'], '3');
  t.equal(r1.headers['ratelimit-remaining'], '2');
  t.match(r1.headers['ratelimit-reset'], /^\d+$/);
  t.ok(Number(r1.headers['ratelimit-reset']) <= 60);
  t.equal(r1.headers['ratelimit-policy'], '3;w=60');
  t.equal((await get(b)).headers['ratelimit-remaining'], '1', 'instance b sees a’s count');
  t.equal((await get(a)).headers['ratelimit-remaining'], '0');

  const refused = await get(b);
  t.equal(refused.statusCode, 429);
  t.match(refused.headers['content-type'], /^application\/problem\+json/);
  t.match(refused.headers['retry-after'], /^\d+$/);
  t.equal(refused.headers['ratelimit-remaining'], '0');
  t.match(refused.json(), {
    type: 'urn:herald:problem:rate-limited',
    title: 'Too Many Requests',
    status: 429,
    code: 'rate_limited',
    detail: /at most 3 per 60 s/,
    limit: 3,
    retryAfter: Number,
  });
  t.equal((await get(a)).statusCode, 429, 'on both instances');

  // Another key has its own budget; anonymous requests count per IP.
  const lancaster = await signup(b, 'Lancaster'); // the IP's 2nd anonymous request
  t.equal((await b.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${lancaster.key}` } })).statusCode, 200);
  const anon = await a.inject({ method: 'GET', url: '/games' });
  t.equal(anon.statusCode, 429, 'the IP’s 3rd anonymous request');
  t.match(anon.json().detail, /this address/);

  // Probes and scrapers are never limited.
  for (const url of ['/healthz', '/readyz', '/metrics']) {
    const res = await a.inject(url);
    t.equal(res.statusCode, 200, url);
    t.notOk(res.headers['ratelimit-limit'], `${url} has no rate-limit headers`);
  }
});

t.test('in memory without Redis (per instance), and 0 means unlimited', async (t) => {
  const a = await buildApp(testConfig({ databaseUrl, rateLimit: { max: 0, anonymousMax: 1, windowMs: 2_000 } }), { store });
  t.teardown(() => a.close());
  t.equal((await a.inject('/games')).statusCode, 200);
  const refused = await a.inject('/games');
  t.equal(refused.statusCode, 429);
  t.equal(refused.headers['ratelimit-policy'], '1;w=2');
  t.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 2);
  // Another instance without Redis counts for itself.
  const b = await buildApp(testConfig({ databaseUrl, rateLimit: { max: 0, anonymousMax: 1, windowMs: 2_000 } }), { store });
  t.teardown(() => b.close());
  t.equal((await b.inject('/games')).statusCode, 200);
  t.equal((await b.inject('/games')).statusCode, 429);
  // Requests with a key are unlimited here (max 0): no limit, no headers.
  const keyed = await b.inject({ method: 'GET', url: '/games', headers: { authorization: 'Bearer hk_not_checked_by_the_limiter' } });
  t.notOk(keyed.headers['ratelimit-limit']);
  t.not(keyed.statusCode, 429);
});

t.test('Redis unreachable: requests are still limited, per instance', async (t) => {
  const a = await buildApp(testConfig({ databaseUrl, redisUrl: 'redis://127.0.0.1:1', rateLimit: { max: 5, anonymousMax: 1, windowMs: 60_000 } }), { store });
  t.teardown(() => a.close());
  t.equal((await a.inject('/games')).statusCode, 200);
  t.equal((await a.inject('/games')).statusCode, 429);
});
