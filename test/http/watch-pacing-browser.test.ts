// The spectator page keeps within the rate limit when a game goes fast. A
// page makes three reads per version (game, log, picture); two bots can make
// several versions a second, and an anonymous spectator has a fixed budget
// per address. Here the budget is 30 requests per 6 s window; 60 moves
// arrive in about 3 s through the API (with keys, which are not counted
// against the address). The page must never be refused (no 429), must say
// that it is waiting, and must still end on the last version. Headless
// Chromium through playwright-core; needs /usr/bin/chromium.
import { existsSync } from 'node:fs';
import t from 'tap';
import { chromium } from 'playwright-core';
import { prng, restApp, signup, type Client } from './rest-helpers.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
const WINDOW_MS = 6000;
const ANONYMOUS_MAX = 30;

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('watch page pacing', { skip: `${CHROMIUM} is missing` }, () => {});
} else {
  // Keys: unlimited; addresses: 30 a window.
  const app = await restApp(t, { rateLimit: { max: 0, anonymousMax: ANONYMOUS_MAX, appMax: 0, windowMs: WINDOW_MS } });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const york = await signup(app, 'York Fast');
  const lancaster = await signup(app, 'Lancaster Fast');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'pacing-1', roles: ['York'] });
  const gameId = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${gameId}/join`, {});
  if (joined.statusCode !== 200) throw new Error(`join: ${joined.statusCode} ${joined.body}`);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  t.teardown(() => browser.close());

  t.test('sixty fast moves: the page waits instead of being refused, and ends on the last version', async (t) => {
    // The signups above were anonymous: start the page in a fresh window.
    await new Promise((r) => setTimeout(r, WINDOW_MS + 200));
    const context = await browser.newContext();
    t.teardown(() => context.close());
    const page = await context.newPage();
    const refused: string[] = [];
    const problems: string[] = [];
    const reads: number[] = [];
    page.on('response', (res) => {
      if (!res.url().startsWith(origin)) return;
      reads.push(Date.now());
      if (res.status() === 429) refused.push(res.url());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    const waits = new Set<string>();
    await page.goto(`${origin}/watch/${gameId}?lang=en`);
    await page.waitForFunction(() => document.getElementById('live')!.textContent === '(live)', undefined, { timeout: 30_000 });

    const pick = prng(7);
    const seats: Record<string, Client> = { York: york, Lancaster: lancaster };
    let moves = 0;
    let version = 0;
    const started = Date.now();
    while (moves < 60) {
      const game = (await york.req('GET', `/games/${gameId}`)).json();
      if (game.status !== 'active') break;
      const role = game.activeRoles[pick(game.activeRoles.length)] as string;
      const actions = (await seats[role]!.req('GET', `/games/${gameId}/actions`)).json();
      const choice = actions.choices[pick(actions.choices.length)];
      const res = await seats[role]!.req('POST', `/games/${gameId}/actions`, { actionId: choice.id, expectedVersion: actions.version });
      t.equal(res.statusCode, 200, `move ${moves + 1}`);
      version = res.json().version;
      moves++;
      const live = await page.locator('#live').innerText();
      if (live.startsWith('(many moves')) waits.add(live);
      await new Promise((r) => setTimeout(r, 30));
    }
    t.comment(`${moves} moves in ${((Date.now() - started) / 1000).toFixed(1)} s, last version ${version}`);
    // Keep watching the indicator until the page catches up.
    const deadline = Date.now() + 4 * WINDOW_MS;
    while (Date.now() < deadline) {
      const shown = await page.evaluate(() => ({ version: document.getElementById('game')!.dataset.version, live: document.getElementById('live')!.textContent ?? '' }));
      if (shown.live.startsWith('(many moves')) waits.add(shown.live);
      if (shown.version === String(version)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.waitForSelector(`#game[data-version="${version}"]`, { timeout: 1000 });
    t.pass(`the page shows version ${version}`);
    t.equal((await page.locator('#board').getAttribute('data-version')), String(version), 'and its picture');
    t.same(refused, [], 'no read was refused');
    t.ok(waits.size > 0, `the page said it was waiting (${[...waits].join('; ')})`);
    // Within any one window (counted from the first read after the fresh start), no more reads than the budget.
    let most = 0;
    for (let i = 0; i < reads.length; i++) {
      let j = i;
      while (j < reads.length && reads[j]! - reads[i]! < WINDOW_MS) j++;
      most = Math.max(most, j - i);
    }
    t.comment(`${reads.length} reads in all; at most ${most} in a ${WINDOW_MS / 1000} s span`);
    t.same(problems, [], 'no script error');
  });
}
