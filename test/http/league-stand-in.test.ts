// Herald's AI in leagues (issue 20), end to end on real Postgres with the app's own AI job
// and worker pool: GraphQL's addLeagueEntrant with `ai`, and the stand-in — an organiser has
// the AI play a leaving player's games instead of forfeiting them (PUT/DELETE
// /leagues/{id}/entrants/{playerId}/stand-in, GraphQL setLeagueStandIn / removeLeagueStandIn).
// The stand-in takes over an open game from its current position and plays it to the end
// against a scripted player, is seated from the start in the next round, and its results count
// for the entrant in the standings while the rating is the AI player's.
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../../src/store/migrate.ts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import type { GameModule } from '../../src/engine/types.ts';
import { games as installed } from '../../src/games/index.ts';
import { createTestDatabase, testConfig } from '../helpers/services.ts';
import { openStore } from '../../src/store/store.ts';
import { tallyModule } from '../helpers/games/tally.ts';
import { rng } from '../helpers/bots.ts';
import { client as gqlClient } from './graphql-helpers.ts';
import { signup, type Client } from './rest-helpers.ts';

const databaseUrl = await createTestDatabase(t);
const store = await openStore({ databaseUrl, dataDir: '/nonexistent' }, { info: () => {} });
t.teardown(() => store.close());

