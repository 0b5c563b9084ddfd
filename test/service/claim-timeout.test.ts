// The `claim` timeout policy (issue 15: "the opponent may claim the win — configurable per game;
// leagues use automatic loss") at the service level, on real Postgres with the service's clock
// injected: time moves by setting `clock.now`, never by sleeping; notices are counted on the bus.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, isClaimableEvent, playerChannel, ServiceError, type Caller, type ClaimableEvent, type GameSummary } from '../../src/service/api.ts';
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
const CLAIM = { kind: 'correspondence', daysPerMove: 2, onTimeout: 'claim' };

let n = 0;
const heard: ClaimableEvent[] = [];
async function player(name = `C${++n}`): Promise<Caller> {
  const r = await svc.createPlayer(null, { name });
  const p = await svc.authenticate(r.key!.key);
  const off = await bus.subscribe(playerChannel(p.playerId), (m) => {
    if (isClaimableEvent(m)) heard.push({ ...(m as ClaimableEvent), to: p.playerId } as ClaimableEvent);
  });
  t.teardown(off);
  return p;
}
const heardOf = (gameId: string) => heard.filter((e) => e.gameId === gameId);
/** The memory bus delivers on the next turn of the event loop (setImmediate): let it. */
const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Sweeps, then lets the notices it published arrive. */
async function sweep(s = svc): Promise<number> {
  const fired = await s.sweepTimeouts();
  await delivered();
  return fired;
}

/** `role`'s action of type `type` (Richard III: `end` ends the turn, handing it over). */
async function act(who: Caller, gameId: string, role: string, type: string): Promise<GameSummary> {
  const legal = await svc.getLegalActions(who, gameId, { role });
  const action = legal.actions.find((a) => (a as { type?: string }).type === type);
  if (!action) throw new Error(`${role} has no ${type} action`);
  return (await svc.submitAction(who, gameId, { role, action: action as never })).game;
}

async function game(york: Caller, lancaster: Caller, timeControl: unknown, rated = false): Promise<GameSummary> {
  const g = await svc.createGame(york, { gameType: GT, scenario: GT, roles: ['York'], rated, timeControl: timeControl as never, seed: 'claim-timeout-test' });
  return svc.join(lancaster, g.id, {});
}

async function move(who: Caller, gameId: string, role: string): Promise<GameSummary> {
  const legal = await svc.getLegalActions(who, gameId, { role });
  return (await svc.submitAction(who, gameId, { role, action: legal.actions[0] as never })).game;
}

async function rejects(t: Test, p: Promise<unknown>, code: string, msg: string, ext: Record<string, unknown> = {}): Promise<void> {
  try {
    await p;
    t.fail(`${msg}: resolved`);
  } catch (err) {
    t.ok(err instanceof ServiceError && err.code === code, `${msg}: ${(err as Error).message}`);
    if (err instanceof ServiceError) t.match(err.extensions, ext, `${msg}: extensions`);
  }
}

const seat = (g: GameSummary, role: string) => g.clock!.seats.find((s) => s.role === role)!;
const version = async (id: string) => (await svc.getGame(null, id)).version;
const stored = async (id: string) => (await db.query('SELECT deadline_at, reminders_sent, status::text AS status FROM games WHERE id = $1', [id])).rows[0] as { deadline_at: Date | null; reminders_sent: string[]; status: string };
const timeoutEntries = async (id: string) => (await db.query("SELECT role, player_id FROM actions WHERE game_id = $1 AND kind = 'timeout'", [id])).rows as Array<{ role: string; player_id: string | null }>;

/** Both seats move (keep hands, play a card), one hour apart, until one seat alone must act. */
async function opening(york: Caller, lancaster: Caller, gameId: string) {
  for (const [who, role] of [[york, 'York'], [lancaster, 'Lancaster'], [york, 'York'], [lancaster, 'Lancaster']] as const) {
    clock.now += HOUR;
    await move(who, gameId, role);
  }
  const g = await svc.getGame(null, gameId);
  if (g.activeRoles.length !== 1) throw new Error(`the opening left ${g.activeRoles.join(', ')} to act`);
  const flagged = g.activeRoles[0]!;
  const claimant = flagged === 'York' ? 'Lancaster' : 'York';
  return { flagged, claimant, flaggedBy: flagged === 'York' ? york : lancaster, claimer: flagged === 'York' ? lancaster : york, deadline: Date.parse(seat(g, flagged).deadline!) };
}

/** Ends every loss-policy game of the earlier tests (claim games are only noticed), so sweep counts are this test's. */
async function clearDue(): Promise<void> {
  clock.now += 31 * DAY;
  while ((await svc.sweepTimeouts()) > 0);
}

