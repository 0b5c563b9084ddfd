// Adversarial review of the league service (issue 14), on real Postgres: each test here was
// written against a defect found in review (or to pin down a property the review checked),
// and asserts the behaviour an organiser or player must get.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type GameServiceApi, type League, type Round } from '../../src/service/api.ts';
import type { Ctx } from '../../src/service/context.ts';
import { settleLeagueGame } from '../../src/service/league-results.ts';
import { openTestStore } from '../helpers/services.ts';

const { store } = await openTestStore(t);
const bus = createMemoryBus();
t.teardown(() => bus.close());
const svc: GameServiceApi = createGameService({ store, bus });

async function player(name: string): Promise<Caller> {
  return svc.authenticate((await svc.createPlayer(null, { name })).key!.key);
}

async function refused(t: Test, p: Promise<unknown>, code: string, what: string): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    t.ok(err instanceof ServiceError, `${what}: a ServiceError (got ${String(err)})`);
    t.equal((err as ServiceError).code, code, `${what}: ${code}`);
    return err as ServiceError;
  }
  t.fail(`${what}: was not refused`);
  throw new Error('not refused');
}

const organiser = await player('organiser');
const players: Caller[] = [];
for (let i = 1; i <= 8; i++) players.push(await player(`p${i}`));
const byId = (id: string) => players.find((p) => p.playerId === id)!;
const on = (p: { first: { id: string }; second: { id: string } | null }, id: string) => p.first.id === id || p.second?.id === id;

async function league(n: number, input: Record<string, unknown>): Promise<League> {
  const l = await svc.createLeague(organiser, { name: 'Review', gameType: 'richard-iii', play: 'elsewhere', ...input } as never);
  for (const p of players.slice(0, n)) await svc.joinLeague(p, l.id);
  return svc.startLeague(organiser, l.id);
}

async function round(l: League, n: number): Promise<Round> {
  return svc.getRound(null, l.id, n);
}

t.test('points with draw = win are refused (the standings core needs win > draw): never a 500 later', async (t) => {
  const err = await refused(
    t,
    svc.createLeague(organiser, { name: 'Flat', gameType: 'richard-iii', format: 'round-robin', points: { win: 1, draw: 1, loss: 0 } }),
    'invalid_settings',
    'draw worth a win',
  );
  t.equal(err.extensions.setting, 'points');
  const l = await svc.createLeague(organiser, { name: 'Flat later', gameType: 'richard-iii', format: 'round-robin' });
  await refused(t, svc.updateLeague(organiser, l.id, { points: { win: 2, draw: 2, loss: 0 } }), 'invalid_settings', 'the same by update');
  await t.resolves(svc.getStandings(null, l.id), 'standings answer');
});

t.test("withdrawal 'annul': the standings leave the withdrawn player out instead of failing", async (t) => {
  const l = await league(4, { format: 'swiss', rounds: 3, withdrawal: 'annul' });
  const r1 = await round(l, 1);
  const leaver = r1.pairings[0]!.first.id;
  await svc.withdrawFromLeague(byId(leaver), l.id);
  const st = await svc.getStandings(null, l.id);
  t.notOk(st.standings.some((s) => s.player.id === leaver), 'the withdrawn player is not ranked');
  t.equal(st.standings.length, 3);
  t.ok(st.standings.every((s) => s.points === 0), 'the annulled forfeit counts for nobody');
  await t.resolves(svc.exportStandingsCsv(null, l.id), 'CSV export answers');
  // The rest of the round can still be played and the league goes on.
  await svc.setResult(organiser, l.id, r1.pairings[1]!.id, { result: 'first', reason: 'r1' });
  t.equal((await svc.listRounds(null, l.id)).length, 2, 'round 2 paired');
});

