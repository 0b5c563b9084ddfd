// Vacation over HTTP: GET/POST/DELETE /me/vacation and GraphQL myVacation/startVacation/
// endVacation round trips, the refusals as typed problem+json (GraphQL extensions.code) that
// change nothing, and a paused seat shown in the game's clock. Time is the app's injected clock.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';

const clock = { now: Date.UTC(2027, 4, 3, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, vacationDays: 10 }), { store, now: () => clock.now, clockSweepMs: HOUR });
t.teardown(() => app.close());

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');

t.test('REST: start, see, end; the game clock of the player stands still meanwhile', async (t) => {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'preset', name: 'days-2' } });
  const id = (created.json() as { id: string }).id;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);

  const off = await york.req('GET', '/me/vacation');
  t.equal(off.statusCode, 200);
  t.same(off.json(), { onVacation: false, since: null, endsBy: null, allowanceMs: 10 * DAY, remainingMs: 10 * DAY });

  clock.now += HOUR;
  const started = await york.req('POST', '/me/vacation', { until: new Date(clock.now + 3 * DAY).toISOString() });
  t.equal(started.statusCode, 201);
  t.same(started.json(), { onVacation: true, since: new Date(clock.now).toISOString(), endsBy: new Date(clock.now + 3 * DAY).toISOString(), allowanceMs: 10 * DAY, remainingMs: 9 * DAY });
  const g = (await york.req('GET', `/games/${id}`)).json() as { clock: { seats: Array<{ role: string; running: boolean; paused: boolean; deadline: string | null; remainingMs: number }> } };
  t.same(g.clock.seats.find((s) => s.role === 'York'), { role: 'York', running: false, paused: true, deadline: null, remainingMs: 2 * DAY - HOUR }, 'paused: a client shows a stopped countdown');
  t.match(g.clock.seats.find((s) => s.role === 'Lancaster'), { running: true, paused: false }, 'the opponent runs');
  const q = await ok(gqlClient(app, york.key)(`query($id: ID!) { game(id: $id) { clock { seats { role running paused remainingMs } } } }`, { id }));
  t.same(q.game.clock.seats.find((s: { role: string }) => s.role === 'York'), { role: 'York', running: false, paused: true, remainingMs: 2 * DAY - HOUR }, 'GraphQL: the same paused flag');

  clock.now += DAY;
  const ended = await york.req('DELETE', '/me/vacation');
  t.equal(ended.statusCode, 200);
  t.match(ended.json(), { onVacation: false, since: null, endsBy: null, remainingMs: 9 * DAY });
  const again = (await york.req('GET', `/games/${id}`)).json() as { clock: { seats: Array<{ role: string; running: boolean; remainingMs: number }> } };
  t.match(again.clock.seats.find((s) => s.role === 'York'), { running: true, paused: false, remainingMs: 2 * DAY - HOUR });
});

t.test('REST refusals are typed problem+json and change nothing', async (t) => {
  const cases: Array<[string, unknown, number, string]> = [
    ['DELETE', undefined, 409, 'invalid_state'],
    ['POST', { until: 'next week' }, 400, 'invalid_request'],
    ['POST', { until: new Date(clock.now - 1000).toISOString() }, 400, 'invalid_request'],
    ['POST', { until: new Date(clock.now + 11 * DAY).toISOString() }, 422, 'vacation_not_allowed'],
    ['POST', { days: 3 }, 400, 'invalid_request'],
  ];
  const before = (await lancaster.req('GET', '/me/vacation')).json();
  for (const [method, body, status, code] of cases) {
    const res = await lancaster.req(method, '/me/vacation', body);
    t.equal(res.statusCode, status, `${method} ${JSON.stringify(body)}`);
    t.match(res.headers['content-type'], /application\/problem\+json/);
    t.equal((res.json() as { code: string }).code, code);
    t.same((await lancaster.req('GET', '/me/vacation')).json(), before, 'nothing changed');
  }
  t.equal((await lancaster.req('POST', '/me/vacation', {})).statusCode, 201);
  const twice = await lancaster.req('POST', '/me/vacation', {});
  t.equal(twice.statusCode, 409);
  t.match(twice.json(), { code: 'invalid_state', reason: 'vacation-active' });
  t.equal((await lancaster.req('DELETE', '/me/vacation')).statusCode, 200);
  t.equal((await app.inject({ method: 'GET', url: '/me/vacation' })).statusCode, 401, 'a key is needed');
});

t.test('GraphQL: myVacation, startVacation, endVacation; refusals carry extensions.code', async (t) => {
  const gql = gqlClient(app, york.key);
  const fields = 'onVacation since endsBy allowanceMs remainingMs';
  const until = new Date(clock.now + 2 * DAY).toISOString();
  const s = await ok(gql(`mutation($until: String) { startVacation(until: $until) { ${fields} } }`, { until }));
  t.match(s.startVacation, { onVacation: true, endsBy: until });
  const q = await ok(gql(`{ myVacation { ${fields} } }`));
  t.same(q.myVacation, s.startVacation);
  const again = await gql(`mutation { startVacation { onVacation } }`);
  t.equal(again.errors?.[0]?.extensions?.code, 'invalid_state');
  const e = await ok(gql(`mutation { endVacation { ${fields} } }`));
  t.equal(e.endVacation.onVacation, false);
  const bad = await gql(`mutation { startVacation(until: "soon") { onVacation } }`);
  t.equal(bad.errors?.[0]?.extensions?.code, 'invalid_request');
  const none = await gql(`mutation { endVacation { onVacation } }`);
  t.equal(none.errors?.[0]?.extensions?.code, 'invalid_state');
});
