// Vacation at the service level (issue 15), on real Postgres with the service's clock injected:
// while a player is on vacation their correspondence clocks stand still; the clock sweep ends a
// vacation that reached its end by itself. Time moves by setting `clock.now`, never by sleeping.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type GameSummary } from '../../src/service/api.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const clock = { now: Date.UTC(2027, 2, 1, 12) };
const now = () => clock.now;
const svc = createGameService({ store, bus, now });
const db = store.pool;
const GT = 'richard-iii';

let n = 0;
async function player(service = svc): Promise<Caller> {
  const r = await service.createPlayer(null, { name: `V${++n}` });
  return service.authenticate(r.key!.key);
}

async function game(york: Caller, lancaster: Caller, timeControl: unknown, service = svc): Promise<GameSummary> {
  const g = await service.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: timeControl as never });
  return service.join(lancaster, g.id, {});
}

async function move(who: Caller, gameId: string, role: string): Promise<GameSummary> {
  const legal = await svc.getLegalActions(who, gameId, { role });
  return (await svc.submitAction(who, gameId, { role, action: legal.actions[0] as never })).game;
}

async function rejects(t: Test, p: Promise<unknown>, code: string, msg: string): Promise<void> {
  try {
    await p;
    t.fail(`${msg}: resolved`);
  } catch (err) {
    t.ok(err instanceof ServiceError && err.code === code, `${msg}: ${(err as Error).message}`);
  }
}

const seat = (g: GameSummary, role: string) => g.clock!.seats.find((s) => s.role === role)!;

/** Both seats keep their hands and play a card (an hour apart): then one seat alone must act. */
async function opening(york: Caller, lancaster: Caller, gameId: string): Promise<{ mid: GameSummary; mover: string; holder: Caller; other: Caller }> {
  for (const [who, role] of [[york, 'York'], [lancaster, 'Lancaster'], [york, 'York'], [lancaster, 'Lancaster']] as const) {
    clock.now += HOUR;
    await move(who, gameId, role);
  }
  const mid = await svc.getGame(null, gameId);
  const mover = mid.activeRoles[0]!;
  return { mid, mover, holder: mover === 'York' ? york : lancaster, other: mover === 'York' ? lancaster : york };
}

async function vacationRows(playerId: string): Promise<number> {
  return (await db.query('SELECT count(*)::int AS n FROM vacations WHERE player_id = $1', [playerId])).rows[0].n;
}
async function versionOf(gameId: string): Promise<number> {
  return (await db.query('SELECT version FROM games WHERE id = $1', [gameId])).rows[0].version;
}

t.test('on vacation a correspondence clock stands still past its deadline; back, it runs on with the time it had', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 3 });
  const { mid, mover, holder, other } = await opening(a, b, g.id);
  const before = seat(mid, mover);
  t.equal(before.running, true);
  const version = await versionOf(g.id);

  clock.now += HOUR;
  const on = await svc.startVacation(holder, {});
  t.equal(on.onVacation, true);
  t.equal(on.since, new Date(clock.now).toISOString());
  t.equal(on.allowanceMs, 30 * DAY);
  t.equal(on.endsBy, new Date(clock.now + 30 * DAY).toISOString(), 'with no planned end it ends when the allowance runs out');
  const paused = await svc.getGame(null, g.id);
  t.equal(seat(paused, mover).running, false, 'the clock stopped');
  t.equal(seat(paused, mover).paused, true, 'the summary says it is paused (a client shows a stopped countdown)');
  t.equal(seat(paused, mover).deadline, null);
  t.equal(seat(paused, mover).remainingMs, before.remainingMs! - HOUR, 'it kept the time it had when the vacation began');
  t.equal(await versionOf(g.id), version, 'no game event: the version (and the log) did not move');
  const stopped = (await db.query('SELECT deadline_at FROM games WHERE id = $1', [g.id])).rows[0].deadline_at;
  t.equal(stopped, null, 'no deadline is stored while the only running clock is paused');

  // Ten days: far beyond the three days per move.
  clock.now += 10 * DAY;
  t.equal(await svc.sweepClocks(), 0, 'no timeout fired');
  t.equal((await svc.getGame(null, g.id)).status, 'active');
  const mine = await svc.getVacation(holder);
  t.equal(mine.remainingMs, 20 * DAY, 'ten days of the allowance are used (counted up to now)');
  t.equal((await svc.getVacation(other)).onVacation, false, 'the opponent is not on vacation');

  const back = await svc.endVacation(holder);
  t.equal(back.onVacation, false);
  t.equal(back.remainingMs, 20 * DAY, 'ten days used, twenty left');
  const running = await svc.getGame(null, g.id);
  t.equal(seat(running, mover).running, true, 'the clock runs again');
  t.equal(seat(running, mover).paused, false, 'no longer paused');
  t.equal(seat(running, mover).remainingMs, before.remainingMs! - HOUR, 'with the time it had');
  t.equal(Date.parse(seat(running, mover).deadline!), clock.now + before.remainingMs! - HOUR);
  t.equal(await versionOf(g.id), version);

  // The game goes on normally: a move from the returning player is accepted.
  clock.now += HOUR;
  const after = await move(holder, g.id, mover);
  t.equal(after.status, 'active');
});