const app: FastifyInstance = await buildApp(testConfig({ databaseUrl, jobs: true, ai: { workers: 1, queue: 16, timeCapMs: 5_000 } }), {
  store, aiSweepMs: 200, games: { ...installed, tally: tallyModule() as unknown as GameModule },
});
t.teardown(() => app.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seat { role: string; player: { id: string; name: string; isBot: boolean } | null; ai: { level: string } | null }
interface Summary { id: string; status: string; version: number; activeRoles: string[]; result: { winner: string | null; reason: string } | null; seats: Seat[] }
interface Entry { version: number; kind: string; role: string | null; playerId: string | null }

const summary = async (c: Client, id: string): Promise<Summary> => (await c.req('GET', `/games/${id}`)).json() as Summary;
const log = async (c: Client, id: string): Promise<Entry[]> => (await c.req('GET', `/games/${id}/log`)).json().entries;

/** A league of `players` (the organiser not among them), started: round 1 published. */
async function runningLeague(org: Client, players: Client[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await org.req('POST', '/leagues', { name: `League ${Math.random()}`, gameType: 'richard-iii', format: 'double-round-robin', ...extra });
  if (res.statusCode !== 201) throw new Error(res.body);
  const id = res.json().id as string;
  for (const p of players) {
    const e = await p.req('POST', `/leagues/${id}/entrants`);
    if (e.statusCode !== 201) throw new Error(e.body);
  }
  const started = await org.req('POST', `/leagues/${id}/start`);
  if (started.statusCode !== 200) throw new Error(started.body);
  return id;
}

async function board(leagueId: string, round: number): Promise<{ id: string; gameId: string; firstId: string; secondId: string | null; result: string | null }> {
  for (let i = 0; i < 500; i++) {
    const p = await store.prisma.leaguePairing.findFirst({ where: { leagueId, round, gameId: { not: null } } });
    if (p) return p as { id: string; gameId: string; firstId: string; secondId: string | null; result: string | null };
    await sleep(20);
  }
  throw new Error(`round ${round} of ${leagueId} has no game`);
}

/**
 * The human side of a game against the AI: random legal moves by REST (never a take-back) until
 * the game is over — or, with `resignAfterAiMoves`, until the AI has moved that often: then it resigns.
 */
async function playAgainstAi(c: Client, gameId: string, role: string, seed: string, resignAfterAiMoves = Infinity): Promise<Summary> {
  const r = rng(seed);
  for (let i = 0; i < 5_000; i++) {
    const g = await summary(c, gameId);
    if (g.status !== 'active') return g;
    if (resignAfterAiMoves !== Infinity && (await log(c, gameId)).filter((e) => e.kind === 'action' && e.role !== role).length >= resignAfterAiMoves) {
      await c.req('POST', `/games/${gameId}/resign`, {});
      continue;
    }
    if (!g.activeRoles.includes(role)) {
      await sleep(10);
      continue;
    }
    const legal = (await c.req('GET', `/games/${gameId}/actions?role=${role}`)).json() as { version: number; actions: { type?: string }[] };
    const useful = (legal.actions ?? []).filter((a) => a.type !== 'take_back' && a.type !== 'undo');
    if (useful.length === 0) {
      await sleep(10);
      continue;
    }
    await c.req('POST', `/games/${gameId}/actions`, { role, action: useful[r.int(useful.length)], expectedVersion: legal.version });
  }
  throw new Error(`game ${gameId} did not end`);
}

t.test('GraphQL addLeagueEntrant takes ai (a typed level), with the REST errors as extensions.code', async (t) => {
  const org = await signup(app, 'GqlOrganiser');
  const gql = gqlClient(app, org.key);
  const league = (await org.req('POST', '/leagues', { name: 'GraphQL AI entry', gameType: 'richard-iii', format: 'round-robin' })).json().id as string;
  const entered = await gql(`mutation($l: ID!) { addLeagueEntrant(leagueId: $l, ai: random) { player { name isBot } status standIn { ai } } }`, { l: league });
  t.notOk(entered.errors);
  t.same(entered.data!.addLeagueEntrant, { player: { name: 'Herald AI (random)', isBot: true }, status: 'active', standIn: null });
  const unknownLevel = await gql(`mutation($l: ID!) { addLeagueEntrant(leagueId: $l, ai: grandmaster) { status } }`, { l: league });
  t.equal(unknownLevel.errors?.[0]?.extensions?.code, 'invalid_request', 'not a level of the enum');
  const neither = await gql(`mutation($l: ID!) { addLeagueEntrant(leagueId: $l) { status } }`, { l: league });
  t.equal(neither.errors?.[0]?.extensions?.code, 'invalid_request', 'neither playerId nor ai');
  const both = await gql(`mutation($l: ID!, $p: ID!) { addLeagueEntrant(leagueId: $l, playerId: $p, ai: easy) { status } }`, { l: league, p: org.id });
  t.equal(both.errors?.[0]?.extensions?.code, 'invalid_request', 'playerId and ai');
  const tally = (await org.req('POST', '/leagues', { name: 'Tally league', gameType: 'tally', format: 'round-robin' }));
  t.equal(tally.statusCode, 201, tally.body);
  const unavailable = await gql(`mutation($l: ID!) { addLeagueEntrant(leagueId: $l, ai: easy) { status } }`, { l: tally.json().id });
  t.equal(unavailable.errors?.[0]?.extensions?.code, 'ai_level_unavailable');
  t.same(unavailable.errors?.[0]?.extensions?.levels, ['random']);
  const notOrganiser = await gqlClient(app, (await signup(app, 'Stranger')).key)(`mutation($l: ID!) { addLeagueEntrant(leagueId: $l, ai: random) { status } }`, { l: league });
  t.equal(notOrganiser.errors?.[0]?.extensions?.code, 'forbidden');
  t.equal(await store.prisma.leagueEntrant.count({ where: { leagueId: league } }), 1, 'only the first entry stored');
});

t.test('a stand-in refused: before the start, a withdrawn entrant, a bad level, not an organiser, the AI itself, a league played elsewhere', async (t) => {
  const org = await signup(app, 'StrictOrganiser');
  const [p1, p2, p3] = [await signup(app, 'P1'), await signup(app, 'P2'), await signup(app, 'P3')];
  const draft = (await org.req('POST', '/leagues', { name: 'Not started', gameType: 'richard-iii', format: 'round-robin' })).json().id as string;
  await p1.req('POST', `/leagues/${draft}/entrants`);
  const early = await org.req('PUT', `/leagues/${draft}/entrants/${p1.id}/stand-in`, { ai: 'random' });
  t.match(early.json(), { status: 409, code: 'invalid_state' }, 'registration: enter the AI instead');
  const league = await runningLeague(org, [p1, p2, p3]);
  const cases: [Client, string, unknown, number, string][] = [
    [org, p1.id, { ai: 'grandmaster' }, 400, 'invalid_request'],
    [org, p1.id, {}, 400, 'invalid_request'],
    [org, p1.id, { ai: 'random', colour: 'red' }, 400, 'invalid_request'],
    [p2, p1.id, { ai: 'random' }, 403, 'forbidden'],
    [org, org.id, { ai: 'random' }, 404, 'not_found'],
  ];
  for (const [c, who, body, status, code] of cases) {
    const res = await c.req('PUT', `/leagues/${league}/entrants/${who}/stand-in`, body);
    t.equal(res.statusCode, status, JSON.stringify(body));
    t.match(res.headers['content-type'], /^application\/problem\+json/);
    t.match(res.json(), { code });
  }
  t.equal((await p3.req('DELETE', `/leagues/${league}/entrants/me`)).statusCode, 200, 'P3 withdraws');
  const withdrawn = await org.req('PUT', `/leagues/${league}/entrants/${p3.id}/stand-in`, { ai: 'random' });
  t.match(withdrawn.json(), { status: 409, code: 'invalid_state', entrantStatus: 'withdrawn' }, 'their games were forfeit already');
  t.match((await org.req('DELETE', `/leagues/${league}/entrants/${p1.id}/stand-in`)).json(), { status: 404, code: 'not_found' }, 'no stand-in to end');
  // The AI as an entrant cannot be stood in for.
  const withAi = (await org.req('POST', '/leagues', { name: 'With the AI', gameType: 'richard-iii', format: 'round-robin' })).json().id as string;
  await p1.req('POST', `/leagues/${withAi}/entrants`);
  const ai = (await org.req('POST', `/leagues/${withAi}/entrants`, { ai: 'random' })).json().player.id as string;
  t.equal((await org.req('POST', `/leagues/${withAi}/start`)).statusCode, 200);
  t.match((await org.req('PUT', `/leagues/${withAi}/entrants/${ai}/stand-in`, { ai: 'random' })).json(), { status: 409, code: 'invalid_state' });
  const elsewhere = await runningLeague(org, [p1, p2], { play: 'elsewhere' });
  t.match((await org.req('PUT', `/leagues/${elsewhere}/entrants/${p1.id}/stand-in`, { ai: 'random' })).json(), { status: 409, code: 'invalid_state', setting: 'play' });
  const gql = gqlClient(app, org.key);
  const bad = await gql(`mutation($l: ID!, $p: ID!) { setLeagueStandIn(leagueId: $l, playerId: $p, ai: random) { status } }`, { l: draft, p: p1.id });
  t.equal(bad.errors?.[0]?.extensions?.code, 'invalid_state', 'GraphQL: the same errors');
  t.equal(await store.prisma.leagueEntrant.count({ where: { standInLevel: { not: null } } }), 0, 'nothing stored');
});

t.test('a stand-in plays a leaving player\'s games: the open one to its end from where it was, the next round\'s from the start; the results are the entrant\'s', async (t) => {
  const org = await signup(app, 'Director');
  const cy = await signup(app, 'Cy');
  const bob = await signup(app, 'Bob');
  const league = await runningLeague(org, [cy, bob], { rated: true });
  const b1 = await board(league, 1);
  const roles = ['York', 'Lancaster'];
  const bobRole1 = b1.firstId === bob.id ? 'York' : 'Lancaster';
  const cyRole1 = roles.find((r) => r !== bobRole1)!;
  // Bob plays a move of round 1 (his first useful legal action), then has to leave.
  for (let moved = false, i = 0; !moved && i < 200; i++) {
    const legal = (await bob.req('GET', `/games/${b1.gameId}/actions?role=${bobRole1}`)).json() as { version: number; actions: { type?: string }[] };
    const useful = (legal.actions ?? []).filter((a) => a.type !== 'take_back' && a.type !== 'undo');
    if (useful.length > 0) moved = (await bob.req('POST', `/games/${b1.gameId}/actions`, { role: bobRole1, action: useful[0], expectedVersion: legal.version })).statusCode === 200;
    else await sleep(10);
  }
  t.ok((await log(bob, b1.gameId)).some((e) => e.kind === 'action' && e.playerId === bob.id), 'Bob moved before leaving');
  const before = await summary(bob, b1.gameId);
  t.equal(before.seats.find((s) => s.role === bobRole1)!.player!.id, bob.id, 'Bob holds his seat');

  const set = await org.req('PUT', `/leagues/${league}/entrants/${bob.id}/stand-in`, { ai: 'random', reason: 'moved abroad' });
  t.equal(set.statusCode, 200, set.body);
  t.match(set.json(), { player: { id: bob.id, name: 'Bob' }, status: 'active', standIn: { ai: 'random', fromRound: 1, reason: 'moved abroad' } });
  const taken = await summary(cy, b1.gameId);
  const aiSeat = taken.seats.find((s) => s.role === bobRole1)!;
  t.match(aiSeat, { ai: { level: 'random' }, player: { name: 'Herald AI (random)', isBot: true } }, 'the open game\'s seat is the AI\'s');
  const aiId = aiSeat.player!.id;
  const join = (await log(cy, b1.gameId)).find((e) => e.kind === 'join');
  t.match(join, { role: bobRole1, playerId: aiId, version: before.version + 1 }, 'the takeover is in the log, one version');
  t.equal((await bob.req('GET', `/games/${b1.gameId}/actions?role=${bobRole1}`)).statusCode, 403, 'Bob no longer acts in it');

  // Cy plays round 1 against the stand-in to the end.
  const t0 = Date.now();
  const cpu0 = process.cpuUsage();
  const over = await playAgainstAi(cy, b1.gameId, cyRole1, 'stand-in-round-1');
  const cpu = process.cpuUsage(cpu0);
  t.equal(over.status, 'finished', `round 1 over: ${over.result?.reason}`);
  const actions = (await log(cy, b1.gameId)).filter((e) => e.kind === 'action');
  const aiMoves = actions.filter((e) => e.role === bobRole1);
  const afterTakeover = aiMoves.filter((e) => e.version > before.version);
  t.ok(afterTakeover.length > 0 && afterTakeover.every((e) => e.playerId === aiId), `the AI made all of Bob's moves after the takeover (${afterTakeover.length})`);
  t.comment(`a stand-in game to the end: ${actions.length} actions (${afterTakeover.length} by the AI) in ${Date.now() - t0} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms CPU in this process (test client included)`);

  // The board's result is Bob's: in the standings, not a forfeit.
  let r1 = await store.prisma.leaguePairing.findUnique({ where: { id: b1.id } });
  for (let i = 0; i < 200 && r1!.result === null; i++) {
    await sleep(20);
    r1 = await store.prisma.leaguePairing.findUnique({ where: { id: b1.id } });
  }
  const expected = over.result!.winner === null ? 'draw' : over.result!.winner === 'York' ? 'first' : 'second';
  t.match(r1, { result: expected, source: 'game' }, 'round 1\'s result is the game\'s');
  const standings = (await org.req('GET', `/leagues/${league}/standings?round=1`)).json().standings as { player: { id: string }; points: number; played: number; forfeitsWon: number; forfeitsLost: number }[];
  const bobRow = standings.find((s) => s.player.id === bob.id)!;
  const bobWon = (expected === 'first') === (b1.firstId === bob.id) && expected !== 'draw';
  t.match(bobRow, { played: 1, forfeitsWon: 0, forfeitsLost: 0, points: expected === 'draw' ? 0.5 : bobWon ? 1 : 0 }, 'the stand-in\'s game counts for Bob');
  t.notOk(standings.some((s) => s.player.id === aiId), 'the AI is not an entrant');
  // Ratings follow the seats: the AI player's, not Bob's.
  t.equal(await store.prisma.ratingChange.count({ where: { gameId: b1.gameId, playerId: bob.id } }), 0, 'Bob is not rated for a game he did not play');
  t.equal(await store.prisma.ratingChange.count({ where: { gameId: b1.gameId, playerId: aiId } }), 1, 'the AI player is');

  // Round 2 (sides swapped) is published with the AI in Bob's seat from the start.
  const b2 = await board(league, 2);
  const g2 = await summary(cy, b2.gameId);
  const bobRole2 = b2.firstId === bob.id ? 'York' : 'Lancaster';
  t.not(bobRole2, bobRole1, 'the double round robin swaps sides');
  t.match(g2.seats.find((s) => s.role === bobRole2), { ai: { level: 'random' }, player: { id: aiId } }, 'seated with the AI');
  t.notOk((await log(cy, b2.gameId)).some((e) => e.kind === 'join'), 'no takeover needed');
  t.equal(b2.firstId === bob.id ? b2.firstId : b2.secondId, bob.id, 'the board is still Bob\'s');
  // The organiser ends the stand-in; the game the AI began it finishes.
  const ended = await org.req('DELETE', `/leagues/${league}/entrants/${bob.id}/stand-in`);
  t.equal(ended.statusCode, 200);
  t.equal(ended.json().standIn, null);
  const over2 = await playAgainstAi(cy, b2.gameId, roles.find((r) => r !== bobRole2)!, 'stand-in-round-2', 3);
  t.equal(over2.status, 'finished');
  t.ok((await log(cy, b2.gameId)).some((e) => e.kind === 'action' && e.playerId === aiId), 'the AI moved in round 2');
  for (let i = 0; i < 200; i++) {
    if ((await org.req('GET', `/leagues/${league}`)).json().status === 'finished') break;
    await sleep(20);
  }
  const final = (await org.req('GET', `/leagues/${league}/standings`)).json().standings as { player: { id: string }; played: number; forfeitsLost: number }[];
  t.match(final.find((s) => s.player.id === bob.id), { played: 2, forfeitsLost: 0 }, 'both of Bob\'s games played, none forfeit');
});

t.test('a withdrawal ends the stand-in: the games are forfeit and end, nothing stays set, and DELETE of it is 409 (a probe found it set, and DELETE 200)', async (t) => {
  const org = await signup(app, 'WithdrawDirector');
  const [fay, gus, hal] = [await signup(app, 'Fay'), await signup(app, 'Gus'), await signup(app, 'Hal')];
  // Three players: the league goes on after Gus leaves (a finished league refuses every change anyway).
  const league = await runningLeague(org, [fay, gus, hal]);
  await board(league, 1);
  const b1 = (await store.prisma.leaguePairing.findFirst({ where: { leagueId: league, round: 1, gameId: { not: null }, OR: [{ firstId: gus.id }, { secondId: gus.id }] } })) as { id: string; gameId: string; firstId: string } | null;
  if (!b1) throw new Error('Gus has a game in round 1 (Berger: seeds 2 and 3)');
  t.equal((await org.req('PUT', `/leagues/${league}/entrants/${gus.id}/stand-in`, { ai: 'random' })).statusCode, 200);
  const left = await gus.req('DELETE', `/leagues/${league}/entrants/me`);
  t.equal(left.statusCode, 200, left.body);
  t.match(left.json(), { status: 'withdrawn', standIn: null }, 'the withdrawal ends the stand-in');
  t.match(await store.prisma.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId: league, playerId: gus.id } } }), { status: 'withdrawn', standInLevel: null, standInFromRound: null, standInReason: null, standInAt: null }, 'nothing stored');
  // The board is forfeit and its game ended: the AI plays no more of it.
  t.match(await store.prisma.leaguePairing.findUnique({ where: { id: b1.id } }), { source: 'withdrawal', result: b1.firstId === gus.id ? 'forfeit-second' : 'forfeit-first' });
  let g = await summary(org, b1.gameId);
  for (let i = 0; i < 200 && g.status !== 'abandoned' && g.status !== 'finished'; i++) {
    await sleep(20);
    g = await summary(org, b1.gameId);
  }
  t.ok(g.status === 'abandoned' || g.status === 'finished', `the game is over (${g.status})`);
  // Nothing to end: a clear 409, not 200.
  const ended = await org.req('DELETE', `/leagues/${league}/entrants/${gus.id}/stand-in`);
  t.equal((await org.req('GET', `/leagues/${league}`)).json().status, 'running', 'the league goes on');
  t.equal(ended.statusCode, 409);
  t.match(ended.json(), { status: 409, code: 'invalid_state', entrantStatus: 'withdrawn' });
  // The same for an organiser's withdrawal or disqualification.
  const other = await runningLeague(org, [fay, gus, hal]);
  t.equal((await org.req('PUT', `/leagues/${other}/entrants/${fay.id}/stand-in`, { ai: 'random' })).statusCode, 200);
  const dq = await org.req('PATCH', `/leagues/${other}/entrants/${fay.id}`, { status: 'disqualified', reason: 'test' });
  t.equal(dq.statusCode, 200, dq.body);
  t.match(dq.json(), { status: 'disqualified', standIn: null });
});