t.test('onTimeout is part of the time control: canonical, default loss, typed 422s, refused in leagues', async (t) => {
  const a = await player();
  const b = await player();
  const g = await game(a, b, CLAIM);
  t.same(g.clock!.control, { kind: 'correspondence', startMs: 2 * DAY, incrementMs: 2 * DAY, capMs: 2 * DAY, onTimeout: 'claim' });
  t.equal(g.clock!.onTimeout, 'claim');
  t.equal(g.clock!.claimable, null, 'nobody out of time');
  const loss = await game(a, b, { kind: 'preset', name: 'days-3', onTimeout: 'loss' });
  t.same(loss.clock!.control, { kind: 'correspondence', startMs: 3 * DAY, incrementMs: 3 * DAY, capMs: 3 * DAY }, 'the default is left out');
  t.equal(loss.clock!.onTimeout, 'loss');
  const fischer = await game(a, b, { kind: 'preset', name: 'bot-blitz', onTimeout: 'claim' });
  t.equal(fischer.clock!.onTimeout, 'claim', 'live controls may use claim too');
  const before = Number((await db.query('SELECT count(*) FROM games')).rows[0].count);
  for (const [bad, code] of [
    [{ kind: 'correspondence', daysPerMove: 2, onTimeout: 'win' }, 'unknown-policy'],
    [{ kind: 'correspondence', daysPerMove: 2, onTimeout: true }, 'wrong-type'],
    [{ kind: 'none', onTimeout: 'claim' }, 'unknown-field'],
  ] as const) {
    await rejects(t, svc.createGame(a, { gameType: GT, scenario: GT, timeControl: bad as never }), 'invalid_time_control', JSON.stringify(bad), { field: 'timeControl', problems: [{ field: 'onTimeout', code }] });
  }
  t.equal(Number((await db.query('SELECT count(*) FROM games')).rows[0].count), before, 'no game stored');
  await rejects(t, svc.createLeague(a, { name: 'Claimers', gameType: GT, format: 'round-robin', timeControl: CLAIM as never }), 'invalid_settings', 'a league asking for claim', { setting: 'timeControl', problems: [{ field: 'onTimeout' }] });
  const league = await svc.createLeague(a, { name: 'Losers', gameType: GT, format: 'round-robin', timeControl: { ...CLAIM, onTimeout: 'loss' } as never });
  t.same(league.settings.timeControl, { kind: 'correspondence', startMs: 2 * DAY, incrementMs: 2 * DAY, capMs: 2 * DAY });
  await rejects(t, svc.updateLeague(a, league.id, { timeControl: CLAIM as never }), 'invalid_settings', 'nor by an update', { setting: 'timeControl' });
});

t.test('past the deadline the game goes on: the claimant is told once, the sweep lets the game be, a claim ends it as a loss', async (t) => {
  const a = await player();
  const b = await player();
  const spectator = await player();
  await clearDue();
  const g = await game(a, b, CLAIM, true);
  const { flagged, claimant, flaggedBy, claimer, deadline } = await opening(a, b, g.id);

  clock.now = deadline - 1;
  const v0 = await version(g.id);
  await rejects(t, svc.claimTimeout(claimer, g.id, {}), 'not_claimable', 'a claim before the deadline', { reason: 'time_left' });

  clock.now = deadline;
  t.equal(await sweep(), 0, 'the sweep ends nothing');
  t.same(heardOf(g.id).map((e) => [e.role, e.flagged, e.ranOutAt, (e as unknown as { to: string }).to]), [[claimant, flagged, new Date(deadline).toISOString(), claimer.playerId]], 'the claimant alone is told');
  const st = await stored(g.id);
  t.equal(st.status, 'active');
  t.equal(st.deadline_at, null, 'the game is out of the timeout sweep');
  t.same(st.reminders_sent.filter((k) => k.startsWith('timeout:')), [`timeout:${flagged}:${deadline}`]);
  clock.now += HOUR;
  t.equal(await sweep(), 0);
  t.equal(heardOf(g.id).length, 1, 'told once only');
  t.equal(await version(g.id), v0, 'the notice is no game change');

  const open = await svc.getGame(null, g.id);
  t.same(open.clock!.claimable, { flagged, ranOutAt: new Date(deadline).toISOString(), claimants: [claimant] }, 'the summary shows the claim');
  t.equal(seat(open, flagged).remainingMs, 0);

  await rejects(t, svc.claimTimeout(flaggedBy, g.id, {}), 'not_claimable', 'the flagged seat claiming', { reason: 'own_time' });
  await rejects(t, svc.claimTimeout(spectator, g.id, {}), 'forbidden', 'a spectator claiming');
  await rejects(t, svc.claimTimeout(claimer, g.id, { role: flagged }), 'forbidden', 'the claimer naming the other seat');
  await rejects(t, svc.claimTimeout(claimer, g.id, 'x' as never), 'invalid_request', 'a body that is no object');
  t.equal(await version(g.id), v0, 'nothing changed');

  const over = await svc.claimTimeout(claimer, g.id, {});
  t.equal(over.status, 'finished');
  t.same(over.result, { winner: claimant, reason: 'timeout' });
  t.equal(over.clock!.claimable, null);
  t.ok(over.clock!.seats.every((s) => !s.running && s.deadline === null), 'every clock stopped');
  t.same(await timeoutEntries(g.id), [{ role: flagged, player_id: null }], 'one timeout entry, like the automatic one');
  t.equal((await stored(g.id)).deadline_at, null);
  const wins = (await db.query('SELECT player_id::text AS p, wins, losses FROM ratings WHERE player_id = ANY($1::uuid[]) ORDER BY wins', [[a.playerId, b.playerId]])).rows;
  t.same(wins, [{ p: flaggedBy.playerId, wins: 0, losses: 1 }, { p: claimer.playerId, wins: 1, losses: 0 }], 'rated as a loss for the seat that ran out');
  await rejects(t, svc.claimTimeout(claimer, g.id, {}), 'game_over', 'claiming a finished game');

  // Export and import verify the claimed win like any timeout.
  const rec = await svc.exportGame(a, g.id);
  t.same(rec.result, { winner: claimant, reason: 'timeout' });
  const imported = await svc.importGame(a, { record: rec });
  t.match(imported, { status: 'finished', result: { winner: claimant, reason: 'timeout' } });
});

