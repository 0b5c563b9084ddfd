// Board pictures over REST and GraphQL on a real database: each seat's and
// the spectator's picture of a game in play (SVG and PNG), languages, the
// authorisation of the view (own seat or spectator; earlier versions only
// once the game is over), typed 4xx for bad input, and no hidden block,
// strength or card in any of them (test/helpers/picture-leaks.ts, against
// the engine's state and the seat's view at that version).
import t from 'tap';
import { restApp, signup } from './rest-helpers.ts';
import { playRandom } from '../helpers/bots.ts';
import { pictureLeaks } from '../helpers/picture-leaks.ts';
import { games } from '../../src/games/index.ts';
import type { R3State } from '../../src/games/richard-iii/state.ts';
import type { R3View } from '../../src/games/richard-iii/view.ts';
import { translator } from '../../src/render/messages.ts';
import { PictureCache, type BoardPicture } from '../../src/service/pictures.ts';

const app = await restApp(t);
const york = await signup(app, 'Picture York');
const lancaster = await signup(app, 'Picture Lancaster');
const other = await signup(app, 'Picture Other');
const m = games['richard-iii']!;

const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'wars-of-the-roses', seed: 'pictures-1', roles: ['York'] });
const gameId = created.json().id as string;
await lancaster.req('POST', `/games/${gameId}/join`, {});
await playRandom(gameId, new Map([[york.id, york], [lancaster.id, lancaster]]), 'pictures-play', 120);

async function stateNow(): Promise<{ state: R3State; version: number }> {
  const row = (await app.store.prisma.game.findUnique({ where: { id: gameId } }))!;
  return { state: row.state as unknown as R3State, version: row.version };
}

t.test('each seat and the spectator get their own picture, which shows nothing hidden', async (t) => {
  const { state, version } = await stateNow();
  const tr = translator('richard-iii', 'en');
  for (const [who, role, url] of [
    [york, 'York', `/games/${gameId}/board.svg`],
    [lancaster, 'Lancaster', `/games/${gameId}/board.svg`],
    [york, null, `/games/${gameId}/board.svg?role=spectator`],
    [other, null, `/games/${gameId}/board.svg`],
  ] as const) {
    const res = await who.req('GET', url);
    t.equal(res.statusCode, 200, res.body.slice(0, 200));
    t.match(res.headers['content-type'], /^image\/svg\+xml/);
    t.equal(res.headers['content-language'], 'en');
    t.equal(res.headers['x-game-version'], String(version));
    t.ok(res.body.startsWith('<svg') && res.body.endsWith('</svg>'));
    t.match(res.body, role === null ? "Spectator&#39;s view" : `${role}&#39;s view`);
    const view = m.view(state, role) as R3View;
    t.same(pictureLeaks(res.body, view, state, tr), [], `${role ?? 'spectator'}: nothing hidden`);
  }
  const anon = await app.inject({ method: 'GET', url: `/games/${gameId}/board.svg` });
  t.equal(anon.statusCode, 200, 'a public game\'s picture needs no key');
  t.match(anon.body, 'Spectator&#39;s view');
});

