// Bad input that black-box probing of a running server turned into 500s (or
// GraphQL internal_error), on real Postgres: each is now a typed 4xx / a
// GraphQL error with its code, or (a view before the start) a plain null, and
// changes nothing.
// - Cursors that decode to dates Postgres cannot take (year 0, ±275760):
//   GET /games, /leagues, /players/{id}/ratings/{gameType} and their GraphQL
//   lists.
// - A webhook redelivery range from year 0 (REST and GraphQL).
// - GraphQL's view of a game before its start (REST answers view: null), and
//   a gameEvents update while the game is still in setup.
// - A webhook changed (PATCH, rotate-secret, test) while a DELETE of it
//   commits: the change found no row (Prisma P2025, a foreign key violation).
// - A subscription's start message over WebSocket that Mercurius refused
//   itself: untyped errors (syntax, variables, a query sent as a
//   subscription) or a TypeError's message (no operation to run; a start
//   message without a payload object, or with a query that is no text).
// - A stored Black & White game on a server without its data file (the game
//   type listed, not playable): view, actions, log, pictures, rematch… were
//   500s ("game type black-and-white is not installed").
// - /me/vacation (and GraphQL's vacation fields) with the operator's token,
//   which has no player: '' reached Postgres as a uuid.
// - GraphQL over GET with an operationName the document lacks, or several
//   operations and no name: a TypeError in Mercurius.
import t from 'tap';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { FormattedExecutionResult } from 'graphql';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { ADMIN_TOKEN, signup } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';
import * as webhookStore from '../../src/store/webhooks.ts';
import { inventedDataFiles } from '../helpers/games/index.ts';
import type { GameService } from '../../src/service/service.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN, webhookAllowPrivate: true }), { store });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });

const alice = await signup(app, 'Alice');
const bob = await signup(app, 'Bob');
const gql = gqlClient(app, alice.key);
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const someId = '518624be-b6ac-45a7-830e-74067aadec4a';

// A page of each list, so that a cursor that did reach the database would find rows after it.
await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] });
await alice.req('POST', '/leagues', { name: 'Cursor league', gameType: 'richard-iii', format: 'round-robin' });

