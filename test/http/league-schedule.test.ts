// League rounds on a schedule over HTTP: the settings' 422 problems (REST) and GraphQL errors,
// the schedule and nextRoundAt in REST and GraphQL views, the round sweep job publishing a round
// when the injected clock reaches it, and an instance started after a round came due (while no
// instance ran) publishing it at its start. Time is the apps' injected clock, never a sleep;
// the only waits are bounded polls for the job's run.
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { DAY, HOUR } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup, type Client } from './rest-helpers.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';

const clock = { now: Date.UTC(2027, 5, 7, 18) };
const { store, databaseUrl } = await openTestStore(t);
// This app's round sweep runs at its start only: the tests below decide when the job runs.
const app = await buildApp(testConfig({ databaseUrl }), { store, now: () => clock.now, roundSweepMs: HOUR, clockSweepMs: HOUR });
t.teardown(() => app.close());
const iso = (ms: number) => new Date(ms).toISOString();

const ada = await signup(app, 'Ada');
const players: Client[] = [];
for (const name of ['Bob', 'Cy', 'Dee', 'Eve']) players.push(await signup(app, name));

function problem(t: Test, res: { statusCode: number; headers: Record<string, unknown>; json(): any }, field: string | undefined, what: string) {
  t.equal(res.statusCode, 422, `${what}: 422`);
  t.match(String(res.headers['content-type']), /^application\/problem\+json/, `${what}: problem+json`);
  t.match(res.json(), { code: 'invalid_settings', setting: 'schedule', ...(field ? { field } : {}) }, `${what}: invalid_settings naming ${field ?? 'schedule'}`);
}

/** A league of the four players, started; its id. */
async function started(schedule: object): Promise<string> {
  const res = await ada.req('POST', '/leagues', { name: 'Weekly', gameType: 'richard-iii', format: 'round-robin', timeControl: { kind: 'correspondence', daysPerMove: 3 }, schedule });
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  const id = (res.json() as { id: string }).id;
  for (const p of players) {
    const joined = await p.req('POST', `/leagues/${id}/entrants`, {});
    if (joined.statusCode !== 201) throw new Error(`join: ${joined.statusCode} ${joined.body}`);
  }
  const start = await ada.req('POST', `/leagues/${id}/start`);
  if (start.statusCode !== 200) throw new Error(`start: ${start.statusCode} ${start.body}`);
  return id;
}

/** Polls (bounded) until the league has `n` published rounds; the rounds. */
async function published(a: FastifyInstance, id: string, n: number): Promise<Array<{ number: number; status: string; publishedAt: string | null; pairings: unknown[] }>> {
  let rounds: Array<{ number: number; status: string; publishedAt: string | null; pairings: unknown[] }> = [];
  for (let i = 0; i < 400; i++) {
    rounds = (await a.inject({ method: 'GET', url: `/leagues/${id}/rounds` })).json().rounds;
    if (rounds.filter((r) => r.status !== 'draft').length >= n) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return rounds;
}

t.test('a bad schedule: 422 invalid_settings naming the field (REST), extensions.code (GraphQL); nothing stored', async (t) => {
  const base = { name: 'Bad', gameType: 'richard-iii', format: 'round-robin' };
  const before = (await ada.req('GET', '/leagues?organiserId=me')).body;
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { firstRoundAt: '2027-07-01T18:00:00Z', everyDays: 0 } }), 'schedule.everyDays', 'everyDays 0');
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { everyDays: 7 } }), 'schedule.firstRoundAt', 'no firstRoundAt');
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { firstRoundAt: 'soon', everyDays: 7 } }), 'schedule.firstRoundAt', 'a bad date');
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { firstRoundAt: '2027-07-01T18:00:00Z', everyDays: 7, unfinished: 'never' } }), 'schedule.unfinished', 'a bad policy');
  // The rule of every client time (vacation until alike): Z or an offset, a real date, years 1–9999.
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { firstRoundAt: '2027-07-01T18:00:00', everyDays: 7 } }), 'schedule.firstRoundAt', 'no time zone (not the server\'s local time)');
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { firstRoundAt: '2027-02-30T18:00:00Z', everyDays: 7 } }), 'schedule.firstRoundAt', '30 February (not 2 March)');
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: { firstRoundAt: '0000-07-01T18:00:00Z', everyDays: 7 } }), 'schedule.firstRoundAt', 'year 0');
  for (const setting of ['registrationOpensAt', 'registrationClosesAt']) {
    const res = await ada.req('POST', '/leagues', { ...base, [setting]: '2027-07-01T18:00:00' });
    t.equal(res.statusCode, 422, `${setting} without a time zone: 422`);
    t.match(res.json(), { code: 'invalid_settings', setting }, `${setting} without a time zone: invalid_settings naming it`);
  }
  problem(t, await ada.req('POST', '/leagues', { ...base, schedule: 'weekly' }), undefined, 'not an object');
  t.equal((await ada.req('GET', '/leagues?organiserId=me')).body, before, 'no league created');
  const gql = gqlClient(app, ada.key);
  const r = await gql(`mutation { createLeague(input: {name: "Bad", gameType: "richard-iii", format: round_robin, schedule: {firstRoundAt: "2027-07-01T18:00:00Z", everyDays: 100}}) { id } }`);
  t.equal(r.errors?.[0]?.extensions?.code, 'invalid_settings');
  t.equal(r.errors?.[0]?.extensions?.field, 'schedule.everyDays');
});

