// Clocks at the service level (issue 15), on real Postgres with the service's clock injected:
// time moves forward by setting `clock.now`, never by sleeping.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type GameSummary } from '../../src/service/api.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const clock = { now: Date.UTC(2027, 0, 4, 12) };
const now = () => clock.now;
const svc = createGameService({ store, bus, now });
const db = store.pool;
const GT = 'richard-iii';

let n = 0;
async function player(name = `P${++n}`): Promise<Caller> {
  const r = await svc.createPlayer(null, { name });
  return svc.authenticate(r.key!.key);
}

async function game(york: Caller, lancaster: Caller, timeControl: unknown, rated = false): Promise<GameSummary> {
  const g = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], rated, timeControl: timeControl as never });
  return svc.join(lancaster, g.id, {});
}

/** The first legal action of `role`, submitted by its holder. */
async function move(who: Caller, gameId: string, role: string): Promise<GameSummary> {
  const legal = await svc.getLegalActions(who, gameId, { role });
  const r = await svc.submitAction(who, gameId, { role, action: legal.actions[0] as never });
  return r.game;
}

async function rejects(t: Test, p: Promise<unknown>, code: string, msg: string): Promise<ServiceError | undefined> {
  try {
    await p;
    t.fail(`${msg}: resolved`);
  } catch (err) {
    t.ok(err instanceof ServiceError && err.code === code, `${msg}: ${(err as Error).message}`);
    if (err instanceof ServiceError) return err;
  }
  return undefined;
}

const seat = (g: GameSummary, role: string) => g.clock!.seats.find((s) => s.role === role)!;

/** Reads a game's stored clock columns. */
async function stored(gameId: string): Promise<{ time_control: unknown; clocks: unknown; deadline_at: Date | null; status: string }> {
  return (await db.query('SELECT time_control, clocks, deadline_at, status::text AS status FROM games WHERE id = $1', [gameId])).rows[0];
}
async function timeoutEntries(gameId: string): Promise<Array<{ role: string; status: string }>> {
  return (await db.query("SELECT role, status::text AS status FROM actions WHERE game_id = $1 AND kind = 'timeout'", [gameId])).rows;
}

/**
 * Richard III's opening until one seat alone must act, both seats having moved (so a timeout is
 * a loss, not an abort): both keep their hands (York first, then Lancaster), both play a card;
 * the higher card goes first. Each step one hour after the last. `loser`: the seat that must
 * act (it loses when its time runs out), `winner` the other, `holder` the loser's player.
 */
async function opening(york: Caller, lancaster: Caller, gameId: string): Promise<{ mid: GameSummary; loser: string; winner: string; holder: Caller; deadline: number }> {
  for (const [who, role] of [[york, 'York'], [lancaster, 'Lancaster'], [york, 'York'], [lancaster, 'Lancaster']] as const) {
    clock.now += HOUR;
    await move(who, gameId, role);
  }
  const g = await svc.getGame(null, gameId);
  if (g.activeRoles.length !== 1) throw new Error(`the opening left ${g.activeRoles.join(', ')} to act`);
  const loser = g.activeRoles[0]!;
  return { mid: g, loser, winner: loser === 'York' ? 'Lancaster' : 'York', holder: loser === 'York' ? york : lancaster, deadline: Date.parse(seat(g, loser).deadline!) };
}

/** Ends every game of the earlier tests that has a clock (time moves on past all their deadlines), so sweep counts are this test's. */
async function clearDue(): Promise<void> {
  clock.now += 31 * DAY;
  while ((await svc.sweepTimeouts()) > 0);
}

