// The spectator page (GET /watch/{gameId}) and the player's page shell
// (GET /play/{gameId}) over HTTP: what the server sends, before any script
// runs. The browser test (game-pages-browser.test.ts) plays a game through them.
import { createHash } from 'node:crypto';
import t from 'tap';
import { restApp, signup } from './rest-helpers.ts';

const app = await restApp(t);
const york = await signup(app, 'York <b>Watcher</b>');
const lancaster = await signup(app, `Lancaster "&'<script>alert(1)</script>`);
const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'wars-of-the-roses', seed: 'watch-1', roles: ['York'] });
const gameId = created.json().id as string;
const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

t.test('a game waiting for players: the page says so, names escaped', async (t) => {
  const res = await app.inject({ url: `/watch/${gameId}`, headers: browser });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html/);
  t.match(res.body, 'Waiting for players');
  t.match(res.body, 'York &lt;b&gt;Watcher&lt;/b&gt;', 'the name as text');
});

t.test('in play: whose turn, the picture at this version, the log in the asked language, a script the policy allows', async (t) => {
  t.equal((await lancaster.req('POST', `/games/${gameId}/join`, {})).statusCode, 200);
  const game = (await york.req('GET', `/games/${gameId}`)).json();
  t.equal(game.status, 'active');
  const res = await app.inject({ url: `/watch/${gameId}?lang=pl`, headers: browser });
  t.equal(res.statusCode, 200);
  t.match(res.body, '<html lang="pl">');
  t.match(res.body, `To play: ${game.activeRoles[0]}`);
  t.match(res.body, `src="/games/${gameId}/board.svg?lang=pl" data-version="${game.version}"`, 'the current picture (an earlier version is refused while the game is in play)');
  t.notMatch(res.body, '<script>alert', 'no markup from a name');
  t.match(res.body, 'Lancaster &quot;&amp;&#39;&lt;script&gt;');
  const log = (await app.inject({ url: `/games/${gameId}/log?lang=pl` })).json();
  t.ok(log.lines.length > 0, 'the log has lines');
  for (const line of log.lines as string[]) t.ok(res.body.includes(`<li>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</li>`), `log line on the page: ${line}`);
  const script = /<script>([\s\S]*?)<\/script>/.exec(res.body)![1]!;
  const hash = createHash('sha256').update(script).digest('base64');
  const csp = String(res.headers['content-security-policy']);
  t.match(csp, `script-src 'sha256-${hash}'`, 'exactly this script may run');
  t.match(csp, "connect-src 'self'");
  t.match(csp, "default-src 'none'");
  t.equal((res.body.match(/<script/g) ?? []).length, 1, 'one script');
});

t.test('the spectator page shows the spectator’s view even to a request with a key', async (t) => {
  const anon = await app.inject({ url: `/watch/${gameId}`, headers: browser });
  const keyed = await york.req('GET', `/watch/${gameId}`, undefined, browser);
  t.equal(keyed.statusCode, 200);
  t.equal(keyed.body, anon.body, 'the same page');
});

t.test('unknown or malformed games: an HTML 404 for browsers, problem+json for programs', async (t) => {
  for (const url of ['/watch/7a0b1c2d-0000-4000-8000-0000000000ff', '/watch/not-a-game', '/play/not-a-game', "/watch/%3Cscript%3Ealert(1)%3C%2Fscript%3E"]) {
    const res = await app.inject({ url, headers: browser });
    t.equal(res.statusCode, 404, url);
    t.match(res.headers['content-type'], /^text\/html/, url);
    t.notMatch(res.body, '<script>alert', `${url}: nothing unescaped`);
    const api = await app.inject({ url, headers: { accept: 'application/json' } });
    t.equal(api.statusCode, 404);
    t.equal(api.json().code, 'not_found');
  }
});

t.test('the player page is a shell: no key, no seat, no move in what the server sends', async (t) => {
  const res = await york.req('GET', `/play/${gameId}?lang=ru`, undefined, browser);
  t.equal(res.statusCode, 200);
  t.match(res.body, '<html lang="ru">');
  t.notMatch(res.body, york.key!, 'the key is not echoed');
  t.match(res.body, `data-game="${gameId}"`);
  t.equal((res.body.match(/<script/g) ?? []).length, 1);
  t.match(String(res.headers['content-security-policy']), /script-src 'sha256-[^']+'; connect-src 'self'; img-src 'self' data: blob:/);
  const other = await app.inject({ url: `/play/${gameId}?lang=ru`, headers: browser });
  t.equal(other.body, res.body, 'the same shell without a key');
});
