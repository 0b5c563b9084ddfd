import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';

// One migrated database for the file. The first tests boot the app completely
// (connection check, migrations); the others share the store to save time.
const { store, databaseUrl } = await openTestStore(t);

t.test('against the machine’s Postgres and Redis: /readyz 200, /healthz 200', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }));
  t.teardown(() => app.close());
  const ready = await app.inject('/readyz');
  t.equal(ready.statusCode, 200);
  t.same(ready.json(), {
    status: 'ready',
    checks: { database: { status: 'ok', kind: 'postgres' }, bus: { status: 'ok', kind: 'redis' } },
  });
  const health = await app.inject('/healthz');
  t.equal(health.statusCode, 200);
  t.same(health.json(), { status: 'ok' });
});

t.test('Redis unreachable: the app starts, /readyz is 503 naming Redis', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl, redisUrl: 'redis://127.0.0.1:1' }));
  t.teardown(() => app.close());
  const res = await app.inject('/readyz');
  t.equal(res.statusCode, 503);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  const body = res.json();
  t.match(body, {
    type: 'urn:herald:problem:not-ready',
    title: 'Service Unavailable',
    status: 503,
    code: 'not_ready',
    detail: /^not ready: Redis bus failed \(/,
    checks: { database: { status: 'ok', kind: 'postgres' }, bus: { status: 'fail', kind: 'redis', error: String } },
  });
  t.equal((await app.inject('/healthz')).statusCode, 200, 'still alive');
});

t.test('database failing: /readyz is 503 naming the database', async (t) => {
  const failing = { ...store, kind: store.kind, prisma: store.prisma, ping: async () => Promise.reject(new Error('connection terminated')), close: async () => {} };
  const app = await buildApp(testConfig({ databaseUrl }), { store: failing });
  t.teardown(() => app.close());
  const res = await app.inject('/readyz');
  t.equal(res.statusCode, 503);
  t.match(res.json(), {
    code: 'not_ready',
    detail: 'not ready: Postgres database failed (connection terminated)',
    checks: { database: { status: 'fail', kind: 'postgres', error: 'connection terminated' }, bus: { status: 'ok', kind: 'memory' } },
  });
});

t.test('a message published on the Redis bus by one instance reaches a subscriber on another', async (t) => {
  const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL });
  const one = await buildApp(config, { store });
  t.teardown(() => one.close());
  const two = await buildApp(config, { store }); // same prefix: same deployment
  t.teardown(() => two.close());
  t.not(one.bus, two.bus);
  const received = new Promise((resolve) => void one.bus.subscribe('game:1', resolve));
  await new Promise((r) => setTimeout(r, 50)); // let SUBSCRIBE reach Redis
  await two.bus.publish('game:1', { version: 2 });
  t.same(await received, { version: 2 });
});

t.test('unknown routes and methods: 404 problem+json', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl }), { store });
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'DELETE', url: '/nowhere?x=1' });
  t.equal(res.statusCode, 404);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  t.same(res.json(), {
    type: 'urn:herald:problem:not-found',
    title: 'Not Found',
    status: 404,
    detail: 'No route for DELETE /nowhere',
    code: 'not_found',
  });
});

t.test('GraphQL at /graphql reads games from the database', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl }), { store });
  t.teardown(() => app.close());
  const game = await app.store.prisma.game.create({ data: { gameType: 'richard-iii', scenario: 'campaign' } });
  const res = await app.inject({
    method: 'POST',
    url: '/graphql',
    payload: { query: 'query($id: ID!) { server { name } game(id: $id) { id gameType scenario status version createdAt } missing: game(id: "nope") { id } }', variables: { id: game.id } },
  });
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    data: {
      server: { name: 'herald' },
      game: { id: game.id, gameType: 'richard-iii', scenario: 'campaign', status: 'setup', version: 0, createdAt: game.createdAt.toISOString() },
      missing: null,
    },
  });
  const list = await app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent('{ games(first: 5) { nodes { id } } }')}` });
  t.equal(list.statusCode, 200);
  t.ok(list.json().data.games.nodes.some((g: { id: string }) => g.id === game.id));
});

t.test('GraphiQL only in development', async (t) => {
  const dev = await buildApp(testConfig({ databaseUrl, development: true }), { store });
  t.teardown(() => dev.close());
  t.equal((await dev.inject('/graphiql')).statusCode, 200);
  const prod = await buildApp(testConfig({ databaseUrl, development: false }), { store });
  t.teardown(() => prod.close());
  t.equal((await prod.inject('/graphiql')).statusCode, 404);
});

t.test('close() waits for in-flight requests, then closes the services it opened', async (t) => {
  // A store whose ping (used by /readyz) waits until released: a request held in flight.
  let pinged!: () => void;
  const pingStarted = new Promise<void>((r) => (pinged = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const slowStore = {
    ...store,
    kind: store.kind,
    prisma: store.prisma,
    async ping() {
      pinged();
      await released;
    },
    close: async () => {},
  };
  const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }), { store: slowStore });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const inFlight = fetch(`http://127.0.0.1:${port}/readyz`);
  await pingStarted;
  let closed = false;
  const closing = app.close().then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 100));
  t.equal(closed, false, 'close() waits while a request is in flight');
  release();
  const res = await inFlight;
  t.equal(res.status, 200, 'the in-flight request completed');
  t.equal(res.headers.get('connection'), 'close', 'and its connection is not kept alive');
  await closing;
  await t.rejects(app.bus.publish('x', 1), { name: 'BusClosedError' }, 'the bus it opened is closed');
  await t.resolves(store.ping(), 'a store passed in is left open (its owner closes it)');
});
