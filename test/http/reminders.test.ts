// Reminders over HTTP: the app's own clock sweep sends a correspondence seat's reminder and
// GET /me/events carries it as `event: reminder`. Time is the app's injected clock.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { DAY } from '../../src/clocks/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { baseUrl, SseClient } from './sse-helpers.ts';

const clock = { now: Date.UTC(2027, 3, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store, now: () => clock.now, clockSweepMs: 100 });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');

t.test('GET /me/events carries event: reminder when 80% of the turn is used', async (t) => {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } });
  const id = (created.json() as { id: string }).id;
  const joined = (await lancaster.req('POST', `/games/${id}/join`, {})).json() as { clock: { seats: Array<{ role: string; deadline: string | null }> } };
  const deadline = joined.clock.seats.find((s) => s.role === 'York')!.deadline!;
  const sse = await SseClient.open(`${baseUrl(app)}/me/events`, { authorization: `Bearer ${york.key}` });
  t.teardown(() => sse.close());
  clock.now = Date.parse(deadline) - 2 * DAY;
  // The first connection's your_turn (York must act), then the reminder the app's sweep sent.
  const events = await sse.take(2);
  t.same(events.map((e) => e.event), ['your_turn', 'reminder']);
  t.same(JSON.parse(events[1]!.data), { type: 'reminder', gameId: id, role: 'York', kind: 'share-used', remainingMs: 2 * DAY, deadline });
});
