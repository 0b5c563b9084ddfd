// Every commit statement keeps its optimistic version check: a change computed
// from another version than the game's (behind it or ahead of it) is refused
// with VersionConflict and writes nothing: not the game, not its log, not its
// idempotency record, not its seats. One test per statement: the single-change
// statement, the group-commit statement, and the seat-changing transaction.
// The games have no log rows, so a commit that skipped the check would not
// trip over a duplicate log sequence number instead: it would succeed.
import t, { type Test } from 'tap';
import { commitChange, commitGroup, VersionConflict, type Change } from '../../src/store/games.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const player = await store.prisma.player.create({ data: { name: 'P' } });

const STATE = { turn: 'stored' };

async function gameAt(version: number): Promise<string> {
  const g = await store.prisma.game.create({
    data: {
      gameType: 'richard-iii',
      scenario: 'richard-iii',
      status: 'active',
      version,
      state: STATE,
      activeRoles: ['York'],
      seats: { create: [{ role: 'York' }, { role: 'Lancaster' }] },
    },
  });
  return g.id;
}

function change(gameId: string, expectedVersion: number, extra: Partial<Change> = {}): Change {
  return {
    gameId,
    expectedVersion,
    expectedClockRev: 0,
    game: { status: 'active', state: { turn: `from ${expectedVersion}` }, activeRoles: ['Lancaster'] },
    entries: [{ kind: 'action', role: 'York', playerId: player.id, action: { type: 'pass' }, status: 'active', activeRoles: ['Lancaster'] }],
    idempotency: { playerId: player.id, key: `${gameId}-${expectedVersion}`, requestHash: 'h', response: { ok: true } },
    ...extra,
  };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => 'committed',
    (err: unknown) => err,
  );
}

/** The game exactly as gameAt() made it: nothing of a refused change stored. */
async function untouched(t: Test, id: string, version: number): Promise<void> {
  const g = await store.prisma.game.findUniqueOrThrow({ where: { id }, include: { seats: { orderBy: { role: 'asc' } } } });
  t.equal(g.version, version, 'version unchanged');
  t.same(g.state, STATE, 'state unchanged');
  t.same(g.activeRoles, ['York'], 'active roles unchanged');
  t.same(g.seats.map((s) => s.playerId), [null, null], 'seats unchanged');
  t.equal(await store.prisma.action.count({ where: { gameId: id } }), 0, 'no log entry');
  t.equal(await store.prisma.idempotencyRecord.count({ where: { gameId: id } }), 0, 'no idempotency record');
}

t.test('single-change statement: a change from another version is refused', async (t) => {
  const id = await gameAt(5);
  for (const expected of [3, 7]) {
    const group = commitGroup(store.pool);
    t.ok((await rejection(commitChange(store.pool, group, change(id, expected)))) instanceof VersionConflict, `expected ${expected}, game at 5: VersionConflict`);
    t.same(group.stats, { statements: 1, changes: 1, batches: 0 }, 'it went alone');
    await untouched(t, id, 5);
  }
  t.equal(await commitChange(store.pool, commitGroup(store.pool), change(id, 5)), 6, 'from the right version it commits');
});

t.test('group-commit statement: in a batch, each change from another version is refused alone', async (t) => {
  const [first, behind, ahead, fresh1, fresh2] = [await gameAt(0), await gameAt(5), await gameAt(5), await gameAt(0), await gameAt(0)];
  // One statement in flight at a time and no time limit: the first goes alone,
  // the other four wait for it and go together, as one batch.
  const sizes: number[] = [];
  const group = commitGroup(store.pool, (n) => sizes.push(n), { maxInFlight: 1, maxWaitMs: 60_000 });
  const results = await Promise.all(
    [change(first!, 0), change(behind!, 3), change(ahead!, 7), change(fresh1!, 0), change(fresh2!, 0)].map((c) => rejection(group.commit(c))),
  );
  t.same(sizes, [1, 4], 'the four went as one batch');
  t.equal(results[0], 'committed');
  t.ok(results[1] instanceof VersionConflict, 'behind: VersionConflict');
  t.ok(results[2] instanceof VersionConflict, 'ahead: VersionConflict');
  t.same(results.slice(3), ['committed', 'committed'], 'the others in the batch committed');
  await untouched(t, behind!, 5);
  await untouched(t, ahead!, 5);
  t.equal((await store.prisma.game.findUniqueOrThrow({ where: { id: fresh1! } })).version, 1);
});

t.test('seat-changing transaction: a change from another version is refused', async (t) => {
  const id = await gameAt(5);
  for (const expected of [3, 7]) {
    const c = change(id, expected, { seats: [{ role: 'York', playerId: player.id }] });
    t.ok((await rejection(commitChange(store.pool, commitGroup(store.pool), c))) instanceof VersionConflict, `expected ${expected}, game at 5: VersionConflict`);
    await untouched(t, id, 5);
  }
  t.equal(await commitChange(store.pool, commitGroup(store.pool), change(id, 5, { seats: [{ role: 'York', playerId: player.id }] })), 6, 'from the right version it commits');
});

t.test('every statement also checks the clock revision: a change from the right version but another clock_rev (a pause meanwhile) is refused', async (t) => {
  const paused = async (): Promise<string> => {
    const id = await gameAt(5);
    await store.pool.query('UPDATE games SET clock_rev = 2 WHERE id = $1', [id]);
    return id;
  };
  const one = await paused();
  for (const rev of [0, 1, 3]) {
    t.ok((await rejection(commitChange(store.pool, commitGroup(store.pool), change(one, 5, { expectedClockRev: rev })))) instanceof VersionConflict, `single statement, clock_rev ${rev} (game at 2): VersionConflict`);
    await untouched(t, one, 5);
  }
  const seated = await paused();
  const c = change(seated, 5, { expectedClockRev: 1, seats: [{ role: 'York', playerId: player.id }] });
  t.ok((await rejection(commitChange(store.pool, commitGroup(store.pool), c))) instanceof VersionConflict, 'seat-changing transaction: VersionConflict');
  await untouched(t, seated, 5);
  const [first, stale, current] = [await gameAt(0), await paused(), await paused()];
  const sizes: number[] = [];
  const group = commitGroup(store.pool, (n) => sizes.push(n), { maxInFlight: 1, maxWaitMs: 60_000 });
  const results = await Promise.all([change(first!, 0), change(stale!, 5, { expectedClockRev: 1 }), change(current!, 5, { expectedClockRev: 2 })].map((ch) => rejection(group.commit(ch))));
  t.same(sizes, [1, 2], 'the last two went as one batch');
  t.ok(results[1] instanceof VersionConflict, 'group statement, stale clock_rev: VersionConflict');
  await untouched(t, stale!, 5);
  t.equal(results[2], 'committed', 'group statement, current clock_rev: committed');
  t.equal(await commitChange(store.pool, commitGroup(store.pool), change(one, 5, { expectedClockRev: 2 })), 6, 'single statement, current clock_rev: committed');
  t.equal(await commitChange(store.pool, commitGroup(store.pool), change(seated, 5, { expectedClockRev: 2, seats: [{ role: 'York', playerId: player.id }] })), 6, 'seat-changing transaction, current clock_rev: committed');
});