t.test('refused, nothing changed: beyond the allowance, a second start, ending when not on vacation, a bad until', async (t) => {
  const a = await player();
  await rejects(t, svc.endVacation(a), 'invalid_state', 'ending when not on vacation');
  await rejects(t, svc.startVacation(a, { until: new Date(clock.now + 31 * DAY).toISOString() }), 'vacation_not_allowed', 'a planned end beyond the allowance');
  for (const until of ['tomorrow', '2027-13-01T00:00:00Z', '2027-03-05', 42, new Date(clock.now - HOUR).toISOString()]) {
    await rejects(t, svc.startVacation(a, { until }), 'invalid_request', `until ${JSON.stringify(until)}`);
  }
  t.equal(await vacationRows(a.playerId), 0, 'no vacation was recorded');
  await svc.startVacation(a, { until: new Date(clock.now + 5 * DAY).toISOString() });
  await rejects(t, svc.startVacation(a, {}), 'invalid_state', 'a second start while on vacation');
  t.equal(await vacationRows(a.playerId), 1);
  const v = await svc.getVacation(a);
  t.equal(v.endsBy, new Date(clock.now + 5 * DAY).toISOString(), 'the planned end');
  await svc.endVacation(a);
});

t.test('a vacation that reaches its end resumes the clocks by itself (the sweep), at that instant; then time runs out as usual', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const { mid, mover, holder } = await opening(a, b, g.id);
  const had = seat(mid, mover).remainingMs!;
  const start = clock.now;
  const endsBy = start + 4 * DAY;
  await svc.startVacation(holder, { until: new Date(endsBy).toISOString() });
  const pausedWith = seat(await svc.getGame(null, g.id), mover).remainingMs!;
  t.equal(pausedWith, had);

  clock.now = endsBy + HOUR; // the sweep comes a little late
  await svc.sweepClocks(); // (earlier tests' games may time out here)
  t.equal((await svc.getGame(null, g.id)).status, 'active', 'no timeout: the clock only started again at the vacation end');
  const v = await svc.getVacation(holder);
  t.equal(v.onVacation, false, 'the vacation ended by itself');
  t.equal(v.remainingMs, 26 * DAY, 'four days were used');
  const resumed = await svc.getGame(null, g.id);
  t.equal(Date.parse(seat(resumed, mover).deadline!), endsBy + had, 'the clock runs from the vacation end, with the time it had');
  t.equal(seat(resumed, mover).remainingMs, had - HOUR);

  clock.now = endsBy + had - 1;
  await svc.sweepClocks();
  t.equal((await svc.getGame(null, g.id)).status, 'active', 'still running a moment before the new deadline');
  clock.now = endsBy + had + 1;
  await svc.sweepClocks();
  const over = await svc.getGame(null, g.id);
  t.equal(over.status, 'finished', 'then the timeout fires');
  t.same(over.result, { winner: mover === 'York' ? 'Lancaster' : 'York', reason: 'timeout' });
});

t.test('live (fischer) clocks are not paused', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'fischer', initialMs: 10 * 60_000, incrementMs: 5_000 });
  const running = g.activeRoles;
  await svc.startVacation(a, {});
  const after = await svc.getGame(null, g.id);
  for (const role of running) t.equal(seat(after, role).running, true, `${role} still runs`);
  await svc.endVacation(a);
});

