// Revoking an API key ends the live streams opened with it, on every instance:
// SSE streams (/games/:id/events with the seat's private view, /me/events,
// /apps/me/events) with a last `problem` event (unauthorized), GraphQL
// subscriptions with an error whose extensions.code is unauthorized, then the
// WebSocket that authenticated with the key closes with 4403 Forbidden (it used
// to stay open, authenticated with the revoked key). The
// revocation travels on the bus (instances A and B share Redis); an instance
// that never hears of it (its own in-process bus: as if Redis were gone) ends
// the streams at its periodic check. A probe found a stream still open 3 s
// after the DELETE, sending the seat's view. Real Postgres and Redis, real sockets.
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { ADMIN_TOKEN, client, signup, type Client } from './rest-helpers.ts';
import { baseUrl, data, SseClient } from './sse-helpers.ts';
import { newGame } from './app-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const { store, databaseUrl } = await openTestStore(t);
// A long heartbeat on A and B: only the bus can end their streams within the test's bounds.
const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, adminToken: ADMIN_TOKEN, sseHeartbeatMs: 60_000 });
const a = await buildApp(config, { store });
t.teardown(() => a.close());
const b = await buildApp(config); // its own store and Redis connections
t.teardown(() => b.close());
// No Redis: never hears of the revocation; its periodic check (300 ms) does.
const deaf = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN, sseHeartbeatMs: 300 }), { store });
t.teardown(() => deaf.close());
for (const app of [a, b, deaf]) await app.listen({ port: 0, host: '127.0.0.1' });

const york = await signup(a, 'York');
const lancaster = await signup(a, 'Lancaster');

/** A second key of the player: the one revoked. */
async function spareKey(who: Client): Promise<{ id: string; key: string }> {
  const res = await who.req('POST', '/me/keys', { label: 'spare' });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; key: string };
}

const sse = (app: FastifyInstance, url: string, key: string) => SseClient.open(`${baseUrl(app)}${url}`, { authorization: `Bearer ${key}` });

/** The stream's last event is an unauthorized problem and the server ended it. */
async function endedRevoked(t: Test, s: SseClient, what: string, timeoutMs: number): Promise<void> {
  const problem = await s.waitFor((e) => e.event === 'problem', timeoutMs);
  t.match(data(problem), { status: 401, code: 'unauthorized', detail: /revoked/ }, `${what}: a problem event`);
  await s.waitEnded(timeoutMs);
  t.equal(s.events.at(-1)?.event, 'problem', `${what}: the last event`);
}

/** A graphql-ws client with the key in connection_init, or in the upgrade request's headers. */
function wsClient(app: FastifyInstance, key: string, via: 'init' | 'upgrade' = 'init'): WsClient {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const authorization = `Bearer ${key}`;
  class WithHeader extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { authorization } });
    }
  }
  const c = createClient({
    url: `ws://127.0.0.1:${address.port}/graphql`,
    webSocketImpl: via === 'init' ? WebSocket : WithHeader,
    ...(via === 'init' ? { connectionParams: { Authorization: authorization } } : {}),
    retryAttempts: 0,
    // The socket stays open with no subscription (a lazy client closes it, and its next
    // subscription would open a new one, authenticated afresh).
    lazy: false,
  });
  t.teardown(() => c.dispose());
  return c;
}

/** How the client's socket closes (code and reason). */
function closedWith(c: WsClient): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => c.on('closed', (e) => resolve(e as { code: number; reason: string })));
}

/** A subscription: its results, and its end (an error or completion). */
function subscribe(c: WsClient, query: string, variables: Record<string, unknown> = {}) {
  const results: unknown[] = [];
  let wake: () => void = () => {};
  let ended: { error?: unknown } | null = null;
  const endedP = new Promise<{ error?: unknown }>((resolve) => {
    c.subscribe(
      { query, variables },
      {
        next: (r) => {
          results.push(r);
          wake();
        },
        error: (error) => resolve((ended = { error })),
        complete: () => resolve((ended = {})),
      },
    );
  });
  return {
    results,
    ended: () => ended,
    end: (timeoutMs?: number) => within(endedP, 'the subscription to end', timeoutMs),
    first: () =>
      within(
        new Promise<void>((resolve) => {
          if (results.length > 0) return resolve();
          wake = resolve;
        }),
        'a first result',
      ),
  };
}

