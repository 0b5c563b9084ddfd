// A subscription made while the subscriber connection is between 'connect'
// and 'ready' (ioredis's handshake: CLIENT SETNAME/SETINFO, then the ready
// check's INFO). ioredis writes a SUBSCRIBE at once in that window, the
// connection enters subscriber mode, and the ready check's INFO was refused:
// the connection was reported lost and dropped, and the subscription failed.
// Found by black-box probing: at most starts of a server with AI players the AI
// job subscribes in that window ("redis connection lost or unreachable" and
// "the AI job could not subscribe to its turns" in the log). Real Redis.
import t from 'tap';
import { Redis } from 'ioredis';
import { createRedisBus } from '../../src/bus/index.ts';
import { TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';
import { within } from '../helpers/streams.ts';

t.test('a subscribe during the subscriber connection handshake succeeds, and nothing is reported lost', async (t) => {
  const prefix = uniquePrefix();
  const errors: string[] = [];
  const got: unknown[] = [];
  let subscribed: Promise<unknown> | null = null;
  let bus: ReturnType<typeof createRedisBus> | null = null;
  // Subscribe exactly when the subscriber connection emits 'connect' (its handshake has begun).
  const emit = Redis.prototype.emit;
  Redis.prototype.emit = function (this: Redis, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'connect' && subscribed === null && bus !== null && this.options.connectionName === `herald-subscriber-${prefix.replace(/[^\w:.-]/g, '_')}`) {
      subscribed = bus.subscribe('turns', (m) => got.push(m)).then(() => 'subscribed', (err: Error) => `refused: ${err.message}`);
    }
    return emit.call(this, event, ...args);
  };
  t.teardown(() => {
    Redis.prototype.emit = emit;
  });
  bus = createRedisBus({ url: TEST_REDIS_URL, prefix, onConnectionError: (err, connection) => errors.push(`${connection}: ${err.message}`) });
  const other = createRedisBus({ url: TEST_REDIS_URL, prefix });
  t.teardown(async () => {
    await bus?.close();
    await other.close();
  });
  await within((async () => {
    while (subscribed === null) await new Promise((r) => setTimeout(r, 5));
  })(), 'the subscriber connection to connect');
  t.equal(await within(subscribed!, 'the subscription'), 'subscribed', 'the subscription is made');
  t.same(errors, [], 'no connection is reported lost');
  // Through Redis: published by another bus (no local delivery).
  await within((async () => {
    while (got.length === 0) {
      await other.publish('turns', { n: 1 });
      await new Promise((r) => setTimeout(r, 50));
    }
  })(), 'a message through Redis');
  t.same(got[0], { n: 1 }, 'messages arrive');
});
