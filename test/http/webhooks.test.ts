// Webhooks end to end on real Postgres with a local receiver: registration and its bad input,
// the outbox written with the change (your_turn, game_started, game_ended; nothing for a commit
// that lost its version check), signatures verified by standardwebhooks' own verify, rotation,
// an application's endpoint receiving its players' events, the test ping, the SSRF guard.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import type { GameService } from '../../src/service/service.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { ADMIN_TOKEN, client, signup } from './rest-helpers.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';

const HOUR = 3_600_000;
const { store, databaseUrl } = await openTestStore(t);
// The delivery job runs when the test says (deliver()), not on its timer.
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN, webhookAllowPrivate: true, publicUrl: 'https://herald.example' }), { store, webhookSweepMs: HOUR });
t.teardown(() => app.close());
const deliver = (a: FastifyInstance = app): Promise<number> => (a.gameService as unknown as GameService).deliverWebhooks();

const york = await signup(app, 'York player');
const lancaster = await signup(app, 'Lancaster player');

async function messages(): Promise<{ endpoint_id: string; event_type: string; game_id: string | null; payload: { type: string; data: Record<string, unknown> } }[]> {
  return (await store.pool.query('SELECT endpoint_id::text, event_type, game_id::text, payload FROM webhook_messages ORDER BY seq')).rows;
}

t.test('bad input is a 400 invalid_request that changes nothing', async (t) => {
  const r = await startReceiver(t);
  const bad: unknown[] = [
    {},
    { url: r.url },
    { url: r.url, events: [] },
    { url: r.url, events: ['your_turn', 'nope'] },
    { url: r.url, events: 'your_turn' },
    { url: 'ftp://example.com/x', events: ['your_turn'] },
    { url: 'not a url', events: ['your_turn'] },
    { url: r.url, events: ['your_turn'], format: 'slack' },
    { url: r.url, events: ['your_turn'], extra: 1 },
    [],
  ];
  for (const b of bad) {
    const res = await york.req('POST', '/webhooks', b);
    t.equal(res.statusCode, 400, JSON.stringify(b));
    t.match(res.headers['content-type'], /application\/problem\+json/);
    t.equal(res.json().code, 'invalid_request');
  }
  // An event list nested too deep to print as JSON (the malformed-fuzz found a 500 here).
  const deep = `{"url": ${JSON.stringify(r.url)}, "events": [${'['.repeat(10_000)}${']'.repeat(10_000)}]}`;
  const res = await app.inject({ method: 'POST', url: '/webhooks', headers: { authorization: `Bearer ${york.key}`, 'content-type': 'application/json' }, payload: deep });
  t.equal(res.statusCode, 400, 'deeply nested events');
  t.match(res.json(), { code: 'invalid_request', field: 'events' });
  t.same((await york.req('GET', '/webhooks')).json(), { webhooks: [] }, 'nothing registered');
  t.equal((await app.inject({ method: 'GET', url: '/webhooks' })).statusCode, 401, 'a key is needed');
  const created = (await york.req('POST', '/webhooks', { url: r.url, events: ['ping'] })).json() as { webhook: { id: string } };
  const id = created.webhook.id;
  t.equal((await york.req('PATCH', `/webhooks/${id}`, { events: ['bogus'] })).statusCode, 400);
  t.equal((await york.req('PATCH', `/webhooks/${id}`, { enabled: 'yes' })).statusCode, 400);
  t.equal((await york.req('POST', `/webhooks/${id}/redeliver`, { since: 'yesterday' })).statusCode, 400);
  t.equal((await york.req('POST', `/webhooks/${id}/redeliver`, { since: '2026-01-02T00:00:00Z', until: '2026-01-01T00:00:00Z' })).statusCode, 400);
  // Not a real date (JavaScript reads 2026-02-30 as 2 March), or without Z or an offset (the
  // server's local time): refused, as every time a client sends (a probe had them queued).
  for (const since of ['2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00', '2026-01-01']) {
    const res = await york.req('POST', `/webhooks/${id}/redeliver`, { since });
    t.equal(res.statusCode, 400, since);
    t.match(res.json(), { code: 'invalid_request', field: 'since' });
  }
  t.same((await york.req('GET', `/webhooks/${id}`)).json().events, ['ping'], 'unchanged');
  t.equal((await lancaster.req('GET', `/webhooks/${id}`)).statusCode, 404, "someone else's endpoint is not found");
  t.equal((await lancaster.req('DELETE', `/webhooks/${id}`)).statusCode, 404);
  t.equal((await york.req('GET', '/webhooks/not-a-uuid')).statusCode, 404);
  t.equal((await york.req('DELETE', `/webhooks/${id}`)).statusCode, 204);
  t.equal((await york.req('GET', `/webhooks/${id}`)).statusCode, 404);
});

