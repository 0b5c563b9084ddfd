// A league stand-in's level changed while the AI is thinking a move of that seat. The rule: a
// stand-in's level never changes under a game in progress (the AI that took the seat plays it
// to the end, as after DELETE; the new level is for boards seated later). So the PUT answers 200,
// the seat stays the thinking AI's, its decision is submitted, and no "an AI move failed"
// warning is logged (a probe saw one when the seat passed to the new level mid-decision, and a
// second PUT swapped the level of a game under way). The worker is held inside the decision by
// a gate.
import t from 'tap';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const lines: string[] = [];
const logStream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
const gate = new SharedArrayBuffer(8);
const flags = new Int32Array(gate);
const app = await buildApp(testConfig({ databaseUrl, jobs: true, logLevel: 'warn', ai: { workers: 1, queue: 16, timeCapMs: 60_000 } }), {
  store, logStream, aiSweepMs: 300,
  aiWorker: { filename: new URL('../helpers/ai-gated-worker.ts', import.meta.url).href, workerData: { gate } },
});
t.teardown(() => app.close());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('the stand-in changes level while the AI thinks: the AI that took the seat keeps it and moves, no failed move', async (t) => {
  const org = await signup(app, 'Organiser');
  const cy = await signup(app, 'Cy');
  const bob = await signup(app, 'Bob');
  const league = (await org.req('POST', '/leagues', { name: 'Race', gameType: 'richard-iii', format: 'double-round-robin' })).json().id as string;
  for (const p of [cy, bob]) t.equal((await p.req('POST', `/leagues/${league}/entrants`)).statusCode, 201);
  t.equal((await org.req('POST', `/leagues/${league}/start`)).statusCode, 200);
  let gameId: string | null = null;
  for (const end = Date.now() + 60_000; Date.now() < end && gameId === null;) {
    gameId = (await store.prisma.leaguePairing.findFirst({ where: { leagueId: league, round: 1, gameId: { not: null } } }))?.gameId ?? null;
    if (gameId === null) await sleep(20);
  }
  t.ok(gameId, 'round 1 has its game');
  // Both seats must act at the start (keeping or redrawing a hand): Cy's AI starts thinking.
  t.equal((await org.req('PUT', `/leagues/${league}/entrants/${cy.id}/stand-in`, { ai: 'random' })).statusCode, 200);
  for (const end = Date.now() + 60_000; Date.now() < end && Atomics.load(flags, 1) === 0;) await sleep(20);
  t.equal(Atomics.load(flags, 1), 1, 'the AI is inside a decision');
  const set = await org.req('PUT', `/leagues/${league}/entrants/${cy.id}/stand-in`, { ai: 'easy' });
  t.equal(set.statusCode, 200, 'the level changes meanwhile');
  t.match(set.json(), { standIn: { ai: 'easy' } }, 'for the boards seated from now on');
  await sleep(300); // the PUT's takeover, if it made one, has run
  const before = (await cy.req('GET', `/games/${gameId}`)).json() as { version: number; seats: { player: { id: string } | null; ai: { level: string } | null }[] };
  t.ok(before.seats.some((s) => s.ai?.level === 'random'), 'the seat is still the random AI\'s');
  t.notOk(before.seats.some((s) => s.ai?.level === 'easy'), 'no easy AI in the game under way');
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  // The AI that was thinking moves the seat.
  let moved = false;
  for (const end = Date.now() + 60_000; Date.now() < end && !moved;) {
    const entries = (await cy.req('GET', `/games/${gameId}/log`)).json().entries as { kind: string; playerId: string | null }[];
    moved = entries.some((e) => e.kind === 'action');
    if (!moved) await sleep(20);
  }
  t.ok(moved, 'the AI moved the seat');
  const joins = ((await cy.req('GET', `/games/${gameId}/log`)).json().entries as { kind: string }[]).filter((e) => e.kind === 'join');
  t.equal(joins.length, 1, 'one takeover (random), none for the new level');
  t.same(lines.filter((l) => l.includes('an AI move failed')), [], 'no failed AI move logged');
});
