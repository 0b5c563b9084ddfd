// The write path at the service level: events after commit (and only after),
// publishing failures that never fail the request, optimistic concurrency
// under parallel submissions, dense versions and catch-up.
import t from 'tap';
import { createMemoryBus, type Bus, type Json } from '../../src/bus/index.ts';
import { createGameService, gameChannel, playerChannel, type Caller, type GameEvent, type GameServiceApi } from '../../src/service/api.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);

async function players(svc: GameServiceApi): Promise<[Caller, Caller]> {
  const a = await svc.createPlayer(null, { name: 'A' });
  const b = await svc.createPlayer(null, { name: 'B' });
  return [await svc.authenticate(a.key!.key), await svc.authenticate(b.key!.key)];
}

function collect(bus: Bus, channel: string): Promise<Json[]> & { list: Json[] } {
  const list: Json[] = [];
  const p = bus.subscribe(channel, (m) => void list.push(m)).then(() => list) as Promise<Json[]> & { list: Json[] };
  p.list = list;
  return p;
}

const tick = () => new Promise((r) => setTimeout(r, 20));

t.test('after each commit: game events (dense versions) and "your turn" for active seat holders', async (t) => {
  const bus = createMemoryBus();
  t.teardown(() => bus.close());
  const svc = createGameService({ store, bus });
  const [a, b] = await players(svc);
  const g = await svc.createGame(a, { gameType: 'richard-iii', scenario: 'richard-iii', seed: 's1', roles: ['York'] });
  const events = collect(bus, gameChannel(g.id));
  const turnsB = collect(bus, playerChannel(b.playerId));
  await events;
  await turnsB;
  const joined = await svc.join(b, g.id, {});
  t.equal(joined.version, 2);
  const legal = await svc.getLegalActions(a, g.id);
  const r = await svc.submitAction(a, g.id, { action: legal.actions[0]!, expectedVersion: 2 });
  t.equal(r.version, 3);
  await tick();
  const list = events.list as unknown as GameEvent[];
  t.same(list.map((e) => [e.type, e.version]), [['join', 1], ['start', 2], ['action', 3]]);
  t.match(list[2], { gameId: g.id, role: 'York', playerId: a.playerId, status: 'active', activeRoles: r.game.activeRoles });
  t.match(turnsB.list[0], { type: 'your_turn', gameId: g.id, version: 2, roles: ['Lancaster'] });
  // The last version of each commit is published with the clock after it (null: no time control);
  // the log stores no clock, so catch-up equals what was published without it.
  t.same(list.map((e) => (e as { clock?: unknown }).clock), [null, null, null], 'each commit\'s last version carries the clock');
  const published = list.map(({ clock: _clock, ...e }) => e);
  t.same(await svc.listEventsSince(g.id, 0), published, 'catch-up from the database equals what was published');
  t.same(await svc.listEventsSince(g.id, 2), published.slice(2));
  const mine = await svc.playerGames(b.playerId);
  t.match(mine, [{ gameId: g.id, version: 3, roles: ['Lancaster'], status: 'active' }]);
});

t.test('a failing bus never fails or undoes a committed action; failures are counted', async (t) => {
  const real = createMemoryBus();
  t.teardown(() => real.close());
  const failing: Bus = { ...real, kind: 'redis', publish: async () => Promise.reject(new Error('redis down')) };
  const svc = createGameService({ store, bus: failing });
  const failures: string[] = [];
  let committed = 0;
  svc.observe({ publishFailed: (channel) => failures.push(channel), actionCommitted: () => void committed++ });
  const [a, b] = await players(svc);
  const g = await svc.createGame(a, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] });
  await svc.join(b, g.id, {});
  const legal = await svc.getLegalActions(a, g.id);
  const r = await svc.submitAction(a, g.id, { action: legal.actions[0]! });
  t.equal(r.version, 3);
  t.equal((await svc.getGame(a, g.id)).version, 3, 'committed');
  t.equal(committed, 1);
  t.ok(failures.includes(gameChannel(g.id)), 'the failure was reported');
  t.equal((await svc.listEventsSince(g.id, 2)).length, 1, 'subscribers can catch up from the database');
});

t.test('parallel submissions: pinned versions — exactly one wins; unpinned simultaneous choices — all commit', async (t) => {
  const bus = createMemoryBus();
  t.teardown(() => bus.close());
  const svc = createGameService({ store, bus });
  const [a] = await players(svc);
  // Hot-seat: both roles with one caller, so the two sides can race.
  const g = await svc.createGame(a, { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'race', roles: ['York', 'Lancaster'] });
  t.equal(g.version, 1);
  t.same(g.activeRoles, ['York', 'Lancaster'], 'both sides answer the redeal offer at once');
  // Unpinned simultaneous choices: the loser of the race decides again on the new state and commits too.
  const both = await Promise.all(
    (['York', 'Lancaster'] as const).map(async (role) => {
      const [action] = (await svc.getLegalActions(a, g.id, { role })).actions;
      return svc.submitAction(a, g.id, { role, action: action! });
    }),
  );
  t.same(both.map((r) => r.version).sort(), [2, 3]);

  // Pinned to one version: exactly one of several different actions wins.
  const s0 = await svc.getGame(a, g.id);
  t.ok(s0.activeRoles.includes('York'));
  const york = (await svc.getLegalActions(a, g.id, { role: 'York' })).actions;
  t.ok(york.length >= 4, 'several cards to choose from');
  const results = await Promise.allSettled(
    york.slice(0, 4).map((action) => svc.submitAction(a, g.id, { role: 'York', action, expectedVersion: s0.version })),
  );
  const ok = results.filter((r) => r.status === 'fulfilled');
  t.equal(ok.length, 1, 'one commit');
  for (const r of results) {
    if (r.status === 'rejected') t.match(r.reason, { code: 'version_conflict', extensions: { currentVersion: s0.version + 1 } });
  }
  t.equal((await svc.getGame(a, g.id)).version, s0.version + 1);
  t.equal(await store.prisma.action.count({ where: { gameId: g.id, kind: 'action' } }), 3);
  const versions = (await store.prisma.action.findMany({ where: { gameId: g.id }, orderBy: { seq: 'asc' } })).map((e) => e.seq);
  t.same(versions, versions.map((_, i) => i + 1), 'versions are dense');
});

t.test('authentication: keys, revoked keys, X-Act-As', async (t) => {
  const bus = createMemoryBus();
  t.teardown(() => bus.close());
  const svc = createGameService({ store, bus, adminToken: 'operator-token-1234567' });
  t.equal(svc.isAdminToken('operator-token-1234567'), true);
  t.equal(svc.isAdminToken('operator-token-1234568'), false);
  t.equal(createGameService({ store, bus }).isAdminToken(''), false, 'no token configured: nobody is admin');
  const p = await svc.createPlayer(null, { name: 'P' });
  const caller = await svc.authenticate(p.key!.key);
  t.same(caller, { playerId: p.player.id, keyId: p.key!.id, kind: 'player' });
  await svc.revokeKey(caller, p.key!.id);
  await t.rejects(svc.authenticate(p.key!.key), { code: 'unauthorized' });
  await t.rejects(svc.authenticate('hk_unknown'), { code: 'unauthorized' });
});
