// The league service on real Postgres: settings checks, registration, the start, rounds
// (generate, edit, publish), reported / confirmed / corrected results with their audit log,
// withdrawals, and the typed refusals of the list — each of which changes nothing.
import t, { type Test } from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { createGameService, ServiceError, type Caller, type GameServiceApi, type League, type Round } from '../../src/service/api.ts';
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
    t.ok(err instanceof ServiceError, `${what}: a ServiceError`);
    t.equal((err as ServiceError).code, code, `${what}: ${code}`);
    return err as ServiceError;
  }
  t.fail(`${what}: was not refused`);
  throw new Error('not refused');
}

const organiser = await player('organiser');
const players: Caller[] = [];
for (let i = 1; i <= 9; i++) players.push(await player(`p${i}`));
const outsider = await player('outsider');

t.test('settings are checked and named', async (t) => {
  const base = { name: 'Spring Swiss', gameType: 'richard-iii', format: 'swiss' as const, rounds: 3 };
  const cases: Array<[object, string, string | undefined]> = [
    [{ ...base, rounds: 0 }, 'invalid_settings', 'rounds'],
    [{ ...base, rounds: 65 }, 'invalid_settings', 'rounds'],
    [{ ...base, rounds: undefined }, 'invalid_settings', 'rounds'],
    [{ ...base, format: 'round-robin', rounds: 3 }, 'invalid_settings', 'rounds'],
    [{ ...base, format: 'ladder' }, 'invalid_settings', 'format'],
    [{ ...base, gameType: 'chess' }, 'invalid_settings', 'gameType'],
    [{ ...base, points: { win: 1, draw: 2, loss: 0 } }, 'invalid_settings', 'points'],
    [{ ...base, points: { win: 0.3 } }, 'invalid_settings', 'points'],
    [{ ...base, tieBreaks: ['buchholz', 'buchholz'] }, 'invalid_settings', 'tieBreaks'],
    [{ ...base, tieBreaks: ['coin'] }, 'invalid_settings', 'tieBreaks'],
    [{ ...base, scenarios: ['nope'] }, 'invalid_settings', 'scenarios'],
    [{ ...base, maxEntrants: 1 }, 'invalid_settings', 'maxEntrants'],
    [{ ...base, timeControl: { base: 3 } }, 'invalid_settings', 'timeControl'],
    [{ ...base, format: 'pools', rounds: undefined }, 'invalid_settings', 'pools'],
    [{ ...base, format: 'pools', rounds: undefined, pools: { count: 1, qualifiers: 1 } }, 'invalid_settings', 'pools'],
    [{ ...base, format: 'knockout', rounds: undefined, lateEntry: 'zero' }, 'invalid_settings', 'lateEntry'],
    [{ ...base, registrationOpensAt: '2026-12-02T00:00:00Z', registrationClosesAt: '2026-12-01T00:00:00Z' }, 'invalid_settings', 'registrationClosesAt'],
    [{ ...base, name: '' }, 'invalid_settings', 'name'],
    [{ ...base, colour: 'red' }, 'invalid_request', undefined],
    [{ ...base, options: { nonsense: 1 } }, 'invalid_options', undefined],
  ];
  const before = await store.prisma.league.count();
  for (const [input, code, setting] of cases) {
    const err = await refused(t, svc.createLeague(organiser, input as never), code, JSON.stringify(input));
    if (setting) t.equal(err.extensions.setting, setting, `names ${setting}`);
  }
  t.equal(await store.prisma.league.count(), before, 'nothing stored');
  const ok = await svc.createLeague(organiser, { ...base, points: { win: 2, draw: 1, loss: 0 } });
  t.same(ok.settings.points, { win: 2, draw: 1, loss: 0 });
  t.same(ok.settings.tieBreaks, ['buchholz-cut1', 'buchholz', 'sonneborn-berger']);
  t.same(ok.roles, { first: 'York', second: 'Lancaster' });
  t.equal(ok.status, 'registration');
  t.equal(ok.organisers[0]!.player.id, organiser.playerId);
});

