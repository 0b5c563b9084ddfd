// Webhook delivery against a local receiver that misbehaves: 500, a timeout, 429 with
// Retry-After, then recovery; 410 disables the endpoint and tells the owner (endpoint_disabled);
// a 3xx is a failure (never followed); the schedule running out disables it; per-game order;
// at most N messages of one endpoint in flight. Short retry schedule and timeout via the app's
// options; the delivery job is run by the test.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../src/http/app.ts';
import type { GameService } from '../../src/service/service.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { signup } from '../http/rest-helpers.ts';

const HOUR = 3_600_000;
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), {
  store,
  webhookSweepMs: HOUR,
  webhooks: { retrySchedule: [30, 30, 30, 30], timeoutMs: 400, perEndpoint: 2 },
});
t.teardown(() => app.close());
const svc = app.gameService as unknown as GameService;
const owner = await signup(app, 'owner');

interface Delivery { id: string; status: string; attempts: number; lastStatus: number | null; lastError: string | null; eventType: string; payload: { data: Record<string, unknown> }; attemptLog: { httpStatus: number | null; error: string | null }[] }
const deliveries = async (id: string): Promise<Delivery[]> => ((await owner.req('GET', `/webhooks/${id}/deliveries`)).json() as { deliveries: Delivery[] }).deliveries;

/** Runs the delivery job until `done` holds (a retry is due a few ms later). */
async function deliverUntil(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    await svc.deliverWebhooks();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
}

async function endpoint(url: string, events: string[] = ['ping']): Promise<{ id: string; secret: string }> {
  const res = await owner.req('POST', '/webhooks', { url, events });
  const b = res.json() as { webhook: { id: string }; secret: string };
  return { id: b.webhook.id, secret: b.secret };
}

t.test('500, a timeout and 429 with Retry-After are retried; then it is delivered, once, same webhook-id', async (t) => {
  const r = await startReceiver(t);
  r.script.push({ status: 500 }, { status: 200, delayMs: 1_500 }, { status: 429, headers: { 'retry-after': '1' } });
  const e = await endpoint(r.url);
  const { messageId } = (await owner.req('POST', `/webhooks/${e.id}/test`)).json() as { messageId: string };
  let throttledAt = 0;
  await deliverUntil(async () => {
    if (throttledAt === 0 && r.received.length === 3) throttledAt = Date.now();
    return (await deliveries(e.id))[0]?.status === 'delivered';
  }, 'delivered');
  t.equal(r.received.length, 4);
  t.ok(r.received.every((g) => g.headers['webhook-id'] === messageId), 'the same webhook-id every time');
  for (const g of r.received) t.match(new Webhook(e.secret).verify(g.body, g.headers), { type: 'ping' });
  const [d] = await deliveries(e.id);
  t.equal(d!.attempts, 4);
  t.same(d!.attemptLog.map((a) => a.httpStatus), [500, null, 429, 200]);
  t.match(d!.attemptLog[1]!.error, /timeout/);
  // Retry-After: 1 s, not the 30 ms schedule.
  t.ok(Date.now() - throttledAt >= 900, 'Retry-After was honoured');
});

t.test('410 disables the endpoint and tells the owner; a 3xx is a failure', async (t) => {
  const r = await startReceiver(t);
  const notices = await startReceiver(t);
  const n = await endpoint(notices.url, ['endpoint_disabled']);
  r.script.push({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }, { status: 410 });
  const e = await endpoint(r.url);
  await owner.req('POST', `/webhooks/${e.id}/test`);
  await deliverUntil(async () => (await deliveries(e.id))[0]?.status === 'failed', 'failed');
  const [d] = await deliveries(e.id);
  t.same(d!.attemptLog.map((a) => a.httpStatus), [302, 410]);
  t.match(d!.attemptLog[0]!.error, /redirect/);
  t.equal(r.received.length, 2, 'the redirect was not followed');
  const info = (await owner.req('GET', `/webhooks/${e.id}`)).json() as { enabled: boolean; disabledReason: string; disabledAt: string };
  t.equal(info.enabled, false);
  t.match(info.disabledReason, /410/);
  await deliverUntil(async () => notices.received.length === 1, 'the owner is told');
  t.match(new Webhook(n.secret).verify(notices.received[0]!.body, notices.received[0]!.headers), { type: 'endpoint_disabled', data: { webhookId: e.id, player: { id: owner.id } } });
  // Disabled: a new message waits.
  await owner.req('POST', `/webhooks/${e.id}/test`);
  await svc.deliverWebhooks();
  t.equal(r.received.length, 2, 'nothing sent to a disabled endpoint');
  await owner.req('DELETE', `/webhooks/${n.id}`);
});