t.test('days per move: the active seats run, a move stops the mover and refills it; both run when both must act', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 3 });
  const T0 = clock.now;
  t.same(g.clock!.control, { kind: 'correspondence', startMs: 3 * DAY, incrementMs: 3 * DAY, capMs: 3 * DAY });
  t.same(g.activeRoles, ['York', 'Lancaster'], 'Richard III opens with both seats choosing');
  t.same(g.clock!.seats, [
    { role: 'York', remainingMs: 3 * DAY, deadline: new Date(T0 + 3 * DAY).toISOString(), running: true, paused: false },
    { role: 'Lancaster', remainingMs: 3 * DAY, deadline: new Date(T0 + 3 * DAY).toISOString(), running: true, paused: false },
  ]);
  const row = await stored(g.id);
  t.same(row.time_control, g.clock!.control, 'the control is stored');
  t.equal(row.deadline_at?.getTime(), T0 + 3 * DAY, 'the earliest deadline is stored for the sweep');

  clock.now = T0 + 5 * HOUR;
  t.equal(seat(await svc.getGame(null, g.id), 'York').remainingMs, 3 * DAY - 5 * HOUR, 'remaining time is read as of now');
  const afterYork = await move(a, g.id, 'York');
  t.same(afterYork.activeRoles, ['Lancaster']);
  t.same(seat(afterYork, 'York'), { role: 'York', remainingMs: 3 * DAY, deadline: null, running: false, paused: false }, 'York moved: stopped, refilled to 3 days');
  t.same(seat(afterYork, 'Lancaster'), { role: 'Lancaster', remainingMs: 3 * DAY - 5 * HOUR, deadline: new Date(T0 + 3 * DAY).toISOString(), running: true, paused: false }, 'Lancaster keeps running');

  clock.now = T0 + 30 * HOUR;
  t.equal(seat(await svc.getGame(null, g.id), 'York').remainingMs, 3 * DAY, "a stopped clock does not run");
  const both = await move(b, g.id, 'Lancaster');
  t.same(both.activeRoles, ['York', 'Lancaster']);
  for (const s of both.clock!.seats) {
    t.same(s, { role: s.role, remainingMs: 3 * DAY, deadline: new Date(clock.now + 3 * DAY).toISOString(), running: true, paused: false }, `${s.role} runs again with 3 days`);
  }
  t.equal((await stored(g.id)).deadline_at?.getTime(), clock.now + 3 * DAY);
});

t.test('fischer: the increment is added to what was left', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'fischer', initialMs: 10 * 60_000, incrementMs: 5_000 });
  clock.now += 60_000;
  const after = await move(a, g.id, 'York');
  t.equal(seat(after, 'York').remainingMs, 9 * 60_000 + 5_000);
  t.equal(seat(after, 'Lancaster').remainingMs, 9 * 60_000, 'Lancaster was charged the minute, no increment');
});

t.test('a game without a time control has no clock and stores none', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, undefined);
  t.equal(g.clock, null);
  await move(a, g.id, 'York');
  t.same(await stored(g.id), { time_control: null, clocks: null, deadline_at: null, status: 'active' });
  t.equal(await svc.sweepTimeouts(), 0);
});

t.test('a bad time control is 422 invalid_time_control and stores nothing', async (t) => {
  const a = await player();
  const before = Number((await db.query('SELECT count(*) FROM games')).rows[0].count);
  for (const tc of [{ kind: 'correspondence', daysPerMove: 0 }, { kind: 'fischer', initialMs: -5, incrementMs: 0 }, { kind: 'preset', name: 'nope' }, '5+3', { kind: 'correspondence', daysPerMove: 3, extra: 1 }, []]) {
    try {
      await svc.createGame(a, { gameType: GT, scenario: GT, roles: ['York'], timeControl: tc as never });
      t.fail(`${JSON.stringify(tc)} accepted`);
    } catch (err) {
      t.ok(err instanceof ServiceError && err.code === 'invalid_time_control', JSON.stringify(tc));
      t.equal((err as ServiceError).extensions.field, 'timeControl');
      t.ok(((err as ServiceError).extensions.problems as unknown[]).length > 0, 'the problems are listed');
    }
  }
  t.equal(Number((await db.query('SELECT count(*) FROM games')).rows[0].count), before, 'no game stored');
});

t.test('past the deadline the sweep ends the game by timeout, once: the loser loses the rating and the log says so', async (t) => {
  const a = await player();
  const b = await player();
  await clearDue();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 1 }, true);
  const { loser, winner, deadline } = await opening(a, b, g.id);
  clock.now = deadline - 1;
  t.equal(await svc.sweepTimeouts(), 0, 'not due yet');
  t.equal(await svc.fireTimeout(g.id), false);
  clock.now = deadline;
  t.equal(await svc.sweepTimeouts(), 1, 'due at the deadline');
  t.equal(await svc.sweepTimeouts(), 0, 'and only once');
  const over = await svc.getGame(null, g.id);
  t.equal(over.status, 'finished');
  t.same(over.result, { winner, reason: 'timeout' });
  t.same(await timeoutEntries(g.id), [{ role: loser, status: 'finished' }]);
  t.ok(over.clock!.seats.every((s) => !s.running && s.deadline === null), 'every clock stopped');
  t.equal(seat(over, loser).remainingMs, 0);
  t.equal((await stored(g.id)).deadline_at, null);
  const log = await svc.getLog(a, g.id, {});
  t.match(log.entries[log.entries.length - 1], { kind: 'timeout', role: loser });
  const losing = loser === 'York' ? a : b;
  const winning = loser === 'York' ? b : a;
  const wins = (await db.query('SELECT player_id::text AS p, wins, losses FROM ratings WHERE player_id = ANY($1::uuid[]) ORDER BY wins', [[a.playerId, b.playerId]])).rows;
  t.same(wins, [{ p: losing.playerId, wins: 0, losses: 1 }, { p: winning.playerId, wins: 1, losses: 0 }], 'rated as a loss for the seat that ran out');
});