t.test("pools with withdrawal 'annul': the pool stage's last result goes in and the knockout is paired", async (t) => {
  const l = await league(6, { format: 'pools', pools: { count: 2, qualifiers: 1 }, withdrawal: 'annul' });
  const r1 = await round(l, 1);
  const leaver = r1.pairings.find((p) => p.second !== null)!.first.id;
  await svc.withdrawFromLeague(byId(leaver), l.id);
  for (let r = 1; r <= 3; r++) {
    const rr = await round(l, r);
    for (const p of rr.pairings.filter((x) => x.result === null)) await svc.setResult(organiser, l.id, p.id, { result: 'first', reason: 'pool game' });
  }
  const ko = await round(l, 4);
  t.equal(ko.stage, 'knockout');
  t.notOk(ko.pairings.some((p) => on(p, leaver)), 'the withdrawn player does not qualify');
  await t.resolves(svc.getStandings(null, l.id));
});

t.test('a result that completes a round is recorded even when the next Swiss round cannot be paired', async (t) => {
  const l = await league(4, { format: 'swiss', rounds: 3 });
  const [b1, b2] = (await round(l, 1)).pairings;
  // Both players of board 2 leave: the two left have met each other, so round 2 has no pairing.
  await svc.updateEntrant(organiser, l.id, b2!.first.id, { status: 'withdrawn', reason: 'moved away' });
  await svc.updateEntrant(organiser, l.id, b2!.second!.id, { status: 'withdrawn', reason: 'moved away' });
  const done = await svc.setResult(organiser, l.id, b1!.id, { result: 'first', reason: 'score sheet' });
  t.equal(done.result, 'first', 'the result is recorded');
  t.equal((await round(l, 1)).status, 'complete', 'the round is complete');
  const err = await refused(t, svc.generateRound(organiser, l.id), 'no_pairing', 'the organiser asking for round 2');
  t.match(err.message, /Round 2 cannot be paired/);
});

t.test("a Swiss pairing bye corrected to half a point is still the player's bye: no second one", async (t) => {
  const l = await league(5, { format: 'swiss', rounds: 3 });
  const r1 = await round(l, 1);
  const bye = r1.pairings.find((p) => p.second === null)!;
  await svc.setResult(organiser, l.id, bye.id, { result: 'bye-half', reason: 'club rule: pairing byes score half' });
  for (const p of r1.pairings.filter((x) => x.second !== null)) await svc.setResult(organiser, l.id, p.id, { result: 'draw', reason: 'r1' });
  const r2 = await round(l, 2);
  const bye2 = r2.pairings.find((p) => p.second === null)!;
  t.not(bye2.first.id, bye.first.id, 'round 2 gives the bye to someone who has not had one');
});

t.test('late entry: its policy cannot change under late entrants already in (their missed rounds would be rescored)', async (t) => {
  const l = await league(4, { format: 'swiss', rounds: 3, lateEntry: 'half' });
  const late = players[6]!;
  await svc.joinLeague(late, l.id);
  const points = async () => (await svc.getStandings(null, l.id)).standings.find((s) => s.player.id === late.playerId)!.points;
  t.equal(await points(), 0.5);
  await refused(t, svc.updateLeague(organiser, l.id, { lateEntry: 'closed' }), 'invalid_state', 'closing late entry after a late entry');
  await refused(t, svc.updateLeague(organiser, l.id, { lateEntry: 'zero' }), 'invalid_state', 'zero-point missed rounds after a late entry');
  t.equal(await points(), 0.5, 'the late entrant keeps the half point they entered with');
  // Closing entry by date still works.
  const closed = await svc.updateLeague(organiser, l.id, { registrationClosesAt: '2020-01-01T00:00:00Z' });
  t.equal(closed.settings.registrationClosesAt, '2020-01-01T00:00:00.000Z');
  await refused(t, svc.joinLeague(players[7]!, l.id), 'registration_closed', 'joining after the closing date');
});

t.test('pools: a pool result cannot change once the knockout was seeded on it', async (t) => {
  const l = await league(4, { format: 'pools', pools: { count: 2, qualifiers: 1 } });
  const r1 = await round(l, 1);
  t.equal(r1.stage, 'pool');
  for (const p of r1.pairings) await svc.setResult(organiser, l.id, p.id, { result: 'first', reason: 'pool game' });
  const ko = await round(l, 2);
  t.equal(ko.stage, 'knockout');
  await refused(t, svc.setResult(organiser, l.id, r1.pairings[0]!.id, { result: 'second', reason: 'late correction' }), 'invalid_state', 'a pool result after the knockout');
  t.equal((await round(l, 1)).pairings[0]!.result, 'first', 'unchanged');
});