t.test('PNG, languages, and the cache', async (t) => {
  const png = await york.req('GET', `/games/${gameId}/board.png`);
  t.equal(png.statusCode, 200);
  t.equal(png.headers['content-type'], 'image/png');
  t.same([...png.rawPayload.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  t.equal(png.rawPayload.readUInt32BE(16), 800, '800 pixels wide');
  t.ok(png.rawPayload.length < 300_000, `${png.rawPayload.length} bytes`);
  const pl = await york.req('GET', `/games/${gameId}/board.svg?lang=pl`);
  t.equal(pl.headers['content-language'], 'pl');
  t.match(pl.body, 'Widok Yorku');
  const ru = await york.req('GET', `/games/${gameId}/board.svg`, undefined, { 'accept-language': 'de-DE, ru;q=0.8, en;q=0.5' });
  t.equal(ru.headers['content-language'], 'ru', 'the first language of Accept-Language that we have');
  t.match(ru.body, 'Вид Йорков');
  const unknown = await york.req('GET', `/games/${gameId}/board.svg?lang=xx`);
  t.equal(unknown.headers['content-language'], 'en', 'an unknown language: English');
  const again = await york.req('GET', `/games/${gameId}/board.svg?lang=pl`);
  t.equal(again.body, pl.body, 'the same picture again');

  // The cache makes a picture once, however many ask at the same time, and keeps it within its byte budget.
  const cache = new PictureCache(1000);
  let made = 0;
  const make = (size: number) => async (): Promise<BoardPicture> => {
    made++;
    return { gameId, version: 1, role: null, lang: 'en', format: 'svg', contentType: 'image/svg+xml', body: 'x'.repeat(size) };
  };
  const [a, b] = await Promise.all([cache.get('k1', make(400)), cache.get('k1', make(400))]);
  t.equal(made, 1, 'made once for two callers');
  t.equal(a, b);
  await cache.get('k2', make(400));
  await cache.get('k3', make(400));
  await cache.get('k1', make(400));
  t.equal(made, 4, 'the oldest was let go when the budget ran out');
});

t.test('bad input: typed 4xx problems that change nothing', async (t) => {
  const { version } = await stateNow();
  const problem = async (res: Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>, status: number, code: string, what: string) => {
    const r = await res;
    t.equal(r.statusCode, status, what);
    t.match(r.headers['content-type'], /application\/problem\+json/, what);
    t.match(r.json(), { code }, what);
  };
  await problem(york.req('GET', `/games/${gameId}/board.svg?role=Lancaster`), 403, 'forbidden', 'another player\'s seat');
  await problem(york.req('GET', `/games/${gameId}/board.svg?role=Nobody`), 400, 'invalid_request', 'no such seat');
  await problem(york.req('GET', `/games/${gameId}/board.svg?version=1`), 403, 'forbidden', 'an earlier version of a game in play');
  await problem(york.req('GET', `/games/${gameId}/board.png?version=${version + 5}`), 400, 'invalid_request', 'a version not reached');
  await problem(york.req('GET', `/games/${gameId}/board.svg?version=abc`), 400, 'invalid_request', 'a version that is no number');
  await problem(york.req('GET', `/games/${gameId}/board.svg?lang=`), 400, 'invalid_request', 'an empty lang');
  await problem(york.req('GET', `/games/00000000-0000-4000-8000-000000000000/board.svg`), 404, 'not_found', 'no such game');
  const setup = (await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'kingmaker', seed: 'pictures-2', roles: ['York'] })).json().id as string;
  await problem(york.req('GET', `/games/${setup}/board.svg`), 409, 'invalid_state', 'a game not started has no board');
  t.equal((await stateNow()).version, version, 'nothing changed');
});

t.test('GraphQL boardPicture', async (t) => {
  const gql = (query: string, variables: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${lancaster.key}` }, payload: { query, variables } }).then((r) => r.json() as { data?: any; errors?: any[] });
  const Q = 'query($id: ID!, $f: String, $v: Int, $lang: String) { boardPicture(gameId: $id, format: $f, version: $v, lang: $lang) { gameId version role lang format contentType body } }';
  const svg = await gql(Q, { id: gameId });
  t.notOk(svg.errors);
  t.match(svg.data.boardPicture, { gameId, role: 'Lancaster', lang: 'en', format: 'svg', contentType: /^image\/svg\+xml/ });
  t.ok(svg.data.boardPicture.body.startsWith('<svg'));
  const png = await gql(Q, { id: gameId, f: 'png', lang: 'cs' });
  t.equal(png.data.boardPicture.lang, 'cs');
  t.same([...Buffer.from(png.data.boardPicture.body, 'base64').subarray(1, 4)], [0x50, 0x4e, 0x47], 'base64 PNG');
  const bad = await gql(Q, { id: gameId, f: 'gif' });
  t.equal(bad.errors?.[0]?.extensions?.code, 'invalid_request', 'an unknown format');
  const early = await gql(Q, { id: gameId, v: 1 });
  t.equal(early.errors?.[0]?.extensions?.code, 'forbidden', 'an earlier version before the end');
});

t.test('once the game is over, every earlier version can be drawn', async (t) => {
  const res = await york.req('POST', `/games/${gameId}/resign`, {});
  t.equal(res.statusCode, 200, res.body);
  const over = await stateNow();
  for (const v of [2, 10, over.version - 1]) {
    const r = await lancaster.req('GET', `/games/${gameId}/board.svg?version=${v}`);
    t.equal(r.statusCode, 200, r.body.slice(0, 200));
    t.equal(r.headers['x-game-version'], String(v));
    t.equal(r.headers['cache-control'], 'private, max-age=86400, immutable', 'a named version never changes');
  }
  const start = await lancaster.req('GET', `/games/${gameId}/board.svg?version=0`);
  t.equal(start.statusCode, 409, 'version 0: before the start, no board');
});