t.test('a game sends signed your_turn, game_started and game_ended messages; a lost commit sends none', async (t) => {
  const r = await startReceiver(t);
  const reg = await lancaster.req('POST', '/webhooks', { url: r.url, events: ['your_turn', 'game_started', 'game_ended'] });
  t.equal(reg.statusCode, 201);
  const { webhook, secret } = reg.json() as { webhook: { id: string; events: string[]; format: string; enabled: boolean }; secret: string };
  t.match(secret, /^whsec_/);
  t.same(webhook.events, ['your_turn', 'game_started', 'game_ended']);
  t.equal(webhook.format, 'standard');
  t.notOk(JSON.stringify((await lancaster.req('GET', `/webhooks/${webhook.id}`)).json()).includes(secret), 'the secret is shown once');

  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] });
  const gameId = (created.json() as { id: string }).id;
  t.equal((await lancaster.req('POST', `/games/${gameId}/join`, {})).statusCode, 200);
  const game = (await york.req('GET', `/games/${gameId}`)).json() as { version: number; activeRoles: string[] };
  let rows = (await messages()).filter((m) => m.game_id === gameId);
  t.ok(rows.some((m) => m.event_type === 'game_started'), 'game_started written with the start');
  t.ok(rows.every((m) => m.endpoint_id === webhook.id), "only Lancaster's endpoint (York has none)");
  const started = rows.find((m) => m.event_type === 'game_started')!;
  t.match(started.payload, { type: 'game_started', data: { gameId, role: 'Lancaster', version: game.version, player: { id: lancaster.id, name: 'Lancaster player', externalId: null }, links: { game: `/games/${gameId}`, board: `/games/${gameId}/board.png?role=Lancaster` } } });
  t.notOk('state' in started.payload.data || 'view' in started.payload.data, 'no hidden information');

  // A move on a version that is gone: 409, and no message.
  const before = (await messages()).length;
  const legal = (await york.req('GET', `/games/${gameId}/actions?role=York`)).json() as { actions: unknown[] };
  const stale = await york.req('POST', `/games/${gameId}/actions`, { action: legal.actions[0], expectedVersion: game.version - 1 });
  t.equal(stale.statusCode, 409);
  t.equal((await messages()).length, before, 'the conflicting commit wrote no outbox row');

  // Resign: game_ended for Lancaster.
  t.equal((await york.req('POST', `/games/${gameId}/resign`, {})).statusCode, 200);
  rows = (await messages()).filter((m) => m.game_id === gameId);
  const ended = rows.find((m) => m.event_type === 'game_ended');
  t.ok(ended, 'game_ended written');
  t.match(ended?.payload.data, { result: { winner: 'Lancaster' }, status: 'finished' });

  await deliver();
  await r.waitFor(rows.length);
  const wh = new Webhook(secret);
  const types: string[] = [];
  for (const got of r.received) {
    const payload = wh.verify(got.body, got.headers) as { type: string; data: { gameId: string } };
    types.push(payload.type);
    t.match(got.headers['webhook-id'], /^msg_/);
    t.equal(got.headers['content-type'], 'application/json');
  }
  t.same(types, rows.map((m) => m.event_type), 'every message, in the order of the changes, verified');
  const log = (await lancaster.req('GET', `/webhooks/${webhook.id}/deliveries`)).json() as { deliveries: { status: string; attempts: number; attemptLog: { httpStatus: number }[] }[] };
  t.ok(log.deliveries.length >= rows.length);
  t.ok(log.deliveries.every((d) => d.status === 'delivered' && d.attempts === 1 && d.attemptLog[0]?.httpStatus === 200));

  // Redelivery: the same webhook-id again.
  const first = r.received[0]!.headers['webhook-id']!;
  const again = await lancaster.req('POST', `/webhooks/${webhook.id}/deliveries/${first}/redeliver`);
  t.equal(again.statusCode, 202);
  t.same(again.json(), { queued: 1 });
  await deliver();
  await r.waitFor(rows.length + 1);
  t.equal(r.received[rows.length]!.headers['webhook-id'], first, 'redelivered with its webhook-id');
  t.equal((await lancaster.req('POST', `/webhooks/${webhook.id}/deliveries/msg_nope/redeliver`)).statusCode, 404);
  const range = await lancaster.req('POST', `/webhooks/${webhook.id}/redeliver`, { since: new Date(Date.now() - HOUR).toISOString() });
  t.same(range.json(), { queued: rows.length }, 'a time range queues every message in it');
  await deliver();
  await r.waitFor(2 * rows.length + 1);
});

