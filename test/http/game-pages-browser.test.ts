// The player and spectator pages in a real browser: headless Chromium driven by
// playwright-core, nothing reachable but the server (a request to another
// origin is aborted and fails the test). Two browser contexts, one per player,
// play a whole game of Richard III (its one-campaign scenario, 1483) by clicking a random button of their page's
// labelled moves (each page opened with its key in the URL fragment), while a
// third context on the spectator page must follow every version the test
// checks: the picture, whose turn and the log. HERALD_PLAY_MAX_MOVES stops
// the game early (a milestone, not the whole game) where a run must be short;
// the test says so when it does. Screenshots go to test-artifacts/pages/
// (gitignored; HERALD_ARTIFACTS moves them). Needs /usr/bin/chromium.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { prng, restApp, signup } from './rest-helpers.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ARTIFACTS = process.env.HERALD_ARTIFACTS ?? path.join(ROOT, 'test-artifacts', 'pages');
const MAX_MOVES = Number(process.env.HERALD_PLAY_MAX_MOVES ?? 5000);

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

t.setTimeout(3_600_000);

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('game pages in a browser', { skip: `${CHROMIUM} is missing (apt-get install -y chromium)` }, () => {});
} else {
  mkdirSync(ARTIFACTS, { recursive: true });
  const app = await restApp(t);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const york = await signup(app, 'York Browser');
  const lancaster = await signup(app, 'Lancaster <i>Browser</i>');

  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());

  async function open(t: Test, options: BrowserContextOptions, url: string): Promise<{ page: Page; problems: string[]; requests: string[]; status: number | undefined }> {
    const context = await browser.newContext({ ...options, javaScriptEnabled: true });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await context.route('**/*', async (route) => {
      const u = route.request().url();
      if (u.startsWith(`${origin}/`) || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
      problems.push(`request to another origin: ${u}`);
      return route.abort('blockedbyclient');
    });
    page.on('dialog', (d) => {
      problems.push(`a dialog opened: ${d.message()}`);
      void d.dismiss();
    });
    page.on('pageerror', (err) => problems.push(`script error: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    const res = await page.goto(`${origin}${url}`);
    return { page, problems, requests, status: res?.status() };
  }

  const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  async function noHorizontalScroll(t: Test, page: Page, what: string): Promise<void> {
    const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    t.ok(scroll <= inner, `${what}: document ${scroll}px wide in a ${inner}px viewport`);
  }

  async function api(url: string): Promise<any> {
    const res = await app.inject({ url });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** The spectator page at `version`: its picture, whose turn and its log are the API's. */
  async function spectatorShows(t: Test, page: Page, version: number): Promise<void> {
    await page.waitForSelector(`#game[data-version="${version}"]`, { timeout: 120_000 });
    const game = await api(`/games/${gameId}`);
    const log = await api(`/games/${gameId}/log?lang=en`);
    const shown = await page.evaluate(() => ({
      pictureVersion: document.getElementById('board')!.dataset.version,
      status: document.getElementById('status')!.textContent,
      log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
      picture: (document.getElementById('board') as HTMLImageElement).complete && (document.getElementById('board') as HTMLImageElement).naturalWidth > 0,
    }));
    t.equal(shown.pictureVersion, String(version), `v${version}: the spectator's picture of this version`);
    if (game.version === version) {
      t.same(shown.log, log.lines, `v${version}: the spectator's log, line by line`);
      if (game.status === 'active') t.equal(shown.status, `To play: ${game.activeRoles.map((r: string) => `${r} (${game.seats.find((s: any) => s.role === r).player.name})`).join(', ')}`, `v${version}: whose turn`);
    }
    await page.waitForFunction(() => { const i = document.getElementById('board') as HTMLImageElement; return i.complete && i.naturalWidth > 0; }, undefined, { timeout: 60_000 });
  }

  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'browser-game-1', roles: ['York'] });
  const gameId = created.json().id as string;

  t.test('a bad key is an error the player can read; a page without a key asks for one', async (t) => {
    const bad = await open(t, PHONE, `/play/${gameId}#key=not-a-key`);
    t.equal(bad.status, 200);
    await bad.page.waitForSelector('#error:not([hidden])');
    t.match(await bad.page.locator('#error').innerText(), /Unauthorized/i, 'the problem, in words');
    t.equal(bad.page.url(), `${origin}/play/${gameId}`, 'the key left the address bar');
    t.notOk(bad.requests.some((u) => u.includes('not-a-key')), 'the key is in no URL the page asked for');
    await shoot(bad.page, 'play-bad-key-phone');
    const none = await open(t, PHONE, `/play/${gameId}`);
    await none.page.waitForSelector('#keyform:not([hidden])');
    t.same(none.problems, []);
  });

  t.test('two players play a whole game through their pages; the spectator page follows', async (t) => {
    t.equal((await lancaster.req('POST', `/games/${gameId}/join`, {})).statusCode, 200);
    const spectator = await open(t, DESKTOP, `/watch/${gameId}?lang=en`);
    t.equal(spectator.status, 200);
    const pages: Record<string, { page: Page; problems: string[]; requests: string[] }> = {
      York: await open(t, DESKTOP, `/play/${gameId}?lang=en#key=${encodeURIComponent(york.key!)}`),
      Lancaster: await open(t, PHONE, `/play/${gameId}?lang=en#key=${encodeURIComponent(lancaster.key!)}`),
    };
    const first = await api(`/games/${gameId}`);
    for (const [role, p] of Object.entries(pages)) {
      await p.page.waitForSelector(`#game[data-version="${first.version}"]`, { timeout: 120_000 });
      t.equal(await p.page.locator('#seat').innerText(), `your seat: ${role}`, `${role}'s page knows its seat`);
    }
    await spectatorShows(t, spectator.page, first.version);
    await shoot(pages.York!.page, 'play-york-start-desktop');
    await shoot(pages.Lancaster!.page, 'play-lancaster-start-phone');
    await shoot(spectator.page, 'watch-start-desktop');
    await noHorizontalScroll(t, pages.Lancaster!.page, 'the player page on a phone');

    const pick = prng(16);
    const started = Date.now();
    let moves = 0;
    let game = first;
    while (game.status === 'active' && moves < MAX_MOVES) {
      // The seat to move (either, when both must act), then its page at this version with its buttons.
      const role = game.activeRoles[pick(game.activeRoles.length)] as string;
      const { page } = pages[role]!;
      await page.waitForSelector(`#game[data-version="${game.version}"][data-active="true"]`, { timeout: 120_000 }).catch(async (err: unknown) => {
        const state = await page.evaluate(() => ({ ...document.getElementById('game')!.dataset, error: document.getElementById('error')!.textContent, live: document.getElementById('live')!.textContent }));
        throw new Error(`v${game.version}: ${role}'s page never showed its moves: ${JSON.stringify(state)} (${String(err)})`);
      });

      const buttons = page.locator('#choices button');
      const n = await buttons.count();
      if (moves % 40 === 0) {
        const labels = await buttons.allTextContents();
        const { choices } = (await (role === 'York' ? york : lancaster).req('GET', `/games/${gameId}/actions?lang=en`)).json();
        t.same(labels, choices.map((c: any) => c.label), `v${game.version}: ${role}'s buttons are the labelled legal moves`);
      }

      t.ok(n > 0, `v${game.version}: ${role} has moves`);
      await buttons.nth(pick(n)).click();
      const before = game.version;
      const deadline = Date.now() + 120_000;
      for (;;) {
        game = await api(`/games/${gameId}`);
        if (game.version > before) break;
        const error = await page.locator('#error:not([hidden])').count();
        if (error > 0) throw new Error(`v${before}: ${role}'s move failed: ${await page.locator('#error').innerText()}`);
        if (Date.now() > deadline) throw new Error(`v${before}: ${role}'s click changed nothing in 120 s`);
        await new Promise((r) => setTimeout(r, 25));
      }
      moves++;
      if (moves % 50 === 0) {
        await spectatorShows(t, spectator.page, game.version);
        t.comment(`${moves} moves, version ${game.version}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
      if (moves === 100) {
        await shoot(spectator.page, 'watch-middle-desktop');
        await shoot(pages.York!.page, 'play-york-middle-desktop');
      }
    }
    const seconds = (Date.now() - started) / 1000;
    t.comment(`${moves} moves through the pages in ${seconds.toFixed(0)} s (${((seconds * 1000) / Math.max(moves, 1)).toFixed(0)} ms a move); status ${game.status}`);
    if (MAX_MOVES < 5000 && game.status === 'active') t.comment(`stopped at HERALD_PLAY_MAX_MOVES=${MAX_MOVES}: NOT a whole game`);
    else t.equal(game.status, 'finished', 'the game was played to its end');

    await spectatorShows(t, spectator.page, game.version);
    if (game.status === 'finished') {
      await spectator.page.waitForFunction(() => /^Finished/.test(document.getElementById('status')!.textContent ?? ''), undefined, { timeout: 60_000 });
      for (const [role, p] of Object.entries(pages)) {
        await p.page.waitForSelector(`#game[data-version="${game.version}"][data-status="finished"]`, { timeout: 60_000 });
        t.equal(await p.page.locator('#choices button').count(), 0, `${role}: no moves once the game is over`);
      }
    }
    await shoot(spectator.page, 'watch-end-desktop');
    await shoot(pages.York!.page, 'play-york-end-desktop');
    await shoot(pages.Lancaster!.page, 'play-lancaster-end-phone');
    for (const [role, p] of Object.entries(pages)) {
      t.same(p.problems, [], `${role}'s page: no dialog, script error or request off the server`);
      const key = role === 'York' ? york.key! : lancaster.key!;
      t.notOk(p.requests.some((u) => u.includes(key)), `${role}'s key is in no URL the page asked for`);
    }
    t.same(spectator.problems, [], 'spectator page: no dialog, script error or request off the server');

    const phone = await open(t, PHONE, `/watch/${gameId}?lang=pl`);
    await noHorizontalScroll(t, phone.page, 'the spectator page on a phone');
    t.equal(await phone.page.locator('html').getAttribute('lang'), 'pl');
    t.same(await phone.page.locator('#log li').allTextContents(), (await api(`/games/${gameId}/log?lang=pl`)).lines, 'the log in Polish');
    await shoot(phone.page, 'watch-end-phone-pl');
    t.same(phone.problems, []);
  });

  t.test('an unknown game is an HTML 404 page in the browser', async (t) => {
    const { page, status } = await open(t, PHONE, '/watch/7a0b1c2d-0000-4000-8000-0000000000ff');
    t.equal(status, 404);
    t.equal(await page.locator('h1').innerText(), 'Not Found');
    await shoot(page, 'watch-404-phone');
  });
}
