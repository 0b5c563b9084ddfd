// Redis stopped and restarted mid-game (a private redis-server, never the
// machine's shared one). Two app instances share a fresh database and that
// Redis; actions are submitted through instance A, an SSE client and a
// GraphQL (graphql-ws) subscriber listen on instance B. While Redis is down
// every action still commits (2xx); once it is back the SSE client has every
// version exactly once and in order (the stream stays up and catches up from
// the database, or resumes with Last-Event-ID if it dropped), and the GraphQL
// gameEvents subscription — which coalesces bursts into the newest view, never
// a stale one — reaches the current version and view.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import type { FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from '../http/rest-helpers.ts';
import { SseClient, baseUrl, data } from '../http/sse-helpers.ts';
import { PrivateRedis, pause } from './failures-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';

// Every wait below is bounded (until(), SseClient); this bounds the rest, with room for the outage itself.
t.setTimeout(2 * STREAM_FILE_TIMEOUT_MS);
const redis = await PrivateRedis.start(t);
const { store, databaseUrl } = await openTestStore(t);
// One deployment (one bus prefix); short heartbeats so SSE's periodic database check runs often.
const config = testConfig({ databaseUrl, redisUrl: redis.url, sseHeartbeatMs: 500 });
const a = await buildApp(config, { store });
t.teardown(() => a.close());
const b = await buildApp(config);
t.teardown(() => b.close());
await a.listen({ port: 0, host: '127.0.0.1' });
await b.listen({ port: 0, host: '127.0.0.1' });

function wsUrl(app: FastifyInstance): string {
  return `${baseUrl(app).replace('http:', 'ws:')}/graphql`;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(50);
  }
}

