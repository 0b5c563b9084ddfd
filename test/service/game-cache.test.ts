// The per-instance game cache: two service instances on one database, each with
// its own cache, must behave as if there were none — a stale entry is never
// served to a read and never decides a refusal, and writes from a stale entry
// are caught by the version check and decided again.
import t from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, type Caller, type GameServiceApi } from '../../src/service/api.ts';
import { GameCache, rememberView, viewOfRow } from '../../src/service/game-cache.ts';
import type { GameRow } from '../../src/store/games.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());

function row(id: string, version: number, status: GameRow['status'] = 'active'): GameRow {
  return { id, version, status } as GameRow;
}

t.test('GameCache: least recently used goes first; no older version over a newer; no game in setup', async (t) => {
  const c = new GameCache(2);
  c.put(row('a', 1));
  c.put(row('b', 1));
  t.ok(c.get('a'), 'a used: b is now the oldest');
  c.put(row('c', 1));
  t.equal(c.get('b'), undefined, 'b evicted');
  t.equal(c.get('a')?.version, 1);
  c.put(row('a', 3));
  c.put(row('a', 2));
  t.equal(c.get('a')?.version, 3, 'an older row does not replace a newer one');
  c.put(row('s', 0, 'setup'));
  t.equal(c.get('s'), undefined, 'a game in setup is not cached (an invite code changes it without a new version)');
  c.put(row('a', 4, 'setup'));
  t.equal(c.get('a'), undefined, '…and a cached game seen in setup is dropped');
  t.equal(new GameCache(0).size, 0);
  const off = new GameCache(0);
  off.put(row('x', 1));
  t.equal(off.get('x'), undefined, 'capacity 0: nothing is kept');
});

async function player(svc: GameServiceApi, name: string): Promise<Caller> {
  return svc.authenticate((await svc.createPlayer(null, { name })).key!.key);
}

t.test('two instances: reads and writes on one never use what the other made stale', async (t) => {
  const A = createGameService({ store, bus });
  const B = createGameService({ store, bus });
  const york = await player(A, 'york');
  const lancaster = await player(A, 'lancaster');
  const g = await A.createGame(york, { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'cache-1', roles: ['York'] });
  await A.join(lancaster, g.id, {});

  // Both instances read (and so cache) the game at the same version.
  const seenA = await A.getView(york, g.id);
  const seenB = await B.getView(york, g.id);
  t.equal(seenA.version, seenB.version);

  // Play on B until it is York's turn alone or a few versions on; A's cache is now stale.
  for (let i = 0; i < 6; i++) {
    const s = await B.getGame(york, g.id);
    const role = s.activeRoles[0]!;
    const who = role === 'York' ? york : lancaster;
    const legal = await B.getLegalActions(who, g.id);
    await B.submitAction(who, g.id, { action: legal.actions[0]!, expectedVersion: s.version });
  }
  const now = await B.getGame(york, g.id);
  t.ok(now.version >= seenA.version + 6);

  // Reads on A see the new version (the cache entry is checked against the database).
  t.equal((await A.getGame(york, g.id)).version, now.version, 'summary on A is current');
  const viewA = await A.getView(york, g.id);
  t.same(viewA, await B.getView(york, g.id), 'view on A equals view on B');

  // Make A's cache stale again, then write on A from the stale entry.
  const role = now.activeRoles[0]!;
  const who = role === 'York' ? york : lancaster;
  const legal = await B.getLegalActions(who, g.id);
  await B.submitAction(who, g.id, { action: legal.actions[0]!, expectedVersion: now.version });
  const current = await B.getGame(york, g.id);
  const next = current.activeRoles[0]!;
  const nextWho = next === 'York' ? york : lancaster;
  const nextLegal = (await B.getLegalActions(nextWho, g.id)).actions;
  // A's cache holds version now.version; the client pins the real current version: accepted.
  const r = await A.submitAction(nextWho, g.id, { action: nextLegal[0]!, expectedVersion: current.version });
  t.equal(r.version, current.version + 1, 'a write on the stale instance is decided on a fresh read and commits');
  const after = await B.getLegalActions(nextWho, g.id, { role: next });
  t.same(r.legalActions, after.active ? after.actions : [], "the answer carries the seat's legal actions now");

  // A stale pinned version is still refused, with the current version, on either instance.
  const stale = await A.submitAction(nextWho, g.id, { action: nextLegal[0]!, expectedVersion: current.version }).catch((e: unknown) => e);
  t.match(stale, { code: 'version_conflict', extensions: { currentVersion: current.version + 1 } });

  // The stored log is dense whichever instance wrote.
  const events = await A.listEventsSince(g.id, 0);
  t.same(events.map((e) => e.version), Array.from({ length: current.version + 1 }, (_, i) => i + 1));
});

