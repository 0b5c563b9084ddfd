// The clock in events (issue 15): every version event of GET /games/{id}/events and GraphQL
// gameEvents, and every your_turn of GET /me/events and GraphQL myTurn, carries each seat's
// remaining time and deadline, the same for seats and spectators (the clock is public); a
// vacation's pause or resume, which makes no version, comes as `event: clock` / gameClock.
// Time is the app's injected clock.
import t from 'tap';
import type { FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { buildApp } from '../../src/http/app.ts';
import { HOUR } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { baseUrl, data, SseClient } from './sse-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const clock = { now: Date.UTC(2027, 5, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store, now: () => clock.now, clockSweepMs: 3_600_000 });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');

interface Clock {
  seats: Array<{ role: string; remainingMs: number; deadline: string | null; running: boolean; paused: boolean }>;
}
const seatOf = (c: Clock, role: string) => c.seats.find((s) => s.role === role)!;

async function clockNow(id: string): Promise<Clock> {
  return ((await york.req('GET', `/games/${id}`)).json() as { clock: Clock }).clock;
}

/** A correspondence game (2 days per move), both seats to act (card choice). */
async function game(): Promise<string> {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 2 } });
  const id = (created.json() as { id: string }).id;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  return id;
}

function gql(key: string) {
  const c = createClient({ url: `${baseUrl(app).replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => c.dispose());
  return <T>(query: string) => {
    const results: FormattedExecutionResult<T, unknown>[] = [];
    let wake = (): void => {};
    t.teardown(c.subscribe<T>({ query }, { next: (r) => { results.push(r); wake(); }, error: () => {}, complete: () => {} }));
    const until = (n: number, what: string) =>
      within((async () => {
        while (results.length < n) await new Promise<void>((r) => (wake = r));
      })(), () => `${what}; got ${JSON.stringify(results)}`);
    return { results, until };
  };
}

t.test('SSE: version events carry the clock (seat and spectator alike), a pause comes as event: clock, your_turn carries it too', async (t) => {
  const id = await game();
  clock.now += HOUR;
  const seatStream = await SseClient.open(`${baseUrl(app)}/games/${id}/events`, { authorization: `Bearer ${york.key}` });
  const spectator = await SseClient.open(`${baseUrl(app)}/games/${id}/events`);
  const turns = await SseClient.open(`${baseUrl(app)}/me/events`, { authorization: `Bearer ${lancaster.key}` });
  t.teardown(() => [seatStream, spectator, turns].forEach((s) => s.close()));
  const [first] = await seatStream.take(1);
  const [firstSpectator] = await spectator.take(1);
  const now = await clockNow(id);
  t.same(data(first!).clock, now, 'the current version carries the clock as GET /games/{id} shows it');
  t.same(data(firstSpectator!).clock, now, 'the spectator sees the same clock (it is public)');
  t.equal(seatOf(now, 'York').remainingMs, 2 * 24 * HOUR - HOUR);
  const [turn] = await turns.take(1);
  t.equal(turn!.event, 'your_turn');
  t.same(data(turn!).clock, now, 'your_turn (first connection: the present) carries the clock');

  // York plays: the next version event carries the clock after it.
  const legal = (await york.req('GET', `/games/${id}/actions?role=York`)).json() as { actions: unknown[]; version: number };
  t.equal((await york.req('POST', `/games/${id}/actions`, { action: legal.actions[0] })).statusCode, 200);
  const [moved] = await seatStream.take(1);
  const after = await clockNow(id);
  t.equal(data(moved!).version, legal.version + 1);
  t.same(data(moved!).clock, after, 'the new version carries the clock after the move');
  t.same(data((await spectator.take(1))[0]!).clock, after);
  t.equal(seatOf(after, 'York').running, false, 'York acted: its clock stopped');

  // Lancaster goes on vacation: no version, but an event: clock with Lancaster's seat paused.
  clock.now += HOUR;
  t.equal((await lancaster.req('POST', '/me/vacation', {})).statusCode, 201);
  const pausedEvent = await seatStream.waitFor((e) => e.event === 'clock');
  const paused = await clockNow(id);
  t.same(data(pausedEvent), { type: 'clock', gameId: id, version: legal.version + 1, clock: paused });
  t.match(seatOf(paused, 'Lancaster'), { running: false, paused: true, deadline: null });
  t.same(data(await spectator.waitFor((e) => e.event === 'clock')).clock, paused, 'spectators get it too');
  t.equal(pausedEvent.id, null, 'no id: a reconnect resumes from the version');
  clock.now += HOUR;
  t.equal((await lancaster.req('DELETE', '/me/vacation')).statusCode, 200);
  const resumed = await seatStream.waitFor((e) => e.event === 'clock' && data<{ clock: Clock }>(e).clock.seats.some((s) => s.role === 'Lancaster' && s.running));
  t.same(data(resumed).clock, await clockNow(id), 'the resume too');
});

t.test('GraphQL: gameEvents updates and myTurn notices carry the clock; gameClock carries a pause', async (t) => {
  const id = await game();
  clock.now += HOUR;
  const asYork = gql(york.key!);
  const updates = asYork<{ gameEvents: { version: number; clock: Clock } }>(`subscription { gameEvents(gameId: "${id}", since: 0) { version clock { seats { role remainingMs deadline running paused } } } }`);
  const clocks = asYork<{ gameClock: { gameId: string; version: number; clock: Clock } }>(`subscription { gameClock(gameId: "${id}") { gameId version clock { seats { role remainingMs deadline running paused } } } }`);
  const asLancaster = gql(lancaster.key!);
  const notices = asLancaster<{ myTurn: { gameId: string; clock: Clock | null } }>('subscription { myTurn { gameId version roles clock { seats { role remainingMs deadline running paused } } } }');
  await updates.until(1, 'the catch-up update');
  t.same(updates.results[0]!.data!.gameEvents.clock, { seats: (await clockNow(id)).seats }, 'the update carries the clock');
  await notices.until(1, 'the present turn');
  const mine = notices.results.find((r) => r.data?.myTurn.gameId === id);
  t.same(mine?.data?.myTurn.clock, { seats: (await clockNow(id)).seats }, 'myTurn carries the clock');

  // gameClock is acknowledged once the server subscribed: pause (and resume) until a pause comes.
  const before = seatOf(await clockNow(id), 'Lancaster');
  const isPause = (r: (typeof clocks.results)[number]) => r.data?.gameClock.clock.seats.some((s) => s.role === 'Lancaster' && s.paused) ?? false;
  await within((async () => {
    while (!clocks.results.some(isPause)) {
      await lancaster.req('POST', '/me/vacation', {});
      await new Promise((r) => setTimeout(r, 50));
      if (!clocks.results.some(isPause)) await lancaster.req('DELETE', '/me/vacation');
    }
  })(), 'a gameClock update');
  const got = clocks.results.find(isPause)!.data!.gameClock;
  t.equal(got.gameId, id);
  t.same(seatOf(got.clock, 'Lancaster'), { ...before, running: false, paused: true, deadline: null }, 'the clock after the pause: stopped with the time it had (the injected clock did not move)');
  t.same(seatOf(got.clock, 'York'), seatOf(await clockNow(id), 'York'), 'and the other seat as it is');
  t.notOk([...updates.results, ...clocks.results, ...notices.results].some((r) => r.errors), 'no errors');
  t.equal(updates.results.length, 1, 'a pause makes no gameEvents update (no version)');
  await lancaster.req('DELETE', '/me/vacation');
});

t.test('GET /games/{id}/view carries the clock; an earlier version of a finished game has none', async (t) => {
  const id = await game();
  const v = (await york.req('GET', `/games/${id}/view`)).json() as { clock: Clock };
  t.same(v.clock, await clockNow(id));
  const spectator = (await app.inject(`/games/${id}/view`)).json() as { clock: Clock };
  t.same(spectator.clock, v.clock, 'the same for a spectator');
  t.equal((await york.req('POST', `/games/${id}/resign`, {})).statusCode, 200);
  const early = (await york.req('GET', `/games/${id}/view?version=2`)).json() as { clock: Clock | null };
  t.equal(early.clock, null);
});
