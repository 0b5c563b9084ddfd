// GET /leagues/{id}/page over HTTP (the browser test, pages-browser.test.ts,
// renders it in Chromium): escaping of everything users typed, the security
// headers, unlisted leagues by id, drafts hidden, the registration stage, and
// errors as HTML or problem+json by Accept.
import t from 'tap';
import { escapeHtml, html, path, raw } from '../../src/http/pages/html.ts';
import { prefersHtml } from '../../src/http/pages/respond.ts';
import { HOSTILE_LEAGUE, HOSTILE_NAME, seedLeague } from './league-page-helpers.ts';
import { restApp, signup } from './rest-helpers.ts';

const app = await restApp(t);
const MISSING = '7a0b1c2d-0000-4000-8000-0000000000ff';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

t.test('the html template escapes what it interpolates, and only Html passes as is', async (t) => {
  t.equal(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  const name = '<script>alert(1)</script>';
  t.equal(html`<td title="${name}">${name}</td>`.text, '<td title="&lt;script&gt;alert(1)&lt;/script&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</td>');
  t.equal(html`<ul>${['<a>', html`<li>${'&'}</li>`, null, false, undefined, 3]}</ul>`.text, '<ul>&lt;a&gt;<li>&amp;</li>3</ul>', 'lists joined, nothing for null/false/undefined');
  t.equal(html`${raw('<b>')}`.text, '<b>');
  t.equal(path('watch', '../../admin?x=1#y'), '/watch/..%2F..%2Fadmin%3Fx%3D1%23y', 'an id cannot leave its path segment');
  t.equal(path('watch', 'javascript:alert(1)'), '/watch/javascript%3Aalert(1)');
});

t.test('Accept: HTML only when text/html is preferred', async (t) => {
  t.equal(prefersHtml(BROWSER_ACCEPT), true, 'a browser');
  t.equal(prefersHtml(undefined), false, 'no Accept');
  t.equal(prefersHtml('*/*'), false, 'curl');
  t.equal(prefersHtml('application/json'), false);
  t.equal(prefersHtml('application/problem+json, text/html'), false, 'listed first wins a tie');
  t.equal(prefersHtml('application/json;q=0.5, text/html'), true);
  t.equal(prefersHtml('text/html;q=0'), false, 'q=0 is "not acceptable"');
});

t.test('the page: escaped names, strict CSP, links to the games, the API’s standings', async (t) => {
  const l = await seedLeague(app, { format: 'swiss', players: 4, rounds: 3, complete: 2, prefix: 'HTTP' });
  const res = await app.inject({ url: `/leagues/${l.id}/page`, headers: { accept: BROWSER_ACCEPT } });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html; charset=utf-8/);
  const csp = String(res.headers['content-security-policy']);
  t.match(csp, /default-src 'none'/);
  t.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
  t.notMatch(csp, /script-src|unsafe/, 'no script may run, no unsafe-inline');
  t.equal(res.headers['x-content-type-options'], 'nosniff');
  const body = res.body;
  t.notOk(body.includes(HOSTILE_NAME), 'the hostile player name never appears unescaped');
  t.notOk(body.includes(HOSTILE_LEAGUE), 'nor the league name');
  t.ok(body.includes(escapeHtml(HOSTILE_NAME)), 'it appears escaped');
  t.ok(body.includes(escapeHtml(HOSTILE_LEAGUE)), 'the league name too');
  t.notMatch(body, /<script|<img|https?:\/\//i, 'no script, no picture, no absolute URL');
  t.equal((body.match(/<style>/g) ?? []).length, 1, 'one inline style sheet, which the CSP names by hash');
  const rounds = (await app.inject(`/leagues/${l.id}/rounds`)).json().rounds as any[];
  const games = rounds.flatMap((r) => r.pairings).filter((p) => p.gameId).map((p) => p.gameId as string);
  t.ok(games.length > 0);
  for (const g of games) t.ok(body.includes(`href="/watch/${g}"`), `a link to game ${g}`);
  const standings = (await app.inject(`/leagues/${l.id}/standings`)).json();
  for (const row of standings.standings) {
    t.match(body, new RegExp(`data-player="${row.player.id}">\\s*<td class="num" data-col="rank">${row.rank}`), `${row.player.name} ranked ${row.rank}`);
  }
  t.ok(body.includes('Line one\nline &lt;two&gt; &amp; &quot;three&quot;'), 'the description, escaped, its line breaks kept');
  // Unlisted, yet readable by id (without a key) as the API is.
  t.equal((await app.inject(`/leagues/${l.id}`)).json().visibility, 'unlisted');
  t.equal((await app.inject({ url: `/leagues/${l.id}/page` })).statusCode, 200, 'no key needed');
});

t.test('draft rounds are not on the page; registration shows the entrants', async (t) => {
  const org = await signup(app, 'Drafter');
  const a = await signup(app, 'Ann <i>');
  const b = await signup(app, 'Ben');
  const id = (await org.req('POST', '/leagues', { name: 'Drafts', gameType: 'richard-iii', format: 'round-robin', autoPair: false })).json().id as string;
  for (const p of [a, b]) t.equal((await org.req('POST', `/leagues/${id}/entrants`, { playerId: p.id })).statusCode, 201);
  let page = await app.inject(`/leagues/${id}/page`);
  t.equal(page.statusCode, 200);
  t.match(page.body, /<h2 id="entrants-h">Entrants<\/h2>/);
  t.ok(page.body.includes('Ann &lt;i&gt;'));
  t.notMatch(page.body, /id="standings"/, 'no standings before the start');
  t.equal((await org.req('POST', `/leagues/${id}/start`)).statusCode, 200);
  t.equal((await org.req('POST', `/leagues/${id}/rounds`)).statusCode, 201);
  t.equal((await org.req('GET', `/leagues/${id}/rounds`)).json().rounds[0].status, 'draft', 'the organiser sees a draft');
  page = await org.req('GET', `/leagues/${id}/page`);
  t.notMatch(page.body, /id="round-1"/, 'not even the organiser gets drafts on the public page');
  t.equal((await org.req('POST', `/leagues/${id}/rounds/1/publish`)).statusCode, 200);
  page = await app.inject(`/leagues/${id}/page`);
  t.match(page.body, /id="round-1"/, 'published: on the page');
});

t.test('unknown or malformed league ids: an HTML 404 for browsers, problem+json for the rest', async (t) => {
  for (const id of [MISSING, 'not-a-uuid', '%3Cscript%3E']) {
    const html404 = await app.inject({ url: `/leagues/${id}/page`, headers: { accept: BROWSER_ACCEPT } });
    t.equal(html404.statusCode, 404, id);
    t.match(html404.headers['content-type'], /^text\/html/);
    t.match(html404.body, /<h1>Not Found<\/h1>/);
    t.notMatch(html404.body, /<script/i, 'the id in the detail is escaped');
    t.match(html404.headers['content-security-policy'], /default-src 'none'/);
    t.equal(html404.headers.vary, 'Accept');
    for (const accept of [undefined, '*/*', 'application/json', 'application/problem+json']) {
      const res = await app.inject({ url: `/leagues/${id}/page`, headers: accept ? { accept } : {} });
      t.equal(res.statusCode, 404, `${id} Accept ${accept}`);
      t.match(res.headers['content-type'], /^application\/problem\+json/);
      t.match(res.json(), { status: 404, code: 'not_found' });
    }
  }
  // A bad key is refused before the page, also as a page for a browser.
  const bad = await app.inject({ url: `/leagues/${MISSING}/page`, headers: { accept: BROWSER_ACCEPT, authorization: 'Bearer hk_nope' } });
  t.equal(bad.statusCode, 401);
  t.match(bad.headers['content-type'], /^text\/html/);
});