t.test('the server allowance bounds vacations: used up, the next start is refused', async (t) => {
  const small = createGameService({ store, bus, now, vacationDays: 2 });
  const a = await player(small);
  const v = await small.startVacation(a, {});
  t.equal(v.endsBy, new Date(clock.now + 2 * DAY).toISOString());
  clock.now += 3 * DAY;
  await small.sweepClocks();
  const left = await small.getVacation(a);
  t.equal(left.onVacation, false);
  t.equal(left.remainingMs, 0);
  await rejects(t, small.startVacation(a, {}), 'vacation_not_allowed', 'no allowance left');
  t.equal(await vacationRows(a.playerId), 1);
});

t.test('a league forbidding vacation in its last round: that round\'s games keep running; other games stop', async (t) => {
  const org = await player();
  await rejects(t, svc.createLeague(org, { name: 'Bad', gameType: GT, format: 'round-robin', vacationDays: 200 }), 'invalid_settings', 'vacationDays above 180');
  await rejects(t, svc.createLeague(org, { name: 'Bad', gameType: GT, format: 'round-robin', noVacationInLastRound: 'yes' as never }), 'invalid_settings', 'noVacationInLastRound not a boolean');
  const plain = await svc.createLeague(org, { name: 'Plain', gameType: GT, format: 'round-robin' });
  t.match(plain.settings, { vacationDays: null, noVacationInLastRound: false }, 'the defaults');
  const strict = await svc.createLeague(org, { name: 'Strict', gameType: GT, format: 'round-robin', noVacationInLastRound: true, vacationDays: 14, timeControl: { kind: 'correspondence', daysPerMove: 3 } });
  t.match(strict.settings, { vacationDays: 14, noVacationInLastRound: true });
  const lenient = await svc.createLeague(org, { name: 'Lenient', gameType: GT, format: 'round-robin', timeControl: { kind: 'correspondence', daysPerMove: 3 } });
  const p1 = await player();
  const p2 = await player();
  const boards: string[] = [];
  for (const l of [strict, lenient]) {
    await svc.joinLeague(p1, l.id);
    await svc.joinLeague(p2, l.id);
    await svc.startLeague(org, l.id);
    const [round] = await svc.listRounds(null, l.id);
    t.equal(round!.number, 1);
    boards.push(round!.pairings[0]!.gameId!);
  }
  t.equal((await svc.getLeague(null, strict.id)).plannedRounds, 1, 'two players: round 1 is the last round');
  clock.now += HOUR;
  await svc.startVacation(p1, {});
  const [strictGame, lenientGame] = await Promise.all(boards.map((id) => svc.getGame(null, id)));
  for (const s of strictGame!.clock!.seats) t.equal(s.running, true, `the strict league's last-round game runs (${s.role})`);
  const p1Role = lenientGame!.seats.find((s) => s.player?.id === p1.playerId)!.role;
  t.equal(seat(lenientGame!, p1Role).running, false, 'the other league\'s game is paused');
  await svc.endVacation(p1);
});

t.test("a league's smaller allowance: its game's seat resumes when the league's days are used up, the vacation goes on elsewhere", async (t) => {
  const org = await player();
  const short = await svc.createLeague(org, { name: 'Short', gameType: GT, format: 'round-robin', vacationDays: 2, timeControl: { kind: 'correspondence', daysPerMove: 3 } });
  const p1 = await player();
  const p2 = await player();
  await svc.joinLeague(p1, short.id);
  await svc.joinLeague(p2, short.id);
  await svc.startLeague(org, short.id);
  const [round] = await svc.listRounds(null, short.id);
  const leagueGame = round!.pairings[0]!.gameId!;
  const casual = await game(p1, p2, { kind: 'correspondence', daysPerMove: 3 });
  clock.now += HOUR;
  const start = clock.now;
  const v = await svc.startVacation(p1, {});
  t.equal(v.endsBy, new Date(start + 30 * DAY).toISOString(), 'the vacation itself has the server allowance');
  const roleIn = async (id: string) => (await svc.getGame(null, id)).seats.find((s) => s.player?.id === p1.playerId)!.role;
  const lRole = await roleIn(leagueGame);
  const cRole = await roleIn(casual.id);
  const lHad = seat(await svc.getGame(null, leagueGame), lRole).remainingMs!;
  t.equal(seat(await svc.getGame(null, leagueGame), lRole).running, false, 'the league game is paused at first');

  clock.now = start + 2 * DAY + HOUR;
  await svc.sweepClocks();
  const lg = await svc.getGame(null, leagueGame);
  t.equal(lg.status, 'active');
  t.equal(seat(lg, lRole).running, true, "the league game runs again after the league's two days");
  t.equal(Date.parse(seat(lg, lRole).deadline!), start + 2 * DAY + lHad, 'from the instant the league allowance ran out, with the time it had');
  t.equal(seat(await svc.getGame(null, casual.id), cRole).running, false, 'the casual game stays paused');
  t.equal((await svc.getVacation(p1)).onVacation, true, 'the vacation goes on');
  await svc.endVacation(p1);
  t.equal(seat(await svc.getGame(null, casual.id), cRole).running, true);
});