t.test('knockout: when a double forfeit leaves one player, the league ends (no round of a lone bye)', async (t) => {
  const l = await league(4, { format: 'knockout' });
  const r1 = await round(l, 1);
  t.equal(r1.pairings.length, 2);
  await svc.setResult(organiser, l.id, r1.pairings[1]!.id, { result: 'double-forfeit', reason: 'neither came' });
  await svc.setResult(organiser, l.id, r1.pairings[0]!.id, { result: 'first', reason: 'semi' });
  const after = await svc.getLeague(null, l.id);
  t.equal(after.status, 'finished');
  t.equal(after.roundCount, 1, 'no second round');
});

t.test("double round robin with random sides: still each pairing once on each side", async (t) => {
  for (let k = 0; k < 3; k++) {
    const l = await league(4, { format: 'double-round-robin', sidePolicy: 'random' });
    for (let r = 1; r <= 6; r++) {
      for (const p of (await round(l, r)).pairings) await svc.setResult(organiser, l.id, p.id, { result: 'draw', reason: 'drawn' });
    }
    t.equal((await svc.getLeague(null, l.id)).status, 'finished');
    const all = (await svc.listRounds(null, l.id)).flatMap((r) => r.pairings);
    const seen = new Set(all.map((p) => `${p.first.id}>${p.second!.id}`));
    t.equal(seen.size, 12, `league ${k + 1}: 12 games, every ordered pair once`);
  }
});

t.test('a filter of the wrong JSON type is a typed refusal, not a database error', async (t) => {
  await refused(t, svc.listLeagues(null, { gameType: 5 as never }), 'invalid_request', 'gameType a number');
  await refused(t, svc.listLeagues(null, { gameType: { contains: 'r' } as never }), 'invalid_request', 'gameType an object');
});

t.test('two players joining the last place at once: one gets it', async (t) => {
  const l = await svc.createLeague(organiser, { name: 'Last place', gameType: 'richard-iii', format: 'round-robin', maxEntrants: 3 });
  await svc.joinLeague(players[0]!, l.id);
  await svc.joinLeague(players[1]!, l.id);
  const out = await Promise.allSettled(players.slice(2, 6).map((p) => svc.joinLeague(p, l.id)));
  t.equal(out.filter((o) => o.status === 'fulfilled').length, 1, 'one join succeeds');
  for (const o of out) if (o.status === 'rejected') t.equal((o.reason as ServiceError).code, 'registration_closed');
  t.equal((await svc.listEntrants(null, l.id)).length, 3);
});

t.test("a league game's seed stays secret until the game is over", async (t) => {
  const l = await svc.createLeague(organiser, { name: 'Secret', gameType: 'richard-iii', format: 'swiss', rounds: 1 });
  for (const p of players.slice(0, 2)) await svc.joinLeague(p, l.id);
  await svc.startLeague(organiser, l.id);
  const b = (await round(l, 1)).pairings[0]!;
  for (const who of [null, organiser, byId(b.first.id)]) t.equal((await svc.getGame(who, b.gameId!)).seed, undefined, 'no seed while it is played');
  await svc.resign(byId(b.first.id), b.gameId!, {});
  t.type((await svc.getGame(null, b.gameId!)).seed, 'string', 'the seed once it is over');
});

