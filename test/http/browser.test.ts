// Herald's pages in a real browser (headless Chromium driven by playwright-core),
// with nothing reachable but the server itself: every request the page makes
// is recorded, and any to another origin is aborted and fails the test. The
// GraphiQL page must render and run a typed query; the home page's links must
// answer 200. Needs /usr/bin/chromium (Debian's chromium; .ci/run installs it).
import { existsSync } from 'node:fs';
import t from 'tap';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig, type Teardown } from '../helpers/services.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  // In CI a missing browser is a failure (.ci/run installs it), elsewhere a skip that says why.
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('browser tests', { skip: `${CHROMIUM} is missing (apt-get install -y chromium)` }, () => {});
} else {
  const { store, databaseUrl } = await openTestStore(t);
  const app = await buildApp(testConfig({ databaseUrl, development: true }), { store });
  t.teardown(() => app.close());
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });

  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());

  /** A fresh page; `foreign` collects every URL it asked for off the server's origin (all aborted). */
  async function openPage(t: Teardown): Promise<{ page: Page; requested: string[]; foreign: string[] }> {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const requested: string[] = [];
    const foreign: string[] = [];
    const local = (url: string) => url.startsWith(`${origin}/`) || url === origin || url.startsWith('data:');
    page.on('request', (request) => requested.push(request.url()));
    page.on('websocket', (ws) => {
      requested.push(ws.url());
      if (!new URL(ws.url()).host.startsWith(new URL(origin).host)) foreign.push(ws.url());
    });
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (local(url)) return route.continue();
      foreign.push(url);
      return route.abort('blockedbyclient');
    });
    return { page, requested, foreign };
  }

  t.test('GraphiQL renders and runs a typed query with every asset from the server', async (t) => {
    const { page, requested, foreign } = await openPage(t);
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const res = await page.goto(`${origin}/graphiql`);
    t.equal(res?.status(), 200);
    const editor = page.locator('.graphiql-query-editor .CodeMirror').first();
    await editor.waitFor({ state: 'visible', timeout: 60_000 }).catch((err: unknown) => {
      // A blank page: say whether it was waiting for another host.
      t.same(foreign, [], 'no request left the server');
      throw err;
    });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // insertText bypasses CodeMirror's bracket auto-closing, so the document is exactly this.
    await page.keyboard.insertText('query FromTheBrowser { server { name version } }');
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await response.getByText('"herald"').waitFor({ timeout: 30_000 });
    const text = await response.innerText();
    t.match(text, /"name": "herald"/);
    t.match(text, /"version": "\d+\.\d+\.\d+"/);
    if (process.env.HERALD_SCREENSHOT) await page.screenshot({ path: process.env.HERALD_SCREENSHOT });
    t.same(pageErrors, [], 'no script errors');
    t.ok(requested.includes(`${origin}/graphql`), 'the query went to the server');
    t.ok(requested.some((u) => u.endsWith('/graphiql/assets/graphiql.min.js')), 'GraphiQL came from the server');
    t.same(foreign, [], 'no request left the server');
  });

  t.test('the home page renders and each of its links answers 200 in the browser', async (t) => {
    const { page, foreign } = await openPage(t);
    const res = await page.goto(`${origin}/`);
    t.equal(res?.status(), 200);
    t.match(await page.locator('h1').innerText(), /Herald/);
    const hrefs = await page.locator('a[href^="/"]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    t.ok(hrefs.length >= 6, hrefs.join(' '));
    // Fetched by the page (a navigation to /openapi.yaml would be a download).
    for (const href of hrefs) t.equal(await page.evaluate(async (url) => (await fetch(url)).status, href), 200, href);
    await page.goto(`${origin}/docs`);
    await page.locator('.swagger-ui .info .title').first().waitFor({ timeout: 60_000 });
    t.match(await page.locator('.swagger-ui .info .title').first().innerText(), /Herald/, 'Swagger UI rendered the document');
    t.same(foreign, [], 'no request left the server');
  });
}
