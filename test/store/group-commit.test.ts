// Group commit (store/group-commit.ts) on real Postgres: concurrent commits
// of different games go as batches and each lands exactly as alone; in a
// batch, each change keeps its own version check; one change's error (a
// unique violation) fails that change only; in a batch, each change writes its own webhook
// messages (and a refused one none).
import t from 'tap';
import { commitGroup, isUniqueViolation, VersionConflict, type Change } from '../../src/store/games.ts';
import { canonicalJson as text } from '../../src/service/json.ts';
import { openTestStore } from '../helpers/services.ts';

// A machine loaded by other work can take more than the default 50 ms wait per statement, and a
// change that waited that long goes alone: these tests, which check what a batch does, wait longer.
const PATIENT = { maxWaitMs: 60_000 };

const { store } = await openTestStore(t);

async function newGames(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const g = await store.prisma.game.create({ data: { gameType: 'richard-iii', scenario: 'richard-iii', status: 'active', activeRoles: ['York'] } });
    ids.push(g.id);
  }
  return ids;
}

function change(gameId: string, expectedVersion: number, n: number, extra: Partial<Change> = {}): Change {
  return {
    gameId,
    expectedVersion,
    expectedClockRev: 0,
    at: new Date(Date.UTC(2026, 10, 24, 12, 0, 0, n)),
    game: { status: 'active', state: { n, blocks: Array.from({ length: 50 }, (_, i) => `b${i}-${n}`) }, activeRoles: n % 2 ? ['York'] : ['Lancaster'] },
    entries: [{ kind: 'action', role: 'York', playerId: null, action: { type: 'move', n }, log: { from: 0, entries: [{ pub: `line ${n}` }] }, status: 'active', activeRoles: ['Lancaster'] }],
    ...extra,
  };
}

t.test('concurrent commits of many games: batched, each stored as sent', async (t) => {
  const ids = await newGames(40);
  const group = commitGroup(store.pool, undefined, PATIENT);
  const versions = await Promise.all(ids.map((id, n) => group.commit(change(id, 0, n))));
  t.same(versions, ids.map(() => 1), 'every change committed at version 1');
  t.ok(group.stats.batches >= 1, `${group.stats.batches} batches`);
  t.ok(group.stats.statements < 40, `${group.stats.statements} statements for 40 changes`);
  const games = await store.prisma.game.findMany({ where: { id: { in: ids } } });
  const actions = await store.prisma.action.findMany({ where: { gameId: { in: ids } } });
  t.equal(actions.length, 40);
  let wrong = 0;
  ids.forEach((id, n) => {
    const g = games.find((x) => x.id === id)!;
    const a = actions.find((x) => x.gameId === id)!;
    const ok =
      g.version === 1 &&
      text(g.state) === text(change(id, 0, n).game.state) &&
      text(g.activeRoles) === text(n % 2 ? ['York'] : ['Lancaster']) &&
      a.seq === 1 && a.kind === 'action' && a.role === 'York' &&
      text(a.action) === text({ type: 'move', n }) &&
      text(a.log) === text({ from: 0, entries: [{ pub: `line ${n}` }] }) &&
      text(a.activeRoles) === '["Lancaster"]' &&
      a.createdAt.getTime() === Date.UTC(2026, 10, 24, 12, 0, 0, n);
    if (!ok) wrong++;
  });
  t.equal(wrong, 0, 'every game row and log row is what its change said');
});

t.test('the same game several times in one batch: exactly one commits', async (t) => {
  const [id, other] = await newGames(2);
  const group = commitGroup(store.pool, undefined, PATIENT);
  await group.commit(change(id!, 0, 0));
  // Two go alone at once (nothing in flight, then one); the rest wait and go as one batch.
  const results = await Promise.allSettled([group.commit(change(other!, 0, 1)), group.commit(change(other!, 1, 2)), ...Array.from({ length: 10 }, (_, n) => group.commit(change(id!, 1, 10 + n)))]);
  const mine = results.slice(2);
  t.equal(mine.filter((r) => r.status === 'fulfilled').length, 1, 'one of ten commits');
  t.ok(mine.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof VersionConflict), 'the others: VersionConflict');
  t.ok(group.stats.batches >= 1, 'they went as a batch');
  const seqs = (await store.prisma.action.findMany({ where: { gameId: id! }, orderBy: { seq: 'asc' } })).map((a) => a.seq);
  t.same(seqs, [1, 2], 'no gap, no duplicate');
  t.equal((await store.prisma.game.findUnique({ where: { id: id! } }))!.version, 2);
});