t.test('registration: join, withdraw, limits, organisers only', async (t) => {
  const l = await svc.createLeague(organiser, { name: 'Small', gameType: 'richard-iii', format: 'round-robin', maxEntrants: 2 });
  await svc.joinLeague(players[0]!, l.id);
  await refused(t, svc.joinLeague(players[0]!, l.id), 'invalid_state', 'joining twice');
  await svc.joinLeague(players[1]!, l.id);
  const full = await refused(t, svc.joinLeague(players[2]!, l.id), 'registration_closed', 'a full league');
  t.equal(full.extensions.reason, 'full');
  t.equal(await svc.withdrawFromLeague(players[1]!, l.id), null, 'withdrawing before the start removes the entry');
  await svc.joinLeague(players[2]!, l.id);
  t.same((await svc.listEntrants(null, l.id)).map((e) => e.player.name).sort(), ['p1', 'p3']);
  await refused(t, svc.startLeague(players[0]!, l.id), 'forbidden', 'a player starts the league');
  await refused(t, svc.updateLeague(outsider, l.id, { name: 'Mine' }), 'forbidden', 'an outsider renames it');
  await refused(t, svc.updateLeague(organiser, l.id, { format: 'swiss' } as never), 'invalid_settings', 'changing the format');
  await svc.addOrganiser(organiser, l.id, players[5]!.playerId);
  const renamed = await svc.updateLeague(players[5]!, l.id, { name: 'Small but renamed' });
  t.equal(renamed.name, 'Small but renamed', 'a co-organiser may change it');
  await refused(t, svc.removeOrganiser(players[5]!, l.id, organiser.playerId), 'invalid_state', 'removing the owner');
  await refused(t, svc.getLeague(null, 'not-a-uuid'), 'not_found', 'a malformed id');
  await refused(t, svc.getLeague(null, '00000000-0000-4000-8000-000000000000'), 'not_found', 'an unknown id');
  const closed = await svc.createLeague(organiser, { name: 'Later', gameType: 'richard-iii', format: 'round-robin', registrationOpensAt: '2099-01-01T00:00:00Z' });
  t.equal((await refused(t, svc.joinLeague(players[0]!, closed.id), 'registration_closed', 'before registration opens')).extensions.reason, 'not_open');
  await svc.addEntrant(organiser, closed.id, { playerId: players[0]!.playerId });
  t.pass('the organiser may add a player before registration opens');
});

async function swiss(n: number, extra: object = {}): Promise<{ league: League; round: Round }> {
  const league = await svc.createLeague(organiser, { name: `Swiss ${n}`, gameType: 'richard-iii', format: 'swiss', rounds: 3, ...extra });
  for (const p of players.slice(0, n)) await svc.joinLeague(p, league.id);
  const started = await svc.startLeague(organiser, league.id);
  const rounds = await svc.listRounds(null, league.id);
  return { league: started, round: rounds[0]! };
}

t.test('start publishes round 1: games created with seats and sides, players told on the bus', async (t) => {
  const heard: unknown[] = [];
  const sub = await bus.subscribe(`player:${players[0]!.playerId}`, (m) => heard.push(m));
  const { league, round } = await swiss(5);
  t.equal(league.status, 'running');
  t.equal(round.status, 'published');
  const games = round.pairings.filter((p) => p.second !== null);
  const byes = round.pairings.filter((p) => p.second === null);
  t.equal(games.length, 2);
  t.equal(byes.length, 1, 'five players: one bye');
  t.equal(byes[0]!.result, 'bye-full');
  for (const p of games) {
    const g = await svc.getGame(null, p.gameId!);
    t.equal(g.status, 'active', 'the game is started');
    t.same(g.seats.map((s) => s.player?.id), [p.first.id, p.second!.id], 'first plays York, second Lancaster');
    t.same(g.league, { id: league.id, round: 1, board: p.board });
  }
  await new Promise((r) => setTimeout(r, 50));
  const mine = games.find((p) => p.first.id === players[0]!.playerId || p.second?.id === players[0]!.playerId);
  const seated = heard.filter((m) => (m as { type: string }).type === 'seated');
  if (mine) t.match(seated, [{ type: 'seated', gameId: mine.gameId, leagueId: league.id, round: 1, board: mine.board }], 'the player heard of their game');
  else t.same(seated, [], 'a player with the bye hears of no game');
  await sub();
  await refused(t, svc.generateRound(organiser, league.id), 'round_in_progress', 'a round generated while one is open');
  await refused(t, svc.editPairings(organiser, league.id, 1, [{ op: 'swap', a: games[0]!.first.id, b: games[1]!.first.id }]), 'round_published', "editing a published round's pairings");
  await refused(t, svc.joinLeague(players[8]!, league.id), 'registration_closed', 'joining a started league (late entry closed)');
});

