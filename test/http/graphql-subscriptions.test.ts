// GraphQL subscriptions over WebSocket (graphql-ws protocol, the standard
// `graphql-ws` client): two instances share Postgres and Redis and listen on
// real ports; an action committed through instance A reaches a subscriber on
// instance B, who receives its own seat's view.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { client, ok, signUp } from './graphql-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);

const { store, databaseUrl } = await openTestStore(t);
const ADMIN_TOKEN = 'graphql-subscriptions-admin-token';
const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, adminToken: ADMIN_TOKEN }); // one bus prefix: one deployment
const a = await buildApp(config, { store });
t.teardown(() => a.close());
const b = await buildApp(config); // its own store and Redis connections
t.teardown(() => b.close());
await a.listen({ port: 0, host: '127.0.0.1' });
await b.listen({ port: 0, host: '127.0.0.1' });

function wsUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${address.port}/graphql`;
}

function connect(app: FastifyInstance, key: string | null, actAs?: string): Client {
  const c = createClient({
    url: wsUrl(app),
    webSocketImpl: WebSocket,
    connectionParams: key ? { Authorization: `Bearer ${key}`, ...(actAs ? { 'X-Act-As': actAs } : {}) } : {},
    retryAttempts: 0,
    lazy: true,
  });
  t.teardown(() => c.dispose());
  return c;
}

/**
 * Collects a subscription's results. Every wait is bounded: `until` resolves
 * with the first result that matches, `failure()` with the subscription's
 * error, `completion()` when the server completes it.
 */
function subscribe(c: Client, query: string, variables: Record<string, unknown>) {
  const results: FormattedExecutionResult<Record<string, any>, unknown>[] = [];
  const waiters: Array<{ test: (r: FormattedExecutionResult<Record<string, any>, unknown>) => boolean; resolve: (r: FormattedExecutionResult<Record<string, any>, unknown>) => void }> = [];
  let failure: ((err: unknown) => void) | null = null;
  const failed = new Promise<unknown>((resolve) => (failure = resolve));
  let completed!: () => void;
  const done = new Promise<void>((resolve) => (completed = resolve));
  const stop = c.subscribe<Record<string, any>>(
    { query, variables },
    {
      next: (r) => {
        results.push(r);
        for (const w of [...waiters]) if (w.test(r)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(r);
      },
      error: (err) => failure?.(err),
      complete: () => completed(),
    },
  );
  t.teardown(stop);
  return {
    results,
    failure: () => within(failed, () => `the subscription to fail; got ${JSON.stringify(results)}`),
    completion: () => within(done, () => `the subscription to complete; got ${JSON.stringify(results)}`),
    until(test: (r: FormattedExecutionResult<Record<string, any>, unknown>) => boolean, what: string): Promise<FormattedExecutionResult<Record<string, any>, unknown>> {
      const found = results.find(test);
      if (found) return Promise.resolve(found);
      return within(new Promise((resolve) => waiters.push({ test, resolve })), () => `${what}; got ${JSON.stringify(results)}`);
    },
  };
}

const GAME_EVENTS = `subscription($id: ID!, $role: String, $since: Int) {
  gameEvents(gameId: $id, role: $role, since: $since) { gameId version kind actor playerId status activeRoles role view }
}`;

const alice = await signUp(a, 'Alice');
const bob = await signUp(a, 'Bob');
const asAliceOnA = client(a, alice.key);
const asBobOnA = client(a, bob.key);
const asBobOnB = client(b, bob.key);

async function newGame(seed: string): Promise<{ id: string; version: number }> {
  const created = await ok(asAliceOnA(`mutation($input: CreateGameInput!) { createGame(input: $input) { id } }`, { input: { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York'] } }));
  const joined = await ok(asBobOnA(`mutation($id: ID!) { joinGame(gameId: $id) { id version status } }`, { id: created.createGame.id }));
  return { id: joined.joinGame.id, version: joined.joinGame.version };
}

t.test('an action committed on instance A reaches a gameEvents subscriber on instance B with its own seat view', async (t) => {
  const game = await newGame('subs-1');
  const bobOnB = connect(b, bob.key);
  // `since` = the version the subscriber already knows: nothing is lost between
  // subscribing and the action (missed versions are caught up from the database).
  const events = subscribe(bobOnB, GAME_EVENTS, { id: game.id, since: game.version });
  const spectator = subscribe(connect(b, null), GAME_EVENTS, { id: game.id, since: game.version });
  // York (Alice) acts through instance A.
  const la = await ok(asAliceOnA(`query($id: ID!) { legalActions(gameId: $id) { actions } }`, { id: game.id }));
  const r = await ok(
    asAliceOnA(`mutation($id: ID!, $action: JSON!) { submitAction(gameId: $id, action: $action) { version } }`, { id: game.id, action: la.legalActions.actions[0] }),
  );
  const v = r.submitAction.version;
  const got = await events.until((e) => e.data?.gameEvents.version === v, `version ${v} for Bob`);
  t.notOk(got.errors);
  const update = got.data!.gameEvents;
  t.match(update, { gameId: game.id, version: v, kind: 'action', actor: 'York', playerId: alice.id, status: 'active', role: 'Lancaster' });
  // Bob's own view, as instance B serves it over HTTP.
  const own = await ok(asBobOnB(`query($id: ID!) { view(gameId: $id) { version role view } }`, { id: game.id }));
  t.equal(own.view.version, v, 'nothing else happened');
  t.equal(own.view.role, 'Lancaster');
  t.same(update.view, own.view.view, 'the subscriber’s own seat view');
  const spec = await spectator.until((e) => e.data?.gameEvents.version === v, `version ${v} for the spectator`);
  t.equal(spec.data!.gameEvents.role, null, 'spectator view without a seat');
  t.notSame(spec.data!.gameEvents.view, update.view);
});

t.test('catch-up: a subscriber that missed versions gets the current view first', async (t) => {
  const game = await newGame('subs-2');
  const la = await ok(asAliceOnA(`query($id: ID!) { legalActions(gameId: $id) { actions } }`, { id: game.id }));
  const r = await ok(asAliceOnA(`mutation($id: ID!, $action: JSON!) { submitAction(gameId: $id, action: $action) { version } }`, { id: game.id, action: la.legalActions.actions[0] }));
  const events = subscribe(connect(b, bob.key), GAME_EVENTS, { id: game.id, since: 0 });
  const first = await events.until(() => true, 'the catch-up update');
  t.equal(first.data!.gameEvents.version, r.submitAction.version);
  t.equal(first.data!.gameEvents.kind, 'action');
  t.equal(first.data!.gameEvents.role, 'Lancaster');
});

t.test('myTurn on instance B: the current turns first, then new ones from instance A', async (t) => {
  const game = await newGame('subs-3');
  const turns = subscribe(connect(b, bob.key), `subscription { myTurn { gameId version roles } }`, {});
  const now = await turns.until((e) => e.data?.myTurn.gameId === game.id, 'the current turn');
  t.same(now.data!.myTurn.roles, ['Lancaster']);
  const known = now.data!.myTurn.version;
  // Play from A until it is Bob's turn at a later version.
  for (let i = 0; i < 200; i++) {
    const g = await ok(asAliceOnA(`query($id: ID!) { game(id: $id) { version activeRoles } }`, { id: game.id }));
    if (g.game.version > known && g.game.activeRoles.includes('Lancaster')) {
      const later = await turns.until((e) => e.data?.myTurn.gameId === game.id && e.data.myTurn.version > known, 'a later turn');
      t.ok(later.data!.myTurn.roles.includes('Lancaster'));
      return;
    }
    for (const [as, role] of [[asAliceOnA, 'York'], [asBobOnA, 'Lancaster']] as const) {
      if (!g.game.activeRoles.includes(role)) continue;
      const la = await ok(as(`query($id: ID!) { legalActions(gameId: $id) { active actions } }`, { id: game.id }));
      if (la.legalActions.active) await ok(as(`mutation($id: ID!, $action: JSON!) { submitAction(gameId: $id, action: $action) { version } }`, { id: game.id, action: la.legalActions.actions[0] }));
    }
  }
  t.fail('never Bob’s turn again');
});

t.test('gameEvents ends after the game is over (resignation on A, subscriber on B)', async (t) => {
  const game = await newGame('subs-5');
  const events = subscribe(connect(b, alice.key), GAME_EVENTS, { id: game.id, since: game.version });
  const r = await ok(asBobOnA(`mutation($id: ID!) { resign(gameId: $id) { version status } }`, { id: game.id }));
  const last = await events.until((e) => e.data?.gameEvents.version === r.resign.version, 'the resignation');
  t.match(last.data!.gameEvents, { kind: 'resign', actor: 'Lancaster', status: 'finished', role: 'York', activeRoles: [] });
  await events.completion();
  t.pass('completed');
});

t.test('an application acting as its player (X-Act-As) over HTTP and in connection_init', async (t) => {
  const created = await a.inject({ method: 'POST', url: '/admin/apps', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { name: 'Discord bot' } });
  t.equal(created.statusCode, 201);
  const appKey = created.json().key.key as string;
  const made = await ok(client(a, appKey)(`mutation { createPlayer(name: "Dora", isBot: false, externalId: "discord:42") { player { id createdBy } created key { key } } }`));
  t.equal(made.createPlayer.created, true);
  t.equal(made.createPlayer.key, null, 'players of an application have no key of their own');
  const dora = made.createPlayer.player.id as string;
  const asDora = client(a, appKey, dora);
  t.same((await ok(asDora(`{ me { id name } }`))).me, { id: dora, name: 'Dora' });
  const g = await ok(asAliceOnA(`mutation($input: CreateGameInput!) { createGame(input: $input) { id } }`, { input: { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] } }));
  const joined = await ok(asDora(`mutation($id: ID!) { joinGame(gameId: $id) { version myRoles } }`, { id: g.createGame.id }));
  t.same(joined.joinGame.myRoles, ['Lancaster']);
  const events = subscribe(connect(b, appKey, dora), GAME_EVENTS, { id: g.createGame.id, since: joined.joinGame.version });
  const la = await ok(asAliceOnA(`query($id: ID!) { legalActions(gameId: $id) { actions } }`, { id: g.createGame.id }));
  const r = await ok(asAliceOnA(`mutation($id: ID!, $action: JSON!) { submitAction(gameId: $id, action: $action) { version } }`, { id: g.createGame.id, action: la.legalActions.actions[0] }));
  const got = await events.until((e) => e.data?.gameEvents.version === r.submitAction.version, 'the action, as Dora');
  t.equal(got.data!.gameEvents.role, 'Lancaster', 'Dora’s seat view');
});

t.test('subscription errors are typed: bad key, hidden game, over-deep document', async (t) => {
  const game = await newGame('subs-4');
  const badKey = subscribe(connect(b, 'hk_not-a-key'), GAME_EVENTS, { id: game.id });
  t.match(await badKey.failure(), [{ extensions: { code: 'unauthorized' } }]);
  const anonymousTurns = subscribe(connect(b, null), `subscription { myTurn { gameId } }`, {});
  t.match(await anonymousTurns.failure(), [{ extensions: { code: 'unauthorized' } }]);
  const missing = subscribe(connect(b, bob.key), GAME_EVENTS, { id: '00000000-0000-4000-8000-000000000000' });
  t.match(await missing.failure(), [{ extensions: { code: 'not_found' } }]);
  const nest = (n: number): string => (n === 0 ? 'x' : `x { ${nest(n - 1)} }`);
  const deep = subscribe(connect(b, bob.key), `subscription($id: ID!) { gameEvents(gameId: $id) { ${nest(10)} } }`, { id: game.id });
  t.match(await deep.failure(), [{ extensions: { code: 'query_too_complex', measure: 'depth' } }]);
  for (const s of [badKey, anonymousTurns, missing, deep]) t.notMatch(JSON.stringify(await s.failure()), /stack|\.ts:\d+/);
});
