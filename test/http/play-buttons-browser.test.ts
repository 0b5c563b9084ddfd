// The player's page keeps its move buttons when a refresh shows the same
// moves at the same version. After a move made on the page, the page
// refreshes twice at the new version: once after its own POST, once for the
// event the move sends down its stream. Replacing the buttons on the second
// refresh lost a click pressed on one button and released on its copy (the
// flaky "click changed nothing" in game-pages-browser.test.ts under load).
// Headless Chromium through playwright-core; needs /usr/bin/chromium.
import { existsSync } from 'node:fs';
import t from 'tap';
import { chromium } from 'playwright-core';
import { restApp, signup } from './rest-helpers.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('play page buttons', { skip: `${CHROMIUM} is missing` }, () => {});
} else {
  const app = await restApp(t);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const york = await signup(app, 'York Clicks');
  const lancaster = await signup(app, 'Lancaster Api');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'buttons-1', roles: ['York'] });
  const gameId = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${gameId}/join`, {});
  if (joined.statusCode !== 200) throw new Error(`join: ${joined.statusCode} ${joined.body}`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  t.teardown(() => browser.close());

  t.test('a move made on the page: the refresh its own event asks for leaves the new buttons in place', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    // Each refresh reads the game first and the picture last.
    let pictures = 0;
    page.on('requestfinished', (req) => {
      if (req.url().startsWith(`${origin}/games/${gameId}/board.svg`)) pictures++;
    });
    await page.goto(`${origin}/play/${gameId}?lang=en#key=${encodeURIComponent(york.key!)}`);

    let checked = 0;
    for (let step = 0; step < 60 && checked < 3; step++) {
      const actions = (await york.req('GET', `/games/${gameId}/actions`)).json();
      if (!actions.active) {
        // Lancaster moves by the API until York is to act.
        const other = (await lancaster.req('GET', `/games/${gameId}/actions`)).json();
        const res = await lancaster.req('POST', `/games/${gameId}/actions`, { actionId: other.choices[0].id, expectedVersion: other.version });
        if (res.statusCode !== 200) throw new Error(`Lancaster: ${res.statusCode} ${res.body}`);
        continue;
      }
      await page.waitForSelector(`#game[data-version="${actions.version}"][data-active="true"]`, { timeout: 30_000 });
      // Each refresh draws in one go: whether it replaced the buttons, and the version it showed.
      await page.evaluate(() => {
        const w = window as unknown as { renders: { v: string; replaced: boolean }[]; observer?: MutationObserver };
        w.renders = [];
        w.observer?.disconnect();
        const root = document.getElementById('game')!;
        w.observer = new MutationObserver((records) => {
          w.renders.push({ v: root.dataset.version ?? '', replaced: records.some((r) => r.type === 'childList') });
        });
        w.observer.observe(root, { attributes: true, attributeFilter: ['data-version'] });
        w.observer.observe(document.getElementById('choices')!, { childList: true });
      });
      const before = pictures;
      await page.locator('#choices button').first().click();
      const next = actions.version + 1;
      await page.waitForSelector(`#game[data-version="${next}"]`, { timeout: 30_000 });
      const after = (await york.req('GET', `/games/${gameId}/actions`)).json();
      if (!after.active || after.version !== next) continue;
      // Wait for the second refresh (two pictures since the click), then for it to draw.
      const deadline = Date.now() + 10_000;
      while (pictures < before + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, 500));
      const renders = (await page.evaluate(() => (window as unknown as { renders: { v: string; replaced: boolean }[] }).renders)).filter((r) => r.v === String(next));
      t.ok(renders.length >= 2, `v${next}: the page drew the new version twice after its move (${renders.length})`);
      t.same(renders.map((r) => r.replaced), [true, ...renders.slice(1).map(() => false)], `v${next}: only the first drawing of the new version replaced the buttons`);
      checked++;
    }
    t.equal(checked, 3, 'three moves made on the page with York to act again after them');
    t.same(problems, [], 'no script error');
  });
}