const OUT_OF_RANGE = ['0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '-271821-04-20T00:00:00.000Z', '+275760-09-13T00:00:00.000Z', '+010000-01-01T00:00:00Z'];

t.test('a cursor whose date Postgres cannot take is 400 invalid_request, REST and GraphQL', async (t) => {
  for (const at of OUT_OF_RANGE) {
    const cursors: Array<[string, string]> = [
      ['/games', b64(`${at}|${someId}`)],
      ['/leagues', b64(JSON.stringify([at, someId]))],
      [`/players/${alice.id}/ratings/richard-iii`, b64(JSON.stringify([at, someId]))],
    ];
    for (const [path, cursor] of cursors) {
      const res = await alice.req('GET', `${path}?cursor=${cursor}`);
      t.equal(res.statusCode, 400, `${path} cursor at ${at}: 400 (got ${res.statusCode} ${res.body.slice(0, 120)})`);
      t.equal(res.json().code, 'invalid_request');
    }
    const lists: Array<[string, string]> = [
      ['query($c: String) { games(after: $c) { nextCursor } }', b64(`${at}|${someId}`)],
      ['query($c: String) { leagues(after: $c) { nextCursor } }', b64(JSON.stringify([at, someId]))],
      [`query($c: String) { ratingHistory(playerId: "${alice.id}", gameType: "richard-iii", after: $c) { nextCursor } }`, b64(JSON.stringify([at, someId]))],
    ];
    for (const [query, c] of lists) {
      const r = await gql(query, { c });
      t.equal(r.errors?.[0]?.extensions?.code, 'invalid_request', `${query.slice(20, 40)} at ${at}: ${JSON.stringify(r.errors)}`);
    }
  }
  // A league cursor with a number for its date (the server writes a string) is refused the same way.
  for (const n of [-8.64e15, 8.64e15]) {
    const res = await alice.req('GET', `/leagues?cursor=${b64(JSON.stringify([n, someId]))}`);
    t.equal(res.statusCode, 400, `league cursor at ${n}: 400`);
  }
  // The years Postgres takes still page (nothing before the first year, everything before the last).
  t.equal((await alice.req('GET', `/games?cursor=${b64(`0001-01-01T00:00:00Z|${someId}`)}`)).statusCode, 200);
  const late = await alice.req('GET', `/leagues?cursor=${b64(JSON.stringify(['9999-12-31T23:59:59Z', someId]))}`);
  t.equal(late.statusCode, 200);
  t.equal(late.json().items.length, 1, 'a cursor at the last year pages from the newest league');
});

t.test('a webhook redelivery range from year 0 is 400 invalid_request (REST and GraphQL); nothing is queued', async (t) => {
  const made = await alice.req('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['game_ended'] });
  t.equal(made.statusCode, 201);
  const id = made.json().webhook.id as string;
  for (const at of ['0000-01-01T00:00:00Z', '0000-06-30T12:00:00.000Z']) {
    const since = await alice.req('POST', `/webhooks/${id}/redeliver`, { since: at });
    t.equal(since.statusCode, 400, `since ${at}: ${since.body.slice(0, 160)}`);
    t.match(since.json(), { code: 'invalid_request', field: 'since' });
    const until = await alice.req('POST', `/webhooks/${id}/redeliver`, { since: '2026-01-01T00:00:00Z', until: at.replace(/^0000/, '+010000') });
    t.equal(until.statusCode, 400, `until beyond year 9999: ${until.body.slice(0, 160)}`);
    const r = await gql(`mutation($s: String!) { redeliverWebhookMessages(id: "${id}", since: $s) }`, { s: at });
    t.equal(r.errors?.[0]?.extensions?.code, 'invalid_request', JSON.stringify(r.errors));
  }
  const ok = await alice.req('POST', `/webhooks/${id}/redeliver`, { since: '0001-01-01T00:00:00Z' });
  t.equal(ok.statusCode, 202, 'year 1 is a date Postgres takes');
  t.equal(ok.json().queued, 0);
});

t.test('GraphQL view of a game before its start is null, as over REST (was internal_error)', async (t) => {
  const setup = (await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json().id as string;
  const rest = await alice.req('GET', `/games/${setup}/view`);
  t.equal(rest.statusCode, 200);
  t.equal(rest.json().view, null);
  const r = await gql('query($g: ID!) { view(gameId: $g) { version status role view } }', { g: setup });
  t.same(r.errors, undefined, JSON.stringify(r.errors));
  t.same(r.data?.view, { version: 0, status: 'setup', role: 'York', view: null });

  // Version 0 of a finished game (before its start) is null too; a later version is not.
  const played = (await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'Lancaster'] })).json().id as string;
  t.equal((await alice.req('POST', `/games/${played}/resign`, { role: 'York' })).statusCode, 200);
  const at0 = await gql('query($g: ID!) { view(gameId: $g, role: "York", version: 0) { version view } }', { g: played });
  t.same(at0.errors, undefined, JSON.stringify(at0.errors));
  t.same(at0.data?.view, { version: 0, view: null });
  const at1 = await gql('query($g: ID!) { view(gameId: $g, role: "York", version: 1) { version view } }', { g: played });
  t.not(at1.data?.view?.view, null, 'the started game has a view');
});

