// Clocks over HTTP: the clock in REST and GraphQL answers, 422 invalid_time_control, and a late
// move's 409 deadline_passed problem document (the game then over by timeout). Time is the
// app's injected clock, moved forward without sleeping.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';

const clock = { now: Date.UTC(2027, 2, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
// The sweep would end the game on its own: an hour apart, so this test decides when timeouts fire.
const app = await buildApp(testConfig({ databaseUrl }), { store, now: () => clock.now, clockSweepMs: HOUR });
t.teardown(() => app.close());

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');

t.test('a bad time control is a 422 problem naming the problems; nothing is created', async (t) => {
  const before = await york.req('GET', '/games?player=me');
  const res = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', timeControl: { kind: 'correspondence', daysPerMove: 40 } });
  t.equal(res.statusCode, 422);
  t.match(res.headers['content-type'], /application\/problem\+json/);
  t.match(res.json(), { code: 'invalid_time_control', field: 'timeControl', problems: [{ code: 'out-of-range', field: 'daysPerMove' }] });
  const after = await york.req('GET', '/games?player=me');
  t.same(after.json(), before.json(), 'no game created');
  const gql = await gqlClient(app, york.key)(`mutation { createGame(input: {gameType: "richard-iii", scenario: "richard-iii", timeControl: {kind: "fischer", initialMs: 0, incrementMs: 0}}) { id } }`);
  t.equal(gql.errors?.[0]?.extensions?.code, 'invalid_time_control');
});

t.test('REST and GraphQL show the clock; a late move is 409 deadline_passed and the game is over by timeout', async (t) => {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'preset', name: 'days-2' } });
  t.equal(created.statusCode, 201);
  const id = (created.json() as { id: string }).id;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  const start = clock.now;
  const deadline = new Date(start + 2 * DAY).toISOString();
  clock.now += 5 * HOUR;
  const g = (await york.req('GET', `/games/${id}`)).json() as { clock: unknown };
  t.same(g.clock, {
    control: { kind: 'correspondence', startMs: 2 * DAY, incrementMs: 2 * DAY, capMs: 2 * DAY },
    onTimeout: 'loss',
    claimable: null,
    seats: [
      { role: 'York', remainingMs: 2 * DAY - 5 * HOUR, deadline, running: true, paused: false },
      { role: 'Lancaster', remainingMs: 2 * DAY - 5 * HOUR, deadline, running: true, paused: false },
    ],
  });
  const q = await ok(gqlClient(app, york.key)(`query($id: ID!) { game(id: $id) { clock { control onTimeout claimable { flagged } seats { role remainingMs deadline running paused } } } }`, { id }));
  t.same(q.game.clock, g.clock, 'GraphQL shows the same clock');

  // York moves; Lancaster then lets its time run out.
  const legal = (await york.req('GET', `/games/${id}/actions?role=York`)).json() as { actions: unknown[] };
  t.equal((await york.req('POST', `/games/${id}/actions`, { action: legal.actions[0] })).statusCode, 200);
  clock.now = start + 2 * DAY;
  const late = (await lancaster.req('GET', `/games/${id}/actions`)).json() as { actions: unknown[] };
  const res = await lancaster.req('POST', `/games/${id}/actions`, { action: late.actions[0] });
  t.equal(res.statusCode, 409);
  t.match(res.headers['content-type'], /application\/problem\+json/);
  t.match(res.json(), { code: 'deadline_passed', flaggedRoles: ['Lancaster'] });
  const over = (await york.req('GET', `/games/${id}`)).json() as { status: string; result: unknown; clock: { seats: Array<{ running: boolean }> } };
  // Lancaster never moved: abandoned, not lost (fewer than two moves).
  t.equal(over.status, 'abandoned');
  t.same(over.result, { winner: null, reason: 'timeout' });
  t.ok(over.clock.seats.every((s) => !s.running));
  const log = (await york.req('GET', `/games/${id}/log`)).json() as { entries: Array<{ kind: string; role: string | null }> };
  t.match(log.entries[log.entries.length - 1], { kind: 'timeout', role: 'Lancaster' });
});

t.test('a timeout that came due while no instance ran fires when one starts', async (t) => {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 1 } });
  const id = (created.json() as { id: string }).id;
  await lancaster.req('POST', `/games/${id}/join`, {});
  // Another instance starts on the same database two days later: its start-up sweep fires the timeout.
  const later = clock.now + 2 * DAY;
  const next = await buildApp(testConfig({ databaseUrl }), { store, now: () => later, clockSweepMs: HOUR });
  t.teardown(() => next.close());
  let status = '';
  for (let i = 0; i < 200 && status !== 'abandoned'; i++) {
    status = ((await next.inject({ method: 'GET', url: `/games/${id}` })).json() as { status: string }).status;
    if (status !== 'abandoned') await new Promise((r) => setTimeout(r, 25));
  }
  t.equal(status, 'abandoned', 'ended by the start-up sweep (nobody had moved: abandoned)');
  const log = (await york.req('GET', `/games/${id}/log`)).json() as { entries: Array<{ kind: string }> };
  t.equal(log.entries.filter((e) => e.kind === 'timeout').length, 1);
});
