// CORS in a real browser (headless Chromium driven by playwright-core): a page served from
// another origin (a tiny HTTP server on another port) calls the API with a Bearer key, reads an
// exposed header and a problem+json error, and opens an EventSource; a server whose
// CORS_ORIGINS leaves that origin out is refused by the browser. Needs /usr/bin/chromium
// (Debian's chromium; .ci/run installs it).
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { request } from 'undici';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../src/http/app.ts';
import type { Config } from '../../src/config.ts';
import { openTestStore, testConfig, type Teardown } from '../helpers/services.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  // In CI a missing browser is a failure (.ci/run installs it), elsewhere a skip that says why.
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('CORS browser tests', { skip: `${CHROMIUM} is missing (apt-get install -y chromium)` }, () => {});
} else {
  const { store, databaseUrl } = await openTestStore(t);
  async function serve(overrides: Partial<Config>): Promise<string> {
    const app = await buildApp(testConfig({ databaseUrl, jobs: false, ...overrides }), { store });
    t.teardown(() => app.close());
    return app.listen({ port: 0, host: '127.0.0.1' });
  }
  const api = await serve({});
  const closed = await serve({ corsOrigins: ['https://only-this.example'] });

  // The web client's origin: another port, so another origin for the browser.
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>A web client</title><p>client</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => site.close(() => resolve())));
  const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  const signup = await request(`${api}/players`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'web-client' }) });
  const signedUp = await signup.body.text();
  if (signup.statusCode !== 201) throw new Error(`POST /players: ${signup.statusCode} ${signedUp}`);
  const key = (JSON.parse(signedUp) as { key: { key: string } }).key.key;

  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());

  async function clientPage(t: Teardown): Promise<Page> {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const res = await page.goto(`${siteOrigin}/`);
    if (res?.status() !== 200) throw new Error(`the client page: ${res?.status()}`);
    return page;
  }

  t.test('a page on another origin calls the API with a key and reads headers and errors', async (t) => {
    const page = await clientPage(t);
    t.equal(await page.evaluate(() => location.origin), siteOrigin);
    t.not(new URL(siteOrigin).port, new URL(api).port, 'another origin than the API\'s');
    const seen = await page.evaluate(async ({ api, key }) => {
      // Authorization and a JSON body: the browser sends a preflight first.
      const created = await fetch(`${api}/games`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'not-used-here' },
        body: JSON.stringify({ gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] }),
      });
      const body = (await created.json()) as { id: string };
      const missing = await fetch(`${api}/games/00000000-0000-4000-8000-000000000000`, { headers: { authorization: `Bearer ${key}` } });
      const unauthorized = await fetch(`${api}/me`, { headers: { authorization: 'Bearer wrong' } });
      return {
        status: created.status,
        location: created.headers.get('location'),
        id: body.id,
        remaining: created.headers.get('ratelimit-remaining'),
        missing: { status: missing.status, type: missing.headers.get('content-type'), body: await missing.json() },
        unauthorized: { status: unauthorized.status, code: ((await unauthorized.json()) as { code: string }).code },
      };
    }, { api, key });
    t.equal(seen.status, 201);
    t.equal(seen.location, `/games/${seen.id}`, 'Location is exposed');
    t.match(seen.remaining, /^\d+$/, 'RateLimit-Remaining is exposed');
    t.equal(seen.missing.status, 404);
    t.match(seen.missing.type, /^application\/problem\+json/);
    t.match(seen.missing.body, { status: 404, code: 'not_found' });
    t.same(seen.unauthorized, { status: 401, code: 'unauthorized' });
  });

  t.test('GraphQL and an EventSource from the other origin', async (t) => {
    const page = await clientPage(t);
    const seen = await page.evaluate(async ({ api, key }) => {
      const gql = await fetch(`${api}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ server { name } }' }),
      });
      const data = await gql.json();
      const opened = await new Promise<string>((resolve) => {
        const source = new EventSource(`${api}/me/events?access_token=${encodeURIComponent(key)}`);
        const timer = setTimeout(() => { source.close(); resolve('timeout'); }, 10_000);
        source.onopen = () => { clearTimeout(timer); source.close(); resolve('open'); };
        source.onerror = () => { clearTimeout(timer); source.close(); resolve('error'); };
      });
      return { data, opened };
    }, { api, key });
    t.same(seen.data, { data: { server: { name: 'herald' } } });
    t.equal(seen.opened, 'open');
  });

  t.test('a server whose CORS_ORIGINS leaves the page\'s origin out: the browser refuses', async (t) => {
    const page = await clientPage(t);
    const outcome = await page.evaluate(async ({ api }) => {
      try {
        const res = await fetch(`${api}/game-types`);
        return `read ${res.status}`;
      } catch (err) {
        return `refused: ${(err as Error).name}`;
      }
    }, { api: closed });
    t.equal(outcome, 'refused: TypeError');
  });
}
