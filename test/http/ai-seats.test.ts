// Seats played by Herald's AI (issue 20), end to end through REST (and GraphQL's
// createGame) on real Postgres: full games AI against AI and AI against a
// scripted bot with clocks on, at the random level; a restart with the AI to
// move; the validation of `ai`; and requests answered while the AI's worker
// thread is busy. The AI's moves are made by the app's own job (jobs/ai-moves.ts)
// on its worker pool (service/ai-pool.ts), as in production.
import t, { type Test as TapTest } from 'tap';
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

const CLOCK = { kind: 'fischer', initialMs: 3_600_000, incrementMs: 10_000 };
const R3 = { gameType: 'richard-iii', scenario: 'richard-iii' };

const databaseUrl = await createTestDatabase(t);
const store = await openStore({ databaseUrl, dataDir: '/nonexistent' }, { info: () => {} });
t.teardown(() => store.close());

/** An app on the shared database; `jobs: false`: no AI job and no pool (an API-only instance). */
async function appOn(o: { jobs?: boolean; timeCapMs?: number; aiWorker?: { filename: string; workerData?: Record<string, unknown> } } = {}): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ databaseUrl, jobs: o.jobs ?? true, ai: { workers: 1, queue: 16, timeCapMs: o.timeCapMs ?? 5_000 } }), {
    store, aiSweepMs: 200, ...(o.aiWorker ? { aiWorker: o.aiWorker } : {}),
    games: { ...installed, tally: tallyModule() as unknown as GameModule },
  });
  return app;
}

const app = await appOn();
t.teardown(() => app.close());
const ada = await signup(app, 'Ada');

