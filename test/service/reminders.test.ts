// Reminders (issue 15) at the service level, on real Postgres with the service's clock injected:
// time moves by setting `clock.now`, never by sleeping; reminders are counted on the bus.
import t from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, isReminderEvent, playerChannel, type Caller, type GameSummary, type ReminderEvent } from '../../src/service/api.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const clock = { now: Date.UTC(2027, 0, 4, 12) };
const now = () => clock.now;
const svc = createGameService({ store, bus, now });
const GT = 'richard-iii';

let n = 0;
async function player(): Promise<Caller> {
  const r = await svc.createPlayer(null, { name: `R${++n}` });
  return svc.authenticate(r.key!.key);
}

/** Every reminder published on the players' channels, in order. */
const heard: ReminderEvent[] = [];
async function listen(p: Caller): Promise<void> {
  const off = await bus.subscribe(playerChannel(p.playerId), (m) => {
    if (isReminderEvent(m)) heard.push(m);
  });
  t.teardown(off);
}
const of = (gameId: string) => heard.filter((e) => e.gameId === gameId);

const seat = (g: GameSummary, role: string) => g.clock!.seats.find((s) => s.role === role)!;

t.test('days per move: one share-used and one low-time reminder per turn, once across instances and restarts, no game change', async (t) => {
  const york = await player();
  const lancaster = await player();
  await listen(york);
  await listen(lancaster);
  const created = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } as never });
  const g = await svc.join(lancaster, created.id, {});
  t.equal(g.status, 'active');
  const active = g.activeRoles;
  t.ok(active.length >= 1, `active: ${active.join(', ')}`);
  const deadline = Date.parse(seat(g, active[0]!).deadline!);
  const version = g.version;

  // 80% of 10 days used = 2 days left; 24 hours left comes a day later.
  clock.now = deadline - 2 * DAY - 1;
  t.equal(await svc.sweepReminders(), 0, 'nothing before 80% is used');
  t.equal(of(g.id).length, 0);

  clock.now = deadline - 2 * DAY;
  t.equal(await svc.sweepReminders(), active.length, 'share-used is due at 80%');
  t.same(of(g.id).map((e) => [e.kind, e.role]).sort(), active.map((r) => ['share-used', r]).sort());
  const first = of(g.id)[0]!;
  t.equal(first.deadline, new Date(deadline).toISOString());
  t.equal(first.remainingMs, 2 * DAY);
  const holderOf = (role: string) => (g.seats.find((s) => s.role === role)!.player!.id);
  t.ok(active.every((r) => holderOf(r) === york.playerId || holderOf(r) === lancaster.playerId));
  t.equal(await svc.sweepReminders(), 0, 'and only once');

  // Two instances at once, then a fresh one (a restart): the low-time reminder goes out once.
  const other = createGameService({ store, bus, now });
  clock.now = deadline - DAY;
  const [x, y] = await Promise.all([svc.sweepReminders(), other.sweepReminders()]);
  t.equal(x + y, active.length, `low-time sent once in all (${x} + ${y})`);
  const restarted = createGameService({ store, bus, now });
  t.equal(await restarted.sweepReminders(), 0, 'a restart does not resend');
  t.equal(of(g.id).length, 2 * active.length);
  t.same(of(g.id).slice(active.length).map((e) => e.kind), active.map(() => 'low-time'));

  const after = await svc.getGame(null, g.id);
  t.equal(after.version, version, 'reminders do not change the game version');
  const entries = await store.pool.query('SELECT count(*)::int AS n FROM actions WHERE game_id = $1', [g.id]);
  t.equal(entries.rows[0].n, version, 'nor add log entries');

  // Moves refill the movers; the seats whose turn begins (10 days again) get their own reminders.
  // (Richard III opens with both seats acting: each moves until a new turn has begun.)
  let newTurns: Array<{ role: string; deadline: number }> = [];
  for (let i = 0; i < 4 && newTurns.length === 0; i++) {
    const g0 = await svc.getGame(null, g.id);
    const mover = g0.activeRoles[0]!;
    const who = holderOf(mover) === york.playerId ? york : lancaster;
    clock.now += HOUR;
    const legal = await svc.getLegalActions(who, g.id, { role: mover });
    const moved = (await svc.submitAction(who, g.id, { role: mover, action: legal.actions[0] as never })).game;
    newTurns = moved.activeRoles.map((r) => ({ role: r, deadline: Date.parse(seat(moved, r).deadline!) })).filter((s) => s.deadline === clock.now + 10 * DAY);
  }
  t.ok(newTurns.length >= 1, `a new turn began for ${newTurns.map((s) => s.role).join(', ')}`);
  const before = of(g.id).length;
  clock.now = newTurns[0]!.deadline - 2 * DAY;
  t.equal(await other.sweepReminders(), newTurns.length, 'the next turn gets its share-used reminder');
  clock.now = newTurns[0]!.deadline - DAY;
  t.equal(await restarted.sweepReminders(), newTurns.length, 'and its low-time reminder');
  t.same(of(g.id).slice(before).map((e) => e.kind), [...newTurns.map(() => 'share-used'), ...newTurns.map(() => 'low-time')]);
  t.equal(await svc.sweepReminders(), 0);
});

