// League rounds on a schedule (settings.schedule) on real Postgres, with the service's clock
// injected: time moves forward by setting `clock.now`, and the round sweep is called directly
// (src/jobs/round-sweep.ts runs the same function on a timer). Covers the settings checks, a
// round published at its time and not before, the previous round's unfinished boards (wait, or
// adjudicated), the organiser's draft published at its time, a no-show's timeout deciding a
// board, and exactly one publication when two instances sweep at once.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type League, type Round } from '../../src/service/api.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const clock = { now: Date.UTC(2027, 0, 4, 12) };
const now = () => clock.now;
const svc = createGameService({ store, bus, now });
const iso = (ms: number) => new Date(ms).toISOString();

const callers = new Map<string, Caller>();
let n = 0;
async function player(): Promise<Caller> {
  const c = await svc.authenticate((await svc.createPlayer(null, { name: `S${++n}` })).key!.key);
  callers.set(c.playerId, c);
  return c;
}
const organiser = await player();

async function refused(t: Test, p: Promise<unknown>, code: string, what: string): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    t.ok(err instanceof ServiceError && err.code === code, `${what}: ${code} (${(err as Error).message})`);
    return err as ServiceError;
  }
  t.fail(`${what}: was not refused`);
  throw new Error('not refused');
}

/** A started league of `size` new players; the league as the start answered it. */
async function league(size: number, settings: object): Promise<{ league: League; players: Caller[] }> {
  const l = await svc.createLeague(organiser, { name: `Scheduled ${++n}`, gameType: 'richard-iii', format: 'round-robin', ...settings });
  const players: Caller[] = [];
  for (let i = 0; i < size; i++) {
    const p = await player();
    players.push(p);
    await svc.joinLeague(p, l.id);
  }
  return { league: await svc.startLeague(organiser, l.id), players };
}

const rounds = (id: string): Promise<Round[]> => svc.listRounds(organiser, id);

/** Every open game of the round ends: its first player resigns. */
/** Ends a round's open boards by resigning; a game whose clock has run out meanwhile ends on time instead (the resignation is refused: deadline_passed). */
async function playOut(r: Round): Promise<void> {
  for (const b of r.pairings) {
    if (!b.gameId || b.result !== null) continue;
    await svc.resign(callers.get(b.first.id)!, b.gameId, {}).catch((err: unknown) => {
      if (!(err instanceof ServiceError && err.code === 'deadline_passed')) throw err;
    });
  }
}

t.test('a bad schedule is a 422 invalid_settings naming the field; nothing is stored', async (t) => {
  const base = { name: 'Weekly', gameType: 'richard-iii', format: 'swiss' as const, rounds: 3 };
  const first = '2027-02-01T18:00:00Z';
  const cases: Array<[unknown, string | undefined]> = [
    ['weekly', undefined],
    [[first, 7], undefined],
    [{ everyDays: 7 }, 'schedule.firstRoundAt'],
    [{ firstRoundAt: 'next Monday', everyDays: 7 }, 'schedule.firstRoundAt'],
    [{ firstRoundAt: 1_800_000_000_000, everyDays: 7 }, 'schedule.firstRoundAt'],
    [{ firstRoundAt: first }, 'schedule.everyDays'],
    [{ firstRoundAt: first, everyDays: 0 }, 'schedule.everyDays'],
    [{ firstRoundAt: first, everyDays: 91 }, 'schedule.everyDays'],
    [{ firstRoundAt: first, everyDays: 1.5 }, 'schedule.everyDays'],
    [{ firstRoundAt: first, everyDays: '7' }, 'schedule.everyDays'],
    [{ firstRoundAt: first, everyDays: 7, unfinished: 'adjourn' }, 'schedule.unfinished'],
    [{ firstRoundAt: first, everyDays: 7, unfinished: null }, 'schedule.unfinished'],
    [{ firstRoundAt: first, everyDays: 7, everyHours: 12 }, 'schedule.everyHours'],
  ];
  const before = await store.prisma.league.count();
  for (const [schedule, field] of cases) {
    const err = await refused(t, svc.createLeague(organiser, { ...base, schedule } as never), 'invalid_settings', JSON.stringify(schedule));
    t.equal(err.extensions.setting, 'schedule', 'names the setting');
    t.equal(err.extensions.field, field, `names ${field ?? 'no field'}`);
  }
  const late = await refused(t, svc.createLeague(organiser, { ...base, registrationClosesAt: '2027-02-02T00:00:00Z', schedule: { firstRoundAt: first, everyDays: 7 } }), 'invalid_settings', 'round 1 before registration closes');
  t.equal(late.extensions.field, 'schedule.firstRoundAt');
  t.equal(await store.prisma.league.count(), before, 'nothing stored');

  const ok = await svc.createLeague(organiser, { ...base, schedule: { firstRoundAt: first, everyDays: 7 } });
  t.same(ok.settings.schedule, { firstRoundAt: '2027-02-01T18:00:00.000Z', everyDays: 7, unfinished: 'wait' }, 'stored in canonical form, unfinished defaults to wait');
  t.equal(ok.nextRoundAt, '2027-02-01T18:00:00.000Z', 'the view shows when round 1 is due');
  const changed = await svc.updateLeague(organiser, ok.id, { schedule: { everyDays: 14, unfinished: 'double-forfeit' } } as never);
  t.same(changed.settings.schedule, { firstRoundAt: '2027-02-01T18:00:00.000Z', everyDays: 14, unfinished: 'double-forfeit' }, 'an update changes only the fields it sends');
  const bad = await refused(t, svc.updateLeague(organiser, ok.id, { schedule: { everyDays: -1 } } as never), 'invalid_settings', 'a bad update');
  t.equal(bad.extensions.field, 'schedule.everyDays');
  t.same((await svc.getLeague(null, ok.id)).settings.schedule, changed.settings.schedule, 'the refused update changed nothing');
  const off = await svc.updateLeague(organiser, ok.id, { schedule: null });
  t.equal(off.settings.schedule, null);
  t.equal(off.nextRoundAt, null, 'no schedule, no time');
  t.equal((await svc.getLeague(null, (await svc.createLeague(organiser, base)).id)).settings.schedule, null, 'no schedule by default');
});

