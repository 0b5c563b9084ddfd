// The cap on webhook endpoints per owner (HERALD_WEBHOOK_MAX_ENDPOINTS): a black-box probe
// registered 60 endpoints in a row, all accepted. One more than the cap is 409 limit_reached
// (REST problem+json, GraphQL extensions.code) and registers nothing; concurrent registrations at
// the cap's edge cannot together pass it; other owners are not counted; deleting frees a place.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { ADMIN_TOKEN, signup } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';

const HOUR = 3_600_000;
const URL_ = 'http://127.0.0.1:9/hook';
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN, webhookAllowPrivate: true, webhookMaxEndpoints: 3 }), { store, webhookSweepMs: HOUR });
t.teardown(() => app.close());

async function count(ownerId: string): Promise<number> {
  return Number((await store.pool.query('SELECT count(*) FROM webhook_endpoints WHERE owner_id = $1', [ownerId])).rows[0].count);
}

t.test('one endpoint more than the cap is 409 limit_reached and registers nothing', async (t) => {
  const york = await signup(app, 'York player');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await york.req('POST', '/webhooks', { url: `${URL_}/${i}`, events: ['your_turn'] });
    t.equal(res.statusCode, 201, `endpoint ${i + 1}`);
    ids.push(res.json().webhook.id);
  }
  const res = await york.req('POST', '/webhooks', { url: `${URL_}/x`, events: ['your_turn'] });
  t.equal(res.statusCode, 409);
  t.match(res.headers['content-type'], /application\/problem\+json/);
  t.match(res.json(), { code: 'limit_reached', status: 409, limit: 3, detail: /3 webhook endpoints/ });
  t.equal(await count(york.id), 3, 'nothing registered');

  const gql = gqlClient(app, york.key);
  const g = await gql('mutation($url: String!) { createWebhook(url: $url, events: ["ping"]) { secret } }', { url: URL_ });
  t.equal(g.errors?.[0]?.extensions?.code, 'limit_reached', 'GraphQL: the same error');
  t.equal(g.errors?.[0]?.extensions?.limit, 3);
  t.equal(await count(york.id), 3, 'nothing registered through GraphQL either');

  // Another owner has places of their own.
  const lancaster = await signup(app, 'Lancaster player');
  t.equal((await lancaster.req('POST', '/webhooks', { url: URL_, events: ['ping'] })).statusCode, 201);

  // Deleting one frees a place.
  t.equal((await york.req('DELETE', `/webhooks/${ids[0]}`)).statusCode, 204);
  t.equal((await york.req('POST', '/webhooks', { url: URL_, events: ['ping'] })).statusCode, 201);
  t.equal(await count(york.id), 3);
});

t.test('concurrent registrations one short of the cap: only one gets in', async (t) => {
  const tudor = await signup(app, 'Tudor player');
  for (let i = 0; i < 2; i++) t.equal((await tudor.req('POST', '/webhooks', { url: `${URL_}/${i}`, events: ['ping'] })).statusCode, 201);
  const results = await Promise.all(Array.from({ length: 4 }, (_, i) => tudor.req('POST', '/webhooks', { url: `${URL_}/c${i}`, events: ['ping'] })));
  const codes = results.map((r) => r.statusCode).sort();
  t.same(codes, [201, 409, 409, 409], 'one created, the others refused');
  t.equal(await count(tudor.id), 3, 'the cap holds');
});

t.test('the default cap is 20', async (t) => {
  const def = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), { store, webhookSweepMs: HOUR });
  t.teardown(() => def.close());
  const stuart = await signup(def, 'Stuart player');
  for (let i = 0; i < 20; i++) t.equal((await stuart.req('POST', '/webhooks', { url: `${URL_}/${i}`, events: ['ping'] })).statusCode, 201);
  const res = await stuart.req('POST', '/webhooks', { url: URL_, events: ['ping'] });
  t.equal(res.statusCode, 409);
  t.match(res.json(), { code: 'limit_reached', limit: 20 });
  t.equal(await count(stuart.id), 20);
});