t.test('short turns: the low-time reminder comes at 10% left; a seat out of time gets none', async (t) => {
  const york = await player();
  const lancaster = await player();
  await listen(york);
  await listen(lancaster);
  const created = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 1 } as never });
  const g = await svc.join(lancaster, created.id, {});
  const deadline = Date.parse(seat(g, g.activeRoles[0]!).deadline!);
  clock.now = deadline - Math.round(0.2 * DAY);
  t.equal(await svc.sweepReminders(), g.activeRoles.length);
  clock.now = deadline - Math.round(0.1 * DAY);
  t.equal(await svc.sweepReminders(), g.activeRoles.length);
  t.same(of(g.id).map((e) => e.kind), [...g.activeRoles.map(() => 'share-used'), ...g.activeRoles.map(() => 'low-time')]);

  // A second game whose reminders were never swept: past its deadline it gets no reminder at all.
  const c2 = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 1 } as never });
  const g2 = await svc.join(lancaster, c2.id, {});
  clock.now = Date.parse(seat(g2, g2.activeRoles[0]!).deadline!) + 1;
  await svc.sweepReminders();
  t.equal(of(g2.id).length, 0, 'a timeout says it all');
  const row = await store.pool.query('SELECT remind_at FROM games WHERE id = $1', [g2.id]);
  t.equal(row.rows[0].remind_at, null, 'and remind_at is cleared, so the sweep does not look again');
});

t.test('a game without a clock or a live control has no reminder time', async (t) => {
  const york = await player();
  const lancaster = await player();
  const a = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'] });
  await svc.join(lancaster, a.id, {});
  const b = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: { kind: 'preset', name: 'bot-blitz' } as never });
  await svc.join(lancaster, b.id, {});
  const rows = await store.pool.query('SELECT remind_at FROM games WHERE id = ANY($1::uuid[])', [[a.id, b.id]]);
  t.same(rows.rows.map((r) => r.remind_at), [null, null]);
});

t.test('the share is configurable per service; bad settings are refused at construction', async (t) => {
  const half = createGameService({ store, bus, now, reminders: { shareUsed: 0.5 } });
  const york = await player();
  const lancaster = await player();
  await listen(york);
  await listen(lancaster);
  const created = await half.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } as never });
  const g = await half.join(lancaster, created.id, {});
  const deadline = Date.parse(seat(g, g.activeRoles[0]!).deadline!);
  clock.now = deadline - 5 * DAY - 1;
  await half.sweepReminders();
  t.equal(of(g.id).length, 0, 'not before half the time is used');
  clock.now = deadline - 5 * DAY;
  t.equal(await half.sweepReminders(), g.activeRoles.length, 'share-used at 50%');
  t.same(of(g.id).map((e) => [e.kind, e.remainingMs]), g.activeRoles.map(() => ['share-used', 5 * DAY]));
  t.throws(() => createGameService({ store, bus, now, reminders: { shareUsed: 1.5 } }), RangeError);
});

t.test('moves committed together (group commit) store each game its own reminder time', async (t) => {
  const york = await player();
  const lancaster = await player();
  const games: GameSummary[] = [];
  for (let i = 0; i < 6; i++) {
    const c = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } as never });
    games.push(await svc.join(lancaster, c.id, {}));
  }
  clock.now += HOUR;
  const moved = await Promise.all(games.map(async (g) => {
    const legal = await svc.getLegalActions(york, g.id, { role: 'York' });
    return (await svc.submitAction(york, g.id, { role: 'York', action: legal.actions[0] as never })).game;
  }));
  for (const g of moved) {
    // Every running seat is in a 10-day turn: its first reminder (80% used) is 2 days before its deadline.
    const earliest = Math.min(...g.clock!.seats.filter((s) => s.running).map((s) => Date.parse(s.deadline!)));
    const row = await store.pool.query('SELECT remind_at FROM games WHERE id = $1', [g.id]);
    t.equal((row.rows[0].remind_at as Date).getTime(), earliest - 2 * DAY, `game ${g.id}`);
  }
});
