// HERALD_JOBS=false: an API-only instance takes requests and commits (its
// changes write their webhook messages) but runs no background job; a worker
// instance on the same database delivers what the API instance committed, and
// fires the timeouts that came due there.
import t from 'tap';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { ADMIN_TOKEN, signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const config = { databaseUrl, adminToken: ADMIN_TOKEN, webhookAllowPrivate: true };
let now = Date.now();
const api = await buildApp(testConfig({ ...config, jobs: false }), { store, now: () => now, webhookSweepMs: 50, clockSweepMs: 50 });
t.teardown(() => api.close());
const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
t.teardown(() => db.end());

t.test('an API-only instance commits; a worker delivers and fires timeouts', async (t) => {
  const receiver = await startReceiver(t);
  const york = await signup(api, 'Ada');
  const lancaster = await signup(api, 'Bob');
  const hook = await york.req('POST', '/webhooks', { url: receiver.url, events: ['game_started'] });
  t.equal(hook.statusCode, 201, 'an endpoint for game_started');

  // A game with a one-day-per-move clock, started on the API instance.
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], timeControl: { kind: 'correspondence', daysPerMove: 1 } });
  t.equal(created.statusCode, 201, 'a game with a clock');
  const id = created.json().id as string;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);

  const messages = async () => Number((await db.query(`SELECT count(*) AS n FROM webhook_messages`)).rows[0].n);
  t.equal(await messages(), 1, 'the start wrote its message in the commit');
  // Two days later, with its sweeps at 50 ms: nothing is delivered and nothing times out here.
  now += 2 * 86_400_000;
  await new Promise((r) => setTimeout(r, 1_000));
  t.equal(receiver.received.length, 0, 'an API-only instance delivers nothing');
  t.equal((await york.req('GET', `/games/${id}`)).json().status, 'active', 'and fires no timeout');

  // A worker instance on the same database does both.
  const worker = await buildApp(testConfig(config), { store, now: () => now, webhookSweepMs: 50, clockSweepMs: 50 });
  t.teardown(() => worker.close());
  await receiver.waitFor(1);
  t.match(JSON.parse(receiver.received[0]!.body), { type: 'game_started' }, 'the worker delivered the message the API instance committed');
  for (let i = 0; ; i++) {
    const g = (await york.req('GET', `/games/${id}`)).json();
    if (g.status !== 'active') {
      t.equal(g.result.reason, 'timeout', 'the worker fired the timeout');
      break;
    }
    if (i > 200) throw new Error('no timeout from the worker');
    await new Promise((r) => setTimeout(r, 50));
  }
});
