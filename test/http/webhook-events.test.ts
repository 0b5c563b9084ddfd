// The other webhook events, each written in the transaction of its change: clock_reminder (the
// reminder's claim), clock_timeout and game_ended (the timeout's commit), league_round_published
// (with the new games' game_started / your_turn) and league_result_recorded (a result in a league
// transaction). Time is the app's injected clock.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../src/http/app.ts';
import { DAY } from '../../src/clocks/index.ts';
import type { GameService } from '../../src/service/service.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { signup } from './rest-helpers.ts';

const HOUR = 3_600_000;
const clock = { now: Date.UTC(2027, 5, 1, 9) };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), { store, now: () => clock.now, clockSweepMs: HOUR, roundSweepMs: HOUR, webhookSweepMs: HOUR });
t.teardown(() => app.close());
const svc = app.gameService as unknown as GameService;

type Row = { event_type: string; game_id: string | null; payload: { type: string; data: Record<string, unknown> } };
async function outbox(endpointId: string): Promise<Row[]> {
  return (await store.pool.query('SELECT event_type, game_id::text, payload FROM webhook_messages WHERE endpoint_id = $1::uuid ORDER BY seq', [endpointId])).rows;
}

t.test('clock_reminder with the reminder, clock_timeout and game_ended with the timeout', async (t) => {
  const york = await signup(app, 'York player');
  const lancaster = await signup(app, 'Lancaster player');
  const r = await startReceiver(t);
  const { webhook, secret } = (await york.req('POST', '/webhooks', { url: r.url, events: ['clock_reminder', 'clock_timeout', 'game_ended'] })).json() as { webhook: { id: string }; secret: string };
  const id = ((await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 10 } })).json() as { id: string }).id;
  const joined = (await lancaster.req('POST', `/games/${id}/join`, {})).json() as { clock: { seats: Array<{ role: string; deadline: string }> } };
  t.same(await outbox(webhook.id), [], 'no event of a type the endpoint does not want');
  const deadline = Date.parse(joined.clock.seats.find((s) => s.role === 'York')!.deadline);
  clock.now = deadline - 2 * DAY;
  t.ok((await svc.sweepReminders()) >= 1);
  await svc.sweepReminders();
  let rows = await outbox(webhook.id);
  t.same(rows.map((m) => m.event_type), ['clock_reminder'], 'one reminder message, however many sweeps');
  t.match(rows[0]!.payload.data, { gameId: id, role: 'York', kind: 'share-used', deadline: new Date(deadline).toISOString(), player: { id: york.id } });
  clock.now = deadline + 1;
  t.ok(await svc.fireTimeout(id));
  rows = await outbox(webhook.id);
  t.same(rows.map((m) => m.event_type), ['clock_reminder', 'clock_timeout', 'game_ended']);
  t.match(rows[1]!.payload.data, { gameId: id, ranOut: /^(York|Lancaster)$/ }, 'names the seat that ran out (both clocks run in the opening phase)');
  t.match(rows[2]!.payload.data, { result: { reason: 'timeout' } });
  await svc.deliverWebhooks();
  await r.waitFor(3);
  t.same(r.received.map((g) => (new Webhook(secret).verify(g.body, g.headers) as { type: string }).type), ['clock_reminder', 'clock_timeout', 'game_ended']);
});

t.test('league_round_published (with the games it starts) and league_result_recorded', async (t) => {
  const org = await signup(app, 'Organiser');
  const players = [await signup(app, 'Ann'), await signup(app, 'Ben')];
  const r = await startReceiver(t);
  const { webhook } = (await players[0]!.req('POST', '/webhooks', { url: r.url, events: ['league_round_published', 'league_result_recorded', 'game_started', 'your_turn'] })).json() as { webhook: { id: string } };
  const league = (await org.req('POST', '/leagues', { name: 'Hooks cup', gameType: 'richard-iii', format: 'round-robin', autoPair: false })).json() as { id: string };
  for (const p of players) t.equal((await p.req('POST', `/leagues/${league.id}/entrants`)).statusCode, 201);
  t.equal((await org.req('POST', `/leagues/${league.id}/start`)).statusCode, 200);
  t.equal((await org.req('POST', `/leagues/${league.id}/rounds`)).statusCode, 201);
  t.same(await outbox(webhook.id), [], 'a draft round sends nothing');
  const published = await org.req('POST', `/leagues/${league.id}/rounds/1/publish`);
  t.equal(published.statusCode, 200, published.body);
  const board = (published.json() as { pairings: { id: string; gameId: string; first: { id: string } }[] }).pairings[0]!;
  let rows = await outbox(webhook.id);
  const types = rows.map((m) => m.event_type);
  t.equal(types[0], 'league_round_published');
  t.ok(types.includes('game_started'), 'the new game started');
  t.match(rows[0]!.payload.data, { leagueId: league.id, round: 1, board: 1, gameId: board.gameId, player: { id: players[0]!.id } });
  const before = rows.length;
  const set = await org.req('PUT', `/leagues/${league.id}/pairings/${board.id}/result`, { result: 'first', reason: 'agreed' });
  t.equal(set.statusCode, 200, set.body);
  rows = await outbox(webhook.id);
  const recorded = rows.slice(before).find((m) => m.event_type === 'league_result_recorded');
  t.match(recorded?.payload.data, { leagueId: league.id, pairingId: board.id, result: 'first' });
});
