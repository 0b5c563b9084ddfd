// A game type without a board renderer (the test-only Tally module next to
// Richard III): its games play through REST as any other, the board picture is
// a 404 problem+json saying the game type has no pictures (never a 500), the
// same as a GraphQL error with extensions.code, and the spectator page shows
// the log without a picture.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { games as installed } from '../../src/games/index.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { tallyModule } from '../helpers/games/tally.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store, games: { ...installed, tally: tallyModule() as unknown as GameModule } });
t.teardown(() => app.close());

const a = await signup(app, 'Tally A');
const b = await signup(app, 'Tally B');

t.test('a game of a type without pictures: REST, GraphQL, the spectator page', async (t) => {
  const types = (await app.inject({ url: '/game-types' })).json() as { id: string }[];
  t.ok(types.some((g) => g.id === 'tally'), 'the test game type is listed');
  const created = await a.req('POST', '/games', { gameType: 'tally', scenario: 'bare', roles: ['A'] });
  t.equal(created.statusCode, 201, created.body);
  const gameId = created.json().id as string;
  t.equal((await b.req('POST', `/games/${gameId}/join`, {})).statusCode, 200);
  const acted = await a.req('POST', `/games/${gameId}/actions`, { action: { type: 'add', n: 2 } });
  t.equal(acted.statusCode, 200, acted.body);

  for (const [who, url] of [[a, 'board.svg'], [b, 'board.png'], [a, 'board.svg?role=spectator']] as const) {
    const res = await who.req('GET', `/games/${gameId}/${url}`);
    t.equal(res.statusCode, 404, url);
    t.match(res.headers['content-type'], /^application\/problem\+json/);
    t.match(res.json(), { code: 'not_found', reason: 'no_pictures', gameType: 'tally', detail: /has no pictures/ }, url);
  }
  const anon = await app.inject({ url: `/games/${gameId}/board.svg` });
  t.match(anon.json(), { status: 404, reason: 'no_pictures' }, 'the same for a spectator without a key');

  const gql = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { authorization: `Bearer ${a.key}` },
    payload: { query: 'query($id: ID!) { boardPicture(gameId: $id) { body } }', variables: { id: gameId } },
  });
  const errors = (gql.json() as { errors?: { message: string; extensions?: Record<string, unknown> }[] }).errors;
  t.match(errors?.[0], { message: /has no pictures/, extensions: { code: 'not_found', reason: 'no_pictures' } }, 'GraphQL: a typed error');

  const page = await app.inject({ url: `/watch/${gameId}`, headers: { accept: 'text/html' } });
  t.equal(page.statusCode, 200);
  t.notMatch(page.body, '<img id="board"', 'no picture on the page');
  t.match(page.body, 'has no board pictures');
  t.match(page.body, 'Tally (test only)');
});

t.test('Richard III keeps its pictures on the same server', async (t) => {
  const created = await a.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'np-1', roles: ['York'] });
  const gameId = created.json().id as string;
  await b.req('POST', `/games/${gameId}/join`, {});
  const res = await a.req('GET', `/games/${gameId}/board.svg`);
  t.equal(res.statusCode, 200);
  const page = await app.inject({ url: `/watch/${gameId}`, headers: { accept: 'text/html' } });
  t.match(page.body, '<img id="board"');
});
