// Reminders over HTTP: the app's own clock sweep sends a correspondence seat's reminder;
// GET /me/events carries it as `event: reminder`, the GraphQL subscription myReminders as a
// ReminderNotice. Time is the app's injected clock.
import t from 'tap';
import type { FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { playerChannel } from '../../src/service/api.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { buildApp } from '../../src/http/app.ts';
import { DAY } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { baseUrl, SseClient } from './sse-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const clock = { now: Date.UTC(2027, 3, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store, now: () => clock.now, clockSweepMs: 100 });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');

/** A correspondence game (10 days per move) York must act in, and York's deadline. */
async function game(): Promise<{ id: string; deadline: string }> {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } });
  const id = (created.json() as { id: string }).id;
  const joined = (await lancaster.req('POST', `/games/${id}/join`, {})).json() as { clock: { seats: Array<{ role: string; deadline: string | null }> } };
  return { id, deadline: joined.clock.seats.find((s) => s.role === 'York')!.deadline! };
}

t.test('GET /me/events carries event: reminder when 80% of the turn is used', async (t) => {
  const { id, deadline } = await game();
  const sse = await SseClient.open(`${baseUrl(app)}/me/events`, { authorization: `Bearer ${york.key}` });
  t.teardown(() => sse.close());
  clock.now = Date.parse(deadline) - 2 * DAY;
  // The first connection's your_turn (York must act), then the reminder the app's sweep sent.
  const events = await sse.take(2);
  t.same(events.map((e) => e.event), ['your_turn', 'reminder']);
  t.same(JSON.parse(events[1]!.data), { type: 'reminder', gameId: id, role: 'York', kind: 'share-used', remainingMs: 2 * DAY, deadline });
});

t.test('the GraphQL subscription myReminders carries the reminder', async (t) => {
  const { id, deadline } = await game();
  const c = createClient({ url: `${baseUrl(app).replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${york.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => c.dispose());
  type R = FormattedExecutionResult<{ myReminders: Record<string, unknown> }, unknown>;
  const results: R[] = [];
  let wake = (): void => {};
  t.teardown(c.subscribe<{ myReminders: Record<string, unknown> }>({ query: 'subscription { myReminders { gameId role kind remainingMs deadline } }' }, {
    next: (r) => {
      results.push(r);
      wake();
    },
    error: () => {},
    complete: () => {},
  }));
  const until = (test: (r: R) => boolean, what: string) =>
    within((async () => {
      while (!results.some(test)) await new Promise<void>((r) => (wake = r));
    })(), () => `${what}; got ${JSON.stringify(results)}`);
  // The subscription is set up once the server acknowledged it: probe until a notice arrives.
  const probe = { type: 'reminder', gameId: '7a0b1c2d-0000-4000-8000-0000000000ff', role: 'York', kind: 'low-time', remainingMs: 1, deadline };
  await within((async () => {
    while (results.length === 0) {
      await app.bus.publish(playerChannel(york.id), probe);
      await new Promise((r) => setTimeout(r, 50));
    }
  })(), 'the subscription to start');
  clock.now = Date.parse(deadline) - 2 * DAY;
  await until((r) => r.data?.myReminders.gameId === id, 'the reminder');
  t.same(results.find((r) => r.data?.myReminders.gameId === id)!.data!.myReminders, { gameId: id, role: 'York', kind: 'share-used', remainingMs: 2 * DAY, deadline });
  t.notOk(results.some((r) => r.errors), 'no errors on the subscription');
});

t.test('HERALD_REMINDER_PERCENT reaches the service: 50% puts the first reminder halfway through the turn', async (t) => {
  const half = await buildApp(testConfig({ databaseUrl, reminderSharePercent: 50 }), { store, now: () => clock.now, clockSweepMs: 3_600_000 });
  t.teardown(() => half.close());
  const created = await half.inject({ method: 'POST', url: '/games', headers: { authorization: `Bearer ${york.key}` }, payload: { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } } });
  const id = (created.json() as { id: string }).id;
  const joined = await half.inject({ method: 'POST', url: `/games/${id}/join`, headers: { authorization: `Bearer ${lancaster.key}` }, payload: {} });
  const seats = (joined.json() as { clock: { seats: Array<{ deadline: string | null }> } }).clock.seats;
  const earliest = Math.min(...seats.filter((s) => s.deadline !== null).map((s) => Date.parse(s.deadline!)));
  const row = await store.pool.query('SELECT remind_at FROM games WHERE id = $1', [id]);
  t.equal((row.rows[0].remind_at as Date).getTime(), earliest - 5 * DAY);
});