t.test('rotation: both secrets sign for a day; the test ping; PATCH', async (t) => {
  const r = await startReceiver(t);
  const { webhook, secret } = (await york.req('POST', '/webhooks', { url: r.url, events: ['your_turn'] })).json() as { webhook: { id: string }; secret: string };
  const rotated = await york.req('POST', `/webhooks/${webhook.id}/rotate-secret`);
  t.equal(rotated.statusCode, 200);
  const next = (rotated.json() as { secret: string; webhook: { previousSecretUntil: string } });
  t.not(next.secret, secret);
  t.ok(Date.parse(next.webhook.previousSecretUntil) > Date.now() + 23 * HOUR);
  const ping = await york.req('POST', `/webhooks/${webhook.id}/test`);
  t.equal(ping.statusCode, 202);
  await deliver();
  await r.waitFor(1);
  const got = r.received[0]!;
  t.equal(got.headers['webhook-id'], ping.json().messageId);
  t.equal(got.headers['webhook-signature']!.split(' ').length, 2, 'two signatures');
  t.match(new Webhook(secret).verify(got.body, got.headers), { type: 'ping' });
  t.match(new Webhook(next.secret).verify(got.body, got.headers), { type: 'ping' });
  const patched = await york.req('PATCH', `/webhooks/${webhook.id}`, { events: ['game_ended', 'ping'], enabled: false });
  t.match(patched.json(), { events: ['game_ended', 'ping'], enabled: false, disabledReason: 'disabled by its owner' });
  t.match((await york.req('PATCH', `/webhooks/${webhook.id}`, { enabled: true })).json(), { enabled: true, disabledReason: null });
});

t.test("an application's endpoint receives its players' events; discord format", async (t) => {
  const r = await startReceiver(t);
  const admin = client(app, ADMIN_TOKEN);
  const made = (await admin.req('POST', '/admin/apps', { name: 'hook-bot' })).json() as { key: { key: string } };
  const bot = client(app, made.key.key);
  const p1 = (await bot.req('POST', '/players', { name: 'ann', externalId: 'd:1' })).json().player as { id: string };
  const p2 = (await bot.req('POST', '/players', { name: 'ben', externalId: 'd:2' })).json().player as { id: string };
  const reg = await bot.req('POST', '/webhooks', { url: r.url, events: ['game_started'], format: 'discord' });
  t.equal(reg.statusCode, 201);
  const { secret } = reg.json() as { secret: string };
  const ann = client(app, made.key.key, p1.id, p1.id);
  const ben = client(app, made.key.key, p2.id, p2.id);
  const gameId = ((await ann.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json() as { id: string }).id;
  t.equal((await ben.req('POST', `/games/${gameId}/join`, {})).statusCode, 200);
  await deliver();
  await r.waitFor(2);
  const bodies = r.received.map((g) => new Webhook(secret).verify(g.body, g.headers) as { content: string; embeds: { title: string; image?: { url: string } }[] });
  t.same(bodies.map((b) => b.content).sort(), ['ann: the game started; you play York', 'ben: the game started; you play Lancaster']);
  t.equal(bodies[0]!.embeds[0]!.image?.url, `https://herald.example/games/${gameId}/board.png?role=spectator`, 'the public picture, absolute');
});

t.test('the SSRF guard refuses private addresses unless the operator allows them', async (t) => {
  const strict = await buildApp(testConfig({ databaseUrl }), { store, webhookSweepMs: HOUR });
  t.teardown(() => strict.close());
  const p = await signup(strict, 'careful');
  for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x', 'http://localhost:9/x', 'http://[::ffff:127.0.0.1]/x']) {
    const res = await p.req('POST', '/webhooks', { url, events: ['your_turn'] });
    t.equal(res.statusCode, 400, url);
    t.match(res.json(), { code: 'invalid_request', field: 'url' });
  }
  t.same((await p.req('GET', '/webhooks')).json(), { webhooks: [] });

  // Registered while allowed, delivered by an instance that does not allow it: refused at delivery too.
  const r = await startReceiver(t);
  const { webhook } = (await york.req('POST', '/webhooks', { url: r.url, events: ['ping'] })).json() as { webhook: { id: string } };
  await york.req('POST', `/webhooks/${webhook.id}/test`);
  await deliver(strict);
  const log = (await york.req('GET', `/webhooks/${webhook.id}/deliveries`)).json() as { deliveries: { status: string; lastError: string }[] };
  t.equal(r.received.length, 0, 'nothing sent');
  t.match(log.deliveries[0], { status: 'pending', lastError: /refused: .*not a public address/ });
  await york.req('DELETE', `/webhooks/${webhook.id}`);
});

