// GET / (the home page) and the GraphiQL page's local assets, over HTTP; the
// browser test (test/http/browser.test.ts) opens them in Chromium.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { GRAPHIQL_ASSETS } from '../../src/http/plugins/graphiql.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { tallyModule } from '../helpers/games/tally.ts';
import type { GameModule } from '../../src/engine/types.ts';

const { store, databaseUrl } = await openTestStore(t);

function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
}

t.test('/ is an HTML page whose links all answer 200', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl, development: true }), { store });
  t.teardown(() => app.close());
  const res = await app.inject('/');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html/);
  const links = hrefs(res.body).filter((h) => h.startsWith('/'));
  t.same(links.sort(), ['/docs', '/docs/json', '/graphiql', '/healthz', '/openapi.yaml', '/readyz'].sort());
  for (const link of links) t.equal((await app.inject(link)).statusCode, 200, link);
  t.ok(hrefs(res.body).includes('#quick-start') && res.body.includes('id="quick-start"'), 'the quick start is on the page');
  t.match(res.body, `-d '{"gameType":"richard-iii","scenario":"richard-iii","roles":["York"]}'`, 'a game of the first game type');
  t.match(res.body, /<li>Richard III: The Wars of the Roses <code>richard-iii<\/code>: seats York, Lancaster; scenarios <code>wars-of-the-roses<\/code>/);
});

t.test("the quick start's game comes from the hosted game types", async (t) => {
  const app = await buildApp(testConfig({ databaseUrl }), { store, games: { tally: tallyModule() as unknown as GameModule } });
  t.teardown(() => app.close());
  const res = await app.inject('/');
  t.match(res.body, `-d '{"gameType":"tally","scenario":"plain","roles":["A"]}'`, "the type's first scenario and first seat");
  t.notMatch(res.body, 'richard-iii');
  const created = await app.inject({ method: 'POST', url: '/players', payload: { name: 'Home' } });
  const key = (created.json() as { key: { key: string } }).key.key;
  const game = await app.inject({ method: 'POST', url: '/games', headers: { authorization: `Bearer ${key}` }, payload: { gameType: 'tally', scenario: 'plain', roles: ['A'] } });
  t.equal(game.statusCode, 201, 'the example creates a game');
});

t.test('in production / does not link to GraphiQL, which is not served', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl, development: false }), { store });
  t.teardown(() => app.close());
  const res = await app.inject('/');
  t.equal(res.statusCode, 200);
  t.notOk(hrefs(res.body).includes('/graphiql'));
  t.equal((await app.inject('/graphiql')).statusCode, 404);
  t.equal((await app.inject('/graphiql/assets/graphiql.min.js')).statusCode, 404);
});

t.test('/graphiql references only its own assets, all served by Herald', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl, development: true }), { store });
  t.teardown(() => app.close());
  const page = await app.inject('/graphiql');
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.notMatch(page.body, /https?:\/\//, 'no absolute URL: nothing from another host');
  const refs = [...page.body.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]!);
  t.same(refs.sort(), Object.keys(GRAPHIQL_ASSETS).map((n) => `/graphiql/assets/${n}`).sort(), 'every asset, and only those');
  for (const ref of refs) {
    const res = await app.inject(ref);
    t.equal(res.statusCode, 200, ref);
    t.match(res.headers['content-type'], ref.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
    t.ok(res.rawPayload.length > 0);
  }
  t.same((await app.inject('/graphiql/config.json')).json(), { endpoint: '/graphql' });
  const missing = await app.inject('/graphiql/assets/..%2F..%2Fpackage.json');
  t.equal(missing.statusCode, 404, 'only the listed files');
  t.match(missing.json(), { code: 'not_found' });
});

t.test('a bad key is refused even on the health checks (the 401 openapi.yaml lists)', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl }), { store });
  t.teardown(() => app.close());
  for (const url of ['/healthz', '/readyz', '/metrics']) {
    const res = await app.inject({ url, headers: { authorization: 'Bearer hk_nonsense' } });
    t.equal(res.statusCode, 401, url);
    t.match(res.json(), { code: 'unauthorized' });
  }
});