t.test('no claim on a game without the claim policy; a loss-policy game ends by itself', async (t) => {
  const a = await player();
  const b = await player();
  await clearDue();
  const noClock = await game(a, b, null);
  await rejects(t, svc.claimTimeout(a, noClock.id, {}), 'not_claimable', 'a game without a clock', { reason: 'policy', onTimeout: null });
  const g = await game(a, b, { kind: 'correspondence', daysPerMove: 2 });
  const { claimer, deadline } = await opening(a, b, g.id);
  clock.now = deadline;
  const v = await version(g.id);
  await rejects(t, svc.claimTimeout(claimer, g.id, {}), 'not_claimable', 'a loss-policy game', { reason: 'policy', onTimeout: 'loss' });
  t.equal(await version(g.id), v, 'nothing changed');
  t.equal(await svc.sweepTimeouts(), 1, 'the sweep ends it');
  t.equal(heardOf(g.id).length, 0, 'nobody told to claim');
  const setup = await svc.createGame(a, { gameType: GT, scenario: GT, roles: ['York'], timeControl: CLAIM as never });
  await rejects(t, svc.claimTimeout(a, setup.id, {}), 'invalid_state', 'a game not started');
});

t.test('a late move while nobody claimed is accepted; once the flagged seat hands over, the overrun is forgiven, the clock refills, the claim lapses', async (t) => {
  const a = await player();
  const b = await player();
  await clearDue();
  const g = await game(a, b, { kind: 'correspondence', startMs: 2 * DAY, incrementMs: DAY, capMs: 3 * DAY, onTimeout: 'claim' });
  const { flagged, flaggedBy, claimer, deadline } = await opening(a, b, g.id);
  clock.now = deadline + 5 * HOUR;
  t.equal(await sweep(), 0);
  t.equal(heardOf(g.id).length, 1, 'the claimant was told');
  // A step within the turn: accepted, but the seat has not handed over, so the claim stays open.
  const mid = await act(flaggedBy, g.id, flagged, 'select');
  t.equal(mid.status, 'active', 'a late action is accepted');
  t.equal(mid.clock!.claimable?.flagged, flagged, 'the claim stays open until the seat ends its turn');
  t.equal(await sweep(), 0);
  t.equal(heardOf(g.id).length, 1, 'the clock change does not tell the claimant again');
  t.equal((await stored(g.id)).deadline_at, null, 'and the sweep let the game be again after one look');
  clock.now += HOUR;
  const late = await act(flaggedBy, g.id, flagged, 'end');
  t.equal(late.status, 'active', 'the late turn is accepted');
  t.notOk(late.activeRoles.includes(flagged), 'the turn was handed over');
  t.equal(late.clock!.claimable, null, 'nothing to claim any more');
  t.equal(seat(late, flagged).remainingMs, DAY, 'the overrun forgiven: it handed over from zero and got the increment');
  await rejects(t, svc.claimTimeout(claimer, g.id, {}), 'not_claimable', 'the claim lapsed', { reason: 'time_left' });
  const st = await stored(g.id);
  t.ok(st.deadline_at !== null && st.deadline_at.getTime() > clock.now, 'back in the timeout sweep with the new deadline');
  // The opponent ends its turn; the flagged seat's next overrun can be claimed (and is told again).
  clock.now += HOUR;
  // (With Rally's start / increment / cap the flagged seat, refilled by the increment only, runs out first even when both must act.)
  const next = await act(claimer, g.id, late.activeRoles[0]!, 'end');
  t.ok(next.activeRoles.includes(flagged), `${flagged} must act again (active: ${next.activeRoles.join(', ')})`);
  clock.now = Date.parse(seat(next, flagged).deadline!);
  t.equal(await sweep(), 0);
  t.equal(heardOf(g.id).length, 2, 'a new flag, a new notice');
  t.same((await stored(g.id)).reminders_sent.filter((k) => k.startsWith('timeout:')), [`timeout:${flagged}:${clock.now}`], "the lapsed flag's key is dropped");
  t.equal((await svc.claimTimeout(claimer, g.id, {})).status, 'finished');
});