t.test('a seat that never moved: the game is abandoned and unrated', async (t) => {
  const a = await player();
  const b = await player();
  await clearDue();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 1 }, true);
  clock.now += HOUR;
  await move(a, g.id, 'York');
  clock.now += DAY;
  t.equal(await svc.sweepTimeouts(), 1);
  const over = await svc.getGame(null, g.id);
  t.equal(over.status, 'abandoned');
  t.same(over.result, { winner: null, reason: 'timeout' });
  t.same(await timeoutEntries(g.id), [{ role: 'Lancaster', status: 'abandoned' }]);
  t.equal(Number((await db.query('SELECT count(*) FROM rating_changes WHERE game_id = $1', [g.id])).rows[0].count), 0, 'unrated');
});

t.test('two instances sweeping the same due games at once end each game once', async (t) => {
  const other = createGameService({ store, bus, now });
  const a = await player();
  const b = await player();
  await clearDue();
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const g = await game(a, b, { kind: 'correspondence', daysPerMove: 1 });
    await opening(a, b, g.id);
    ids.push(g.id);
  }
  clock.now += 2 * DAY;
  const [x, y] = await Promise.all([svc.sweepTimeouts(), other.sweepTimeouts()]);
  t.equal(x + y, 6, `6 timeouts fired in all (${x} + ${y})`);
  for (const id of ids) t.equal((await timeoutEntries(id)).length, 1, 'one timeout entry');
});

t.test('a late move is refused with deadline_passed and the game is over by timeout', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const { loser, winner, holder, deadline } = await opening(a, b, g.id);
  clock.now = deadline + 1;
  const legal = await svc.getLegalActions(holder, g.id, { role: loser });
  const late = await rejects(t, svc.submitAction(holder, g.id, { role: loser, action: legal.actions[0] as never }), 'deadline_passed', 'a move after the deadline');
  const over = await svc.getGame(null, g.id);
  t.equal(over.status, 'finished');
  t.equal(late?.extensions.currentVersion, over.version, 'the refusal names the version after the ending it committed');
  t.same(over.result, { winner, reason: 'timeout' });
  t.equal((await timeoutEntries(g.id)).length, 1);
  await rejects(t, svc.submitAction(holder, g.id, { role: loser, action: legal.actions[0] as never }), 'game_over', 'and again: the game is over');
});

t.test('a resignation after the deadline, before the sweep fires, is refused: the game is lost on time', async (t) => {
  const a = await player();
  const b = await player();
  for (const by of ['loser', 'winner'] as const) {
    const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
    const { loser, winner, holder, deadline } = await opening(a, b, g.id);
    clock.now = deadline + 1;
    const resigner = by === 'loser' ? holder : holder === a ? b : a;
    const role = by === 'loser' ? loser : winner;
    const late = await rejects(t, svc.resign(resigner, g.id, { role }), 'deadline_passed', `the ${by} resigns after the deadline`);
    const over = await svc.getGame(null, g.id);
    t.equal(over.status, 'finished');
    t.equal(late?.extensions.currentVersion, over.version, 'the refusal names the version after the ending it committed');
    t.same(over.result, { winner, reason: 'timeout' }, 'a loss on time, not a resignation');
    t.equal((await timeoutEntries(g.id)).length, 1);
    await rejects(t, svc.resign(resigner, g.id, { role }), 'game_over', 'and again: the game is over');
  }
  // Under the claim policy the late seat may still act until the claim: its resignation stands.
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2, onTimeout: 'claim' });
  const { loser, winner, holder, deadline } = await opening(a, b, g.id);
  clock.now = deadline + 1;
  const over = await svc.resign(holder, g.id, { role: loser });
  t.same(over.result, { winner, reason: `${loser} resigned` }, 'claim policy: the resignation of the seat out of time stands');
});

