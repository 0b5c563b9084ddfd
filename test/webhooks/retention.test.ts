// Retention (HERALD_WEBHOOK_RETENTION_DAYS): the pruning job deletes delivered and failed messages
// and their attempts once older than the retention, by the service's clock (moved by the test);
// a pending message stays, whatever its age.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import type { GameService } from '../../src/service/service.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { signup } from '../http/rest-helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = { now: Date.now() };
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true, webhookRetentionDays: 7 }), {
  store,
  now: () => clock.now,
  webhookSweepMs: HOUR,
  webhookPruneMs: HOUR,
});
t.teardown(() => app.close());
const svc = app.gameService as unknown as GameService;
const owner = await signup(app, 'owner');

async function endpoint(url: string): Promise<string> {
  return ((await owner.req('POST', '/webhooks', { url, events: ['ping'] })).json() as { webhook: { id: string } }).webhook.id;
}
const ping = async (id: string): Promise<string> => ((await owner.req('POST', `/webhooks/${id}/test`)).json() as { messageId: string }).messageId;
async function counts(): Promise<{ messages: Record<string, number>; attempts: number }> {
  const m = (await store.pool.query('SELECT status, count(*)::int AS n FROM webhook_messages GROUP BY status')).rows as { status: string; n: number }[];
  const a = (await store.pool.query('SELECT count(*)::int AS n FROM webhook_attempts')).rows[0] as { n: number };
  return { messages: Object.fromEntries(m.map((r) => [r.status, r.n])), attempts: a.n };
}

t.test('finished messages and their attempts go after the retention; pending ones stay', async (t) => {
  const ok = await startReceiver(t);
  const gone = await startReceiver(t);
  gone.script.push({ status: 410 });
  const a = await endpoint(ok.url);
  const b = await endpoint(gone.url);
  const c = await endpoint(ok.url);
  t.equal((await owner.req('PATCH', `/webhooks/${c}`, { enabled: false })).statusCode, 200);
  await ping(a);
  await ping(a);
  await ping(b);
  const waiting = await ping(c);
  t.equal(await svc.deliverWebhooks(), 2);
  t.same(await counts(), { messages: { delivered: 2, failed: 1, pending: 1 }, attempts: 3 });

  clock.now += 6 * DAY;
  t.equal(await svc.pruneWebhooks(), 0, 'within the retention (7 days): nothing deleted');
  t.same(await counts(), { messages: { delivered: 2, failed: 1, pending: 1 }, attempts: 3 });

  clock.now += 2 * DAY;
  t.equal(await svc.pruneWebhooks(), 3, 'older than the retention: the delivered and the failed');
  t.same(await counts(), { messages: { pending: 1 }, attempts: 0 }, 'their attempts with them');
  const left = (await store.pool.query('SELECT id FROM webhook_messages')).rows as { id: string }[];
  t.same(left.map((r) => r.id), [waiting], 'the pending message stays, however old');
  t.same(((await owner.req('GET', `/webhooks/${a}/deliveries`)).json() as { deliveries: unknown[] }).deliveries, [], 'the delivery log no longer lists them');
  t.equal(await svc.pruneWebhooks(), 0, 'nothing more to delete');
});