t.test("one change's unique violation fails that change only", async (t) => {
  const ids = await newGames(8);
  const player = await store.prisma.player.create({ data: { name: 'P' } });
  const victim = ids[7]!;
  await store.prisma.idempotencyRecord.create({ data: { gameId: victim, playerId: player.id, key: 'k', requestHash: 'h', response: '"stored"' } });
  const group = commitGroup(store.pool, undefined, PATIENT);
  const results = await Promise.allSettled(
    ids.map((id, n) => group.commit(change(id, 0, n, id === victim ? { idempotency: { playerId: player.id, key: 'k', requestHash: 'h2', response: '"new"' } } : {}))),
  );
  t.ok(group.stats.batches >= 1, 'the victim went in a batch');
  t.same(results.slice(0, 7).map((r) => r.status), Array(7).fill('fulfilled'), 'the others committed');
  t.equal(results[7]!.status, 'rejected');
  t.ok(isUniqueViolation((results[7] as PromiseRejectedResult).reason), 'the victim: the unique violation');
  t.equal((await store.prisma.game.findUnique({ where: { id: victim } }))!.version, 0, 'nothing of it stored');
  t.equal(await store.prisma.action.count({ where: { gameId: victim } }), 0);
});

t.test('a change waiting behind slow statements goes alone after maxWaitMs', async (t) => {
  const [x, y, z] = await newGames(3);
  // Another transaction holds X's and Y's rows: their commits (both slots in flight) wait.
  const locker = await store.pool.connect();
  t.teardown(() => locker.release());
  await locker.query('BEGIN');
  await locker.query('SELECT id FROM games WHERE id = ANY($1::uuid[]) FOR UPDATE', [[x, y]]);
  const group = commitGroup(store.pool);
  const blocked = [group.commit(change(x!, 0, 1)), group.commit(change(y!, 0, 2))];
  const t0 = performance.now();
  t.equal(await group.commit(change(z!, 0, 3)), 1, 'Z committed');
  const waited = performance.now() - t0;
  t.ok(waited < 2000, `while X and Y still wait (${Math.round(waited)} ms; the wait limit is 50 ms)`);
  await locker.query('COMMIT');
  t.same(await Promise.all(blocked), [1, 1], 'X and Y commit once the rows are free');
});

t.test('in a batch, each change writes its own webhook messages; a refused change writes none', async (t) => {
  const [first, a, b, stale] = await newGames(4);
  const players = [await store.prisma.player.create({ data: { name: 'Hooked A' } }), await store.prisma.player.create({ data: { name: 'Hooked B' } })];
  const quiet = await store.prisma.player.create({ data: { name: 'No endpoint' } });
  for (const p of players) {
    await store.prisma.webhookEndpoint.create({ data: { ownerId: p.id, url: 'http://127.0.0.1:9/hook', events: ['game_ended'], secret: 'whsec_x' } });
  }
  await store.prisma.game.update({ where: { id: stale! }, data: { version: 5 } });
  const ended = (gameId: string, playerId: string, ord: number) => ({ ord, type: 'game_ended', player_id: playerId, game_id: gameId, payload: { type: 'game_ended', data: { gameId } } });
  const withEvents = (gameId: string, expected: number, n: number) =>
    change(gameId, expected, n, { webhooks: [ended(gameId, players[0]!.id, 0), ended(gameId, players[1]!.id, 1), ended(gameId, quiet.id, 2)] });
  // One statement in flight at a time and no time limit: the first goes alone, the other three
  // wait for it and go together, as one batch (certainly: they are queued before it answers).
  const sizes: number[] = [];
  const group = commitGroup(store.pool, (n) => sizes.push(n), { maxInFlight: 1, maxWaitMs: 60_000 });
  const results = await Promise.allSettled([withEvents(first!, 0, 0), withEvents(a!, 0, 1), withEvents(b!, 0, 2), withEvents(stale!, 0, 3)].map((c) => group.commit(c)));
  t.same(sizes, [1, 3], 'three changes in one statement');
  t.same(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
  t.ok((results[3] as PromiseRejectedResult).reason instanceof VersionConflict, 'the stale one: VersionConflict');
  const rows = (await store.pool.query(
    `SELECT m.game_id::text AS game, e.owner_id::text AS owner, m.payload FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
     WHERE m.game_id = ANY($1::uuid[]) ORDER BY m.seq`,
    [[first, a, b, stale]],
  )).rows as { game: string; owner: string; payload: { data: { gameId: string; player: { id: string } } } }[];
  const expected = [first!, a!, b!].flatMap((g) => players.map((p) => `${g} ${p.id}`));
  t.same(rows.map((r) => `${r.game} ${r.owner}`).sort(), expected.sort(), 'one message per committed game and endpoint; none for the stale change or the player without an endpoint');
  t.ok(rows.every((r) => r.payload.data.gameId === r.game && r.payload.data.player.id === r.owner), 'each message carries its own change\'s event and player');
});
