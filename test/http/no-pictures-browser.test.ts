// The player and spectator pages of a game type without pictures (the
// test-only Tally) in headless Chromium: the player's page asks for the
// picture once, hides the board when told the type has none (404, reason
// no_pictures), shows no error and plays its moves; the spectator page has no
// picture and follows the log. Needs /usr/bin/chromium (skipped without it
// outside CI).
import { existsSync } from 'node:fs';
import t, { type Test } from 'tap';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../src/http/app.ts';
import { games as installed } from '../../src/games/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { tallyModule } from '../helpers/games/tally.ts';
import { signup } from './rest-helpers.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
t.setTimeout(300_000);

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('pages without pictures in a browser', { skip: `${CHROMIUM} is missing (apt-get install -y chromium)` }, () => {});
} else {
  const { store, databaseUrl } = await openTestStore(t);
  const app = await buildApp(testConfig({ databaseUrl }), { store, games: { ...installed, tally: tallyModule() as unknown as GameModule } });
  t.teardown(() => app.close());
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const a = await signup(app, 'Tally A');
  const b = await signup(app, 'Tally B');
  const gameId = (await a.req('POST', '/games', { gameType: 'tally', scenario: 'bare', roles: ['A'] })).json().id as string;
  await b.req('POST', `/games/${gameId}/join`, {});

  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  t.teardown(() => browser.close());

  async function open(t: Test, url: string): Promise<{ page: Page; problems: string[]; pictureAsks: () => number }> {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const problems: string[] = [];
    let asks = 0;
    page.on('request', (r) => {
      if (r.url().includes('/board.')) asks++;
    });
    page.on('pageerror', (err) => problems.push(`script error: ${err.message}`));
    // The one 404 expected is the picture's, which the browser reports as a failed load.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(`console error: ${m.text()}`);
    });
    await page.goto(`${origin}${url}`);
    return { page, problems, pictureAsks: () => asks };
  }

  t.test("the player's page: no board, no error, moves that work", async (t) => {
    const { page, problems, pictureAsks } = await open(t, `/play/${gameId}#key=${encodeURIComponent(a.key!)}`);
    await page.waitForSelector('#choices button', { timeout: 60_000 });
    t.equal(await page.locator('#choices button').count(), 2, "A's two moves");
    t.ok(await page.locator('#error').isHidden(), 'no error shown');
    t.ok(await page.locator('.board').isHidden(), 'the board is hidden');
    t.equal(await page.locator('#title').innerText(), 'Tally (test only) – bare');
    await page.locator('#choices button').first().click();
    await page.waitForFunction(() => document.getElementById('version')!.textContent === '2', undefined, { timeout: 60_000 });
    t.equal(await page.locator('#log li').count(), 0, 'the log (Tally writes none)');
    t.equal(pictureAsks(), 1, 'the picture was asked for once');
    t.same(problems, []);
  });

  t.test('the spectator page: the log alone, kept live', async (t) => {
    const { page, problems, pictureAsks } = await open(t, `/watch/${gameId}`);
    await page.waitForSelector('#no-pictures');
    t.equal(await page.locator('#board').count(), 0);
    t.equal((await b.req('POST', `/games/${gameId}/actions`, { action: { type: 'add', n: 1 } })).statusCode, 200);
    await page.waitForFunction(() => document.getElementById('version')!.textContent === '3', undefined, { timeout: 60_000 });
    t.equal(pictureAsks(), 0, 'no picture asked for');
    t.same(problems, []);
  });
}
