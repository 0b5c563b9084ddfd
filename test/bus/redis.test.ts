import t from 'tap';
import { Redis } from 'ioredis';
import { createRedisBus } from '../../src/bus/index.ts';
import { busContract, collect } from '../helpers/bus-contract.ts';
import { TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';

/** Redis client ids of a bus's connections (named `<name>…<prefix>`, see redis.ts connect()). */
async function connectionIds(admin: Redis, prefix: string, name: string): Promise<string[]> {
  const clients = (await admin.client('LIST')) as string;
  return clients
    .split('\n')
    .filter((line) => line.includes(`name=${name}`) && line.includes(prefix))
    .map((line) => /\bid=(\d+)/.exec(line)![1]!);
}

/** `n` Redis buses on one fresh prefix and an admin connection (to kill theirs), closed at teardown. */
function busesWithAdmin(t: { teardown(fn: () => unknown): void }, n: number) {
  const prefix = uniquePrefix();
  const buses = Array.from({ length: n }, () => createRedisBus({ url: TEST_REDIS_URL, prefix }));
  const admin = new Redis(TEST_REDIS_URL);
  t.teardown(async () => {
    await Promise.all(buses.map((b) => b.close()));
    admin.disconnect();
  });
  return { prefix, buses: buses as [RedisBusOf, ...RedisBusOf[]], admin };
}
type RedisBusOf = ReturnType<typeof createRedisBus>;

t.test('Redis bus: Bus contract', async (t) => {
  busContract(t, () => createRedisBus({ url: TEST_REDIS_URL, prefix: uniquePrefix() }));
});

t.test('Redis bus: a message crosses between two buses (separate connections)', async (t) => {
  const prefix = uniquePrefix();
  const a = createRedisBus({ url: TEST_REDIS_URL, prefix });
  const b = createRedisBus({ url: TEST_REDIS_URL, prefix });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const c = collect(1);
  await a.subscribe('game:42', c.handler);
  await b.publish('game:42', { version: 7 });
  t.same((await c.done)[0], [{ version: 7 }, 'game:42']);
});

t.test('Redis bus: prefixes isolate deployments sharing one Redis', async (t) => {
  const a = createRedisBus({ url: TEST_REDIS_URL, prefix: uniquePrefix() });
  const b = createRedisBus({ url: TEST_REDIS_URL, prefix: uniquePrefix() });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const got: unknown[] = [];
  await a.subscribe('same', (m) => got.push(m));
  await b.publish('same', 'not for a');
  await a.ping();
  await new Promise((r) => setTimeout(r, 100));
  t.same(got, []);
});

t.test('Redis bus: unreachable Redis makes ping and publish fail, not hang', async (t) => {
  const errors: string[] = [];
  const bus = createRedisBus({
    url: 'redis://127.0.0.1:1',
    prefix: uniquePrefix(),
    onConnectionError: (err) => errors.push(err.message),
  });
  t.teardown(() => bus.close());
  await t.rejects(bus.ping(1000));
  await t.rejects(bus.publish('x', 1));
  t.ok(errors.length >= 1, 'connection error reported');
  t.ok(errors.length <= 2, 'reported once per connection, not on every retry');
});

t.test('Redis bus: after its connections are killed it reconnects and re-subscribes', async (t) => {
  const { prefix, buses: [bus], admin } = busesWithAdmin(t, 1);
  const got: unknown[] = [];
  await bus.subscribe('game:9', (m) => got.push(m));
  await bus.ping();

  const ours = await connectionIds(admin, prefix, 'herald-');
  t.equal(ours.length, 2, 'a publisher and a subscriber connection');
  for (const id of ours) await admin.client('KILL', 'ID', id);

  // Reconnection is asynchronous: retry the round trip until it succeeds again.
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await bus.ping(500);
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
  await bus.publish('game:9', 'after reconnect');
  const until = Date.now() + 3000;
  while (got.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  t.same(got, ['after reconnect'], 'the old subscription works again');
});

/** Kills the bus's publisher connection (it reconnects after ~200 ms, retryStrategy). */
async function killPublisher(admin: Redis, prefix: string): Promise<void> {
  const [id] = await connectionIds(admin, prefix, 'herald-publisher-');
  await admin.client('KILL', 'ID', id!);
}

t.test('Redis bus: local subscribers get a message at once and only once; other instances through Redis', async (t) => {
  const { prefix, buses: [a, b], admin } = busesWithAdmin(t, 2);
  const onA: unknown[] = [];
  const onB: unknown[] = [];
  await a.subscribe('game:5', (m) => onA.push(m));
  await b.subscribe('game:5', (m) => onB.push(m));
  await a.ping();

  // A's publisher connection is down: its own subscribers do not wait for it.
  await killPublisher(admin, prefix);
  let sent = false;
  const published = a.publish('game:5', { version: 1 }).then(() => (sent = true));
  const t0 = Date.now();
  while (onA.length === 0 && Date.now() - t0 < 1000) await new Promise((r) => setImmediate(r));
  t.same(onA, [{ version: 1 }], 'delivered on the publishing instance');
  t.notOk(sent, 'before the publish reached Redis');
  await published;
  const until = Date.now() + 3000;
  while (onB.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  t.same(onB, [{ version: 1 }], 'the other instance gets it through Redis');
  await a.publish('game:5', { version: 2 });
  // (Order holds per publisher; B's own message would overtake one still on its way from A.)
  while (onB.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  await b.publish('game:5', { version: 3 });
  await a.ping();
  await b.ping();
  await new Promise((r) => setTimeout(r, 100));
  t.same(onA, [{ version: 1 }, { version: 2 }, { version: 3 }], "A's own messages are not delivered again by their echo");
  t.same(onB, [{ version: 1 }, { version: 2 }, { version: 3 }]);
});

t.test('Redis bus: ping needs the round trip through Redis', async (t) => {
  const { prefix, buses: [bus], admin } = busesWithAdmin(t, 1);
  await bus.ping();
  await killPublisher(admin, prefix);
  await t.rejects(bus.ping(100), 'fails while the publisher is down, although the bus could deliver locally');
});