t.test('when the schedule runs out the message fails and the endpoint is disabled', async (t) => {
  const r = await startReceiver(t);
  for (let i = 0; i < 10; i++) r.script.push({ status: 503 });
  const e = await endpoint(r.url);
  await owner.req('POST', `/webhooks/${e.id}/test`);
  await deliverUntil(async () => (await deliveries(e.id))[0]?.status === 'failed', 'failed');
  t.equal(r.received.length, 5, 'the first attempt and 4 retries');
  const info = (await owner.req('GET', `/webhooks/${e.id}`)).json() as { enabled: boolean; disabledReason: string };
  t.equal(info.enabled, false);
  t.match(info.disabledReason, /after 5 attempts/);
});

t.test('per game: a message waits while an earlier one of the same game is pending; N in flight per endpoint', async (t) => {
  const r = await startReceiver(t);
  const e = await endpoint(r.url, ['your_turn', 'game_started', 'game_ended']);
  // Messages written straight into the outbox: two games, three messages each.
  const games = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
  for (const g of games) {
    for (const step of [1, 2, 3]) {
      await store.pool.query(
        `INSERT INTO webhook_messages (id, endpoint_id, event_type, payload, game_id) VALUES ($1, $2::uuid, 'your_turn', $3::jsonb, $4::uuid)`,
        [`msg_${g.slice(-1)}_${step}`, e.id, JSON.stringify({ type: 'your_turn', data: { gameId: g, step } }), g],
      );
    }
  }
  // Game 1's first message fails twice: game 1's others wait; game 2's go meanwhile.
  r.script.push({ status: 500 });
  await svc.deliverWebhooks();
  const firstRound = r.received.map((g) => JSON.parse(g.body) as { data: { gameId: string; step: number } });
  t.same(firstRound.map((b) => `${b.data.gameId.slice(-1)}:${b.data.step}`).slice(0, 2).sort(), ['1:1', '2:1'], 'the first of each game first');
  await deliverUntil(async () => (await deliveries(e.id)).every((d) => d.status === 'delivered'), 'all delivered');
  const order = (g: string): number[] =>
    r.received.map((x) => JSON.parse(x.body) as { data: { gameId: string; step: number } }).filter((b) => b.data.gameId === g && r).map((b) => b.data.step);
  t.same([...new Set(order(games[0]!))], [1, 2, 3], 'game 1 in order (1 retried before 2 went)');
  t.same(order(games[0]!), [1, 1, 2, 3]);
  t.same(order(games[1]!), [1, 2, 3], 'game 2 in order');

  // Six messages without a game to a slow endpoint: at most 2 (perEndpoint) in flight.
  let inFlight = 0;
  let most = 0;
  const slow = await startReceiver(t);
  for (let i = 0; i < 6; i++) slow.script.push({ status: 200, delayMs: 100 });
  const s = await endpoint(slow.url);
  for (let i = 0; i < 6; i++) await owner.req('POST', `/webhooks/${s.id}/test`);
  const timer = setInterval(() => {
    void store.pool.query(`SELECT count(*)::int AS n FROM webhook_messages WHERE endpoint_id = $1::uuid AND leased_until > now() AND status = 'pending'`, [s.id]).then((q) => {
      inFlight = q.rows[0].n as number;
      most = Math.max(most, inFlight);
    });
  }, 10);
  await deliverUntil(async () => (await deliveries(s.id)).every((d) => d.status === 'delivered'), 'slow ones delivered');
  clearInterval(timer);
  t.equal(slow.received.length, 6);
  t.ok(most <= 2, `at most 2 in flight (saw ${most})`);
});