t.test('who reads the audit log and who may act: co-organisers, players of the board, outsiders, an app as itself', async (t) => {
  const co = players[7]!;
  const l = await svc.createLeague(organiser, { name: 'Audit', gameType: 'richard-iii', format: 'swiss', rounds: 1, play: 'elsewhere' });
  for (const p of players.slice(0, 4)) await svc.joinLeague(p, l.id);
  await svc.addOrganiser(organiser, l.id, co.playerId);
  await svc.startLeague(co, l.id);
  const [b1, b2] = (await round(l as League, 1)).pairings;
  const a = byId(b1!.first.id);
  const other = byId(b2!.first.id);
  await svc.reportResult(a, l.id, b1!.id, { result: 'first' });
  await refused(t, svc.confirmResult(other, l.id, b1!.id), 'forbidden', 'a player of another board confirming');
  await svc.confirmResult(co, l.id, b1!.id);
  await svc.setResult(co, l.id, b1!.id, { result: 'draw', reason: 'arbiter ruling' });
  const all = await svc.listResultChanges(co, l.id);
  t.same(all.map((c) => [c.kind, c.before, c.after, c.by?.id]), [
    ['report', null, 'first', a.playerId],
    ['confirm', null, 'first', co.playerId],
    ['correction', 'first', 'draw', co.playerId],
  ], 'a co-organiser reads every change: who, before, after');
  t.equal(all[2]!.reason, 'arbiter ruling');
  t.equal((await svc.listResultChanges(a, l.id)).length, 3, 'a player of the board reads its changes');
  t.equal((await svc.listResultChanges(other, l.id)).length, 0, 'another player reads none of them');
  await refused(t, svc.listResultChanges(null as never, l.id), 'unauthorized', 'no key');
  await svc.removeOrganiser(organiser, l.id, co.playerId);
  await refused(t, svc.setResult(co, l.id, b2!.id, { result: 'first', reason: 'x' }), 'forbidden', 'a removed co-organiser');
  const operator: Caller = { kind: 'admin', playerId: '', keyId: '' };
  const app = await svc.authenticate((await svc.createApp(operator, { name: 'bot-app' })).key.key);
  await refused(t, svc.joinLeague(app, l.id), 'forbidden', 'an application joining as itself');
});

t.test('reopening the final of a finished knockout: running again, the round open until a result comes', async (t) => {
  const l = await league(2, { format: 'knockout' });
  const final = (await round(l, 1)).pairings[0]!;
  await svc.setResult(organiser, l.id, final.id, { result: 'first', reason: 'final' });
  t.equal((await svc.getLeague(null, l.id)).status, 'finished');
  await svc.setResult(organiser, l.id, final.id, { result: null, reason: 'the score sheet is disputed' });
  t.equal((await svc.getLeague(null, l.id)).status, 'running');
  t.equal((await round(l, 1)).status, 'published', 'not complete with an open board');
  await svc.setResult(organiser, l.id, final.id, { result: 'second', reason: 'resolved' });
  const done = await svc.getLeague(null, l.id);
  t.equal(done.status, 'finished');
  t.equal(done.roundCount, 1);
  t.same((await svc.listResultChanges(organiser, l.id)).map((c) => [c.before, c.after]), [[null, 'first'], ['first', null], [null, 'second']], 'each change in the log');
});

t.test("pools: later knockout rounds go by the knockout's own seeds (a drawn semi-final sends the better knockout seed through)", async (t) => {
  for (const sidePolicy of ['balanced', 'random'] as const) {
    const l = await league(8, { format: 'pools', pools: { count: 2, qualifiers: 2 }, sidePolicy });
    const seedOf = new Map((await svc.listEntrants(null, l.id)).map((e) => [e.seed!, e.player.id]));
    const s = (k: number) => seedOf.get(k)!;
    // Snake seeding: pool 1 holds seeds 1, 4, 5, 8 and pool 2 seeds 2, 3, 6, 7. Finishing orders:
    const pref = [[s(1), s(4), s(5), s(8)], [s(7), s(2), s(3), s(6)]].flat();
    const rank = (id: string) => pref.indexOf(id);
    for (let r = 1; r <= 3; r++) {
      for (const p of (await round(l, r)).pairings.filter((x) => x.second !== null)) {
        await svc.setResult(organiser, l.id, p.id, { result: rank(p.first.id) < rank(p.second!.id) ? 'first' : 'second', reason: 'pool game' });
      }
    }
    // Knockout seeds: 1 = s1, 2 = s7 (pool winners), 3 = s4, 4 = s2 (runners-up); semis 1–4 and 2–3.
    const semis = await round(l, 4);
    t.equal(semis.stage, 'knockout');
    const semi23 = semis.pairings.find((p) => on(p, s(7)))!;
    t.ok(on(semi23, s(4)), `${sidePolicy}: knockout seed 2 meets seed 3`);
    if (sidePolicy === 'balanced') t.equal(semi23.first.id, s(7), 'the better knockout seed (league seed 7) plays first');
    for (const p of semis.pairings) await svc.setResult(organiser, l.id, p.id, { result: 'draw', reason: 'drawn semi' });
    const final = (await round(l, 5)).pairings[0]!;
    t.same([final.first.id, final.second!.id].sort(), [s(1), s(7)].sort(), `${sidePolicy}: knockout seeds 1 and 2 go through`);
    if (sidePolicy === 'balanced') t.equal(final.first.id, s(1), 'seed 1 plays first');
  }
});

