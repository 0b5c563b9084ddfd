// Claiming a win on time over HTTP (games whose time control says onTimeout claim): the app's
// own clock sweep tells the claimant once (GET /me/events `event: claimable`, the GraphQL
// subscription myClaimableTimeouts), POST /games/{id}/claim-timeout and the GraphQL mutation
// claimTimeout end the game, every refusal is a typed problem that changes nothing, and an
// application claims for its player with X-Act-As. Time is the app's injected clock.
import t from 'tap';
import type { FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { playerChannel } from '../../src/service/api.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { buildApp } from '../../src/http/app.ts';
import { HOUR } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { ADMIN_TOKEN, client, signup, type Client } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';
import { baseUrl, SseClient } from './sse-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const clock = { now: Date.UTC(2027, 5, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN }), { store, now: () => clock.now, clockSweepMs: 100 });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');
const spectator = await signup(app, 'Spectator');
const CLAIM = { kind: 'correspondence', daysPerMove: 2, onTimeout: 'claim' };

interface Game {
  id: string;
  status: string;
  version: number;
  activeRoles: string[];
  result: unknown;
  clock: { onTimeout: string; claimable: unknown; seats: Array<{ role: string; deadline: string | null }> };
}

/**
 * A claim game between `y` and `l`, played through its opening (both keep their hands and play a
 * card, an hour apart) until one seat alone must act: that seat's holder is `flaggedBy` once its
 * deadline passes, the other one `claimer`.
 */
async function opened(y: Client, l: Client) {
  const created = await y.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: CLAIM });
  t.equal(created.statusCode, 201);
  const id = (created.json() as Game).id;
  t.equal((await l.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  for (const [who, role] of [[y, 'York'], [l, 'Lancaster'], [y, 'York'], [l, 'Lancaster']] as const) {
    clock.now += HOUR;
    const legal = (await who.req('GET', `/games/${id}/actions?role=${role}`)).json() as { actions: unknown[] };
    const res = await who.req('POST', `/games/${id}/actions`, { role, action: legal.actions[0] });
    if (res.statusCode !== 200) throw new Error(`opening move: ${res.statusCode} ${res.body}`);
  }
  const g = (await y.req('GET', `/games/${id}`)).json() as Game;
  const flagged = g.activeRoles[0]!;
  const claimant = flagged === 'York' ? 'Lancaster' : 'York';
  return { id, flagged, claimant, flaggedBy: flagged === 'York' ? y : l, claimer: flagged === 'York' ? l : y, deadline: g.clock.seats.find((s) => s.role === flagged)!.deadline! };
}

const get = async (id: string) => (await spectator.req('GET', `/games/${id}`)).json() as Game;

t.test('REST: the claimant hears event: claimable on /me/events once; refusals are typed problems; the claim ends the game', async (t) => {
  const { id, flagged, claimant, flaggedBy, claimer, deadline } = await opened(york, lancaster);
  const g = await get(id);
  t.equal(g.clock.onTimeout, 'claim', 'the summary shows the policy');
  t.equal(g.clock.claimable, null);

  const early = await claimer.req('POST', `/games/${id}/claim-timeout`, {});
  t.equal(early.statusCode, 409);
  t.match(early.headers['content-type'], /application\/problem\+json/);
  t.match(early.json(), { code: 'not_claimable', reason: 'time_left' });

  const sse = await SseClient.open(`${baseUrl(app)}/me/events`, { authorization: `Bearer ${claimer.key}` });
  t.teardown(() => sse.close());
  clock.now = Date.parse(deadline);
  const notice = await sse.waitFor((e) => e.event === 'claimable', 10_000);
  t.same(JSON.parse(notice.data), { type: 'claimable', gameId: id, role: claimant, flagged, ranOutAt: deadline });
  t.match(await get(id), { status: 'active', clock: { claimable: { flagged, ranOutAt: deadline, claimants: [claimant] } } }, 'the game goes on; its clock shows the claim');
  const row = await store.pool.query('SELECT deadline_at FROM games WHERE id = $1', [id]);
  t.equal(row.rows[0].deadline_at, null, 'out of the timeout sweep');

  const version = (await get(id)).version;
  const own = await flaggedBy.req('POST', `/games/${id}/claim-timeout`, {});
  t.equal(own.statusCode, 409);
  t.match(own.json(), { code: 'not_claimable', reason: 'own_time', flagged: [flagged] });
  t.match((await spectator.req('POST', `/games/${id}/claim-timeout`, {})).json(), { status: 403, code: 'forbidden' });
  t.match((await client(app, null).req('POST', `/games/${id}/claim-timeout`, {})).json(), { status: 401, code: 'unauthorized' });
  t.match((await claimer.req('POST', `/games/${id}/claim-timeout`, { role: 'Tudor' })).json(), { status: 400, code: 'invalid_request' });
  t.match((await claimer.req('POST', `/games/${id}/claim-timeout`, [1])).json(), { status: 400 });
  t.match((await claimer.req('POST', '/games/00000000-0000-4000-8000-000000000000/claim-timeout', {})).json(), { status: 404, code: 'not_found' });
  t.equal((await get(id)).version, version, 'nothing changed');

  const res = await claimer.req('POST', `/games/${id}/claim-timeout`, {});
  t.equal(res.statusCode, 200);
  t.match(res.json(), { status: 'finished', result: { winner: claimant, reason: 'timeout' }, version: version + 1, clock: { claimable: null } });
  const log = (await york.req('GET', `/games/${id}/log`)).json() as { entries: Array<{ kind: string; role: string | null }> };
  t.match(log.entries[log.entries.length - 1], { kind: 'timeout', role: flagged });
  t.match((await claimer.req('POST', `/games/${id}/claim-timeout`, {})).json(), { status: 409, code: 'game_over' });
  // The app's sweep ran every 100 ms meanwhile: still the one notice.
  t.equal(sse.events.filter((e) => e.event === 'claimable').length, 1, 'told once');
});

t.test('a bad onTimeout is 422 invalid_time_control naming the field; a loss game cannot be claimed', async (t) => {
  const bad = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', timeControl: { ...CLAIM, onTimeout: 'forfeit' } });
  t.equal(bad.statusCode, 422);
  t.match(bad.json(), { code: 'invalid_time_control', field: 'timeControl', problems: [{ field: 'onTimeout', code: 'unknown-policy' }] });
  const loss = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'preset', name: 'days-2' } });
  const id = (loss.json() as Game).id;
  await lancaster.req('POST', `/games/${id}/join`, {});
  t.match((await york.req('POST', `/games/${id}/claim-timeout`, {})).json(), { status: 409, code: 'not_claimable', reason: 'policy', onTimeout: 'loss' });
  const league = await york.req('POST', '/leagues', { name: 'Claim league', gameType: 'richard-iii', format: 'round-robin', timeControl: CLAIM });
  t.equal(league.statusCode, 422);
  t.match(league.json(), { code: 'invalid_settings', setting: 'timeControl' });
});

