// Webhooks on the embedded database (PGlite, a pool of one connection): the outbox written by a
// game commit, the claim (FOR UPDATE SKIP LOCKED with a lease) and the attempt's record run there
// as on a Postgres server, and no transaction is held while the receiver answers (a slow receiver
// does not stop requests on the one connection).
import t from 'tap';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { buildApp } from '../../src/http/app.ts';
import type { GameService } from '../../src/service/service.ts';
import { tempDir, testConfig } from '../helpers/services.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { signup } from '../http/rest-helpers.ts';

t.test('embedded mode: a game event is delivered, signed, while requests go on', async (t) => {
  const dataDir = path.join(await tempDir(t), 'data');
  const app = await buildApp(testConfig({ databaseUrl: null, redisUrl: null, dataDir, webhookAllowPrivate: true }), { webhookSweepMs: 3_600_000 });
  t.teardown(() => app.close());
  const york = await signup(app, 'York player');
  const lancaster = await signup(app, 'Lancaster player');
  const r = await startReceiver(t);
  r.script.push({ status: 200, delayMs: 1_000 });
  const { webhook, secret } = (await lancaster.req('POST', '/webhooks', { url: r.url, events: ['game_started'] })).json() as { webhook: { id: string }; secret: string };
  const id = ((await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json() as { id: string }).id;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  const svc = app.gameService as unknown as GameService;
  const sending = svc.deliverWebhooks();
  await r.waitFor(1);
  // The receiver is still answering: the one connection is free for requests.
  const read = await york.req('GET', `/games/${id}`);
  t.equal(read.statusCode, 200, 'a request is answered while a delivery is in flight');
  t.equal(await sending, 1);
  t.match(new Webhook(secret).verify(r.received[0]!.body, r.received[0]!.headers), { type: 'game_started', data: { gameId: id, role: 'Lancaster' } });
  const log = (await lancaster.req('GET', `/webhooks/${webhook.id}/deliveries`)).json() as { deliveries: { status: string }[] };
  t.same(log.deliveries.map((d) => d.status), ['delivered']);
});