t.test('a move racing its deadline never yields two endings', async (t) => {
  const a = await player();
  const b = await player();
  let moved = 0;
  let timedOut = 0;
  for (let i = 0; i < 12; i++) {
    const g = await game(a, b, { kind: 'correspondence', daysPerMove: 1 });
    const { loser, holder, deadline } = await opening(a, b, g.id);
    // Half the tries at the deadline instant (the move is late), half just before it (the move may win).
    clock.now = i % 2 === 0 ? deadline : deadline - 1;
    const legal = await svc.getLegalActions(holder, g.id, { role: loser });
    const [m, f] = await Promise.allSettled([svc.submitAction(holder, g.id, { role: loser, action: legal.actions[0] as never }), svc.fireTimeout(g.id)]);
    const entries = await timeoutEntries(g.id);
    t.ok(entries.length <= 1, 'at most one timeout entry');
    const after = await svc.getGame(null, g.id);
    if (m.status === 'fulfilled') {
      moved++;
      t.equal(entries.length, 0, 'the move committed: no timeout');
      t.equal(f.status === 'fulfilled' && f.value, false);
      t.equal(after.status, 'active');
    } else {
      timedOut++;
      t.ok(m.reason instanceof ServiceError && ['deadline_passed', 'game_over'].includes(m.reason.code), `the move was refused: ${m.reason.message}`);
      t.equal(entries.length, 1, 'the game ended by timeout once');
      t.equal(after.status, 'finished');
    }
  }
  t.ok(timedOut >= 6, `every move at the deadline instant lost (${moved} moved, ${timedOut} timed out)`);
});

t.test('a league with a time control: the player who stops moving loses the board, the standings follow', async (t) => {
  const org = await player('Org');
  const p1 = await player('L1');
  const p2 = await player('L2');
  await rejects(t, svc.createLeague(org, { name: 'Bad clock', gameType: GT, format: 'round-robin', timeControl: { kind: 'correspondence', daysPerMove: 99 } as never }), 'invalid_settings', 'a league with a bad control');
  const league = await svc.createLeague(org, { name: 'Clocked', gameType: GT, format: 'round-robin', timeControl: { kind: 'correspondence', daysPerMove: 2 } as never });
  t.same(league.settings.timeControl, { kind: 'correspondence', startMs: 2 * DAY, incrementMs: 2 * DAY, capMs: 2 * DAY });
  await svc.joinLeague(p1, league.id);
  await svc.joinLeague(p2, league.id);
  await clearDue();
  const published = clock.now;
  await svc.startLeague(org, league.id);
  const [round] = await svc.listRounds(null, league.id);
  const board = round!.pairings[0]!;
  const g = await svc.getGame(null, board.gameId!);
  t.same(g.clock!.seats.map((s) => s.deadline), [new Date(published + 2 * DAY).toISOString(), new Date(published + 2 * DAY).toISOString()], 'clocks started at publishing');
  // A 2-day turn: 24 hours left (1 day in) comes before 80% used (1.6 days in).
  const remindAt = (await db.query('SELECT remind_at FROM games WHERE id = $1', [g.id])).rows[0].remind_at as Date;
  t.equal(remindAt.getTime(), published + DAY, 'the first reminder time is stored at publishing');
  const york = board.first.id === p1.playerId ? p1 : p2;
  const lancaster = york === p1 ? p2 : p1;
  const { loser, deadline } = await opening(york, lancaster, g.id);
  clock.now = deadline;
  await svc.sweepTimeouts();
  t.match(await svc.getGame(null, g.id), { status: 'finished', result: { reason: 'timeout' } });
  const [after] = await svc.listRounds(null, league.id);
  t.equal(after!.pairings[0]!.result, loser === 'York' ? 'second' : 'first', 'the board goes to the opponent of the seat that ran out');
  const st = await svc.getStandings(null, league.id);
  const top = st.standings.find((r) => r.player.id === (loser === 'York' ? lancaster : york).playerId)!;
  const bottom = st.standings.find((r) => r.player.id === (loser === 'York' ? york : lancaster).playerId)!;
  t.equal(top.won, 1);
  t.equal(bottom.lost, 1);
  t.ok(top.rank < bottom.rank);
});