t.test('DELETE /me/keys/:id ends that key’s SSE streams on this instance and on another one at once, with a last problem event', async (t) => {
  const id = await newGame(york, lancaster);
  const spare = await spareKey(york);
  const onA = await sse(a, `/games/${id}/events`, spare.key);
  const onB = await sse(b, `/games/${id}/events`, spare.key);
  const meOnB = await sse(b, '/me/events', spare.key);
  // The other key of the same player keeps its stream.
  const kept = await sse(b, `/games/${id}/events`, york.key!);
  for (const s of [onA, onB, kept]) t.equal(data((await s.take(1))[0]!).seat, 'York', 'the seat’s private view');
  await meOnB.take(1);
  t.equal(b.keyStreams.count(spare.id), 2);

  const revoked = await york.req('DELETE', `/me/keys/${spare.id}`);
  t.equal(revoked.statusCode, 204);
  const started = Date.now();
  // Well within the heartbeat (60 s): the bus message ends them.
  await endedRevoked(t, onA, 'instance A, /games/:id/events', 5000);
  await endedRevoked(t, onB, 'instance B, /games/:id/events', 5000);
  await endedRevoked(t, meOnB, 'instance B, /me/events', 5000);
  t.ok(Date.now() - started < 5000, 'promptly');
  t.equal(b.keyStreams.count(spare.id), 0, 'nothing left tracked');

  // The key opens nothing more; the player's other key still streams.
  const again = await fetch(`${baseUrl(b)}/me/events`, { headers: { authorization: `Bearer ${spare.key}` }, signal: AbortSignal.timeout(10_000) });
  t.equal(again.status, 401);
  await again.body?.cancel();
  t.notOk(kept.ended, 'the other key’s stream is open');
  kept.close();
});

t.test('an application key’s /apps/me/events ends when the operator revokes the key', async (t) => {
  const made = await client(a, ADMIN_TOKEN).req('POST', '/admin/apps', { name: 'Revoked app' });
  t.equal(made.statusCode, 201);
  const appKey = made.json().key as { id: string; key: string };
  const s = await sse(b, '/apps/me/events', appKey.key);
  t.equal((await client(a, ADMIN_TOKEN).req('DELETE', `/admin/keys/${appKey.id}`)).statusCode, 204);
  await endedRevoked(t, s, 'instance B, /apps/me/events', 5000);
});

t.test('GraphQL subscriptions of the key fail with unauthorized, and its socket starts no new one', async (t) => {
  const id = await newGame(york, lancaster);
  const spare = await spareKey(york);
  const c = wsClient(b, spare.key);
  const game = subscribe(c, 'subscription($id: ID!, $since: Int) { gameEvents(gameId: $id, since: $since) { version role view } }', { id, since: 0 });
  await game.first();
  const turns = subscribe(c, 'subscription { myTurn { gameId version } }');
  await turns.first();
  // A socket whose upgrade request carried the key: it keeps that caller for its whole life.
  const byHeader = wsClient(b, spare.key, 'upgrade');
  const closedC = closedWith(c);
  const closedByHeader = closedWith(byHeader);
  const seats = subscribe(byHeader, 'subscription { myTurn { gameId version } }');
  await seats.first();
  const other = subscribe(wsClient(b, york.key!), 'subscription { myTurn { gameId version } }');
  await other.first();

  t.equal((await york.req('DELETE', `/me/keys/${spare.id}`)).statusCode, 204);
  t.match(await game.end(5000), { error: [{ extensions: { code: 'unauthorized' } }] }, 'gameEvents');
  t.match(await turns.end(5000), { error: [{ extensions: { code: 'unauthorized' } }] }, 'myTurn');
  t.match(await seats.end(5000), { error: [{ extensions: { code: 'unauthorized' } }] }, 'myTurn, key in the upgrade request');
  t.equal(b.keyStreams.count(spare.id), 0);

  // Then the sockets authenticated with the key close, 4403 (graphql-transport-ws: refused credentials).
  for (const [closed, how] of [[closedC, 'connection_init'], [closedByHeader, 'upgrade request']] as const) {
    t.match(await within(closed, `the socket (key in the ${how}) to close`, 5000), { code: 4403, reason: /revoked/ }, `the socket with the key in the ${how}`);
  }
  // The server's side of a close ends after the client's.
  const deadline = Date.now() + 3000;
  while (b.webSocketSlots.count(`key:${spare.id}`) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.equal(b.webSocketSlots.count(`key:${spare.id}`), 0, 'their connection slots are given back');
  t.equal(other.ended(), null, 'the player’s other key keeps its subscription');
});

t.test('an instance that missed the bus message ends the streams at its periodic check', async (t) => {
  const id = await newGame(york, lancaster);
  const spare = await spareKey(york);
  const s = await sse(deaf, `/games/${id}/events`, spare.key);
  await s.take(1);
  const c = wsClient(deaf, spare.key);
  const turns = subscribe(c, 'subscription { myTurn { gameId version } }');
  await turns.first();
  t.equal(deaf.keyStreams.count(spare.id), 3, 'the SSE stream, the socket and its subscription');
  const closed = closedWith(c);

  t.equal((await york.req('DELETE', `/me/keys/${spare.id}`)).statusCode, 204); // on A: Redis only
  await endedRevoked(t, s, 'the deaf instance', 5000);
  t.match(await turns.end(5000), { error: [{ extensions: { code: 'unauthorized' } }] });
  t.match(await within(closed, 'the socket to close', 5000), { code: 4403 });
});