t.test('gameEvents: a version of a game still in setup arrives with view null, not an error', async (t) => {
  const id = (await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], autoStart: false })).json().id as string;
  // Bob takes the other seat; without auto-start the game stays in setup, at a version after 0.
  t.equal((await bob.req('POST', `/games/${id}/join`, { role: 'Lancaster' })).statusCode, 200);
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const ws = createClient({ url: `ws://127.0.0.1:${address.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${alice.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => ws.dispose());
  const got: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
  const waiting: Array<() => void> = [];
  const stop = ws.subscribe(
    { query: 'subscription($g: ID!) { gameEvents(gameId: $g, since: 0) { version kind status view } }', variables: { g: id } },
    {
      next: (r) => { got.push(r); waiting.splice(0).forEach((f) => f()); },
      error: (err) => { got.push({ errors: [{ message: String(err) }] }); waiting.splice(0).forEach((f) => f()); },
      complete: () => undefined,
    },
  );
  t.teardown(stop);
  const nth = (n: number) => within(new Promise<void>((resolve) => (got.length >= n ? resolve() : waiting.push(function again() { if (got.length >= n) resolve(); else waiting.push(again); }))), () => `update ${n}; got ${JSON.stringify(got)}`);
  // since: 0 catches up with the join's version at once.
  await nth(1);
  t.same(got[0]?.errors, undefined, JSON.stringify(got[0]));
  t.match(got[0]?.data, { gameEvents: { kind: 'join', status: 'setup', view: null } });
  // Bob leaves: another setup version, delivered the same way.
  t.equal((await bob.req('POST', `/games/${id}/leave`, {})).statusCode, 200);
  await nth(2);
  t.same(got[1]?.errors, undefined, JSON.stringify(got[1]));
  t.match(got[1]?.data, { gameEvents: { kind: 'leave', status: 'setup', view: null } });
});

t.test('a webhook deleted while it is changed: 404 not_found, never a 500', async (t) => {
  // The store's writes on an endpoint that is gone (the state a concurrent DELETE leaves between the
  // service's ownership check and its write): no row, no throw.
  const made = await alice.req('POST', '/webhooks', { url: 'http://127.0.0.1:9/gone', events: ['game_ended'] });
  const row = (await webhookStore.findEndpoint(store.prisma, made.json().webhook.id))!;
  t.equal((await alice.req('DELETE', `/webhooks/${row.id}`)).statusCode, 204);
  t.equal(await webhookStore.updateEndpoint(store.prisma, row.id, { enabled: false }), null, 'update of a deleted endpoint: null');
  t.equal(await webhookStore.rotateSecret(store.prisma, row, 'whsec_x', new Date()), null, 'rotation of a deleted endpoint: null');
  t.equal(await webhookStore.insertMessage(store.pool, row.id, 'ping', {}), null, 'a ping to a deleted endpoint: null');
  t.equal(await webhookStore.deleteEndpoint(store.prisma, row.id), false, 'a second delete: false');

  // Over HTTP, each change raced against a DELETE of the same endpoint: every answer is a success or a 404.
  for (let i = 0; i < 15; i++) {
    const id = (await alice.req('POST', '/webhooks', { url: `http://127.0.0.1:9/race${i}`, events: ['game_ended'] })).json().webhook.id as string;
    const answers = await Promise.all([
      alice.req('DELETE', `/webhooks/${id}`),
      alice.req('PATCH', `/webhooks/${id}`, { enabled: false }),
      alice.req('POST', `/webhooks/${id}/rotate-secret`),
      alice.req('POST', `/webhooks/${id}/test`),
      alice.req('DELETE', `/webhooks/${id}`),
    ]);
    for (const a of answers) {
      if (a.statusCode >= 300 && !(a.statusCode === 404 && a.json().code === 'not_found')) t.fail(`race ${i}: ${a.statusCode} ${a.body.slice(0, 160)}`);
    }
    t.equal((await alice.req('GET', `/webhooks/${id}`)).statusCode, 404, `race ${i}: the endpoint is deleted`);
  }
  const left = await store.pool.query("SELECT count(*)::int AS n FROM webhook_messages m LEFT JOIN webhook_endpoints e ON e.id = m.endpoint_id WHERE e.id IS NULL");
  t.equal(left.rows[0].n, 0, 'no message outlives its endpoint');
});