t.test('rounds are published at their time and not before; a late round pushes the next back', async (t) => {
  const t0 = clock.now;
  const first = t0 + DAY;
  const heard = new Map<string, unknown[]>();
  const { league: l, players } = await league(4, { timeControl: { kind: 'correspondence', daysPerMove: 3 }, schedule: { firstRoundAt: iso(first), everyDays: 7 } });
  const subs = await Promise.all(players.map((p) => bus.subscribe(`player:${p.playerId}`, (m) => heard.set(p.playerId, [...(heard.get(p.playerId) ?? []), m]))));
  t.teardown(() => Promise.all(subs.map((u) => u())));
  t.equal(l.status, 'running');
  t.equal(l.roundCount, 0, 'the start pairs nothing before round 1 is due');
  t.equal(l.nextRoundAt, iso(first));
  t.equal(await svc.sweepRounds(), 0, 'nothing due at the start');
  clock.now = first - 1;
  t.equal(await svc.sweepRounds(), 0, 'nothing due a millisecond early');
  t.same(await rounds(l.id), []);

  clock.now = first;
  t.equal(await svc.sweepRounds(), 1, 'round 1 comes due: the sweep publishes it');
  t.equal(await svc.sweepRounds(), 0, 'and only once');
  const [r1] = await rounds(l.id);
  t.match(r1, { number: 1, status: 'published', publishedAt: iso(first) });
  for (const b of r1!.pairings) {
    const g = await svc.getGame(null, b.gameId!);
    t.equal(g.status, 'active');
    t.match(g.clock, { control: { kind: 'correspondence', startMs: 3 * DAY } }, "the game carries the league's time control");
  }
  await new Promise((r) => setTimeout(r, 50));
  for (const p of players) {
    const board = r1!.pairings.find((b) => b.first.id === p.playerId || b.second?.id === p.playerId)!;
    t.match(heard.get(p.playerId)?.filter((m) => (m as { type: string }).type === 'seated'), [{ type: 'seated', gameId: board.gameId, leagueId: l.id, round: 1, board: board.board }], 'the player heard of their seat');
  }
  t.equal((await svc.getLeague(null, l.id)).nextRoundAt, iso(first + 7 * DAY), 'round 2 is due a week after round 1');

  // Round 1 ends early: round 2 still waits for its time.
  clock.now = first + DAY;
  await playOut(r1!);
  const after1 = await rounds(l.id);
  t.same(after1.map((r) => [r.number, r.status]), [[1, 'complete']], 'the complete round does not bring round 2 forward');
  clock.now = first + 7 * DAY - HOUR;
  t.equal(await svc.sweepRounds(), 0);
  clock.now = first + 7 * DAY;
  t.equal(await svc.sweepRounds(), 1, 'round 2 at its time');
  const r2 = (await rounds(l.id))[1]!;
  t.match(r2, { number: 2, status: 'published', publishedAt: iso(first + 7 * DAY) });

  // unfinished: wait — round 3 is due, round 2 is still being played: the round waits.
  clock.now = first + 14 * DAY + HOUR;
  t.equal(await svc.sweepRounds(), 0, 'round 3 waits for round 2');
  t.equal((await rounds(l.id)).length, 2);
  t.equal((await svc.getLeague(null, l.id)).nextRoundAt, iso(first + 14 * DAY), 'the view shows the round as due (in the past)');
  // Round 2's last result publishes round 3 at once, late: round 4 is due a full week later.
  await playOut(r2);
  const r3 = (await rounds(l.id))[2];
  t.match(r3, { number: 3, status: 'published', publishedAt: iso(clock.now) }, 'the last result of round 2 publishes the overdue round 3');
  t.equal((await svc.getLeague(null, l.id)).nextRoundAt, null, 'a round robin of 4 has 3 rounds: no next round');
  clock.now += 2 * DAY;
  await playOut(r3!);
  const done = await svc.getLeague(null, l.id);
  t.equal(done.status, 'finished');
  t.equal(done.nextRoundAt, null);
  t.equal(await svc.sweepRounds(), 0);
});