t.test('a refusal decided on a stale entry is checked on a fresh read first', async (t) => {
  const A = createGameService({ store, bus });
  const B = createGameService({ store, bus });
  const york = await player(A, 'york2');
  const lancaster = await player(A, 'lancaster2');
  const g = await A.createGame(york, { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'cache-2', roles: ['York'] });
  await A.join(lancaster, g.id, {});
  // Walk on B until exactly one role is active, remembering who it is. Every
  // set-up action must commit: a refusal here is a failure, not something to skip.
  let s = await B.getGame(york, g.id);
  await A.getView(york, g.id); // A caches this version
  for (let step = 0; s.activeRoles.length !== 1; step++) {
    if (step === 20) throw new Error(`still ${s.activeRoles.length} active roles after 20 actions`);
    const who = s.activeRoles[0] === 'York' ? york : lancaster;
    const legal = await B.getLegalActions(who, g.id);
    t.ok(legal.active, `${s.activeRoles[0]} is active`);
    await B.submitAction(who, g.id, { action: legal.actions[0]!, expectedVersion: s.version });
    s = await B.getGame(york, g.id);
  }
  t.ok(s.version > 2, 'the walk played at least one action');
  const role = s.activeRoles[0]!;
  const who = role === 'York' ? york : lancaster;
  const legal = await B.getLegalActions(who, g.id);
  // A's cached row is older; with it the role may look inactive or the action illegal. Without a pinned version the request must still commit.
  const r = await A.submitAction(who, g.id, { action: legal.actions[0]! });
  t.equal(r.version, s.version + 1, 'committed on the current version');
});

t.test('views kept with a cached row: built once per row object and seat, never shared across seats or rows', async (t) => {
  const row = { id: 'g', version: 3, state: { n: 1 } } as unknown as GameRow;
  let built = 0;
  const build = (role: string | null) => () => ({ role, n: ++built });
  const york = viewOfRow(row, 'York', build('York'));
  t.equal(viewOfRow(row, 'York', build('York')), york, 'the same seat of the same row: the view built before');
  t.equal(built, 1);
  const lancaster = viewOfRow(row, 'Lancaster', build('Lancaster'));
  t.not(lancaster, york, 'another seat: its own view');
  t.same(lancaster, { role: 'Lancaster', n: 2 });
  t.same(viewOfRow(row, null, build(null)), { role: null, n: 3 }, 'the spectator: its own');
  const next = { ...row, version: 4, state: { n: 2 } } as unknown as GameRow;
  t.same(viewOfRow(next, 'York', build('York')), { role: 'York', n: 4 }, 'a new row (the next version): built again');
  const answered = { role: 'York', answered: true };
  const after = { ...next, version: 5 } as unknown as GameRow;
  rememberView(after, 'York', answered);
  t.equal(viewOfRow(after, 'York', build('York')), answered, "the action's own answer serves the next read of its row");
  t.equal(built, 4, 'and nothing was built for it');
  t.same(Object.keys(after), Object.keys(next), 'the views kept are not a key of the row');
  t.equal(JSON.stringify(row), JSON.stringify({ id: 'g', version: 3, state: { n: 1 } }), 'nor in its JSON');
});