t.test('migration 20261127220000_stand_in_ends_with_entrant: a stand-in stored on an entrant who left is cleared, an active one\'s is kept', async (t) => {
  const org = await signup(app, 'MigrationDirector');
  const [kim, lou, max] = [await signup(app, 'Kim'), await signup(app, 'Lou'), await signup(app, 'Max')];
  const league = await runningLeague(org, [kim, lou, max]);
  t.equal((await org.req('PUT', `/leagues/${league}/entrants/${max.id}/stand-in`, { ai: 'easy' })).statusCode, 200);
  t.equal((await lou.req('DELETE', `/leagues/${league}/entrants/me`)).statusCode, 200);
  // The stored shape before the fix: Lou withdrew with a stand-in still set.
  const stale = { standInLevel: 'random', standInFromRound: 1, standInReason: 'away', standInAt: new Date() };
  await store.prisma.leagueEntrant.update({ where: { leagueId_playerId: { leagueId: league, playerId: lou.id } }, data: stale });
  const shown = async () => ((await org.req('GET', `/leagues/${league}/entrants`)).json().entrants as { player: { id: string }; standIn: unknown }[]).find((e) => e.player.id === lou.id)!.standIn;
  t.match(await shown(), { ai: 'random' }, 'the old shape shows a stand-in for Lou');
  const sql = await readFile(path.join(MIGRATIONS_DIR, '20261127220000_stand_in_ends_with_entrant', 'migration.sql'), 'utf8');
  await store.prisma.$executeRawUnsafe(sql);
  const entrant = (playerId: string) => store.prisma.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId: league, playerId } } });
  t.match(await entrant(lou.id), { status: 'withdrawn', standInLevel: null, standInFromRound: null, standInReason: null, standInAt: null }, 'cleared on the withdrawn entrant');
  t.match(await entrant(max.id), { status: 'active', standInLevel: 'easy' }, 'kept on the active one');
  t.match(await entrant(kim.id), { status: 'active', standInLevel: null });
  t.equal(await shown(), null, 'and none is shown');
});