t.test('GraphQL: myClaimableTimeouts carries the notice, claimTimeout claims, errors carry extensions.code', async (t) => {
  const { id, flagged, claimant, flaggedBy, claimer, deadline } = await opened(york, lancaster);
  const c = createClient({ url: `${baseUrl(app).replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${claimer.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => c.dispose());
  type R = FormattedExecutionResult<{ myClaimableTimeouts: Record<string, unknown> }, unknown>;
  const results: R[] = [];
  let wake = (): void => {};
  t.teardown(c.subscribe<{ myClaimableTimeouts: Record<string, unknown> }>({ query: 'subscription { myClaimableTimeouts { gameId role flagged ranOutAt } }' }, {
    next: (r) => {
      results.push(r);
      wake();
    },
    error: () => {},
    complete: () => {},
  }));
  // The subscription is set up once the server acknowledged it: probe until a notice arrives.
  const probe = { type: 'claimable', gameId: '7a0b1c2d-0000-4000-8000-0000000000ff', role: claimant, flagged, ranOutAt: deadline };
  await within((async () => {
    while (results.length === 0) {
      await app.bus.publish(playerChannel(claimer.id), probe);
      await new Promise((r) => setTimeout(r, 50));
    }
  })(), 'the subscription to start');
  clock.now = Date.parse(deadline);
  await within((async () => {
    while (!results.some((r) => r.data?.myClaimableTimeouts.gameId === id)) await new Promise<void>((r) => (wake = r));
  })(), () => `the notice; got ${JSON.stringify(results)}`);
  t.same(results.find((r) => r.data?.myClaimableTimeouts.gameId === id)!.data!.myClaimableTimeouts, { gameId: id, role: claimant, flagged, ranOutAt: deadline });
  t.notOk(results.some((r) => r.errors), 'no errors on the subscription');

  const q = await gqlClient(app, spectator.key)(`query($id: ID!) { game(id: $id) { clock { onTimeout claimable { flagged ranOutAt claimants } } } }`, { id });
  t.same(q.data?.game.clock, { onTimeout: 'claim', claimable: { flagged, ranOutAt: deadline, claimants: [claimant] } });
  const mutation = `mutation($id: ID!, $role: String) { claimTimeout(gameId: $id, role: $role) { status version result { winner reason } clock { claimable { flagged } } } }`;
  const own = await gqlClient(app, flaggedBy.key)(mutation, { id });
  t.equal(own.errors?.[0]?.extensions?.code, 'not_claimable');
  t.equal(own.errors?.[0]?.extensions?.reason, 'own_time');
  t.equal((await gqlClient(app, spectator.key)(mutation, { id })).errors?.[0]?.extensions?.code, 'forbidden');
  t.equal((await gqlClient(app, claimer.key)(mutation, { id, role: flagged })).errors?.[0]?.extensions?.code, 'forbidden', 'naming the seat it does not hold');
  const done = await gqlClient(app, claimer.key)(mutation, { id });
  t.notOk(done.errors);
  t.same(done.data?.claimTimeout.result, { winner: claimant, reason: 'timeout' });
  t.equal(done.data?.claimTimeout.status, 'finished');
  t.equal((await gqlClient(app, claimer.key)(mutation, { id })).errors?.[0]?.extensions?.code, 'game_over');
});

t.test('an application claims for its player with X-Act-As', async (t) => {
  const admin = client(app, ADMIN_TOKEN);
  const created = (await admin.req('POST', '/admin/apps', { name: 'claim-bot' })).json() as { app: { id: string }; key: { key: string } };
  const bot = client(app, created.key.key, created.app.id);
  const p1 = (await bot.req('POST', '/players', { name: 'ann', externalId: 'claim:1' })).json().player as { id: string };
  const p2 = (await bot.req('POST', '/players', { name: 'ben', externalId: 'claim:2' })).json().player as { id: string };
  const asAnn = client(app, created.key.key, p1.id, p1.id);
  const asBen = client(app, created.key.key, p2.id, p2.id);
  const { id, claimant, claimer, deadline } = await opened(asAnn, asBen);
  clock.now = Date.parse(deadline) + HOUR;
  const res = await claimer.req('POST', `/games/${id}/claim-timeout`, {});
  t.equal(res.statusCode, 200);
  t.match(res.json(), { status: 'finished', result: { winner: claimant, reason: 'timeout' } });
});