t.test('a game ended by timeout exports and imports like a resignation does', async (t) => {
  const a = await player();
  const b = await player();
  await clearDue();
  const lost = await game(a, b, { kind: 'correspondence', daysPerMove: 1 });
  const { loser, winner, deadline } = await opening(a, b, lost.id);
  clock.now = deadline;
  t.equal(await svc.fireTimeout(lost.id), true);
  const rec = await svc.exportGame(a, lost.id);
  t.same(rec.result, { winner, reason: 'timeout' });
  const imported = await svc.importGame(a, { record: rec });
  t.match(imported, { status: 'finished', result: { winner, reason: 'timeout' } });
  const log = await svc.getLog(a, imported.id, {});
  t.match(log.entries[log.entries.length - 1], { kind: 'timeout', role: loser });
  t.same(await svc.exportGame(a, imported.id), { ...rec, version: (await svc.exportGame(a, imported.id)).version }, 'it exports as the original did');
  // The wrong winner does not replay: the seat named the loser was not to act.
  await rejects(t, svc.importGame(a, { record: { ...rec, result: { winner: loser, reason: 'timeout' } } }), 'invalid_record', 'the wrong seat lost on time');

  const early = await game(a, b, { kind: 'correspondence', daysPerMove: 1 });
  clock.now += HOUR;
  await move(a, early.id, 'York');
  clock.now += DAY;
  t.equal(await svc.fireTimeout(early.id), true);
  const rec2 = await svc.exportGame(a, early.id);
  t.match(rec2, { status: 'abandoned', result: { winner: null, reason: 'timeout' } });
  t.equal(rec2.actions.length, 1);
  t.match(await svc.importGame(a, { record: rec2 }), { status: 'abandoned', result: { winner: null, reason: 'timeout' } });
  // Without the timeout the same record reads as a game aborted after its first action (as the creator of an all-AI game may abort it): it ends with an abort.
  t.match(await svc.importGame(a, { record: { ...rec2, result: null } }), { status: 'abandoned', result: null }, 'an abandoned record with actions and no timeout imports as aborted');
});

t.test('a resignation stops every clock: no deadline is left for the sweep', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'preset', name: 'rally-fast' });
  clock.now += HOUR;
  const over = await svc.resign(b, g.id, {});
  t.equal(over.status, 'finished');
  t.ok(over.clock!.seats.every((s) => !s.running && s.deadline === null), 'no clock runs');
  t.equal(seat(over, 'Lancaster').remainingMs, 24 * HOUR - HOUR, 'the time used is charged');
  t.equal((await stored(g.id)).deadline_at, null);
  clock.now += 30 * DAY;
  t.equal(await svc.fireTimeout(g.id), false, 'nothing to time out');
  t.equal((await timeoutEntries(g.id)).length, 0);
});

t.test('the messages published after a commit carry the clock: the version event on game:<id> and your_turn on player:<id>', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const gameMsgs: Array<Record<string, unknown>> = [];
  const turnMsgs: Array<Record<string, unknown>> = [];
  const offGame = await bus.subscribe(`game:${g.id}`, (m) => void gameMsgs.push(m as Record<string, unknown>));
  const offTurns = await bus.subscribe(`player:${b.playerId}`, (m) => void turnMsgs.push(m as Record<string, unknown>));
  t.teardown(() => { offGame(); offTurns(); });
  clock.now += HOUR;
  t.equal(g.seats.find((s) => s.role === 'York')!.player!.id, a.playerId, 'the creator holds York');
  const yorkPlayer = a;
  const after = await move(yorkPlayer, g.id, 'York');
  await new Promise((r) => setImmediate(r)); // the memory bus delivers on the next turn
  const event = gameMsgs.find((m) => m.version === after.version)!;
  t.ok(event, 'the version event was published');
  t.same(event.clock, after.clock, 'with the clock after the commit, as the answer shows it');
  t.same(after.activeRoles, ['Lancaster'], 'Lancaster (b) must act now');
  const turn = turnMsgs.find((m) => m.version === after.version);
  t.same(turn?.clock, after.clock, 'your_turn carries the same clock');
  const none = await game(a, b, null);
  const plain: Array<Record<string, unknown>> = [];
  const offPlain = await bus.subscribe(`game:${none.id}`, (m) => void plain.push(m as Record<string, unknown>));
  t.teardown(() => offPlain());
  const r = await move(yorkPlayer, none.id, 'York');
  await new Promise((r) => setImmediate(r));
  t.equal(plain.find((m) => m.version === r.version)?.clock, null, 'a game without a clock: clock null');
});
