// Rate limits: per API key (or per IP without one), RateLimit-* headers, 429
// problem+json with Retry-After, shared between instances through Redis,
// in memory without Redis, and never on health, readiness or metrics. At
// /graphql a refusal is a GraphQL error; a page answers a browser in HTML.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig, uniquePrefix } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const limits = { max: 3, anonymousMax: 2, appMax: 60, windowMs: 60_000 };

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
  const a = await buildApp(testConfig({ databaseUrl, rateLimit: { max: 0, anonymousMax: 1, appMax: 0, windowMs: 2_000 } }), { store });
  t.teardown(() => a.close());
  t.equal((await a.inject('/games')).statusCode, 200);
  const refused = await a.inject('/games');
  t.equal(refused.statusCode, 429);
  t.equal(refused.headers['ratelimit-policy'], '1;w=2');
  t.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 2);
  // Another instance without Redis counts for itself.
  const b = await buildApp(testConfig({ databaseUrl, rateLimit: { max: 0, anonymousMax: 1, appMax: 0, windowMs: 2_000 } }), { store });
  t.teardown(() => b.close());
  t.equal((await b.inject('/games')).statusCode, 200);
  t.equal((await b.inject('/games')).statusCode, 429);
  // Requests with a key are unlimited here (max 0): no limit, no headers.
  const keyed = await b.inject({ method: 'GET', url: '/games', headers: { authorization: 'Bearer hk_not_checked_by_the_limiter' } });
  t.notOk(keyed.headers['ratelimit-limit']);
  t.not(keyed.statusCode, 429);
});

t.test('Redis unreachable: requests are still limited, per instance', async (t) => {
  const a = await buildApp(testConfig({ databaseUrl, redisUrl: 'redis://127.0.0.1:1', rateLimit: { max: 5, anonymousMax: 1, appMax: 100, windowMs: 60_000 } }), { store });
  t.teardown(() => a.close());
  t.equal((await a.inject('/games')).statusCode, 200);
  t.equal((await a.inject('/games')).statusCode, 429);
});