t.test('Redis outage: writes commit; SSE and GraphQL subscribers catch up on every missed version', async (t) => {
  const york = await signup(a, 'York');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'redis-outage', roles: ['York', 'Lancaster'] });
  t.equal(created.statusCode, 201);
  const id = created.json().id as string;
  const game = async () => (await york.req('GET', `/games/${id}`)).json() as { version: number; activeRoles: string[]; status: string };
  const play = async () => {
    const g = await game();
    const role = g.activeRoles[0]!;
    const legal = (await york.req('GET', `/games/${id}/actions?role=${role}`)).json().actions as unknown[];
    const t0 = performance.now();
    const res = await york.req('POST', `/games/${id}/actions`, { role, action: legal[0], expectedVersion: g.version });
    return { status: res.statusCode, version: res.json().version as number, ms: performance.now() - t0 };
  };
  const startVersion = (await game()).version;

  // SSE on instance B (spectator), reconnecting with Last-Event-ID if the stream drops.
  const sseVersions: number[] = [];
  let sse = await SseClient.open(`${baseUrl(b)}/games/${id}/events`);
  let reconnects = 0;
  const drainSse = async () => {
    for (const e of sse.rest()) if (e.event === 'version') sseVersions.push(data<{ version: number }>(e).version);
    if (sse.ended) {
      reconnects++;
      const last = String(sseVersions[sseVersions.length - 1]);
      sse = await SseClient.open(`${baseUrl(b)}/games/${id}/events`, { 'last-event-id': last });
    }
  };
  t.teardown(() => sse.close());

  // GraphQL subscription on instance B (spectator), graphql-ws client.
  const ws = createClient({ url: wsUrl(b), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  t.teardown(() => ws.dispose());
  const gqlUpdates: Array<{ version: number; view: unknown; status: string }> = [];
  const gqlErrors: unknown[] = [];
  const stop = ws.subscribe<Record<string, any>>(
    { query: `subscription($id: ID!, $since: Int) { gameEvents(gameId: $id, since: $since) { version status view } }`, variables: { id, since: startVersion } },
    {
      next: (r: FormattedExecutionResult<Record<string, any>>) => (r.errors ? gqlErrors.push(r.errors) : gqlUpdates.push(r.data!.gameEvents)),
      error: (err) => gqlErrors.push(err),
      complete: () => {},
    },
  );
  t.teardown(stop);
  const gqlLast = () => gqlUpdates[gqlUpdates.length - 1]?.version ?? startVersion;

  // myTurn on instance B for York (who holds both seats: every version is York's turn).
  const turnWs = createClient({ url: wsUrl(b), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { authorization: `Bearer ${york.key}` } });
  t.teardown(() => turnWs.dispose());
  const turns: Array<{ gameId: string; version: number }> = [];
  const stopTurns = turnWs.subscribe<Record<string, any>>(
    { query: `subscription { myTurn { gameId version roles } }` },
    { next: (r) => (r.errors ? gqlErrors.push(r.errors) : turns.push(r.data!.myTurn)), error: (err) => gqlErrors.push(err), complete: () => {} },
  );
  t.teardown(stopTurns);
  const turnLast = () => turns.filter((n) => n.gameId === id).at(-1)?.version ?? -1;

  // Before the outage: both subscribers follow live.
  for (let i = 0; i < 5; i++) t.equal((await play()).status, 200);
  let current = (await game()).version;
  await until(async () => (await drainSse(), sseVersions.at(-1) === current), 'SSE before the outage');
  await until(() => gqlLast() === current, 'GraphQL before the outage');
  await until(() => turnLast() === current, 'myTurn before the outage');

  // Outage: kill Redis; keep playing through instance A.
  await redis.stop();
  const outage: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await play();
    t.equal(r.status, 200, `action ${i + 1} during the outage commits`);
    outage.push(Math.round(r.ms));
  }
  current = (await game()).version;
  t.equal(current, startVersion + 5 + 12, 'every action committed');
  await until(() => turnLast() === current, 'myTurn during the outage (from the database)');
  t.pass('myTurn announced the current turn while Redis was down');
  // Stay down long enough for the bus to give up on the queued publishes (they
  // are lost, as in a real outage): no message will announce these versions.
  await pause(3000);
  t.comment(`action latencies during the Redis outage (ms): ${outage.join(' ')}`);

  // Redis back on the same port: no further action is needed for the subscribers to catch up.
  const restartedAt = performance.now();
  await redis.start();
  await until(async () => (await drainSse(), sseVersions.at(-1) === current), 'SSE to catch up after the outage');
  const sseMs = Math.round(performance.now() - restartedAt);
  await until(() => gqlLast() === current, 'GraphQL to catch up after the outage');
  const gqlMs = Math.round(performance.now() - restartedAt);
  t.comment(`caught up after Redis restarted: SSE ${sseMs} ms (${reconnects} reconnects), GraphQL ${gqlMs} ms`);

  // SSE: every version from the one it started with, once, in order.
  const expected = Array.from({ length: current - startVersion + 1 }, (_, i) => startVersion + i);
  t.same(sseVersions, expected, 'SSE: no missing, duplicated or reordered version');
  // GraphQL: strictly increasing versions, ending with the current view.
  t.same(gqlErrors, [], 'no GraphQL errors');
  t.ok(gqlUpdates.every((u, i) => i === 0 || u.version > gqlUpdates[i - 1]!.version), 'GraphQL versions only increase');
  const spectatorView = (await (await fetch(`${baseUrl(b)}/games/${id}/view`)).json()) as { version: number; view: unknown };
  t.equal(spectatorView.version, current);
  t.same(gqlUpdates.at(-1)!.view, spectatorView.view, 'GraphQL: the final view is the current one');

  // Live again after the outage, through the bus.
  for (let i = 0; i < 3; i++) t.equal((await play()).status, 200);
  current = (await game()).version;
  await until(async () => (await drainSse(), sseVersions.at(-1) === current), 'SSE after the outage');
  await until(() => gqlLast() === current, 'GraphQL after the outage');
  await until(() => turnLast() === current, 'myTurn after the outage');
  t.ok(turns.every((n, i) => i === 0 || n.gameId !== id || n.version > turns[i - 1]!.version), 'myTurn versions only increase');
  t.same(sseVersions, Array.from({ length: current - startVersion + 1 }, (_, i) => startVersion + i), 'SSE still gapless');
  t.equal((await b.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, 'instance B ready again');
});