t.test('WebSocket: a start message that cannot run is refused with invalid_request, never untyped', async (t) => {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const ws = createClient({ url: `ws://127.0.0.1:${address.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${alice.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => ws.dispose());
  const refusal = (query: string, variables: Record<string, unknown>, operationName?: string) =>
    within(new Promise<unknown>((resolve) => {
      ws.subscribe({ query, variables, ...(operationName ? { operationName } : {}) }, { next: (r) => resolve(r), error: (err) => resolve(err), complete: () => resolve('complete') });
    }), `an answer to ${query}`);
  const CLOCK = 'subscription($g: ID!) { gameClock(gameId: $g) { gameId } }';
  const cases: Array<[string, string, Record<string, unknown>, string?]> = [
    ['a syntax error', 'subscription { gameEvents(', {}],
    ['an empty document', '', {}],
    ['a query', 'query { gameTypes { id } }', {}],
    ['a mutation', 'mutation { createKey { key } }', {}],
    ['a required variable left out', CLOCK, {}],
    ['a variable of the wrong type', CLOCK, { g: 5.5 }],
    ['a null for a required variable', CLOCK, { g: null }],
    ['an Int variable given a string', 'subscription($g: ID!, $s: Int) { gameEvents(gameId: $g, since: $s) { version } }', { g: someId, s: 'abc' }],
    ['two operations and no operationName', 'subscription a { myTurn { gameId } } subscription b { mySeats { gameId } }', {}],
    ['an operationName the document lacks', 'subscription a { myTurn { gameId } }', {}, 'zzz'],
    ['fragments only', 'fragment f on Subscription { __typename }', {}],
  ];
  for (const [what, query, variables, operationName] of cases) {
    const got = await refusal(query, variables, operationName);
    const errors = (Array.isArray(got) ? got : [got]) as Array<{ message?: string; extensions?: { code?: string } }>;
    t.equal(errors[0]?.extensions?.code, 'invalid_request', `${what}: ${JSON.stringify(got)}`);
    t.notMatch(errors[0]?.message ?? '', /Cannot read properties/, `${what}: no internal message`);
  }
});

t.test('a stored game of a type this server cannot play now: 409 game_type_unavailable, never a 500', async (t) => {
  // Made on a server with the Black & White data file; `app` (same database) has none.
  // No jobs there: the AI game below stays at its AI seats' turn.
  const withData = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN, gameDataFiles: inventedDataFiles(), jobs: false }), { store });
  t.teardown(() => withData.close());
  const player = await signup(withData, 'Thargaton and Vesania');
  const bw = { gameType: 'black-and-white', scenario: 's01' };
  const active = (await player.req('POST', '/games', { ...bw, roles: ['Thargaton', 'Vesania'] })).json().id as string;
  const over = (await player.req('POST', '/games', { ...bw, roles: ['Thargaton', 'Vesania'] })).json().id as string;
  t.equal((await player.req('POST', `/games/${over}/resign`, { role: 'Thargaton' })).statusCode, 200);
  const setup = (await player.req('POST', '/games', { ...bw, roles: ['Thargaton'] })).json().id as string;
  const before = await store.prisma.game.findMany({ where: { id: { in: [active, over, setup] } }, select: { id: true, version: true, status: true }, orderBy: { id: 'asc' } });

  const types = (await app.inject('/game-types')).json() as Array<{ id: string; playable: boolean }>;
  t.match(types.find((g) => g.id === 'black-and-white'), { playable: false }, 'this server lists Black & White as not playable');
  const as = (method: string, url: string, payload?: unknown) =>
    app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${player.key}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });
  // Reading the game's summary and its record needs no rules.
  t.equal((await as('GET', `/games/${active}`)).statusCode, 200);
  t.equal((await as('GET', `/games/${over}/export`)).statusCode, 200);
  const refused: Array<[string, string, unknown?]> = [
    ['GET', `/games/${active}/view?role=Thargaton`],
    ['GET', `/games/${active}/actions?role=Thargaton`],
    ['GET', `/games/${active}/log?lang=pl`],
    ['GET', `/games/${active}/board.svg`],
    ['GET', `/games/${over}/board.png?version=1`],
    ['GET', `/games/${over}/view?version=1`],
    ['GET', `/watch/${over}`],
    ['POST', `/games/${active}/actions`, { action: { type: 'done' }, role: 'Thargaton' }],
    ['POST', `/games/${active}/resign`, { role: 'Vesania' }],
    ['POST', `/games/${over}/rematch`],
  ];
  for (const [method, url, payload] of refused) {
    const res = await as(method, url, payload);
    t.equal(res.statusCode, 409, `${method} ${url}: 409 (got ${res.statusCode} ${res.body.slice(0, 120)})`);
    t.match(res.json(), { code: 'game_type_unavailable', gameType: 'black-and-white' });
    t.ok(Array.isArray(res.json().missing) && res.json().missing.length > 0, 'missing says why');
  }
  const gql = gqlClient(app, player.key);
  for (const query of [
    `{ view(gameId: "${active}", role: "Thargaton") { view } }`,
    `{ legalActions(gameId: "${active}", role: "Thargaton") { actions } }`,
    `{ log(gameId: "${over}") { lines } }`,
    `{ boardPicture(gameId: "${over}") { body } }`,
  ]) {
    const r = await gql(query);
    t.equal(r.errors?.[0]?.extensions?.code, 'game_type_unavailable', `${query}: ${JSON.stringify(r.errors)}`);
  }
  const after = await store.prisma.game.findMany({ where: { id: { in: [active, over, setup] } }, select: { id: true, version: true, status: true }, orderBy: { id: 'asc' } });
  t.same(after, before, 'nothing changed');
  // The AI sweep of the server without the data leaves the game's AI seats alone (a move could
  // only fail, every sweep, and the game would hold a place among the oldest games it picks).
  const aiGame = (await player.req('POST', '/games', { ...bw, ai: { Thargaton: 'random', Vesania: 'random' } })).json().id as string;
  const pending = (a: typeof app) => (a.gameService as unknown as GameService).pendingAiGames();
  t.ok((await pending(withData)).includes(aiGame), 'the server with the data has the AI move due');
  t.notOk((await pending(app)).includes(aiGame), 'the server without it does not pick the game');
  // The server that has the data plays on.
  t.equal((await player.req('GET', `/games/${active}/actions?role=Thargaton`)).statusCode, 200);
});

t.test('the operator token on /me/vacation and the GraphQL vacation fields: 403 forbidden, never a 500', async (t) => {
  const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
  for (const [method, payload] of [['GET', undefined], ['POST', {}], ['POST', { until: '2099-01-01T00:00:00Z' }], ['DELETE', undefined]] as const) {
    const res = await app.inject({ method, url: '/me/vacation', headers: operator, ...(payload !== undefined ? { payload } : {}) });
    t.equal(res.statusCode, 403, `${method} /me/vacation ${JSON.stringify(payload) ?? ''}: ${res.body.slice(0, 120)}`);
    t.equal(res.json().code, 'forbidden');
  }
  const gql = gqlClient(app, ADMIN_TOKEN);
  for (const query of ['{ myVacation { onVacation } }', 'mutation { startVacation { onVacation } }', 'mutation { endVacation { onVacation } }']) {
    const r = await gql(query);
    t.equal(r.errors?.[0]?.extensions?.code, 'forbidden', `${query}: ${JSON.stringify(r.errors)}`);
  }
  t.equal(await store.prisma.vacation.count(), 0, 'no vacation was stored');
});

t.test('GraphQL over GET: a document without the operation to run is 400 invalid_request, never a 500', async (t) => {
  const get = (params: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/graphql?${new URLSearchParams(params).toString()}`, headers: { authorization: `Bearer ${alice.key}` } });
  const one = '{ gameTypes { id } }';
  const two = 'query a { gameTypes { id } } query b { me { id } }';
  // Each text once without the problem first: Mercurius caches a text it has parsed, and a cached
  // text skips its hooks.
  t.equal((await get({ query: one })).statusCode, 200);
  t.equal((await get({ query: two, operationName: 'b' })).statusCode, 200);
  const cases: Array<Record<string, string>> = [{ query: one, operationName: 'x' }, { query: two }, { query: two, operationName: 'c' }, { query: 'fragment f on Query { me { id } }' }];
  for (const params of cases) {
    for (let i = 0; i < 2; i++) {
      const res = await get(params);
      t.equal(res.statusCode, 400, `${JSON.stringify(params)}: ${res.body.slice(0, 160)}`);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'invalid_request');
    }
  }
  t.equal((await get({ query: two, operationName: 'a' })).statusCode, 200, 'a name the document has still runs');
});

