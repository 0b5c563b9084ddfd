// The fan-out: one bus subscription per channel however many listeners,
// dropped with the last one; failed subscriptions are retried.
import t from 'tap';
import { createMemoryBus, type Bus, type Json } from '../../src/bus/index.ts';
import { Fanout } from '../../src/notify/fanout.ts';

/** A memory bus that counts subscriptions and can be told to fail them. */
function countingBus(): { bus: Bus; subscribes: string[]; unsubscribes: string[]; failNext: { n: number } } {
  const inner = createMemoryBus();
  const subscribes: string[] = [];
  const unsubscribes: string[] = [];
  const failNext = { n: 0 };
  const bus: Bus = {
    ...inner,
    kind: 'memory',
    async subscribe(channel, handler) {
      subscribes.push(channel);
      if (failNext.n > 0) {
        failNext.n -= 1;
        throw new Error('redis down');
      }
      const off = await inner.subscribe(channel, handler);
      return async () => {
        unsubscribes.push(channel);
        await off();
      };
    },
    publish: (c, m) => inner.publish(c, m),
    close: () => inner.close(),
  };
  return { bus, subscribes, unsubscribes, failNext };
}

/** Lets the memory bus deliver (it dispatches with setImmediate; ours runs after it), then waits 20 ms more. */
const tick = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 20));
};

t.test('one subscription per channel; every listener gets each message; the last one out unsubscribes', async (t) => {
  const { bus, subscribes, unsubscribes } = countingBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const a: Json[] = [];
  const b: Json[] = [];
  const offA = await fanout.listen('game:1', (m) => a.push(m));
  const offB = await fanout.listen('game:1', (m) => b.push(m));
  await fanout.listen('game:2', () => {});
  t.same(subscribes, ['game:1', 'game:2']);
  await bus.publish('game:1', { version: 1 });
  await tick();
  t.same(a, [{ version: 1 }]);
  t.same(b, [{ version: 1 }]);
  offA();
  offA(); // twice is harmless
  t.same(unsubscribes, []);
  t.equal(fanout.listenerCount('game:1'), 1);
  offB();
  t.equal(fanout.listenerCount('game:1'), 0);
  await tick();
  t.same(unsubscribes, ['game:1']);
  await bus.publish('game:1', { version: 2 });
  await tick();
  t.same(a, [{ version: 1 }]);
  t.equal(fanout.channelCount(), 1);
});

t.test('a throwing listener does not stop the others', async (t) => {
  const { bus } = countingBus();
  const fanout = new Fanout(bus);
  t.teardown(() => fanout.close());
  const got: Json[] = [];
  await fanout.listen('c', () => {
    throw new Error('bug');
  });
  await fanout.listen('c', (m) => got.push(m));
  await bus.publish('c', 1);
  await tick();
  t.same(got, [1]);
});

t.test('a failed subscription resolves listen() anyway and is retried', async (t) => {
  const { bus, subscribes, failNext } = countingBus();
  failNext.n = 2;
  const fanout = new Fanout(bus, { retryMs: 10 });
  t.teardown(() => fanout.close());
  const got: Json[] = [];
  await fanout.listen('game:9', (m) => got.push(m));
  while (subscribes.length < 3) await tick();
  await tick();
  await bus.publish('game:9', 'hello');
  await tick();
  t.same(got, ['hello'], 'subscribed after two failures');
});

t.test('close() drops every subscription and refuses new listeners', async (t) => {
  const { bus, unsubscribes } = countingBus();
  const fanout = new Fanout(bus);
  await fanout.listen('x', () => {});
  await fanout.listen('y', () => {});
  await fanout.close();
  t.same(unsubscribes.sort(), ['x', 'y']);
  await t.rejects(fanout.listen('z', () => {}), /closed/);
});