interface Summary {
  id: string; status: string; version: number; activeRoles: string[]; result: { winner: string | null; reason: string } | null;
  seats: { role: string; player: { id: string; name: string; isBot: boolean } | null; ai: { level: string } | null }[];
  clock: { seats: { role: string; remainingMs: number | null }[] } | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function summary(c: Client, id: string): Promise<Summary> {
  const res = await c.req('GET', `/games/${id}`);
  if (res.statusCode !== 200) throw new Error(`GET /games/${id}: ${res.statusCode} ${res.body}`);
  return res.json() as Summary;
}

/** Polls the game until `done` holds (the AI moves on its own); gives up after `limit` polls. */
async function until(c: Client, id: string, done: (g: Summary) => boolean, limit = 2_000): Promise<Summary> {
  for (let i = 0; i < limit; i++) {
    const g = await summary(c, id);
    if (done(g)) return g;
    await sleep(20);
  }
  throw new Error(`game ${id} never reached the expected state`);
}

/** Every log entry of the game (the log as the caller reads it). */
async function log(c: Client, id: string): Promise<{ version: number; kind: string; role: string | null; playerId: string | null }[]> {
  return (await c.req('GET', `/games/${id}/log`)).json().entries;
}

t.test('GET /game-types lists the AI levels of each game type', async (t) => {
  const types = (await ada.req('GET', '/game-types')).json() as { id: string; aiLevels: string[] }[];
  t.ok(types.find((g) => g.id === 'richard-iii')!.aiLevels.includes('random'));
  t.same(types.find((g) => g.id === 'tally')!.aiLevels, ['random'], 'a module that cannot sample states: random only');
});

t.test('bad ai seats: 400/422 problem+json, GraphQL extensions.code, nothing created', async (t) => {
  const count = () => store.prisma.game.count();
  const before = await count();
  const cases: [unknown, number, string, Record<string, unknown>][] = [
    [{ Lancaster: 'grandmaster' }, 400, 'invalid_request', { field: 'ai.Lancaster' }],
    [{ Burgundy: 'random' }, 400, 'invalid_request', { field: 'ai' }],
    [{ York: 'random' }, 400, 'invalid_request', { field: 'ai', role: 'York' }],
    [['Lancaster'], 400, 'invalid_request', { field: 'ai' }],
    [{ Lancaster: 3 }, 400, 'invalid_request', { field: 'ai.Lancaster' }],
  ];
  for (const [ai, status, code, ext] of cases) {
    const res = await ada.req('POST', '/games', { ...R3, roles: ['York'], ai });
    t.equal(res.statusCode, status, JSON.stringify(ai));
    t.match(res.headers['content-type'], /^application\/problem\+json/);
    t.match(res.json(), { code, status, ...ext });
  }
  const tally = await ada.req('POST', '/games', { gameType: 'tally', scenario: 'bare', roles: ['A'], ai: { B: 'easy' } });
  t.equal(tally.statusCode, 422, 'a search level for a game type that cannot sample states');
  t.match(tally.json(), { code: 'ai_level_unavailable', level: 'easy', role: 'B', levels: ['random'], field: 'ai.B' });
  const gql = gqlClient(app, ada.key);
  const bad = await gql(`mutation { createGame(input: {gameType: "richard-iii", scenario: "richard-iii", roles: ["York"], ai: {Lancaster: "grandmaster"}}) { id } }`);
  t.equal(bad.errors?.[0]?.extensions?.code, 'invalid_request');
  const unavailable = await gql(`mutation { createGame(input: {gameType: "tally", scenario: "bare", ai: {A: "hard"}}) { id } }`);
  t.equal(unavailable.errors?.[0]?.extensions?.code, 'ai_level_unavailable');
  t.equal(await count(), before, 'nothing created');
});

t.test('GraphQL createGame with an AI seat: the seat shows the AI and its level', async (t) => {
  const gql = gqlClient(app, ada.key);
  const res = await gql(`mutation { createGame(input: {gameType: "richard-iii", scenario: "richard-iii", roles: ["York"], ai: {Lancaster: "random"}, autoStart: false}) {
    id status seats { role player { name isBot } ai { level } } } }`);
  t.notOk(res.errors);
  t.match(res.data!.createGame, {
    status: 'setup',
    seats: [{ role: 'York', player: { name: 'Ada', isBot: false }, ai: null }, { role: 'Lancaster', player: { name: 'Herald AI (random)', isBot: true }, ai: { level: 'random' } }],
  });
});

t.test('AI against AI, clocks on: a full game, every move in the log as its AI player\'s', async (t) => {
  const res = await ada.req('POST', '/games', { ...R3, ai: { York: 'random', Lancaster: 'random' }, timeControl: CLOCK });
  t.equal(res.statusCode, 201, 'created');
  const created = res.json() as Summary;
  t.equal(created.status, 'active', 'every seat held: started at once');
  t.match(created.seats, [
    { role: 'York', ai: { level: 'random' }, player: { name: 'Herald AI (random)', isBot: true } },
    { role: 'Lancaster', ai: { level: 'random' }, player: { name: 'Herald AI (random)', isBot: true } },
  ]);
  const player: Record<string, string> = Object.fromEntries(created.seats.map((s) => [s.role, s.player!.id]));
  t.equal(player.York, player.Lancaster, 'one AI player per level, in both seats');
  const over = await until(ada, created.id, (g) => g.status !== 'active', 3_000);
  t.equal(over.status, 'finished');
  t.ok(over.result?.reason, `ended: ${over.result?.reason}`);
  const entries = await log(ada, created.id);
  const actions = entries.filter((e) => e.kind === 'action');
  t.ok(actions.length > 10, `${actions.length} actions`);
  t.ok(actions.every((e) => e.playerId === player[e.role!]), 'each action recorded as its seat\'s AI player\'s');
  t.same(new Set(actions.map((e) => e.role)), new Set(['York', 'Lancaster']), 'both seats moved');
  t.same(entries.map((e) => e.version), entries.map((_, i) => i + 1), 'one version per log entry, none lost');
  t.ok(over.clock!.seats.every((s) => s.remainingMs !== null && s.remainingMs <= CLOCK.initialMs + actions.length * CLOCK.incrementMs), 'the clocks ran');
});

/**
 * A scripted bot (Lancaster, random legal moves by REST, never a take-back) against the AI (York)
 * until the game is over, or until the AI has made `aiMoves` moves: then the bot resigns.
 */
async function againstBot(t: TapTest, level: string, aiMoves = Infinity): Promise<void> {
  const bob = await signup(app, `Bob-${level}`);
  const res = await bob.req('POST', '/games', { ...R3, roles: ['Lancaster'], ai: { York: level }, timeControl: CLOCK });
  t.equal(res.statusCode, 201, 'created');
  const id = (res.json() as Summary).id;
  const aiPlayer = (res.json() as Summary).seats[0]!.player!.id;
  const r = rng(`ai-vs-bot-${level}`);
  let botMoves = 0;
  for (let i = 0; i < 3_000; i++) {
    const g = await summary(bob, id);
    if (g.status !== 'active') break;
    if ((await log(bob, id)).filter((e) => e.kind === 'action' && e.role === 'York').length >= aiMoves) {
      t.equal((await bob.req('POST', `/games/${id}/resign`, {})).statusCode, 200, 'the bot resigns');
      break;
    }
    if (!g.activeRoles.includes('Lancaster')) {
      await sleep(20);
      continue;
    }
    const legal = (await bob.req('GET', `/games/${id}/actions`)).json() as { version: number; actions: { type?: string }[] };
    const useful = legal.actions.filter((a) => a.type !== 'take_back' && a.type !== 'undo');
    if (useful.length === 0) {
      // The bot played its card and waits for the AI's.
      await sleep(20);
      continue;
    }
    const move = await bob.req('POST', `/games/${id}/actions`, { action: useful[r.int(useful.length)], expectedVersion: legal.version });
    // The AI may have moved in between (both seats act in card play): a 409, then the bot reads again.
    if (move.statusCode === 409) continue;
    t.equal(move.statusCode, 200, 'the bot\'s move is taken');
    botMoves++;
  }
  const over = await summary(bob, id);
  t.equal(over.status, 'finished', `ended: ${over.result?.reason}`);
  const yorks = (await log(bob, id)).filter((e) => e.kind === 'action' && e.role === 'York');
  t.ok(botMoves > 0 && yorks.length > 0, `both sides moved (the bot ${botMoves} times, the AI ${yorks.length})`);
  t.ok(yorks.every((e) => e.playerId === aiPlayer), 'York\'s moves are the AI player\'s');
}

t.test('AI (random) against a scripted bot, clocks on: a full game, the bot moves by REST, the AI by itself', (t) => againstBot(t, 'random'));

t.test('AI (easy: a search on the worker) against a scripted bot, clocks on: six AI moves, then the bot resigns', async (t) => {
  const levels = ((await ada.req('GET', '/game-types')).json() as { id: string; aiLevels: string[] }[]).find((g) => g.id === 'richard-iii')!.aiLevels;
  t.ok(levels.includes('easy'), 'Richard III offers the search levels (its module samples states)');
  await againstBot(t, 'easy', 6);
});

t.test('a league organiser enters the AI (an odd seat filled): it is paired and plays its board', async (t) => {
  const org = await signup(app, 'Organiser');
  const league = await org.req('POST', '/leagues', { name: 'With the computer', gameType: 'richard-iii', format: 'round-robin' });
  t.equal(league.statusCode, 201, 'league created');
  const leagueId = league.json().id as string;
  t.equal((await org.req('POST', `/leagues/${leagueId}/entrants`, {})).statusCode, 201, 'the organiser joins');
  const bad = await org.req('POST', `/leagues/${leagueId}/entrants`, { ai: 'grandmaster' });
  t.match(bad.json(), { status: 400, code: 'invalid_request', field: 'ai' });
  const entered = await org.req('POST', `/leagues/${leagueId}/entrants`, { ai: 'random' });
  t.equal(entered.statusCode, 201, 'the AI entered');
  t.match(entered.json(), { player: { name: 'Herald AI (random)', isBot: true } });
  const started = await org.req('POST', `/leagues/${leagueId}/start`);
  t.equal(started.statusCode, 200, 'started');
  const pairing = await store.prisma.leaguePairing.findFirst({ where: { leagueId, gameId: { not: null } } });
  t.ok(pairing?.gameId, 'round 1 has its game');
  const id = pairing!.gameId!;
  const game = await summary(org, id);
  t.match(game.seats.find((s) => s.ai), { ai: { level: 'random' }, player: { name: 'Herald AI (random)' } });
  const aiRole = game.seats.find((s) => s.ai)!.role;
  // The organiser moves when it is their turn; the AI's move must come by itself.
  let aiMoved = false;
  for (let i = 0; i < 500 && !aiMoved; i++) {
    aiMoved = (await log(org, id)).some((e) => e.kind === 'action' && e.role === aiRole);
    if (aiMoved) break;
    const legal = (await org.req('GET', `/games/${id}/actions`)).json() as { version: number; actions: { type?: string }[] };
    const useful = (legal.actions ?? []).filter((a) => a.type !== 'take_back' && a.type !== 'undo');
    if (useful.length > 0) await org.req('POST', `/games/${id}/actions`, { action: useful[0], expectedVersion: legal.version });
    else await sleep(20);
  }
  t.ok(aiMoved, 'the AI played its league board');
});

t.test('the AI to move and no AI job running: a new app on the same database makes the move', async (t) => {
  // An API-only instance: it runs no jobs, so nobody moves for the AI.
  const apiOnly = await appOn({ jobs: false });
  const carl = await signup(apiOnly, 'Carl');
  // Take the primary app's job out of the way: the game is made while it runs, so stop it first.
  await app.close();
  const res = await carl.req('POST', '/games', { ...R3, ai: { York: 'random', Lancaster: 'random' } });
  t.equal(res.statusCode, 201, "created");
  const id = (res.json() as Summary).id;
  await sleep(500);
  t.equal((await summary(carl, id)).version, (res.json() as Summary).version, 'nothing moved without a job');
  await apiOnly.close();
  // "After the restart": a new app with its jobs on finds the game in its sweep.
  const restarted = await appOn();
  t.teardown(() => restarted.close());
  const viewer = await signup(restarted, 'Dora');
  const moved = await until(viewer, id, (g) => g.version > (res.json() as Summary).version);
  t.ok(moved.version > (res.json() as Summary).version, 'the AI moved after the restart');
  const entries = await log(viewer, id);
  t.equal(entries.find((e) => e.kind === 'action')?.playerId, moved.seats[0]!.player!.id);
});

t.test('requests are answered while the AI is thinking: the decision runs on a worker thread', async (t) => {
  const gate = new SharedArrayBuffer(8);
  const flags = new Int32Array(gate);
  const gated = await appOn({ aiWorker: { filename: new URL('../helpers/ai-gated-worker.ts', import.meta.url).href, workerData: { gate } } });
  t.teardown(() => gated.close());
  const eve = await signup(gated, 'Eve');
  const res = await eve.req('POST', '/games', { ...R3, ai: { York: 'random', Lancaster: 'random' } });
  const start = res.json() as Summary;
  // Wait until a worker thread is inside a decision, blocked on the gate.
  for (let i = 0; i < 500 && Atomics.load(flags, 1) === 0; i++) await sleep(20);
  t.equal(Atomics.load(flags, 1), 1, 'the AI is computing a move');
  // Meanwhile the server answers: reads, a new player, a health check; and the game has not moved.
  t.equal((await gated.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  const frank = await signup(gated, 'Frank');
  t.equal((await summary(frank, start.id)).version, start.version, 'the move is still being computed');
  t.equal((await frank.req('GET', `/games/${start.id}/actions?role=York`)).statusCode, 403, 'a human request is handled meanwhile');
  // The gate opens: the AI's move lands.
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  const moved = await until(eve, start.id, (g) => g.version > start.version);
  t.ok(moved.version > start.version);
});

t.test('a decision that overruns the time cap is stopped hard: its thread ends, a random legal action is played, the game goes on', async (t) => {
  // A worker whose gate never opens stands for a search that never ends; the cap is tiny (50 ms, stopped 500 ms later).
  const gate = new SharedArrayBuffer(8);
  const flags = new Int32Array(gate);
  const capped = await appOn({ timeCapMs: 50, aiWorker: { filename: new URL('../helpers/ai-gated-worker.ts', import.meta.url).href, workerData: { gate } } });
  t.teardown(() => capped.close());
  const gus = await signup(capped, 'Gus');
  const res = await gus.req('POST', '/games', { ...R3, ai: { York: 'random', Lancaster: 'random' } });
  const start = res.json() as Summary;
  // (test/service/ai-pool.test.ts checks that the next decision runs on a fresh thread.)
  const moved = await until(gus, start.id, (g) => g.version > start.version, 3_000);
  t.equal(Atomics.load(flags, 1), 1, 'a worker was inside a decision');
  t.equal(Atomics.load(flags, 0), 0, 'its gate never opened: the moves are the fallback\'s');
  const actions = (await log(gus, start.id)).filter((e) => e.kind === 'action');
  t.ok(actions.length >= 1, `${actions.length} AI move(s) made without the worker ever answering`);
  t.ok(actions.every((e) => e.playerId === moved.seats.find((s) => s.role === e.role)!.player!.id), 'recorded as the AI player\'s');
});
