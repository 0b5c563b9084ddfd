// The player's page follows the game live even when its first refresh finds
// that a move landed between its reads (likely against the AI, which moves at
// once). That refresh ends early and asks again through the pacer; the event
// stream must still start, so the opponent's later moves show without a
// reload. The first /actions read is held until a move has landed. Headless
// Chromium through playwright-core; needs /usr/bin/chromium.
import { existsSync } from 'node:fs';
import t from 'tap';
import { chromium } from 'playwright-core';
import { restApp, signup } from './rest-helpers.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('play page first refresh', { skip: `${CHROMIUM} is missing` }, () => {});
} else {
  const app = await restApp(t);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const york = await signup(app, 'York Page');
  const lancaster = await signup(app, 'Lancaster Moves');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'first-refresh-1', roles: ['York'] });
  const gameId = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${gameId}/join`, {});
  if (joined.statusCode !== 200) throw new Error(`join: ${joined.statusCode} ${joined.body}`);

  // One move by whoever is to act (both seats' keys are here): the version goes up by one.
  async function move(): Promise<number> {
    for (const seat of [york, lancaster]) {
      const actions = (await seat.req('GET', `/games/${gameId}/actions`)).json();
      if (!actions.active) continue;
      const res = await seat.req('POST', `/games/${gameId}/actions`, { actionId: actions.choices[0].id, expectedVersion: actions.version });
      if (res.statusCode !== 200) throw new Error(`move: ${res.statusCode} ${res.body}`);
      return res.json().version as number;
    }
    throw new Error('nobody is to act');
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  t.teardown(() => browser.close());

  t.test('a move between the first reads: the page catches up, then follows later moves live', async (t) => {
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    let held = 0;
    let moved!: () => void;
    const movedDuringLoad = new Promise<void>((r) => (moved = r));
    let streams = 0;
    page.on('request', (req) => {
      if (req.url().startsWith(`${origin}/games/${gameId}/events`)) streams++;
    });
    // The first /actions read waits until a move has landed after the page read the game.
    await page.route(`${origin}/games/${gameId}/actions?*`, async (route) => {
      if (held++ === 0) {
        await move();
        moved();
      }
      await route.continue();
    });
    await page.goto(`${origin}/play/${gameId}?lang=en#key=${encodeURIComponent(york.key!)}`);
    await movedDuringLoad;
    const first = (await york.req('GET', `/games/${gameId}`)).json().version as number;
    await page.waitForSelector(`#game[data-version="${first}"]`, { timeout: 15_000 }).catch(async (err: unknown) => {
      t.comment(await page.evaluate(() => JSON.stringify({ ...document.getElementById('game')!.dataset, error: document.getElementById('error')!.textContent, live: document.getElementById('live')!.textContent, play: document.getElementById('play')!.hidden })));
      throw err;
    });
    t.ok(held >= 2, `the first refresh was asked again (${held} reads of /actions)`);
    // Now moves come from elsewhere only: the page must hear of them by its stream.
    let version = first;
    for (let i = 0; i < 3; i++) {
      version = await move();
      await page.waitForSelector(`#game[data-version="${version}"]`, { timeout: 15_000 });
    }
    t.pass(`the page followed three more moves, to version ${version}`);
    t.equal(streams, 1, 'one event stream, started after the first refresh that showed the game');
    t.same(problems, [], 'no script error');
  });
}
