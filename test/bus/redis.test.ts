import t from 'tap';
import { Redis } from 'ioredis';
import { createRedisBus } from '../../src/bus/index.ts';
import { busContract, collect } from '../helpers/bus-contract.ts';
import { TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';

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
  const prefix = uniquePrefix();
  const bus = createRedisBus({ url: TEST_REDIS_URL, prefix });
  const admin = new Redis(TEST_REDIS_URL);
  t.teardown(async () => {
    await bus.close();
    admin.disconnect();
  });
  const got: unknown[] = [];
  await bus.subscribe('game:9', (m) => got.push(m));
  await bus.ping();

  const clients = (await admin.client('LIST')) as string;
  const ours = clients
    .split('\n')
    .filter((line) => line.includes(`name=herald-`) && line.includes(prefix))
    .map((line) => /\bid=(\d+)/.exec(line)?.[1]);
  t.equal(ours.length, 2, 'a publisher and a subscriber connection');
  for (const id of ours) await admin.client('KILL', 'ID', id!);

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
