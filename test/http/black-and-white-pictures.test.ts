// Black & White board pictures over the HTTP API, on real Postgres, with
// HERALD_BLACK_AND_WHITE_DATA set to the invented file: board.svg and
// board.png answer 200 for each seat and the spectator, and GraphQL
// boardPicture gives the same (PNG as base64), showing nothing hidden
// (test/helpers/bw-picture-leaks.ts). The renderer alone:
// test/render/black-and-white-board.test.ts.
import t from 'tap';
import type { Army } from '../../src/games/black-and-white/data-format.ts';
import type { BWState } from '../../src/games/black-and-white/state.ts';
import type { BWPictureView } from '../../src/render/black-and-white.ts';
import { translator } from '../../src/render/messages.ts';
import { bwPictureLeaks } from '../helpers/bw-picture-leaks.ts';
import { playRandom } from '../helpers/bots.ts';
import { INVENTED_FILE, balanced, bw } from '../render/black-and-white-helpers.ts';
import { restApp, signup } from './rest-helpers.ts';

const tr = translator('black-and-white', 'en');
const view = (s: BWState, seat: Army | null) => bw.view(s, seat) as BWPictureView;

t.test('over the HTTP API: board.svg and board.png for each seat and the spectator', async (t) => {
  const app = await restApp(t, { gameDataFiles: { HERALD_BLACK_AND_WHITE_DATA: INVENTED_FILE }, logLevel: 'error' });
  const black = await signup(app, 'Picture Black');
  const white = await signup(app, 'Picture White');
  for (const scenario of ['s01', 's16']) {
    const created = await black.req('POST', '/games', { gameType: 'black-and-white', scenario, seed: `bw-pictures-${scenario}`, roles: ['Thargaton'] });
    t.equal(created.statusCode, 201, created.body.slice(0, 300));
    const gameId = created.json().id as string;
    t.equal((await white.req('POST', `/games/${gameId}/join`, {})).statusCode, 200);
    await playRandom(gameId, new Map([[black.id, black], [white.id, white]]), `bw-pictures-play-${scenario}`, 80);
    const row = (await app.store.prisma.game.findUnique({ where: { id: gameId } }))!;
    const state = row.state as unknown as BWState;
    for (const [who, role, query] of [
      [black, 'Thargaton', ''],
      [white, 'Vesania', ''],
      [black, null, '?role=spectator'],
    ] as const) {
      const svg = await who.req('GET', `/games/${gameId}/board.svg${query}`);
      t.equal(svg.statusCode, 200, svg.body.slice(0, 300));
      t.match(svg.headers['content-type'], /^image\/svg\+xml/);
      t.equal(svg.headers['x-game-version'], String(row.version));
      t.ok(svg.body.startsWith('<svg') && svg.body.endsWith('</svg>') && balanced(svg.body), 'an SVG document');
      t.same(bwPictureLeaks(svg.body, view(state, role), state, tr), [], `${role ?? 'spectator'} (${scenario}, ${state.phase}): nothing hidden`);
      const png = await who.req('GET', `/games/${gameId}/board.png${query}`);
      t.equal(png.statusCode, 200, png.statusCode === 200 ? 'board.png' : png.body.slice(0, 300));
      t.equal(png.headers['content-type'], 'image/png');
      t.equal(png.rawPayload.readUInt32BE(16), 800, 'a PNG 800 pixels wide');
      t.comment(`${scenario} ${role ?? 'spectator'}: PNG ${(png.rawPayload.length / 1024).toFixed(0)} kB, SVG ${(svg.body.length / 1024).toFixed(0)} kB`);
    }
    // GraphQL boardPicture: the same picture in Polish, the PNG as base64.
    const Q = 'query($id: ID!, $f: String, $lang: String) { boardPicture(gameId: $id, format: $f, lang: $lang) { role lang format body } }';
    const gql = (variables: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${white.key}` }, payload: { query: Q, variables } }).then((r) => r.json() as { data?: any; errors?: any[] });
    const g1 = await gql({ id: gameId, lang: 'pl' });
    t.notOk(g1.errors, JSON.stringify(g1.errors));
    t.match(g1.data?.boardPicture, { role: 'Vesania', lang: 'pl', format: 'svg' });
    t.match(g1.data?.boardPicture?.body, 'Widok Vesanii (biali)', 'in Polish');
    t.notMatch(g1.data?.boardPicture?.body, 'view (white)', 'no English left');
    t.same(bwPictureLeaks(g1.data?.boardPicture?.body ?? '', view(state, 'Vesania'), state, translator('black-and-white', 'pl')), [], 'GraphQL: nothing hidden');
    const g2 = await gql({ id: gameId, f: 'png' });
    t.same([...Buffer.from(g2.data?.boardPicture?.body ?? '', 'base64').subarray(1, 4)], [0x50, 0x4e, 0x47], 'GraphQL: a base64 PNG');
  }
});
