// Postgres restarted mid-game (a private cluster, never the machine's shared
// one): while it is down every request that needs the database is answered
// quickly with 503 problem+json (code `unavailable`), not a hang and not a 500;
// once it is back the same app serves requests again by itself.
import t, { type Test } from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { testConfig } from '../helpers/services.ts';
import { client, signup } from '../http/rest-helpers.ts';
import { client as gqlClient } from '../http/graphql-helpers.ts';
import { PrivatePostgres, pause } from './failures-helpers.ts';

const pgServer = await PrivatePostgres.start(t);
// The app applies the migrations at start-up (as in production).
const app = await buildApp(testConfig({ databaseUrl: pgServer.url() }));
t.teardown(() => app.close());

const PROBLEM = /^application\/problem\+json/;

/** Polls every 50 ms (at most `tries` times) until the request answers 200; each answer before is 503. Milliseconds since `since`, or -1. */
async function untilRecovered(t: Test, request: () => Promise<{ statusCode: number }>, since: number, tries: number, while_: string): Promise<number> {
  for (let i = 0; i < tries; i++) {
    const res = await request();
    if (res.statusCode === 200) return Math.round(performance.now() - since);
    t.equal(res.statusCode, 503, `still 503 (never 500) while ${while_}`);
    await pause(50);
  }
  return -1;
}

t.test('requests during a Postgres outage get 503 unavailable; the service recovers by itself', async (t) => {
  const york = await signup(app, 'York');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'pg-outage', roles: ['York', 'Lancaster'] });
  t.equal(created.statusCode, 201);
  const id = created.json().id as string;
  const play = async () => {
    const g = (await york.req('GET', `/games/${id}`)).json();
    const role = g.activeRoles[0] as string;
    const legal = (await york.req('GET', `/games/${id}/actions?role=${role}`)).json().actions;
    return york.req('POST', `/games/${id}/actions`, { role, action: legal[0], expectedVersion: g.version });
  };
  for (let i = 0; i < 5; i++) t.equal((await play()).statusCode, 200, 'playing before the outage');
  const before = (await york.req('GET', `/games/${id}`)).json().version as number;
  const [legalBefore] = (await york.req('GET', `/games/${id}/actions?role=${(await york.req('GET', `/games/${id}`)).json().activeRoles[0]}`)).json().actions;

  await pgServer.stop();

  const anonymous = client(app, null);
  const gql = gqlClient(app, york.key);
  const timings: Record<string, number> = {};
  const probes: Array<[string, () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): any }>]> = [
    ['GET /games/{id} (authenticated)', () => york.req('GET', `/games/${id}`)],
    ['GET /games/{id}/actions', () => york.req('GET', `/games/${id}/actions`)],
    ['POST /games/{id}/actions', () => york.req('POST', `/games/${id}/actions`, { role: 'York', action: legalBefore })],
    ['POST /games', () => york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })],
    ['GET /games (anonymous)', () => anonymous.req('GET', '/games')],
    ['POST /players (anonymous)', () => anonymous.req('POST', '/players', { name: 'Late' })],
  ];
  // Twice: the first round meets the pool's dead connections, the second opens new ones.
  for (const round of [1, 2]) {
    for (const [name, probe] of probes) {
      const t0 = performance.now();
      const res = await probe();
      const ms = performance.now() - t0;
      timings[`${name} #${round}`] = Math.round(ms);
      t.equal(res.statusCode, 503, `${name} (round ${round}): 503`);
      t.match(String(res.headers['content-type']), PROBLEM, `${name}: problem+json`);
      t.match(res.json(), { status: 503, code: 'unavailable', type: 'urn:herald:problem:unavailable', title: 'Service Unavailable' });
      t.ok(ms < 10_000, `${name}: answered in ${Math.round(ms)} ms, not a hang`);
    }
  }
  // GraphQL: the same code in extensions.
  const t0 = performance.now();
  const q = await gql(`query($id: ID!) { game(id: $id) { id version } }`, { id });
  timings['GraphQL game query'] = Math.round(performance.now() - t0);
  t.match(q.errors?.[0]?.extensions, { code: 'unavailable' }, 'GraphQL: unavailable');
  t.notOk(q.errors?.some((e) => e.extensions?.code === 'internal_error'), 'never internal_error');
  const ready = await app.inject({ method: 'GET', url: '/readyz' });
  t.equal(ready.statusCode, 503, '/readyz reports the outage');
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the process stays alive');
  t.comment(`outage response times (ms): ${JSON.stringify(timings)}`);

  const restartedAt = performance.now();
  await pgServer.start();
  // The same app instance, no restart: requests succeed again.
  const recoveredMs = await untilRecovered(t, () => york.req('GET', `/games/${id}`), restartedAt, 200, 'reconnecting');
  t.ok(recoveredMs >= 0, `recovered ${recoveredMs} ms after Postgres accepted connections again`);
  t.comment(`recovery after restart: ${recoveredMs} ms`);
  t.equal((await york.req('GET', `/games/${id}`)).json().version, before, 'nothing was committed during the outage');
  for (let i = 0; i < 5; i++) t.equal((await play()).statusCode, 200, 'playing after the outage');
  t.equal((await york.req('GET', `/games/${id}`)).json().version, before + 5);
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, 'ready again');
  const late = await signup(app, 'After');
  t.ok(late.key, 'sign-up works again');
});