t.test('results: report + confirm, organiser correction, audit log, two results for one board refused', async (t) => {
  const { league, round } = await swiss(4);
  const [b1, b2] = round.pairings;
  const first = players.find((p) => p.playerId === b1!.first.id)!;
  const second = players.find((p) => p.playerId === b1!.second!.id)!;
  const other = players.find((p) => p.playerId === b2!.first.id)!;
  await refused(t, svc.reportResult(other, league.id, b1!.id, { result: 'first' }), 'forbidden', 'reporting a board that is not yours');
  const pending = await svc.reportResult(first, league.id, b1!.id, { result: 'first' });
  t.equal(pending.result, null, 'one report is not final');
  t.equal(pending.report?.result, 'first');
  await refused(t, svc.confirmResult(first, league.id, b1!.id), 'forbidden', 'confirming your own report');
  const done = await svc.confirmResult(second, league.id, b1!.id);
  t.equal(done.result, 'first');
  t.equal(done.source, 'reported');
  t.equal((await svc.getGame(null, b1!.gameId!)).status, 'abandoned', 'the Herald game of a board decided otherwise ends');
  await refused(t, svc.reportResult(second, league.id, b1!.id, { result: 'second' }), 'result_recorded', 'a second result for one board');
  await refused(t, svc.setResult(first, league.id, b1!.id, { result: 'second', reason: 'I won really' }), 'forbidden', 'a player correcting');
  await refused(t, svc.setResult(organiser, league.id, b1!.id, { result: 'second', reason: '' }), 'invalid_request', 'a correction without a reason');
  await refused(t, svc.setResult(organiser, league.id, b1!.id, { result: 'bye-full', reason: 'x' }), 'invalid_pairing', 'a bye result for a game');
  const fixed = await svc.setResult(organiser, league.id, b1!.id, { result: 'second', reason: 'score sheet shows Lancaster won' });
  t.equal(fixed.result, 'second');
  const log = await svc.listResultChanges(organiser, league.id, { pairingId: b1!.id });
  t.same(log.map((c) => [c.kind, c.before, c.after]), [['report', null, 'first'], ['confirm', null, 'first'], ['correction', 'first', 'second']]);
  t.equal(log[2]!.reason, 'score sheet shows Lancaster won');
  t.equal(log[2]!.by?.id, organiser.playerId);
  t.equal((await svc.listResultChanges(first, league.id)).length, 3, 'a player of the board reads its changes');
  t.equal((await svc.listResultChanges(other, league.id)).length, 0, 'another player does not');

  // The other board by organiser forfeit: the round completes and round 2 is published.
  await svc.setResult(organiser, league.id, b2!.id, { result: 'forfeit-first', reason: 'Lancaster did not show' });
  const rounds = await svc.listRounds(null, league.id);
  t.equal(rounds[0]!.status, 'complete');
  t.equal(rounds.length, 2, 'autoPair published round 2');
  const r2 = rounds[1]!;
  const met = new Set(round.pairings.map((p) => [p.first.id, p.second?.id].sort().join()));
  for (const p of r2.pairings) t.notOk(met.has([p.first.id, p.second?.id].sort().join()), 'no rematch');
  const standings = await svc.getStandings(null, league.id);
  t.same(standings.standings.map((s) => s.points).sort(), [0, 0, 1, 1]);
  const csv = await svc.exportStandingsCsv(null, league.id);
  t.match(csv, /^rank,id,name,points,BH-C1,BH,SB,/);
  t.equal(csv.trimEnd().split('\r\n').length, 5);
});

t.test('withdrawal: open boards become forfeits, never paired again', async (t) => {
  const { league, round } = await swiss(6);
  const leaver = players.find((p) => p.playerId === round.pairings[0]!.first.id)!;
  const opponent = round.pairings[0]!.second!.id;
  const e = await svc.withdrawFromLeague(leaver, league.id);
  t.equal(e?.status, 'withdrawn');
  const r1 = await svc.getRound(null, league.id, 1);
  t.equal(r1.pairings[0]!.result, 'forfeit-second', 'the opponent wins by forfeit');
  t.equal(r1.pairings[0]!.source, 'withdrawal');
  t.equal((await svc.getGame(null, r1.pairings[0]!.gameId!)).status, 'abandoned');
  for (const p of r1.pairings.slice(1)) await svc.setResult(organiser, league.id, p.id, { result: 'draw', reason: 'agreed' });
  const r2 = await svc.getRound(null, league.id, 2);
  t.notOk(r2.pairings.some((p) => p.first.id === leaver.playerId || p.second?.id === leaver.playerId), 'the withdrawn player is not paired');
  t.ok(r2.pairings.some((p) => p.first.id === opponent || p.second?.id === opponent));
  await refused(t, svc.withdrawFromLeague(leaver, league.id), 'invalid_state', 'withdrawing twice');
});