t.test('REST and GraphQL show the schedule and when the next round is due; the round sweep publishes it then', async (t) => {
  const first = clock.now + DAY;
  const id = await started({ firstRoundAt: iso(first), everyDays: 7, unfinished: 'double-forfeit' });
  const league = (await ada.req('GET', `/leagues/${id}`)).json() as { settings: { schedule: unknown }; nextRoundAt: string | null; roundCount: number };
  t.same(league.settings.schedule, { firstRoundAt: iso(first), everyDays: 7, unfinished: 'double-forfeit' });
  t.equal(league.nextRoundAt, iso(first));
  t.equal(league.roundCount, 0, 'round 1 is not due yet');
  const q = await ok(gqlClient(app, null)(`query($id: ID!) { league(id: $id) { nextRoundAt settings { schedule { firstRoundAt everyDays unfinished } } } }`, { id }));
  t.same(q.league, { nextRoundAt: iso(first), settings: { schedule: { firstRoundAt: iso(first), everyDays: 7, unfinished: 'double_forfeit' } } }, 'GraphQL shows the same');

  // An instance whose sweep runs often: when the clock reaches round 1, the job publishes it.
  const often = await buildApp(testConfig({ databaseUrl }), { store, now: () => clock.now, roundSweepMs: 20, clockSweepMs: HOUR });
  t.teardown(() => often.close());
  await new Promise((r) => setTimeout(r, 100));
  t.equal((await published(often, id, 0)).length, 0, 'not before its time');
  clock.now = first;
  const rounds = await published(often, id, 1);
  t.match(rounds, [{ number: 1, status: 'published', publishedAt: iso(first) }], 'published by the job at its time');
  t.equal(((await ada.req('GET', `/leagues/${id}`)).json() as { nextRoundAt: string }).nextRoundAt, iso(first + 7 * DAY));
  await often.close();

  // A league stored before the dates were strict (year 0 was taken) still loads and updates.
  await store.pool.query(`UPDATE leagues SET settings = jsonb_set(settings, '{schedule,firstRoundAt}', '"0000-06-07T18:00:00.000Z"') WHERE id = $1`, [id]);
  const old = await ada.req('GET', `/leagues/${id}`);
  t.equal(old.statusCode, 200, 'a stored league with an old date loads');
  const kept = await ada.req('PATCH', `/leagues/${id}`, { schedule: { unfinished: 'double-forfeit' } });
  t.equal(kept.statusCode, 200, `an update that leaves the old date alone is taken: ${kept.body}`);
  t.equal(kept.json().settings.schedule.firstRoundAt, '0000-06-07T18:00:00.000Z', 'and keeps it');
  const back = await ada.req('PATCH', `/leagues/${id}`, { schedule: { firstRoundAt: iso(first) } });
  t.equal(back.statusCode, 200, 'the date set back');
  // The organiser moves the schedule while the league runs (a PATCH, GraphQL alike).
  const moved = await ada.req('PATCH', `/leagues/${id}`, { schedule: { everyDays: 14 } });
  t.equal(moved.statusCode, 200, moved.body);
  t.equal((moved.json() as { nextRoundAt: string }).nextRoundAt, iso(first + 14 * DAY));
  const g = await ok(gqlClient(app, ada.key)(`mutation($id: ID!) { updateLeague(id: $id, input: {schedule: {everyDays: 10, unfinished: wait}}) { nextRoundAt settings { schedule { everyDays unfinished } } } }`, { id }));
  t.same(g.updateLeague, { nextRoundAt: iso(first + 10 * DAY), settings: { schedule: { everyDays: 10, unfinished: 'wait' } } });
});

t.test('a round that came due while no instance ran is published when one starts, once', async (t) => {
  const first = clock.now + HOUR;
  const id = await started({ firstRoundAt: iso(first), everyDays: 7 });
  // Two instances start on the same database a day after round 1 was due: their start-up sweeps race.
  const later = first + DAY;
  const [a, b] = await Promise.all([
    buildApp(testConfig({ databaseUrl }), { store, now: () => later, roundSweepMs: HOUR, clockSweepMs: HOUR }),
    buildApp(testConfig({ databaseUrl }), { store, now: () => later, roundSweepMs: HOUR, clockSweepMs: HOUR }),
  ]);
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const rounds = await published(a, id, 1);
  t.match(rounds, [{ number: 1, status: 'published', publishedAt: iso(later) }], 'round 1, published at the start');
  t.equal(rounds.length, 1, 'once');
  t.equal((rounds[0]!.pairings as unknown[]).length, 2, 'two boards');
  const games = await store.prisma.game.count({ where: { pairing: { leagueId: id } } });
  t.equal(games, 2, 'two games: neither start-up sweep published it twice');
});