t.test('a late round gets its full period: the next one is due everyDays after it was published', async (t) => {
  const first = clock.now + HOUR;
  const { league: l } = await league(4, { schedule: { firstRoundAt: iso(first), everyDays: 7 } });
  clock.now = first + 3 * DAY; // no instance ran for three days
  t.equal(await svc.sweepRounds(), 1);
  t.equal((await svc.getLeague(null, l.id)).nextRoundAt, iso(clock.now + 7 * DAY), 'round 2: a week after round 1 was published, not on the original slot');
});

t.test('unfinished draw: at the next round time open boards are adjudicated, their games end, the next round starts', async (t) => {
  const first = clock.now + HOUR;
  const { league: l } = await league(4, { timeControl: { kind: 'correspondence', daysPerMove: 10 }, schedule: { firstRoundAt: iso(first), everyDays: 7, unfinished: 'draw' } });
  clock.now = first;
  t.equal(await svc.sweepRounds(), 1);
  const r1 = (await rounds(l.id))[0]!;
  clock.now = first + 2 * DAY;
  await svc.resign(callers.get(r1.pairings[0]!.second!.id)!, r1.pairings[0]!.gameId!, {});
  clock.now = first + 7 * DAY;
  t.equal(await svc.sweepRounds(), 1, 'round 2 starts on time');
  const [a, b] = await rounds(l.id);
  t.equal(a!.status, 'complete', 'round 1 is complete');
  t.same(a!.pairings.map((p) => [p.result, p.source]), [['first', 'game'], ['draw', 'adjudication']], 'the played board keeps its result, the open one is a draw');
  t.equal(b!.status, 'published');
  t.equal((await svc.getGame(null, a!.pairings[1]!.gameId!)).status, 'abandoned', "the adjudicated board's game ends");
  const audit = await svc.listResultChanges(organiser, l.id, { pairingId: a!.pairings[1]!.id });
  t.match(audit, [{ kind: 'adjudication', by: null, before: null, after: 'draw', reason: /schedule/ }], 'the audit log says why');
  t.equal((await svc.getStandings(null, l.id)).standings.reduce((s, r) => s + r.points, 0), 2, 'one win and one draw: 2 points in all');
});

t.test('unfinished double-forfeit, autoPair off: the round is closed but the next waits for the organiser', async (t) => {
  const first = clock.now + HOUR;
  const { league: l } = await league(4, { autoPair: false, schedule: { firstRoundAt: iso(first), everyDays: 3, unfinished: 'double-forfeit' } });
  clock.now = first;
  t.equal(await svc.sweepRounds(), 0, 'autoPair off and no draft: nothing to publish');
  const draft = await svc.generateRound(organiser, l.id);
  const x = draft.pairings[0]!;
  await svc.editPairings(organiser, l.id, 1, [{ op: 'swap', a: x.first.id, b: x.second!.id }]);
  t.equal(await svc.sweepRounds(), 1, "the organiser's draft is published by the sweep (it is due)");
  const r1 = (await rounds(l.id))[0]!;
  t.equal(r1.status, 'published');
  t.same([r1.pairings[0]!.first.id, r1.pairings[0]!.second!.id], [x.second!.id, x.first.id], "the organiser's edit is kept");
  clock.now = first + 3 * DAY;
  t.equal(await svc.sweepRounds(), 1, 'round 2 is due: round 1 is closed');
  const after = await rounds(l.id);
  t.same(after.map((r) => r.status), ['complete'], 'no round 2 without a draft (autoPair off)');
  t.same(after[0]!.pairings.map((p) => p.result), ['double-forfeit', 'double-forfeit']);
  t.equal(await svc.sweepRounds(), 0, 'nothing more to do');
  t.equal((await svc.getLeague(null, l.id)).nextRoundAt, iso(first + 3 * DAY), 'round 2 is shown due, waiting for the organiser');
});