t.test('two stand-in PUTs at once: both answer, and the game under way keeps the AI that took it; the later level is for later boards (a probe saw the level swapped mid-game)', async (t) => {
  const org = await signup(app, 'RaceDirector');
  const [ida, jon] = [await signup(app, 'Ida'), await signup(app, 'Jon')];
  const league = await runningLeague(org, [ida, jon]);
  const b1 = await board(league, 1);
  const jonRole = b1.firstId === jon.id ? 'York' : 'Lancaster';
  const [r1, r2] = await Promise.all([
    org.req('PUT', `/leagues/${league}/entrants/${jon.id}/stand-in`, { ai: 'random' }),
    org.req('PUT', `/leagues/${league}/entrants/${jon.id}/stand-in`, { ai: 'easy' }),
  ]);
  t.same([r1.statusCode, r2.statusCode], [200, 200], 'serialised on the league: both apply');
  const stored = await store.prisma.leagueEntrant.findUnique({ where: { leagueId_playerId: { leagueId: league, playerId: jon.id } } });
  t.ok(stored!.standInLevel === 'random' || stored!.standInLevel === 'easy', `the entrant's level is the later PUT's (${stored!.standInLevel})`);
  // The seat passed to an AI once: no second join swapping the level under the game.
  const joinsNow = async () => (await log(org, b1.gameId)).filter((e) => e.kind === 'join' && e.role === jonRole);
  for (let i = 0; i < 250 && (await joinsNow()).length === 0; i++) await sleep(20);
  await sleep(500); // a second takeover (run after its PUT's commit) has had its chance
  const joins = await joinsNow();
  t.equal(joins.length, 1, 'one takeover of the seat');
  const seat = (await summary(org, b1.gameId)).seats.find((s) => s.role === jonRole)!;
  t.equal(seat.player!.id, joins[0]!.playerId, 'the AI that took it holds it');
  // A third PUT (another level) leaves the game under way as it is.
  const other = stored!.standInLevel === 'easy' ? 'random' : 'easy';
  t.equal((await org.req('PUT', `/leagues/${league}/entrants/${jon.id}/stand-in`, { ai: other })).statusCode, 200);
  await sleep(300);
  t.equal((await log(org, b1.gameId)).filter((e) => e.kind === 'join' && e.role === jonRole).length, 1, 'still one takeover');
  t.equal((await summary(org, b1.gameId)).seats.find((s) => s.role === jonRole)!.player!.id, joins[0]!.playerId);
});

