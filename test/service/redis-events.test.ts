// The write path with the Redis bus: an action committed through one service
// instance is published on Redis and reaches a subscriber of another bus; with
// Redis unreachable the action still commits and the failure is counted.
import t from 'tap';
import { createRedisBus, type Json } from '../../src/bus/index.ts';
import { createGameService, gameChannel, playerChannel } from '../../src/service/api.ts';
import { openTestStore, TEST_REDIS_URL, uniquePrefix } from '../helpers/services.ts';

const { store } = await openTestStore(t);

t.test('events reach a subscriber on another Redis connection', async (t) => {
  const prefix = uniquePrefix();
  const busA = createRedisBus({ url: TEST_REDIS_URL, prefix });
  const busB = createRedisBus({ url: TEST_REDIS_URL, prefix });
  t.teardown(() => Promise.all([busA.close(), busB.close()]));
  const svc = createGameService({ store, bus: busA });
  const a = await svc.createPlayer(null, { name: 'A' });
  const b = await svc.createPlayer(null, { name: 'B' });
  const ca = await svc.authenticate(a.key!.key);
  const cb = await svc.authenticate(b.key!.key);
  const g = await svc.createGame(ca, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] });

  const got: Json[] = [];
  const turns: Json[] = [];
  await busB.subscribe(gameChannel(g.id), (m) => void got.push(m));
  await busB.subscribe(playerChannel(b.player.id), (m) => void turns.push(m));
  await svc.join(cb, g.id, {});
  const legal = await svc.getLegalActions(cb, g.id);
  const r = await svc.submitAction(cb, g.id, { action: legal.actions[0]! });
  for (let i = 0; i < 100 && got.length < 3; i++) await new Promise((res) => setTimeout(res, 20));
  t.match(got, [{ type: 'join', version: 1 }, { type: 'start', version: 2 }, { type: 'action', version: 3, role: 'Lancaster', playerId: b.player.id }]);
  t.match(turns[0], { type: 'your_turn', gameId: g.id, version: 2, roles: ['Lancaster'] });
  t.equal(r.version, 3);
});

t.test('Redis unreachable: the action commits, the publish failure is counted', async (t) => {
  const bus = createRedisBus({ url: 'redis://127.0.0.1:1', prefix: uniquePrefix() });
  t.teardown(() => bus.close());
  const svc = createGameService({ store, bus });
  const failures: string[] = [];
  svc.observe({ publishFailed: (channel) => failures.push(channel) });
  const a = await svc.createPlayer(null, { name: 'Solo' });
  const ca = await svc.authenticate(a.key!.key);
  const g = await svc.createGame(ca, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'Lancaster'] });
  t.equal(g.status, 'active', 'the start committed although its event could not be published');
  const legal = await svc.getLegalActions(ca, g.id, { role: 'York' });
  const r = await svc.submitAction(ca, g.id, { role: 'York', action: legal.actions[0]! });
  t.equal(r.version, 2);
  t.equal((await svc.getGame(ca, g.id)).version, 2);
  // Publishing does not hold up the answer; the failures are counted when the bus gives up.
  for (let i = 0; i < 300 && failures.filter((c) => c === gameChannel(g.id)).length < 2; i++) await new Promise((res) => setTimeout(res, 100));
  t.ok(failures.filter((c) => c === gameChannel(g.id)).length >= 2, 'both publishes failed and were counted');
  t.same((await svc.listEventsSince(g.id, 0)).map((e) => e.type), ['start', 'action'], 'the database has everything for catch-up');
});