t.test('a game that starts while a player is on vacation pauses their seat at once', async (t) => {
  const a = await player();
  const b = await player();
  await svc.startVacation(a, {});
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const aRole = g.seats.find((s) => s.player?.id === a.playerId)!.role;
  const bRole = g.seats.find((s) => s.player?.id === b.playerId)!.role;
  t.equal(g.status, 'active');
  t.equal(seat(g, aRole).running, false, 'the join answer already shows the paused seat');
  t.equal(seat(g, bRole).running, true);
  await svc.endVacation(a);
  t.equal(seat(await svc.getGame(null, g.id), aRole).running, true);
});

t.test('two instances on one database: a pause made by one is seen by the other, whose cached row is dropped (no version bump)', async (t) => {
  const other = createGameService({ store, bus, now });
  // The memory bus hands a message over on the next turn of the event loop (setImmediate).
  const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const aRole = g.seats.find((s) => s.player?.id === a.playerId)!.role;
  t.equal(seat(await other.getGame(null, g.id), aRole).running, true, 'the other instance reads (and caches) the running clock');
  await svc.startVacation(a, {});
  await delivered();
  t.equal(seat(await other.getGame(null, g.id), aRole).running, false, 'the other instance sees the pause');
  // A move there (the opponent's) is decided from the paused clocks, so it keeps the pause.
  const bRole = g.seats.find((s) => s.player?.id === b.playerId)!.role;
  clock.now += HOUR;
  const legal = await other.getLegalActions(b, g.id, { role: bRole });
  const after = (await other.submitAction(b, g.id, { role: bRole, action: legal.actions[0] as never })).game;
  t.equal(seat(after, aRole).running, false, 'still paused after a move through the other instance');
  await svc.endVacation(a);
  await delivered();
  t.equal(seat(await other.getGame(null, g.id), aRole).running, true);
});

t.test('two instances with separate buses (the pause message is lost): a move decided from the stale cached row does not undo the pause', async (t) => {
  // Each instance has its own in-process bus: B never hears of A's pause and keeps its cached row.
  const busA = createMemoryBus();
  const busB = createMemoryBus();
  t.teardown(() => Promise.all([busA.close(), busB.close()]));
  const A = createGameService({ store, bus: busA, now });
  const B = createGameService({ store, bus: busB, now });
  const a = await player(A);
  const b = await player(A);
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 }, A);
  const aRole = g.seats.find((s) => s.player?.id === a.playerId)!.role;
  const bRole = g.seats.find((s) => s.player?.id === b.playerId)!.role;
  t.same([...g.activeRoles].sort(), [aRole, bRole].sort(), 'both seats must act (card choice): both clocks run');
  const cached = await B.getGame(null, g.id);
  t.equal(seat(cached, aRole).running, true, 'B reads (and caches) the running clock');
  const version = await versionOf(g.id);

  clock.now += HOUR;
  await A.startVacation(a, {});
  const paused = seat(await A.getGame(null, g.id), aRole);
  t.equal(paused.running, false, 'A paused the seat of the player on vacation');
  t.equal(await versionOf(g.id), version, 'the pause took no version');

  // B decides b's move from its cached row (the write path trusts the cache; the commit's check
  // must catch the pause), an hour later.
  clock.now += HOUR;
  const legal = await B.getLegalActions(b, g.id, { role: bRole });
  const r = await B.submitAction(b, g.id, { role: bRole, action: legal.actions[0] as never, expectedVersion: version });
  t.equal(r.version, version + 1, 'the move commits (decided again from a fresh read)');
  for (const [name, s] of [['the answer', r.game], ['A', await A.getGame(null, g.id)], ['B', await B.getGame(null, g.id)]] as const) {
    t.equal(seat(s, aRole).running, false, `${name}: the seat on vacation is still paused`);
    t.equal(seat(s, aRole).remainingMs, paused.remainingMs, `${name}: with the time it had when the vacation began`);
    t.equal(seat(s, aRole).deadline, null, `${name}: and no deadline`);
  }
  const stored = (await db.query('SELECT version, clocks, deadline_at FROM games WHERE id = $1', [g.id])).rows[0];
  t.equal(stored.version, version + 1);
  t.equal(stored.clocks.seats[aRole].deadline, null, 'stored: the paused seat has no deadline');
  t.equal(stored.clocks.seats[aRole].runningSince, null, 'stored: the paused seat is not running');
  t.equal(stored.clocks.seats[aRole].paused, true, 'stored: the seat is marked paused');

  // Reads check the clock revision too: B's cached row from before the resume is not shown.
  t.equal(seat(await B.getGame(null, g.id), aRole).running, false, 'B caches the paused row');
  clock.now += HOUR;
  await A.endVacation(a);
  t.equal(seat(await B.getGame(null, g.id), aRole).running, true, 'B sees the resume without any message');
  t.equal(seat(await B.getGame(null, g.id), aRole).remainingMs, paused.remainingMs, 'with the time it had');
});