t.test('concurrent changes (which group commit may send together) each write their own messages', async (t) => {
  // That a batch of changes in one statement writes each change's own messages, certainly
  // batched: test/store/group-commit.test.ts. Here: the events the service computes, end to end.
  const r = await startReceiver(t);
  const { webhook } = (await lancaster.req('POST', '/webhooks', { url: r.url, events: ['game_ended'] })).json() as { webhook: { id: string } };
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const id = ((await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json() as { id: string }).id;
    await lancaster.req('POST', `/games/${id}/join`, {});
    ids.push(id);
  }
  const results = await Promise.all(ids.map((id) => york.req('POST', `/games/${id}/resign`, {})));
  t.ok(results.every((res) => res.statusCode === 200));
  const rows = (await store.pool.query(`SELECT game_id::text, payload FROM webhook_messages WHERE endpoint_id = $1::uuid AND event_type = 'game_ended'`, [webhook.id])).rows as { game_id: string; payload: { data: { gameId: string; player: { id: string } } } }[];
  t.same(rows.map((x) => x.game_id).sort(), [...ids].sort(), 'one game_ended per game');
  t.ok(rows.every((x) => x.payload.data.gameId === x.game_id && x.payload.data.player.id === lancaster.id), 'each about its own game, for the endpoint\'s player');
  await lancaster.req('DELETE', `/webhooks/${webhook.id}`);
});

t.test('GraphQL: the same endpoints, the same errors', async (t) => {
  const r = await startReceiver(t);
  const q = gqlClient(app, york.key);
  const bad = await q(`mutation { createWebhook(url: "ftp://x.example/", events: ["your_turn"]) { secret } }`);
  t.equal(bad.errors?.[0]?.extensions?.code, 'invalid_request');
  const badEvent = await q(`mutation($url: String!) { createWebhook(url: $url, events: ["nope"]) { secret } }`, { url: r.url });
  t.equal(badEvent.errors?.[0]?.extensions?.code, 'invalid_request');
  const made = await ok(q(`mutation($url: String!) { createWebhook(url: $url, events: ["ping"]) { secret webhook { id events format enabled } } }`, { url: r.url }));
  t.match(made.createWebhook, { secret: /^whsec_/, webhook: { events: ['ping'], format: 'standard', enabled: true } });
  const id = made.createWebhook.webhook.id as string;
  const listed = await ok(q('{ webhooks { id } }'));
  t.ok(listed.webhooks.some((w: { id: string }) => w.id === id));
  const messageId = (await ok(q('mutation($id: ID!) { testWebhook(id: $id) }', { id }))).testWebhook as string;
  await deliver();
  await r.waitFor(1);
  const log = await ok(q('query($id: ID!) { webhookDeliveries(id: $id) { id status attemptLog { httpStatus } } }', { id }));
  t.same(log.webhookDeliveries, [{ id: messageId, status: 'delivered', attemptLog: [{ httpStatus: 200 }] }]);
  t.equal((await ok(q('mutation($id: ID!) { deleteWebhook(id: $id) }', { id }))).deleteWebhook, true);
  const gone = await q('query($id: ID!) { webhook(id: $id) { id } }', { id });
  t.equal(gone.errors?.[0]?.extensions?.code, 'not_found');
});