t.test('manual rounds: draft, edit, publish; a withdrawn player cannot be paired', async (t) => {
  const league = await svc.createLeague(organiser, { name: 'By hand', gameType: 'richard-iii', format: 'swiss', rounds: 2, autoPair: false });
  for (const p of players.slice(0, 6)) await svc.joinLeague(p, league.id);
  await svc.startLeague(organiser, league.id);
  t.equal((await svc.listRounds(null, league.id)).length, 0, 'no round until the organiser pairs one');
  const draft = await svc.generateRound(organiser, league.id);
  t.equal(draft.status, 'draft');
  t.ok(draft.pairings.every((p) => p.gameId === null), 'no games for a draft');
  await refused(t, svc.generateRound(organiser, league.id), 'round_in_progress', 'a second draft');
  const [a, b] = draft.pairings;
  const swapped = await svc.editPairings(organiser, league.id, 1, [{ op: 'swap', a: a!.second!.id, b: b!.second!.id }]);
  t.equal(swapped.pairings.find((p) => p.first.id === a!.first.id)!.second!.id, b!.second!.id, 'swapped opponents');
  const paired = await svc.editPairings(organiser, league.id, 1, [{ op: 'pair', first: a!.first.id, second: b!.first.id }]);
  t.equal(paired.pairings.find((p) => p.first.id === a!.first.id)!.second!.id, b!.first.id);
  t.equal(paired.pairings.length, 3, 'still three boards');
  const withBye = await svc.editPairings(organiser, league.id, 1, [{ op: 'bye', player: a!.first.id }]);
  t.equal(withBye.pairings.filter((p) => p.second === null).length, 2, 'a bye for the player and for their opponent');
  await refused(t, svc.editPairings(organiser, league.id, 1, [{ op: 'swap', a: outsider.playerId, b: a!.first.id }]), 'invalid_pairing', 'pairing a non-entrant');
  await svc.updateEntrant(organiser, league.id, players[5]!.playerId, { status: 'withdrawn', reason: 'moved away' });
  t.equal((await svc.listRounds(null, league.id)).length, 0, 'the draft that paired the withdrawn player was dropped');
  const again = await svc.generateRound(organiser, league.id);
  await refused(t, svc.editPairings(organiser, league.id, 1, [{ op: 'bye', player: players[5]!.playerId }]), 'invalid_pairing', 'pairing a withdrawn player');
  t.notOk(again.pairings.some((p) => p.first.id === players[5]!.playerId || p.second?.id === players[5]!.playerId));
  const published = await svc.publishRound(organiser, league.id, 1);
  t.equal(published.status, 'published');
  t.ok(published.pairings.filter((p) => p.second !== null).every((p) => p.gameId !== null), 'games created at publishing');
  await refused(t, svc.publishRound(organiser, league.id, 1), 'round_published', 'publishing twice');
  await refused(t, svc.deleteDraftRound(organiser, league.id, 1), 'round_published', 'deleting a published round');
});

t.test('round robins: the double plays every pair twice, once on each side; the league finishes', async (t) => {
  const league = await svc.createLeague(organiser, { name: 'DRR', gameType: 'richard-iii', format: 'double-round-robin', play: 'elsewhere' });
  for (const p of players.slice(0, 4)) await svc.joinLeague(p, league.id);
  const started = await svc.startLeague(organiser, league.id);
  t.equal(started.plannedRounds, 6);
  for (let r = 1; r <= 6; r++) {
    const round = await svc.getRound(null, league.id, r);
    t.ok(round.pairings.every((p) => p.gameId === null), 'played elsewhere: no Herald games');
    for (const p of round.pairings) await svc.setResult(organiser, league.id, p.id, { result: 'first', reason: 'reported on the club sheet' });
  }
  const done = await svc.getLeague(null, league.id);
  t.equal(done.status, 'finished');
  const all = (await svc.listRounds(null, league.id)).flatMap((r) => r.pairings);
  const sides = new Map<string, number>();
  for (const p of all) sides.set(`${p.first.id}>${p.second!.id}`, (sides.get(`${p.first.id}>${p.second!.id}`) ?? 0) + 1);
  t.equal(all.length, 12);
  for (const [k, n] of sides) {
    t.equal(n, 1, `${k} once`);
    const [x, y] = k.split('>');
    t.ok(sides.has(`${y}>${x}`), 'and once the other way round');
  }
  const st = await svc.getStandings(null, league.id);
  t.same(st.standings.map((s) => s.points), [3, 3, 3, 3], 'every first side won: 3 each');
  t.same(st.standings.map((s) => s.perSide.York!.won), [3, 3, 3, 3]);
});