t.test('a subscription over HTTP is 400 invalid_request before it runs (was a 200 with the refusal in its errors)', async (t) => {
  const post = (query: string, operationName?: string) =>
    app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${alice.key}` }, payload: { query, ...(operationName ? { operationName } : {}) } });
  const sub = `subscription { gameEvents(gameId: "${someId}") { __typename } }`;
  const both = `query q { me { id } } subscription s { gameEvents(gameId: "${someId}") { __typename } }`;
  // Twice each: Mercurius caches a text it has validated, and a cached text skips its validation hooks.
  for (let i = 0; i < 2; i++) {
    for (const [query, name] of [[sub, undefined], [both, 's']] as const) {
      const res = await post(query, name);
      t.equal(res.statusCode, 400, `${name ?? 'the only operation'}: ${res.body.slice(0, 160)}`);
      t.equal(res.json().errors?.[0]?.extensions?.code, 'invalid_request');
      t.match(res.json().errors?.[0]?.message, /WebSocket/);
    }
    t.equal((await post(both, 'q')).statusCode, 200, 'the query beside it still runs');
  }
});

t.test('WebSocket: a subscribe message without a payload object or a query text is refused with invalid_request', async (t) => {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  // Raw messages: the graphql-ws client would not send these.
  const answers = async (payload: unknown): Promise<unknown[]> => {
    const socket = new WebSocket(`ws://127.0.0.1:${address.port}/graphql`, 'graphql-transport-ws');
    t.teardown(() => socket.terminate());
    const got: unknown[] = [];
    const error = new Promise<void>((resolve) => {
      socket.on('message', (d) => {
        const m = JSON.parse(String(d)) as { type: string; id?: string; payload?: unknown };
        if (m.type === 'connection_ack') socket.send(JSON.stringify({ id: '1', type: 'subscribe', ...(payload === undefined ? {} : { payload }) }));
        if (m.type === 'error' || m.type === 'next') {
          got.push(m.payload);
          resolve();
        }
      });
    });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${alice.key}` } })));
    await within(error, () => `an answer to ${JSON.stringify(payload)}; got ${JSON.stringify(got)}`);
    socket.terminate();
    return got;
  };
  for (const payload of [undefined, null, 'subscription { myTurn { gameId } }', [], { query: 5 }, { query: { kind: 'Document', definitions: [] } }, { variables: {} }]) {
    const [first] = await answers(payload);
    const errors = first as Array<{ message?: string; extensions?: { code?: string } }>;
    t.equal(errors?.[0]?.extensions?.code, 'invalid_request', `payload ${JSON.stringify(payload)}: ${JSON.stringify(first)}`);
  }
});