t.test('an endpoint that hangs holds only its own slots: another endpoint\'s messages go and are recorded meanwhile', async (t) => {
  // Its own instance with a long timeout: the hanging requests stay in flight for the whole test.
  const patient = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), { store, webhookSweepMs: HOUR, webhooks: { perEndpoint: 2, maxInFlight: 8, timeoutMs: 60_000 } });
  t.teardown(() => patient.close());
  const slow = await startReceiver(t);
  const fast = await startReceiver(t);
  for (let i = 0; i < 4; i++) slow.script.push({ status: 200, delayMs: 120_000 });
  const s = await endpoint(slow.url);
  const f = await endpoint(fast.url);
  // The hanging endpoint's messages are older: they come first in the claim's order.
  for (let i = 0; i < 4; i++) await owner.req('POST', `/webhooks/${s.id}/test`);
  for (let i = 0; i < 3; i++) await owner.req('POST', `/webhooks/${f.id}/test`);
  let stop = false;
  const run = (patient.gameService as unknown as GameService).deliverWebhooks(() => stop);
  await slow.waitFor(2);
  await fast.waitFor(3);
  // Queued while the slow requests hang: the same run claims them (no new run is needed).
  for (let i = 0; i < 3; i++) await owner.req('POST', `/webhooks/${f.id}/test`);
  await fast.waitFor(6);
  const until = Date.now() + 20_000;
  while ((await deliveries(f.id)).some((d) => d.status !== 'delivered') && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  t.same((await deliveries(f.id)).map((d) => d.status), Array(6).fill('delivered'), 'every message of the answering endpoint delivered and recorded');
  t.equal(slow.received.length, 2, 'the hanging endpoint: its 2 slots (perEndpoint) still in flight, nothing more sent to it');
  t.same((await deliveries(s.id)).map((d) => d.attempts), [0, 0, 0, 0], 'nothing of the hanging endpoint recorded yet');
  // The receiver dies: its requests fail, are recorded for a retry, and the run ends.
  stop = true;
  slow.drop();
  t.equal(await run, 6);
  const after = await deliveries(s.id);
  t.equal(after.filter((d) => d.attempts === 1 && d.status === 'pending').length, 2, 'the two dropped requests recorded, to be retried');
  t.equal(after.filter((d) => d.attempts === 0).length, 2, 'the other two never sent');
  await owner.req('DELETE', `/webhooks/${s.id}`);
});

t.test('the delivery job sends on its own, game events included, and stops with the app', async (t) => {
  const auto = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), { store, webhookSweepMs: 100 });
  t.teardown(() => auto.close());
  const r = await startReceiver(t);
  const e = await endpoint(r.url, ['ping', 'game_started']);
  const { messageId } = (await owner.req('POST', `/webhooks/${e.id}/test`)).json() as { messageId: string };
  await r.waitFor(1);
  t.equal(r.received[0]!.headers['webhook-id'], messageId, 'the ping, sent by the job');
  const rival = await signup(auto, 'rival');
  const id = ((await rival.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json() as { id: string }).id;
  t.equal((await auto.inject({ method: 'POST', url: `/games/${id}/join`, headers: { authorization: `Bearer ${owner.key}` }, payload: {} })).statusCode, 200);
  await r.waitFor(2);
  t.match(new Webhook(e.secret).verify(r.received[1]!.body, r.received[1]!.headers), { type: 'game_started', data: { gameId: id } });
  await auto.close();
  await owner.req('DELETE', `/webhooks/${e.id}`);
});

t.test('two instances delivering at once send each message once (claims with a lease)', async (t) => {
  const other = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), { store, webhookSweepMs: HOUR, webhooks: { perEndpoint: 2 } });
  t.teardown(() => other.close());
  const r = await startReceiver(t);
  for (let i = 0; i < 20; i++) r.script.push({ status: 200, delayMs: 20 });
  const ids: string[] = [];
  for (let e = 0; e < 4; e++) {
    const ep = await endpoint(r.url);
    for (let i = 0; i < 5; i++) ids.push(((await owner.req('POST', `/webhooks/${ep.id}/test`)).json() as { messageId: string }).messageId);
  }
  const both = (other.gameService as unknown as GameService).deliverWebhooks;
  let delivered = 0;
  for (let i = 0; i < 40 && delivered < 20; i++) {
    const [a, b] = await Promise.all([svc.deliverWebhooks(), both()]);
    delivered += a + b;
  }
  t.equal(delivered, 20);
  t.same(r.received.map((g) => g.headers['webhook-id']).sort(), [...ids].sort(), 'each message once');
});