t.test('a crash inside a manual end (the use closed, the clocks not yet resumed): the clock sweep resumes them, at the end', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const aRole = g.seats.find((s) => s.player?.id === a.playerId)!.role;
  clock.now += HOUR;
  await svc.startVacation(a, {});
  const had = seat(await svc.getGame(null, g.id), aRole);
  t.equal(had.running, false, 'paused');

  // endVacation's first step alone (what closeUse writes), then the process dies.
  clock.now += DAY;
  const endedAt = clock.now;
  await db.query('UPDATE vacations SET ended_at = $2 WHERE player_id = $1 AND ended_at IS NULL', [a.playerId, new Date(endedAt)]);
  t.equal((await svc.getVacation(a)).onVacation, false, 'the vacation is over');
  t.equal(seat(await svc.getGame(null, g.id), aRole).running, false, 'but the seat is still paused');

  clock.now += HOUR;
  await svc.sweepClocks();
  const after = seat(await svc.getGame(null, g.id), aRole);
  t.equal(after.running, true, 'the sweep resumed the seat');
  t.equal(Date.parse(after.deadline!), endedAt + had.remainingMs!, 'from the end of the vacation, with the time it had');
  const marks = (await db.query('SELECT clocks_resumed_at FROM vacations WHERE player_id = $1', [a.playerId])).rows;
  t.equal(marks.length, 1);
  t.ok(marks[0].clocks_resumed_at !== null, 'the use is marked resumed: the next sweep does not look at it again');
  const rev = (await db.query('SELECT clock_rev FROM games WHERE id = $1', [g.id])).rows[0].clock_rev;
  await svc.sweepClocks();
  t.equal((await db.query('SELECT clock_rev FROM games WHERE id = $1', [g.id])).rows[0].clock_rev, rev, 'nothing more to do');
});

t.test('a crashed end followed by a new vacation before the sweep: the sweep leaves the new pause alone', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const aRole = g.seats.find((s) => s.player?.id === a.playerId)!.role;
  await svc.startVacation(a, {});
  clock.now += HOUR;
  await db.query('UPDATE vacations SET ended_at = $2 WHERE player_id = $1 AND ended_at IS NULL', [a.playerId, new Date(clock.now)]);
  clock.now += HOUR;
  await svc.startVacation(a, {});
  await svc.sweepClocks();
  t.equal(seat(await svc.getGame(null, g.id), aRole).running, false, 'still paused: the player is on vacation again');
  const pending = (await db.query('SELECT count(*)::int AS n FROM vacations WHERE player_id = $1 AND ended_at IS NOT NULL AND clocks_resumed_at IS NULL', [a.playerId])).rows[0].n;
  t.equal(pending, 0, 'the crashed use is marked resumed (the open one resumes the clocks when it ends)');
  await svc.endVacation(a);
  t.equal(seat(await svc.getGame(null, g.id), aRole).running, true, 'the new vacation\'s end resumes the seat');
  const open = (await db.query('SELECT count(*)::int AS n FROM vacations WHERE player_id = $1 AND clocks_resumed_at IS NULL', [a.playerId])).rows[0].n;
  t.equal(open, 0, 'an end that did not crash marks its use resumed itself');
});
