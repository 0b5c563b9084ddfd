// A Black & White game that no army can win any more ends as a draw (the
// engine's option noWinPossible 'draw', src/games/black-and-white/README.md),
// and the service records it as one: over REST on real Postgres, on the
// invented data file, a rated Skirmish where each army buys one unit (2 and 3
// VP on the board, 10 needed) is finished as soon as deployment ends, with no
// winner; the game status (REST and GraphQL), the log line, and both players'
// ratings (a draw each) say so. With 'play-on' the same game goes on.
import t, { type Test } from 'tap';
import { inventedDataFiles } from '../helpers/games/index.ts';
import { restApp, signup, type Client } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';

const app = await restApp(t, { gameDataFiles: inventedDataFiles() });

async function act(c: Client, id: string, role: string, action: object) {
  const r = await c.req('POST', `/games/${id}/actions`, { role, action });
  if (r.statusCode !== 200) throw new Error(`${role} ${JSON.stringify(action)}: ${r.statusCode} ${r.body}`);
  return r.json() as { game: { status: string; result: unknown; activeRoles: string[] } };
}

/** A rated s01 game: Thargaton buys one Regular Infantry (2), Vesania one Sirens (3); both deploy. Returns the last answer. */
async function smallArmies(t: Test, tharg: Client, ves: Client, options: Record<string, unknown>) {
  const created = await tharg.req('POST', '/games', { gameType: 'black-and-white', scenario: 's01', roles: ['Thargaton'], rated: true, seed: 'bw-draw', options });
  t.equal(created.statusCode, 201);
  const id = created.json().id as string;
  t.equal((await ves.req('POST', `/games/${id}/join`, { role: 'Vesania' })).statusCode, 200);
  await act(tharg, id, 'Thargaton', { type: 'buy', kind: 'regular-infantry' });
  await act(ves, id, 'Vesania', { type: 'buy', kind: 'sirens-of-vesania' });
  await act(tharg, id, 'Thargaton', { type: 'done' });
  await act(ves, id, 'Vesania', { type: 'done' });
  await act(tharg, id, 'Thargaton', { type: 'place', index: 0, hex: '1,1' });
  await act(ves, id, 'Vesania', { type: 'place', index: 0, hex: '1,7' });
  await act(tharg, id, 'Thargaton', { type: 'done' });
  return { id, last: await act(ves, id, 'Vesania', { type: 'done' }) };
}

t.test('a Black & White game no army can win any more is finished as a draw, and recorded as one', async (t) => {
  const tharg = await signup(app, 'Thargaton player');
  const ves = await signup(app, 'Vesania player');
  const { id, last } = await smallArmies(t, tharg, ves, {});
  t.match(last.game, { status: 'finished', result: { winner: null, reason: 'no-win-possible' }, activeRoles: [] }, 'the action that ended deployment finished the game');

  const rest = (await tharg.req('GET', `/games/${id}`)).json();
  t.match(rest, { status: 'finished', result: { winner: null, reason: 'no-win-possible' } }, 'REST game status');
  const gql = await gqlClient(app, ves.key)('query($id: ID!) { game(id: $id) { status result { winner reason } } }', { id });
  t.same(gql.data, { game: { status: 'finished', result: { winner: null, reason: 'no-win-possible' } } }, 'GraphQL');

  const log = JSON.stringify((await tharg.req('GET', `/games/${id}/log`)).json());
  t.match(log, /The game is drawn \(no army can win any more\)\./, 'the log line');

  // Rated: settled as a draw for both (service/settle.ts: a result naming no winner scores 0.5).
  const ratings = await app.store.prisma.rating.findMany({ where: { gameType: 'black-and-white' } });
  t.same(ratings.map((r) => [r.games, r.wins, r.draws, r.losses]), [[1, 0, 1, 0], [1, 0, 1, 0]], 'both players: one draw');
  const changes = await app.store.prisma.ratingChange.findMany({ where: { gameId: id } });
  t.same(changes.map((c) => c.score), [0.5, 0.5]);

  const played = await smallArmies(t, tharg, ves, { noWinPossible: 'play-on' });
  t.match(played.last.game, { status: 'active', result: null }, "'play-on': the game goes on");
});