t.test('knockout seeded by rating: byes to the top seeds, draws to the better seed, ends with a final', async (t) => {
  const league = await svc.createLeague(organiser, { name: 'Cup', gameType: 'richard-iii', format: 'knockout', play: 'elsewhere' });
  for (const p of players.slice(0, 5)) await svc.joinLeague(p, league.id);
  await svc.startLeague(organiser, league.id);
  const r1 = await svc.getRound(null, league.id, 1);
  t.equal(r1.pairings.filter((p) => p.second === null).length, 3, '5 players in a bracket of 8: three byes');
  const game = r1.pairings.find((p) => p.second !== null)!;
  await svc.setResult(organiser, league.id, game.id, { result: 'draw', reason: 'drawn' });
  const r2 = await svc.getRound(null, league.id, 2);
  t.equal(r2.pairings.length, 2, 'semi-finals');
  for (const p of r2.pairings) await svc.setResult(organiser, league.id, p.id, { result: 'second', reason: 'upset' });
  const final = await svc.getRound(null, league.id, 3);
  t.equal(final.pairings.length, 1);
  await refused(t, svc.setResult(organiser, league.id, r2.pairings[0]!.id, { result: 'first', reason: 'late correction' }), 'invalid_state', 'changing a knockout result after the next round');
  await svc.setResult(organiser, league.id, final.pairings[0]!.id, { result: 'first', reason: 'final' });
  t.equal((await svc.getLeague(null, league.id)).status, 'finished');
});

t.test('pools: round robins whose winners go to a knockout', async (t) => {
  const league = await svc.createLeague(organiser, { name: 'Pools', gameType: 'richard-iii', format: 'pools', pools: { count: 2, qualifiers: 1 }, play: 'elsewhere' });
  for (const p of players.slice(0, 6)) await svc.joinLeague(p, league.id);
  await svc.startLeague(organiser, league.id);
  for (let r = 1; r <= 3; r++) {
    const round = await svc.getRound(null, league.id, r);
    t.equal(round.stage, 'pool');
    for (const p of round.pairings.filter((x) => x.result === null)) await svc.setResult(organiser, league.id, p.id, { result: 'first', reason: 'pool game' });
  }
  const st = await svc.getStandings(null, league.id);
  t.same([...new Set(st.standings.map((s) => s.pool))], [1, 2], 'one table per pool');
  const ko = await svc.getRound(null, league.id, 4);
  t.equal(ko.stage, 'knockout');
  t.equal(ko.pairings.length, 1, 'the two pool winners meet');
  const winners = st.standings.filter((s) => s.rank === 1).map((s) => s.player.id).sort();
  t.same([ko.pairings[0]!.first.id, ko.pairings[0]!.second!.id].sort(), winners);
  await svc.setResult(organiser, league.id, ko.pairings[0]!.id, { result: 'first', reason: 'final' });
  t.equal((await svc.getLeague(null, league.id)).status, 'finished');
});

t.test('late entry into a Swiss with half-point byes for missed rounds', async (t) => {
  const { league, round } = await swiss(4, { lateEntry: 'half' });
  const late = await svc.joinLeague(players[8]!, league.id);
  t.equal(late.firstRound, 2);
  for (const p of round.pairings) await svc.setResult(organiser, league.id, p.id, { result: 'first', reason: 'r1' });
  const r2 = await svc.getRound(null, league.id, 2);
  t.ok(r2.pairings.some((p) => p.first.id === players[8]!.playerId || p.second?.id === players[8]!.playerId), 'paired from round 2');
  const st = await svc.getStandings(null, league.id);
  t.equal(st.standings.find((s) => s.player.id === players[8]!.playerId)!.points, 0.5, 'half a point for the missed round');
});

t.test("an unlisted league's games are private: their players and the league's organisers (co-organisers too) read them", async (t) => {
  const league = await svc.createLeague(organiser, { name: 'Hidden', gameType: 'richard-iii', format: 'round-robin', visibility: 'unlisted' });
  for (const p of players.slice(0, 2)) await svc.joinLeague(p, league.id);
  await svc.addOrganiser(organiser, league.id, players[7]!.playerId);
  await svc.startLeague(organiser, league.id);
  const board = (await svc.getRound(null, league.id, 1)).pairings[0]!;
  const game = await svc.getGame(players[0]!, board.gameId!);
  t.equal(game.visibility, 'private');
  t.ok(await svc.getGame(organiser, board.gameId!), 'the owner reads it');
  t.ok(await svc.getGame(players[7]!, board.gameId!), 'a co-organiser reads it');
  await refused(t, svc.getGame(outsider, board.gameId!), 'not_found', 'an outsider');
  await refused(t, svc.getGame(null, board.gameId!), 'not_found', 'anonymous');
});
