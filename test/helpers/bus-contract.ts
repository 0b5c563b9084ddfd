// The behaviour every Bus implementation must have. Run by
// test/bus/memory.test.ts and test/bus/redis.test.ts.
import type { Test } from 'tap';
import type { Bus, Json } from '../../src/bus/index.ts';

/** Resolves with the first `count` messages a handler receives (rejects after 3 s). */
export function collect(count: number): { handler: (m: Json, channel: string) => void; done: Promise<Array<[Json, string]>> } {
  const got: Array<[Json, string]> = [];
  let resolve!: (v: Array<[Json, string]>) => void;
  let reject!: (e: Error) => void;
  const done = new Promise<Array<[Json, string]>>((res, rej) => ((resolve = res), (reject = rej)));
  const timer = setTimeout(() => reject(new Error(`received ${got.length} of ${count} messages`)), 3000);
  return {
    handler: (m, channel) => {
      got.push([m, channel]);
      if (got.length === count) {
        clearTimeout(timer);
        resolve(got);
      }
    },
    done,
  };
}

const settle = () => new Promise((r) => setTimeout(r, 100));

/** makeBus returns a fresh, isolated bus; the contract closes it. */
export function busContract(t: Test, makeBus: () => Promise<Bus> | Bus): void {
  const open = async (tt: Test): Promise<Bus> => {
    const bus = await makeBus();
    tt.teardown(() => bus.close());
    return bus;
  };

  t.test('a subscriber receives a published JSON message as a copy', async (tt) => {
    const bus = await open(tt);
    const c = collect(1);
    await bus.subscribe('game:1', c.handler);
    const message = { type: 'changed', version: 3, seats: ['york', 'lancaster'], done: false, none: null };
    await bus.publish('game:1', message);
    const [[got, channel]] = await c.done;
    tt.same(got, message);
    tt.not(got, message, 'not the publisher’s object');
    tt.equal(channel, 'game:1');
  });

  t.test('messages arrive in publish order; every subscriber of the channel gets them', async (tt) => {
    const bus = await open(tt);
    const a = collect(3);
    const b = collect(3);
    await bus.subscribe('ordered', a.handler);
    await bus.subscribe('ordered', b.handler);
    for (const n of [1, 2, 3]) await bus.publish('ordered', n);
    tt.same((await a.done).map(([m]) => m), [1, 2, 3]);
    tt.same((await b.done).map(([m]) => m), [1, 2, 3]);
  });

  t.test('channels are isolated', async (tt) => {
    const bus = await open(tt);
    const other: Json[] = [];
    await bus.subscribe('other', (m) => other.push(m));
    const c = collect(1);
    await bus.subscribe('mine', c.handler);
    await bus.publish('mine', 'hello');
    await c.done;
    await settle();
    tt.same(other, []);
  });

  t.test('after unsubscribe a handler gets nothing; other handlers still do', async (tt) => {
    const bus = await open(tt);
    const gone: Json[] = [];
    const unsubscribe = await bus.subscribe('ch', (m) => gone.push(m));
    const stays = collect(1);
    await bus.subscribe('ch', stays.handler);
    await unsubscribe();
    await bus.publish('ch', 'after');
    await stays.done;
    await settle();
    tt.same(gone, []);
  });

  t.test('a throwing handler does not stop delivery to the others', async (tt) => {
    const bus = await open(tt);
    await bus.subscribe('boom', () => {
      throw new Error('handler bug');
    });
    const c = collect(1);
    await bus.subscribe('boom', c.handler);
    await bus.publish('boom', { ok: true });
    tt.same((await c.done)[0][0], { ok: true });
  });

  t.test('ping completes a round trip', async (tt) => {
    const bus = await open(tt);
    await tt.resolves(bus.ping(2000));
  });

  t.test('a closed bus refuses publish, subscribe and ping', async (tt) => {
    const bus = await makeBus();
    await bus.close();
    await tt.rejects(bus.publish('x', 1), { name: 'BusClosedError' });
    await tt.rejects(bus.subscribe('x', () => {}), { name: 'BusClosedError' });
    await tt.rejects(bus.ping(500), { name: 'BusClosedError' });
  });
}