t.test('a game ending while the organiser corrects its board: one order or the other, the log a chain', async (t) => {
  // settle.ts (another branch) calls settleLeagueGame in the transaction that settles a game; here
  // the test calls it the same way, at the same time as the organiser's correction.
  const ctx = (svc as unknown as { ctx: Ctx }).ctx;
  for (let k = 0; k < 4; k++) {
    const l = await svc.createLeague(organiser, { name: `Race ${k}`, gameType: 'richard-iii', format: 'swiss', rounds: 1 });
    for (const p of players.slice(0, 2)) await svc.joinLeague(p, l.id);
    await svc.startLeague(organiser, l.id);
    const b = (await round(l, 1)).pairings[0]!;
    const game = await svc.resign(byId(b.second!.id), b.gameId!, {});
    t.equal(game.status, 'finished');
    const settle = store.prisma.$transaction((tx) => settleLeagueGame(ctx, tx, { id: game.id, status: game.status, result: game.result }));
    const correct = svc.setResult(organiser, l.id, b.id, { result: 'draw', reason: 'both agreed to a draw before the resignation' });
    await Promise.all([settle, correct]);
    const board = (await round(l, 1)).pairings[0]!;
    t.equal(board.result, 'draw', "the organiser's result stands either way");
    const log = await svc.listResultChanges(organiser, l.id, { pairingId: b.id });
    t.ok(log.length === 1 || log.length === 2, 'the game result (if it came first) and the correction');
    t.equal(log[0]!.before, null);
    for (let i = 1; i < log.length; i++) t.equal(log[i]!.before, log[i - 1]!.after, 'each change starts where the last ended');
    t.equal(log[log.length - 1]!.after, 'draw');
    t.equal((await svc.getLeague(null, l.id)).status, 'finished');
  }
});

t.test("a round robin's draft keeps its schedule: only a board's sides may be swapped", async (t) => {
  const l = await league(4, { format: 'round-robin', autoPair: false });
  const draft = await svc.generateRound(organiser, l.id);
  const [b1, b2] = draft.pairings;
  await refused(t, svc.editPairings(organiser, l.id, 1, [{ op: 'pair', first: b1!.first.id, second: b2!.first.id }]), 'invalid_pairing', 'pairing two players the schedule has elsewhere');
  await refused(t, svc.editPairings(organiser, l.id, 1, [{ op: 'swap', a: b1!.second!.id, b: b2!.second!.id }]), 'invalid_pairing', 'exchanging opponents');
  await refused(t, svc.editPairings(organiser, l.id, 1, [{ op: 'bye', player: b1!.first.id }]), 'invalid_pairing', 'a bye in a round robin');
  const swapped = await svc.editPairings(organiser, l.id, 1, [{ op: 'swap', a: b1!.first.id, b: b1!.second!.id }]);
  const now = swapped.pairings.find((p) => on(p, b1!.first.id))!;
  t.same([now.first.id, now.second!.id], [b1!.second!.id, b1!.first.id], 'the sides of a board are swapped');
  // Every pair still meets exactly once over the whole schedule.
  await svc.publishRound(organiser, l.id, 1);
  for (let r = 1; r <= 3; r++) {
    if (r > 1) await svc.publishRound(organiser, l.id, (await svc.generateRound(organiser, l.id)).number);
    for (const p of (await round(l, r)).pairings) await svc.setResult(organiser, l.id, p.id, { result: 'draw', reason: 'drawn' });
  }
  const pairs = (await svc.listRounds(null, l.id)).flatMap((r) => r.pairings).map((p) => [p.first.id, p.second!.id].sort().join());
  t.equal(new Set(pairs).size, 6, 'six different pairs in six games');
  t.equal((await svc.getLeague(null, l.id)).status, 'finished');
});