t.test('a seat that never moved: the sweep aborts the game (unrated) under claim too, and so does the opponent\'s claim', async (t) => {
  const a = await player();
  const b = await player();
  await clearDue();
  const g = await game(a, b, CLAIM, true);
  clock.now += HOUR;
  await move(a, g.id, 'York');
  clock.now += 2 * DAY;
  await rejects(t, svc.claimTimeout(b, g.id, {}), 'not_claimable', 'the seat that never moved claiming', { reason: 'own_time' });
  t.equal(await svc.sweepTimeouts(), 1, 'no claim needed');
  t.match(await svc.getGame(null, g.id), { status: 'abandoned', result: { winner: null, reason: 'timeout' } });
  t.equal(Number((await db.query('SELECT count(*) FROM rating_changes WHERE game_id = $1', [g.id])).rows[0].count), 0, 'unrated');

  const h = await game(a, b, CLAIM, true);
  clock.now += HOUR;
  await move(a, h.id, 'York');
  clock.now += 2 * DAY;
  const ended = await svc.claimTimeout(a, h.id, {});
  t.match(ended, { status: 'abandoned', result: { winner: null, reason: 'timeout' } }, 'the claim ends it as the sweep would');
  t.equal((await timeoutEntries(h.id)).length, 1);
  t.equal(heardOf(g.id).length + heardOf(h.id).length, 0, 'no claim notices');
});

t.test('two instances noticing the same flags at once tell each claimant once', async (t) => {
  const other = createGameService({ store, bus, now });
  const a = await player();
  const b = await player();
  await clearDue();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const g = await game(a, b, CLAIM);
    await opening(a, b, g.id);
    ids.push(g.id);
  }
  clock.now += 3 * DAY;
  await Promise.all([svc.sweepTimeouts(), other.sweepTimeouts(), svc.fireTimeout(ids[0]!), other.fireTimeout(ids[0]!)]);
  await delivered();
  for (const id of ids) {
    t.equal(heardOf(id).length, 1, 'one notice');
    t.equal((await stored(id)).deadline_at, null);
  }
});

t.test('a claim racing a late turn of the flagged seat: never both commit', async (t) => {
  const a = await player();
  const b = await player();
  let claimed = 0;
  let moved = 0;
  for (let i = 0; i < 16; i++) {
    const g = await game(a, b, CLAIM);
    const { flagged, flaggedBy, claimer, deadline } = await opening(a, b, g.id);
    clock.now = deadline + i;
    const legal = await svc.getLegalActions(flaggedBy, g.id, { role: flagged });
    const end = legal.actions.find((x) => (x as { type?: string }).type === 'end');
    const v = await version(g.id);
    // Half the tries start the claim first, half the turn's end (which hands the turn over).
    const claim = () => svc.claimTimeout(claimer, g.id, {});
    const late = () => svc.submitAction(flaggedBy, g.id, { role: flagged, action: end as never });
    const [c, m] = i % 2 === 0 ? await Promise.allSettled([claim(), late()]) : ((await Promise.allSettled([late(), claim()])).reverse() as [PromiseSettledResult<GameSummary>, PromiseSettledResult<unknown>]);
    const after = await svc.getGame(null, g.id);
    const entries = await timeoutEntries(g.id);
    t.ok((c.status === 'fulfilled') !== (m.status === 'fulfilled'), 'exactly one of them committed');
    t.equal(after.version, v + 1, 'one change');
    if (c.status === 'fulfilled') {
      claimed++;
      t.ok(m.status === 'rejected' && m.reason instanceof ServiceError && m.reason.code === 'game_over', 'the move found the game over');
      t.equal(after.status, 'finished');
      t.equal(entries.length, 1);
    } else {
      moved++;
      t.ok(c.status === 'rejected' && c.reason instanceof ServiceError && c.reason.code === 'not_claimable', 'the claim found the opponent in time again');
      t.equal(after.status, 'active');
      t.equal(entries.length, 0);
    }
  }
  t.comment(`${claimed} claims won, ${moved} late turns won`);
});
