// Seat views once the game is over (found by black-box probing): the creator of an all-AI game
// holds no seat, so every seat's view (GET /games/:id/view?role=, the log and the picture with
// a role, GraphQL view(role:)) was 403 forever, although once the game is over nothing is hidden
// any more (its record with the seed and every action is open). Now any seat may be viewed by
// whoever may see the game once it is over; while it is live, only by the seat's holder (no
// leak). Real Postgres; an API-only instance, so the AI never moves and the game stays live.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, jobs: false, ai: { workers: 1, queue: 16, timeCapMs: 5_000 } }), { store });
t.teardown(() => app.close());
const R3 = { gameType: 'richard-iii', scenario: 'richard-iii' };
const ROLES = ['York', 'Lancaster'];

t.test('an all-AI game: its creator reads no seat while it is live, every seat once it is over', async (t) => {
  const ada = await signup(app, 'Ada');
  const other = await signup(app, 'Other');
  for (const visibility of ['public', 'private'] as const) {
    const res = await ada.req('POST', '/games', { ...R3, visibility, ai: { York: 'random', Lancaster: 'random' } });
    t.equal(res.statusCode, 201);
    const id = res.json().id as string;
    t.equal(res.json().status, 'active');
    for (const role of ROLES) {
      const live = await ada.req('GET', `/games/${id}/view?role=${role}`);
      t.equal(live.statusCode, 403, `${visibility}, live: ${role}'s view is hidden from the creator`);
      t.equal(live.json().code, 'forbidden');
      t.equal((await ada.req('GET', `/games/${id}/log?role=${role}`)).statusCode, 403, `${visibility}, live: ${role}'s log`);
    }
    const spectator = (await ada.req('GET', `/games/${id}/view`)).json();
    t.equal((await ada.req('POST', `/games/${id}/abort`, {})).statusCode, 200, 'the creator aborts it');
    for (const role of ROLES) {
      const over = await ada.req('GET', `/games/${id}/view?role=${role}`);
      t.equal(over.statusCode, 200, `${visibility}, over: ${role}'s view`);
      t.equal(over.json().role, role);
      t.notSame(over.json().view, spectator.view, `${role}'s view is the seat's, not the spectator's`);
      t.equal((await ada.req('GET', `/games/${id}/log?role=${role}`)).statusCode, 200, `${visibility}, over: ${role}'s log`);
      const gql = await gqlClient(app, ada.key!)(`{ view(gameId: "${id}", role: "${role}") { role } }`);
      t.same(gql.errors, undefined, `GraphQL view(role: ${role})`);
    }
    // Who may not see the game still sees nothing of it.
    const stranger = await other.req('GET', `/games/${id}/view?role=York`);
    t.equal(stranger.statusCode, visibility === 'private' ? 404 : 200, `${visibility}: another player`);
  }
});

t.test('a game between players: another player reads a seat once it is over, not before', async (t) => {
  const york = await signup(app, 'York');
  const lancaster = await signup(app, 'Lancaster');
  const watcher = await signup(app, 'Watcher');
  const id = (await york.req('POST', '/games', { ...R3, roles: ['York'] })).json().id as string;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  t.equal((await watcher.req('GET', `/games/${id}/view?role=York`)).statusCode, 403, 'live: forbidden');
  t.equal((await york.req('GET', `/games/${id}/view?role=Lancaster`)).statusCode, 403, 'live: the opponent’s seat too');
  t.equal((await york.req('POST', `/games/${id}/resign`, {})).statusCode, 200);
  t.equal((await watcher.req('GET', `/games/${id}/view?role=York`)).statusCode, 200, 'over: readable');
  t.equal((await york.req('GET', `/games/${id}/view?role=Lancaster`)).statusCode, 200, 'over: the opponent’s seat too');
});