t.test('GraphQL setLeagueStandIn / removeLeagueStandIn', async (t) => {
  const org = await signup(app, 'GqlDirector');
  const [dee, eve] = [await signup(app, 'Dee'), await signup(app, 'Eve')];
  const league = await runningLeague(org, [dee, eve]);
  const gql = gqlClient(app, org.key);
  const set = await gql(`mutation($l: ID!, $p: ID!) { setLeagueStandIn(leagueId: $l, playerId: $p, ai: easy, reason: "ill") { player { id } standIn { ai fromRound reason at } } }`, { l: league, p: dee.id });
  t.notOk(set.errors, JSON.stringify(set.errors));
  t.match(set.data!.setLeagueStandIn, { player: { id: dee.id }, standIn: { ai: 'easy', fromRound: 1, reason: 'ill', at: /^\d{4}-/ } });
  const listed = await gql(`query($l: ID!) { league(id: $l) { entrants { player { id } standIn { ai } } } }`, { l: league });
  t.same(listed.data!.league.entrants.find((e: { player: { id: string } }) => e.player.id === dee.id).standIn, { ai: 'easy' });
  const b1 = await board(league, 1);
  const deeRole = b1.firstId === dee.id ? 'York' : 'Lancaster';
  t.match((await summary(org, b1.gameId)).seats.find((s) => s.role === deeRole), { ai: { level: 'easy' } });
  const removed = await gql(`mutation($l: ID!, $p: ID!) { removeLeagueStandIn(leagueId: $l, playerId: $p) { standIn { ai } } }`, { l: league, p: dee.id });
  t.same(removed.data, { removeLeagueStandIn: { standIn: null } });
});