t.test('a draft made before its time is published by the sweep at that time, as edited', async (t) => {
  const first = clock.now + HOUR;
  const { league: l } = await league(4, { schedule: { firstRoundAt: iso(first), everyDays: 7 } });
  const draft = await svc.generateRound(organiser, l.id);
  t.equal(draft.status, 'draft', 'the organiser may pair round 1 early to review it');
  const b0 = draft.pairings[0]!;
  await svc.editPairings(organiser, l.id, 1, [{ op: 'swap', a: b0.first.id, b: b0.second!.id }]);
  t.equal(await svc.sweepRounds(), 0, 'not before its time');
  t.equal((await rounds(l.id))[0]!.status, 'draft');
  clock.now = first;
  t.equal(await svc.sweepRounds(), 1);
  const r1 = (await rounds(l.id))[0]!;
  t.equal(r1.status, 'published');
  t.same([r1.pairings[0]!.first.id, r1.pairings[0]!.second!.id], [b0.second!.id, b0.first.id], 'as edited');
});

t.test("a no-show's timeout decides the board: the waiting round goes on", async (t) => {
  const first = clock.now + HOUR;
  const { league: l } = await league(2, { timeControl: { kind: 'correspondence', daysPerMove: 1 }, schedule: { firstRoundAt: iso(first), everyDays: 7 } });
  clock.now = first;
  t.equal(await svc.sweepRounds(), 1);
  const r1 = (await rounds(l.id))[0]!;
  clock.now = first + 2 * DAY;
  await svc.sweepClocks();
  const g = await svc.getGame(null, r1.pairings[0]!.gameId!);
  t.equal(g.status, 'abandoned', 'nobody moved: the game is abandoned (unrated)');
  const r = (await rounds(l.id))[0]!;
  t.equal(r.pairings[0]!.result, 'double-forfeit', 'neither seat moved: both forfeit');
  t.equal(r.status, 'complete', 'the round is over, so a waiting schedule can go on');

  // One seat moves, the other never does: the no-show forfeits to the seat that moved.
  const first2 = clock.now + HOUR;
  const { league: l2 } = await league(2, { timeControl: { kind: 'correspondence', daysPerMove: 1 }, schedule: { firstRoundAt: iso(first2), everyDays: 7 } });
  clock.now = first2;
  await svc.sweepRounds();
  const b = (await rounds(l2.id))[0]!.pairings[0]!;
  const york = callers.get(b.first.id)!;
  const legal = await svc.getLegalActions(york, b.gameId!, { role: 'York' });
  await svc.submitAction(york, b.gameId!, { role: 'York', action: legal.actions[0] as never });
  clock.now = first2 + 2 * DAY;
  await svc.sweepClocks();
  t.equal((await svc.getGame(null, b.gameId!)).status, 'abandoned');
  t.equal((await rounds(l2.id))[0]!.pairings[0]!.result, 'forfeit-first', 'York moved, Lancaster never did: York wins by forfeit');
  t.match(await svc.listResultChanges(organiser, l2.id), [{ kind: 'forfeit', by: null, after: 'forfeit-first', reason: /no-show/ }]);
});

t.test('two instances sweeping at once publish each due round once', async (t) => {
  const other = createGameService({ store, bus, now });
  // The earlier tests' leagues are set aside (finished), so that the sweeps' counts are these three's.
  await store.prisma.league.updateMany({ where: { status: 'running' }, data: { status: 'finished' } });
  const first = clock.now + HOUR;
  const leagues: Array<{ league: League; players: Caller[] }> = [];
  for (let i = 0; i < 3; i++) leagues.push(await league(4, { schedule: { firstRoundAt: iso(first), everyDays: 7 } }));
  const seated: unknown[] = [];
  const subs = await Promise.all(leagues.flatMap((x) => x.players).map((p) => bus.subscribe(`player:${p.playerId}`, (m) => seated.push(m))));
  t.teardown(() => Promise.all(subs.map((u) => u())));
  clock.now = first;
  const versions = await Promise.all(leagues.map(async (x) => (await svc.getLeague(null, x.league.id)).version));
  const [a, b] = await Promise.all([svc.sweepRounds(), other.sweepRounds()]);
  t.equal(a + b, 3, `three rounds started in all (${a} + ${b})`);
  for (const [i, x] of leagues.entries()) {
    t.equal((await svc.getLeague(null, x.league.id)).version, versions[i]! + 1, 'one committed change: the loser of the race rolled back');
    const rs = await rounds(x.league.id);
    t.same(rs.map((r) => [r.number, r.status]), [[1, 'published']], 'one round 1 per league');
    t.equal(await store.prisma.game.count({ where: { pairing: { leagueId: x.league.id } } }), 2, 'two games, not four');
  }
  await new Promise((r) => setTimeout(r, 50));
  t.equal(seated.filter((m) => (m as { type: string }).type === 'seated').length, 12, 'each of the 12 players heard once');
  const [c, d] = await Promise.all([svc.sweepRounds(), other.sweepRounds()]);
  t.equal(c + d, 0, 'and again: nothing is due');
});
