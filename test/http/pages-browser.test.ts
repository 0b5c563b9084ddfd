// The league page (GET /leagues/{id}/page) in a real browser: headless
// Chromium driven by playwright-core, with nothing reachable but the server
// (any request to another origin is aborted and fails the test). Leagues with
// finished rounds are made through the REST API; the page must show the same
// standings as GET /leagues/{id}/standings, the same pairings as
// GET /leagues/{id}/rounds with links to /watch/{gameId}, a knockout bracket,
// no script from a hostile name, and fit a phone's width (no horizontal
// scrolling). Screenshots of every page go to test-artifacts/pages/
// (gitignored; HERALD_ARTIFACTS moves them). Needs /usr/bin/chromium.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { HOSTILE_LEAGUE, HOSTILE_NAME, seedLeague, type SeededLeague } from './league-page-helpers.ts';
import { restApp } from './rest-helpers.ts';

const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ARTIFACTS = process.env.HERALD_ARTIFACTS ?? path.join(ROOT, 'test-artifacts', 'pages');

const PHONE: BrowserContextOptions = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

t.setTimeout(300_000);

if (!existsSync(CHROMIUM)) {
  if (process.env.CI) t.fail(`${CHROMIUM} is missing (apt-get install -y chromium)`);
  else t.test('league page in a browser', { skip: `${CHROMIUM} is missing (apt-get install -y chromium)` }, () => {});
} else {
  mkdirSync(ARTIFACTS, { recursive: true });
  const app = await restApp(t);
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });

  // Swiss: 5 players (a bye each round), 3 rounds, 2 complete, the third published and in play.
  const swiss = await seedLeague(app, { format: 'swiss', players: 5, rounds: 3, complete: 2, prefix: 'Swiss' });
  // Knockout: 6 players (two byes in the first round), quarter- and semi-finals done, the final to play.
  const knockout = await seedLeague(app, { format: 'knockout', players: 6, complete: 2, prefix: 'Knockout' });
  // Pools: 2 pools of 4 (3 rounds each), the 2 best of each into the semi-finals, which are done.
  const pools = await seedLeague(app, { format: 'pools', players: 8, complete: 4, prefix: 'Pools', settings: { pools: { count: 2, qualifiers: 2 } } });

  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  t.teardown(() => browser.close());

  /** A page in a fresh context; `problems` collects requests off the server, dialogs and script errors. */
  async function open(t: Test, options: BrowserContextOptions, url: string): Promise<{ page: Page; problems: string[]; status: number | undefined }> {
    const context = await browser.newContext({ ...options, javaScriptEnabled: true });
    t.teardown(() => context.close());
    const page = await context.newPage();
    const problems: string[] = [];
    await context.route('**/*', async (route) => {
      const u = route.request().url();
      if (u.startsWith(`${origin}/`) || u.startsWith('data:')) return route.continue();
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
    return { page, problems, status: res?.status() };
  }

  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  /** Nothing wider than the viewport: the document does not scroll sideways. */
  async function noHorizontalScroll(t: Test, page: Page, what: string): Promise<void> {
    const { scroll, inner, widest } = await page.evaluate(() => {
      let widest = '';
      let w = 0;
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right > w) [w, widest] = [r.right, `${el.tagName}.${el.className} ${Math.round(r.right)}px`];
      }
      return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, widest };
    });
    t.ok(scroll <= inner, `${what}: document ${scroll}px wide in a ${inner}px viewport (rightmost: ${widest})`);
  }

  async function api(url: string): Promise<any> {
    const res = await app.inject({ url });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** The page's standings tables, as rows of the cells the API also gives. */
  async function pageStandings(page: Page) {
    return page.locator('table.standings tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const cell = (c: string) => (tr.querySelector(`[data-col="${c}"]`)?.textContent ?? '').trim();
        const tieBreaks: Record<string, string> = {};
        for (const td of tr.querySelectorAll('[data-col^="tb-"]')) tieBreaks[td.getAttribute('data-col')!.slice(3)] = (td.textContent ?? '').trim();
        return { id: tr.getAttribute('data-player'), rank: cell('rank').replace('†', ''), player: cell('player'), points: cell('points'), played: cell('played'), wdl: cell('wdl'), tieBreaks };
      }),
    );
  }

  function apiStandings(s: any) {
    return s.standings.map((r: any) => ({
      id: r.player.id,
      rank: String(r.rank),
      player: r.status === 'active' ? r.player.name : `${r.player.name} ${r.status}`,
      points: String(r.points),
      played: String(r.played),
      wdl: `${r.won}–${r.drawn}–${r.lost}`,
      tieBreaks: Object.fromEntries(s.tieBreaks.map((tb: string) => [tb, r.tieBreaks[tb] === undefined ? '–' : String(r.tieBreaks[tb])])),
    }));
  }

  /** Every pairing row on the page against the rounds API: players, and the link to the game. */
  async function checkRounds(t: Test, page: Page, league: SeededLeague) {
    const rounds = (await api(`/leagues/${league.id}/rounds`)).rounds as any[];
    const rows = await page.locator('table.pairings tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        id: tr.getAttribute('data-pairing'),
        names: [...tr.querySelectorAll('td.name')].map((td) => (td.textContent ?? '').trim()),
        watch: tr.querySelector('a')?.getAttribute('href') ?? null,
      })),
    );
    const pairings = rounds.flatMap((r) => r.pairings);
    t.equal(rows.length, pairings.length, 'one row per pairing of every published round');
    for (const p of pairings) {
      const row = rows.find((r) => r.id === p.id);
      t.ok(row, `pairing ${p.id} is on the page`);
      if (!row) continue;
      t.same(row.names, [p.first.name, p.second?.name ?? '—'], `round ${p.round} board ${p.board}: the players`);
      t.equal(row.watch, p.gameId ? `/watch/${p.gameId}` : null, `round ${p.round} board ${p.board}: the link to its game`);
    }
    t.ok(pairings.some((p) => p.gameId), 'some boards have games to watch');
  }

  async function checkNoInjection(t: Test, page: Page, problems: string[]) {
    t.equal(await page.title(), `${HOSTILE_LEAGUE} (${await page.evaluate(() => document.querySelector('h1')!.textContent!.match(/\((\w+)\)$/)![1])}) – Herald`, 'the league name is the title, as text');
    t.equal(await page.locator('script').count(), 0, 'no script element');
    t.equal(await page.locator('img').count(), 0, 'no img element');
    t.ok((await page.locator('td.name').allTextContents()).some((x) => x.includes(HOSTILE_NAME)), 'the hostile name shows as the text it is');
    t.same(problems, [], 'no dialog, script error or request off the server');
  }

  t.test('Swiss: the page shows the standings API, every pairing with its game link, on desktop and phone', async (t) => {
    const { page, problems, status } = await open(t, DESKTOP, `/leagues/${swiss.id}/page`);
    t.equal(status, 200);
    const standings = await api(`/leagues/${swiss.id}/standings`);
    t.equal(standings.rounds, 3, 'rounds 1 and 2, and round 3 with its bye, count');
    t.same(await pageStandings(page), apiStandings(standings), 'the standings table is the API’s, row by row');
    const heads = await page.locator('table.standings thead th').allTextContents();
    t.same(heads.slice(3, 3 + standings.tieBreaks.length), ['BH-C1', 'BH', 'SB'], 'the tie-break columns, in the league’s order');
    await checkRounds(t, page, swiss);
    t.equal(await page.locator('#bracket').count(), 0, 'no bracket for a Swiss');
    await checkNoInjection(t, page, problems);
    await shoot(page, 'league-swiss-desktop');

    const phone = await open(t, PHONE, `/leagues/${swiss.id}/page`);
    await noHorizontalScroll(t, phone.page, 'Swiss on a phone');
    t.same(await pageStandings(phone.page), apiStandings(standings), 'the same table on a phone');
    t.same(phone.problems, []);
    await shoot(phone.page, 'league-swiss-phone');
  });

  t.test('Knockout: the bracket follows the rounds API, the final still to play', async (t) => {
    const { page, problems, status } = await open(t, DESKTOP, `/leagues/${knockout.id}/page`);
    t.equal(status, 200);
    const rounds = (await api(`/leagues/${knockout.id}/rounds`)).rounds as any[];
    t.same(rounds.map((r) => [r.stage, r.pairings.length]), [['knockout', 4], ['knockout', 2], ['knockout', 1]], 'quarter-finals, semi-finals, final');
    const columns = await page.locator('.bracket .column').evaluateAll((cols) =>
      cols.map((c) => ({
        title: c.querySelector('h3')!.textContent,
        matches: [...c.querySelectorAll('.match')].map((m) => [...m.querySelectorAll('li .who')].map((w) => (w.textContent ?? '').trim())),
        winners: [...c.querySelectorAll('li.win .who')].map((w) => (w.textContent ?? '').trim()),
      })),
    );
    t.same(columns.map((c) => c.title), ['Quarter-finals', 'Semi-finals', 'Final']);
    for (const [i, r] of rounds.entries()) {
      t.same(columns[i]!.matches, r.pairings.map((p: any) => [p.first.name, p.second?.name ?? 'bye']), `${columns[i]!.title}: the boards`);
    }
    // The semi-finals' winners are the final's players.
    const final = rounds[2].pairings[0];
    t.same(columns[1]!.winners.sort(), [final.first.name, final.second.name].sort(), 'the semi-finals’ winners are marked, and meet in the final');
    t.same(columns[2]!.winners, [], 'no winner of the final yet');
    await checkRounds(t, page, knockout);
    await checkNoInjection(t, page, problems);
    await shoot(page, 'league-knockout-desktop');

    const phone = await open(t, PHONE, `/leagues/${knockout.id}/page`);
    await noHorizontalScroll(t, phone.page, 'knockout on a phone');
    t.same(phone.problems, []);
    await shoot(phone.page, 'league-knockout-phone');
  });

  t.test('Pools: one table per pool matching the API, then the knockout', async (t) => {
    const { page, problems, status } = await open(t, DESKTOP, `/leagues/${pools.id}/page`);
    t.equal(status, 200);
    const standings = await api(`/leagues/${pools.id}/standings`);
    t.same(await pageStandings(page), apiStandings(standings), 'both pools’ tables are the API’s');
    t.same(await page.locator('#standings h3').allTextContents(), ['Pool 1', 'Pool 2']);
    const rounds = (await api(`/leagues/${pools.id}/rounds`)).rounds as any[];
    const ko = rounds.filter((r) => r.stage === 'knockout');
    t.ok(ko.length >= 1, 'the knockout has begun');
    t.same(await page.locator('.bracket .column h3').allTextContents(), ['Semi-finals', 'Final'].slice(0, Math.max(2, ko.length)));
    await checkRounds(t, page, pools);
    await checkNoInjection(t, page, problems);
    await shoot(page, 'league-pools-desktop');
    const phone = await open(t, PHONE, `/leagues/${pools.id}/page`);
    await noHorizontalScroll(t, phone.page, 'pools on a phone');
    t.same(phone.problems, []);
    await shoot(phone.page, 'league-pools-phone');
  });

  t.test('an unknown league is an HTML 404 page in the browser', async (t) => {
    const { page, problems, status } = await open(t, PHONE, '/leagues/7a0b1c2d-0000-4000-8000-0000000000ff/page');
    t.equal(status, 404);
    t.equal(await page.locator('h1').innerText(), 'Not Found');
    await noHorizontalScroll(t, page, '404 on a phone');
    // Chromium logs the 404 of the document itself as a console error: that one is expected.
    t.same(problems.filter((p) => !/status of 404/.test(p)), []);
    await shoot(page, 'league-404-phone');
  });
}