t.test('requests in flight while Postgres stops and starts: 200, 409 or 503, never 500, never a hang', async (t) => {
  const york = await signup(app, 'Busy');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'pg-inflight', roles: ['York', 'Lancaster'] });
  const id = created.json().id as string;
  const statuses = new Map<number, number>();
  const bad: string[] = [];
  let slowest = 0;
  let running = true;
  const worker = async () => {
    while (running) {
      const t0 = performance.now();
      let status: number;
      const g = await york.req('GET', `/games/${id}`);
      if (g.statusCode === 200) {
        const role = g.json().activeRoles[0] as string;
        const legal = await york.req('GET', `/games/${id}/actions?role=${role}`);
        if (legal.statusCode === 200 && legal.json().actions.length === 0) {
          continue; // another worker's action made this role inactive
        } else if (legal.statusCode === 200) {
          const res = await york.req('POST', `/games/${id}/actions`, { role, action: legal.json().actions[0], expectedVersion: g.json().version });
          status = res.statusCode;
          if (status !== 200 && status !== 409 && status !== 503) bad.push(`${status} ${res.json().detail}`);
        } else status = legal.statusCode;
      } else status = g.statusCode;
      if (status !== 200 && status !== 409 && status !== 503) bad.push(`status ${status}`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      slowest = Math.max(slowest, performance.now() - t0);
      if (status === 503) await pause(20);
    }
  };
  const workers = [worker(), worker(), worker(), worker()];
  await pause(300);
  await pgServer.stop();
  await pause(1000);
  await pgServer.start();
  await pause(1500);
  running = false;
  await Promise.all(workers);
  t.same(bad, [], 'only 200, 409 (another worker moved first) or 503');
  t.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(503) ?? 0) > 0, `answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
  t.ok(slowest < 10_000, `slowest request round ${Math.round(slowest)} ms`);
  t.comment(`in-flight run: ${JSON.stringify(Object.fromEntries(statuses))}; slowest round ${Math.round(slowest)} ms`);
  const after = await york.req('GET', `/games/${id}`);
  t.equal(after.statusCode, 200, 'serving again');
});

t.test('a Postgres that hangs (SIGSTOP: connections open, nothing answers): 503 after the query timeout, never a hang; recovers when it answers again', async (t) => {
  const hungApp = await buildApp(testConfig({ databaseUrl: pgServer.url(), databaseQueryTimeoutMs: 1000 }));
  t.teardown(() => hungApp.close());
  const york = await signup(hungApp, 'Frozen');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'pg-hang', roles: ['York', 'Lancaster'] });
  const id = created.json().id as string;
  const g0 = (await york.req('GET', `/games/${id}`)).json();
  const role = g0.activeRoles[0] as string;
  const [action] = (await york.req('GET', `/games/${id}/actions?role=${role}`)).json().actions;

  await pgServer.freeze();
  t.teardown(() => pgServer.thaw());
  const timings: Record<string, number> = {};
  const gql = gqlClient(hungApp, york.key);
  const probes: Array<[string, () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): any }>]> = [
    ['GET /games/{id}', () => york.req('GET', `/games/${id}`)],
    ['POST /games/{id}/actions', () => york.req('POST', `/games/${id}/actions`, { role, action, expectedVersion: g0.version })],
    ['GET /games', () => york.req('GET', '/games')],
  ];
  // Concurrently, more requests than the pool has connections: queued ones must not hang either.
  const results = await Promise.all(
    [...probes, ...probes, ...probes, ...probes].map(async ([name, probe], i) => {
      const t0 = performance.now();
      const res = await probe();
      timings[`${name} #${i}`] = Math.round(performance.now() - t0);
      return { name, res, ms: performance.now() - t0 };
    }),
  );
  for (const { name, res, ms } of results) {
    t.equal(res.statusCode, 503, `${name}: 503`);
    t.match(String(res.headers['content-type']), PROBLEM);
    t.match(res.json(), { code: 'unavailable' });
    t.ok(ms < 15_000, `${name}: answered in ${Math.round(ms)} ms`);
  }
  const q = await gql(`query($id: ID!) { game(id: $id) { id version } }`, { id });
  t.match(q.errors?.[0]?.extensions, { code: 'unavailable' }, 'GraphQL: unavailable');
  t.comment(`response times while Postgres hangs (ms): ${JSON.stringify(timings)}`);

  await pgServer.thaw();
  const thawedAt = performance.now();
  const recoveredMs = await untilRecovered(t, () => york.req('GET', `/games/${id}`), thawedAt, 300, 'recovering');
  t.ok(recoveredMs >= 0, `recovered ${recoveredMs} ms after Postgres answered again`);
  t.equal((await york.req('GET', `/games/${id}`)).json().version, g0.version, 'the action refused during the hang did not commit');
  const after = await york.req('POST', `/games/${id}/actions`, { role, action, expectedVersion: g0.version });
  t.equal(after.statusCode, 200, 'and it commits now');
});