t.test('an application key: a budget per player acted for, and a ceiling for the whole app (through Redis)', async (t) => {
  const ADMIN = 'rate-limit-operator-token-0123';
  const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, busPrefix: uniquePrefix(), adminToken: ADMIN, rateLimit: { max: 3, anonymousMax: 100, appMax: 5, windowMs: 60_000 } });
  const a = await buildApp(config, { store });
  t.teardown(() => a.close());
  const b = await buildApp(config, { store });
  t.teardown(() => b.close());
  const created = await a.inject({ method: 'POST', url: '/admin/apps', headers: { authorization: `Bearer ${ADMIN}` }, payload: { name: 'limited-bot' } });
  const appKey = (created.json() as { key: { key: string } }).key.key;
  const asApp = (app: typeof a, method: 'GET' | 'POST', url: string, actAs?: string, payload?: object) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${appKey}`, ...(actAs ? { 'x-act-as': actAs } : {}) }, ...(payload ? { payload } : {}) });
  // Creating players: the app's own requests (no X-Act-As), its per-key budget of 3.
  const ids: string[] = [];
  for (const name of ['ann', 'ben', 'cy']) {
    const res = await asApp(a, 'POST', '/players', undefined, { name, externalId: `rl:${name}` });
    t.equal(res.statusCode, 201);
    ids.push((res.json() as { player: { id: string } }).player.id);
  }
  const [ann, ben, cy] = ids as [string, string, string];

  // Ann: 3 of her own, 3 of the app's 5 — the player's budget is the tighter.
  let res = await asApp(a, 'GET', '/me', ann);
  t.equal(res.statusCode, 200);
  t.equal(res.headers['ratelimit-limit'], '3');
  t.equal(res.headers['ratelimit-remaining'], '2');
  t.equal(res.headers['ratelimit-policy'], '3;w=60, 5;w=60', 'both limits, the shown one first');
  await asApp(b, 'GET', '/me', ann);
  res = await asApp(a, 'GET', '/me', ann);
  t.equal(res.statusCode, 200);
  t.equal(res.headers['ratelimit-remaining'], '0');
  res = await asApp(b, 'GET', '/me', ann);
  t.equal(res.statusCode, 429, 'Ann’s 4th request: over her own budget');
  t.match(res.json(), { code: 'rate_limited', scope: 'player', limit: 3, detail: /this player of the application/ });
  t.equal(res.headers['ratelimit-limit'], '3');
  t.match(res.headers['retry-after'], /^\d+$/);
  // Refused by her own budget, so not counted against the app's ceiling either.
  res = await asApp(a, 'GET', '/me', ann);
  t.equal(res.statusCode, 429);

  // Ben is not stopped by Ann: his own budget is fresh, but the app has 2 of 5 left — now the tighter.
  res = await asApp(b, 'GET', '/me', ben);
  t.equal(res.statusCode, 200, 'Ann over her budget does not stop Ben');
  t.equal(res.headers['ratelimit-limit'], '5', 'the app’s ceiling is the tighter now');
  t.equal(res.headers['ratelimit-remaining'], '1');
  t.equal(res.headers['ratelimit-policy'], '5;w=60, 3;w=60');
  t.equal((res.json() as { player: { id: string } }).player.id, ben);
  res = await asApp(a, 'GET', '/me', ben);
  t.equal(res.statusCode, 200);
  t.equal(res.headers['ratelimit-remaining'], '0');

  // The ceiling stops every player, Cy included (who has sent nothing yet).
  res = await asApp(a, 'GET', '/me', cy);
  t.equal(res.statusCode, 429, 'the app ceiling stops all its players');
  t.match(res.json(), { code: 'rate_limited', scope: 'app', limit: 5, detail: /this application key, all its players together/ });
  t.equal(res.headers['ratelimit-limit'], '5');
  t.equal(res.headers['ratelimit-remaining'], '0');
  t.equal((await asApp(b, 'GET', '/me', ben)).statusCode, 429);
  // The app's own requests (no X-Act-As) keep their per-key budget: 3 used creating players.
  res = await asApp(b, 'GET', '/me');
  t.equal(res.statusCode, 429);
  t.match(res.json(), { scope: 'key' });
});

t.test('an application key without Redis: the same limits, per instance', async (t) => {
  const ADMIN = 'rate-limit-operator-token-0123';
  const a = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN, rateLimit: { max: 2, anonymousMax: 100, appMax: 3, windowMs: 60_000 } }), { store });
  t.teardown(() => a.close());
  const created = await a.inject({ method: 'POST', url: '/admin/apps', headers: { authorization: `Bearer ${ADMIN}` }, payload: { name: 'local-bot' } });
  const appKey = (created.json() as { key: { key: string } }).key.key;
  const get = (actAs: string) => a.inject({ method: 'GET', url: '/games', headers: { authorization: `Bearer ${appKey}`, 'x-act-as': actAs } });
  // The limiter takes X-Act-As as sent (authentication then refuses a stranger: 403), so no players are needed here.
  const p = '00000000-0000-4000-8000-000000000001';
  const q = '00000000-0000-4000-8000-000000000002';
  t.equal((await get(p)).statusCode, 403);
  t.equal((await get(p)).headers['ratelimit-remaining'], '0', 'p’s own budget of 2 spent');
  t.match((await get(p)).json(), { scope: 'player' });
  const res = await get(q);
  t.equal(res.headers['ratelimit-limit'], '3');
  t.equal(res.headers['ratelimit-remaining'], '0', 'q’s request is the ceiling’s 3rd');
  t.match((await get(q)).json(), { scope: 'app', limit: 3 });
});

t.test('at /graphql a refusal is a GraphQL error (extensions.code rate_limited); a page answers a browser with an HTML page', async (t) => {
  // Found probing: every route answered 429 with a problem document, also /graphql (whose other
  // refusals are GraphQL errors, so a GraphQL client found no errors to read) and the pages (HTML
  // error pages for browsers).
  const a = await buildApp(testConfig({ databaseUrl, rateLimit: { max: 1, anonymousMax: 1, appMax: 0, windowMs: 60_000 } }), { store });
  t.teardown(() => a.close());
  const york = await signup(a, 'York'); // the address's one anonymous request
  const gql = (method: 'GET' | 'POST') => a.inject(method === 'POST'
    ? { method, url: '/graphql', headers: { authorization: `Bearer ${york.key}` }, payload: { query: '{ me { id } }' } }
    : { method, url: '/graphql?query=%7Bme%7Bid%7D%7D', headers: { authorization: `Bearer ${york.key}` } });
  t.equal((await gql('POST')).statusCode, 200);
  for (const method of ['POST', 'GET'] as const) {
    const refused = await gql(method);
    t.equal(refused.statusCode, 429, method);
    t.match(refused.headers['content-type'], /^application\/json/, `${method}: a GraphQL response`);
    t.match(refused.headers['retry-after'], /^\d+$/, `${method}: Retry-After`);
    t.equal(refused.headers['ratelimit-remaining'], '0');
    t.match(refused.json(), { data: null, errors: [{ message: /at most 1 per 60 s/, extensions: { code: 'rate_limited', status: 429, scope: 'key', limit: 1, retryAfter: Number } }] }, method);
  }
  // REST keeps its problem document.
  const rest = await a.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${york.key}` } });
  t.equal(rest.statusCode, 429);
  t.match(rest.headers['content-type'], /^application\/problem\+json/);
  t.match(rest.json(), { code: 'rate_limited', scope: 'key', retryAfter: Number });
  // A page: an HTML error page for a browser, the problem document for a program (anonymous: over the address's limit).
  const page = await a.inject({ method: 'GET', url: '/watch/00000000-0000-4000-8000-000000000000', headers: { accept: 'text/html' } });
  t.equal(page.statusCode, 429);
  t.match(page.headers['content-type'], /^text\/html/);
  t.match(page.body, /rate_limited/);
  t.match(page.headers['retry-after'], /^\d+$/);
  const program = await a.inject({ method: 'GET', url: '/watch/00000000-0000-4000-8000-000000000000' });
  t.match(program.headers['content-type'], /^application\/problem\+json/);
  t.match(program.json(), { code: 'rate_limited', scope: 'address' });
});
