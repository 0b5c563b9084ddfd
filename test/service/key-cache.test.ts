// The per-instance API-key cache (key-cache.ts): two service instances on one
// database and one Redis. A revoked key is refused at once by the instance that
// revoked it and by the other (told on the bus); when the bus is down, the
// other drops it after the cache's time to live. Application keys acting for
// players keep their check of the player.
import t from 'tap';
import { createMemoryBus, createRedisBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type GameServiceApi } from '../../src/service/api.ts';
import { KeyCache } from '../../src/service/key-cache.ts';
import { openTestStore, TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const prefix = uniquePrefix();
const busA = createRedisBus({ url: TEST_REDIS_URL, prefix });
const busB = createRedisBus({ url: TEST_REDIS_URL, prefix });
t.teardown(() => Promise.all([busA.close(), busB.close()]));
const ADMIN = 'admin-token-for-key-cache-test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** authenticate() until it is refused (the revocation message is asynchronous), up to `ms`. */
async function refusedWithin(svc: GameServiceApi, key: string, ms: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    try {
      await svc.authenticate(key);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'unauthorized') return Date.now() - t0;
      throw err;
    }
    if (Date.now() - t0 > ms) return Infinity;
    await sleep(5);
  }
}

/** Authenticates until the instance keeps keys (it subscribes to revocations in the background first). */
async function warm(svc: GameServiceApi, key: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await svc.authenticate(key);
    await sleep(5);
  }
}

t.test('a revoked key is refused at once on both instances', async (t) => {
  const A = createGameService({ store, bus: busA, adminToken: ADMIN });
  const B = createGameService({ store, bus: busB, adminToken: ADMIN });
  const made = await A.createPlayer(null, { name: 'keyholder' });
  const key = made.key!.key;
  await warm(A, key);
  await warm(B, key);
  const second = await A.createKey(await A.authenticate(key), 'second');
  t.equal((await B.authenticate(second.key)).playerId, made.player.id, 'a new key works at once on another instance');

  await A.revokeKey(await A.authenticate(key), made.key!.id);
  await t.rejects(A.authenticate(key), { code: 'unauthorized' }, 'refused by the revoking instance at once');
  const onB = await refusedWithin(B, key, 2000);
  t.ok(onB < 2000, `refused by the other instance ${onB} ms after the revoke`);
  t.equal((await B.authenticate(second.key)).playerId, made.player.id, 'the other key still works');
});

t.test('without the revocation message, the other instance refuses the key after the TTL', async (t) => {
  const lost = createMemoryBus(); // B hears nothing from A
  t.teardown(() => lost.close());
  // B's clock stands still until the test moves it: the TTL window does not depend on how busy the machine is.
  let clock = Date.now();
  const A = createGameService({ store, bus: busA });
  const B = createGameService({ store, bus: lost, keyCacheTtlMs: 300, now: () => clock });
  const made = await A.createPlayer(null, { name: 'keyholder-2' });
  const key = made.key!.key;
  await warm(B, key);
  await A.revokeKey(await A.authenticate(key), made.key!.id);
  t.equal((await B.authenticate(key)).playerId, made.player.id, 'B, not told, still takes the key it checked (the window the TTL bounds)');
  clock += 299;
  t.equal((await B.authenticate(key)).playerId, made.player.id, 'still within the TTL');
  clock += 1;
  await t.rejects(B.authenticate(key), { code: 'unauthorized' }, 'refused once the TTL has passed');
});

t.test('an application key acting for players: each player is checked, the check is kept', async (t) => {
  const A = createGameService({ store, bus: busA, adminToken: ADMIN });
  const admin = { playerId: '', keyId: 'admin', kind: 'admin' as const };
  const app = await A.createApp(admin, { name: 'discord-bot' });
  const other = await A.createApp(admin, { name: 'other-bot' });
  const appCaller = await A.authenticate(app.key.key);
  const mine = await A.createPlayer(appCaller, { name: 'user-1', externalId: 'u1' });
  const theirs = await A.createPlayer(await A.authenticate(other.key.key), { name: 'user-2', externalId: 'u2' });
  await warm(A, app.key.key);
  for (let i = 0; i < 3; i++) {
    t.same(await A.authenticate(app.key.key, mine.player.id), { playerId: mine.player.id, keyId: app.key.id, kind: 'app', appId: app.app.id });
    await t.rejects(A.authenticate(app.key.key, theirs.player.id), { code: 'forbidden' }, "another application's player, every time");
    await t.rejects(A.authenticate(app.key.key, 'not-a-uuid'), { code: 'forbidden' });
  }
  const player = await A.createPlayer(null, { name: 'plain' });
  await t.rejects(A.authenticate(player.key!.key, mine.player.id), { code: 'forbidden' }, 'a player key cannot act for others');
});

t.test('KeyCache: bounded, least recently stored goes first, entries expire', async (t) => {
  const bus = createMemoryBus();
  t.teardown(() => bus.close());
  const c = new KeyCache(bus, 2, 50);
  c.put('h1', { id: 'k1', playerId: 'p1', kind: 'player' });
  c.put('h2', { id: 'k2', playerId: 'p2', kind: 'player' });
  c.put('h3', { id: 'k3', playerId: 'p3', kind: 'player' });
  t.equal(c.get('h1'), undefined, 'the oldest went');
  t.equal(c.get('h3')?.id, 'k3');
  await sleep(80);
  t.equal(c.get('h3'), undefined, 'expired');
});
