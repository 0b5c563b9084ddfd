// GET /metrics: Prometheus text with Herald's series — HTTP requests by route,
// action latency (reported by the game service), games by status (from the
// database), bus publish failures (a commit whose publish fails still
// succeeds and is counted), open SSE streams.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { createMemoryBus, type Bus } from '../../src/bus/index.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);

/** The value of one series in a Prometheus text body (undefined when absent). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

t.test('the named metrics, with values from requests, actions and the database', async (t) => {
  // A bus whose publishes fail: commits must still succeed, and be counted.
  const inner = createMemoryBus();
  const failing: Bus = { ...inner, kind: 'memory', publish: async () => Promise.reject(new Error('redis down')) };
  const app = await buildApp(testConfig({ databaseUrl }), { store, bus: failing });
  t.teardown(async () => {
    await app.close();
    await inner.close();
  });

  const york = await signup(app, 'York');
  const lancaster = await signup(app, 'Lancaster');
  const id = (await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json().id;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200, 'a commit succeeds though its publish fails');
  const summary = (await york.req('GET', `/games/${id}`)).json();
  const role = summary.activeRoles[0] as string;
  const who = role === 'York' ? york : lancaster;
  const legal = (await who.req('GET', `/games/${id}/actions`)).json().actions;
  t.equal((await who.req('POST', `/games/${id}/actions`, { action: legal[0] })).statusCode, 200);

  const res = await app.inject('/metrics');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
  const text = res.body;
  for (const name of [
    'herald_http_requests_total',
    'herald_http_request_duration_seconds',
    'herald_action_duration_seconds',
    'herald_games',
    'herald_bus_publish_failures_total',
    'herald_sse_streams',
    'herald_sse_view_reads_total',
    'herald_sse_version_events_encoded_total',
    'herald_sse_version_events_sent_total',
    'herald_commit_statements_total',
    'herald_commit_changes_total',
    'process_cpu_seconds_total',
  ]) {
    t.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exposed`);
  }
  t.equal(value(text, 'herald_http_requests_total{method="POST",route="/games/:gameId/actions",status="200"}'), 1, 'requests by route template, not URL');
  t.equal(value(text, 'herald_action_duration_seconds_count{game_type="richard-iii"}'), 1, 'one committed action observed');
  t.ok(value(text, 'herald_http_request_duration_seconds_count{method="GET",route="/games/:gameId",status="200"}')! >= 1);
  t.ok(value(text, 'herald_bus_publish_failures_total{channel="game"}')! >= 3, 'join, start and action publishes failed');
  t.ok(value(text, 'herald_bus_publish_failures_total{channel="player"}')! >= 1);
  t.equal(value(text, 'herald_sse_streams{stream="game"}'), 0);
  t.ok(value(text, 'herald_commit_statements_total')! >= 1, 'the action went in a commit statement');
  t.equal(value(text, 'herald_commit_changes_total'), value(text, 'herald_commit_statements_total'), 'one commit each: nothing ran concurrently');
  // Other test files share nothing: this database holds exactly this game.
  t.equal(value(text, 'herald_games{status="active"}'), 1);
  t.equal(value(text, 'herald_games{status="setup"}'), 0);
  t.equal(value(text, 'herald_games{status="finished"}'), 0);

  t.equal((await who.req('POST', `/games/${id}/resign`, { role })).statusCode, 200);
  const after = (await app.inject('/metrics')).body;
  t.equal(value(after, 'herald_games{status="active"}'), 0);
  t.equal(value(after, 'herald_games{status="finished"}'), 1);
  t.ok(value(after, 'herald_http_requests_total{method="GET",route="/metrics",status="200"}')! >= 1);
});

t.test('a scrape still answers while the database is down', async (t) => {
  const broken = {
    ...store,
    kind: store.kind,
    prisma: new Proxy(store.prisma, {
      get: (target, prop) => (prop === 'game' ? { groupBy: () => Promise.reject(new Error('connection refused')) } : Reflect.get(target, prop)),
    }),
    ping: store.ping,
    close: async () => {},
  };
  const app = await buildApp(testConfig({ databaseUrl }), { store: broken });
  t.teardown(() => app.close());
  const res = await app.inject('/metrics');
  t.equal(res.statusCode, 200);
  t.match(res.body, /herald_http_requests_total/);
  t.notMatch(res.body, /herald_games\{/, 'no stale game counts');
});
