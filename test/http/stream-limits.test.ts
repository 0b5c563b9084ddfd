// Live streams per key (STREAMS_PER_KEY): SSE streams and GraphQL subscriptions
// count together against one key (or one IP without a key); past the limit SSE
// answers 429 too_many_streams and a subscription fails with that code; a
// stream gives its slot back however it ends (client hang-up, unsubscribe,
// socket closed, game over, refused start), so nothing leaks. Real Postgres
// and Redis, real sockets.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { loadConfig } from '../../src/config.ts';
import { StreamSlots } from '../../src/http/stream-slots.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { signup, type Client } from './rest-helpers.ts';
import { baseUrl, SseClient } from './sse-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const LIMIT = 3;
const { store, databaseUrl } = await openTestStore(t);
const INIT_WAIT_MS = 1500;
const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, streamsPerKey: LIMIT }), { store, connectionInitWaitMs: INIT_WAIT_MS });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const base = baseUrl(app);

const york = await signup(app, 'York');
const lancaster = await signup(app, 'Lancaster');

async function newGame(): Promise<string> {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: `limits-${Math.random()}`, roles: ['York'] });
  if (created.statusCode !== 201) throw new Error(created.body);
  const id = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${id}/join`, {});
  if (joined.statusCode !== 200) throw new Error(joined.body);
  return id;
}

const auth = (who: Client | null): Record<string, string> => (who ? { authorization: `Bearer ${who.key}` } : {});
const openSse = (url: string, who: Client | null, headers: Record<string, string> = {}) => SseClient.open(`${base}${url}`, { ...auth(who), ...headers });

/** A request expected to be refused: status, headers and problem body. */
async function refused(url: string, who: Client | null) {
  const res = await fetch(`${base}${url}`, { headers: { accept: 'text/event-stream', ...auth(who) }, signal: AbortSignal.timeout(10_000) });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, retryAfter: null, contentType: res.headers.get('content-type'), body: null as Record<string, unknown> | null };
  }
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), contentType: res.headers.get('content-type'), body: (text === '' ? null : JSON.parse(text)) as Record<string, unknown> | null };
}

/** Waits until every slot is given back (streams close asynchronously). */
async function drained(): Promise<number> {
  const deadline = Date.now() + 5000;
  while (app.streamSlots.total() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return app.streamSlots.total();
}

function wsClient(who: Client | null): WsClient {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const c = createClient({
    url: `ws://127.0.0.1:${address.port}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: who ? { Authorization: `Bearer ${who.key}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
  t.teardown(() => c.dispose());
  return c;
}

/** Starts a subscription: `first` resolves with its first result or its error; `stop` unsubscribes. */
function subscribe(c: WsClient, query: string, variables: Record<string, unknown> = {}) {
  let settle!: (r: { data?: unknown; error?: unknown }) => void;
  const first = new Promise<{ data?: unknown; error?: unknown }>((resolve) => (settle = resolve));
  let completed!: () => void;
  const done = new Promise<void>((resolve) => (completed = resolve));
  const stop = c.subscribe({ query, variables }, { next: (r) => settle({ data: r.data }), error: (err) => settle({ error: err }), complete: () => completed() });
  return { first: () => within(first, 'the subscription’s first result'), completion: () => within(done, 'the subscription to complete'), stop };
}

/**
 * A raw GraphQL WebSocket (graphql-transport-ws, or the older graphql-ws): `acked` resolves true on connection_ack, false
 * if the socket closes first; `closed` with the close code and reason. `init` sends connection_init.
 */
function rawSocket(who: Client | null, protocol: 'graphql-transport-ws' | 'graphql-ws' = 'graphql-transport-ws') {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const ws = new WebSocket(`ws://127.0.0.1:${address.port}/graphql`, protocol);
  t.teardown(() => ws.terminate());
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const acked = new Promise<boolean>((resolve) => {
    ws.on('message', (d) => {
      if ((JSON.parse(String(d)) as { type: string }).type === 'connection_ack') resolve(true);
    });
    void closed.then(() => resolve(false));
  });
  return {
    ws,
    async init(): Promise<boolean> {
      await within(opened, 'the WebSocket to open');
      ws.send(JSON.stringify({ type: 'connection_init', payload: who ? { Authorization: `Bearer ${who.key}` } : {} }));
      return within(acked, 'connection_ack or close');
    },
    closed: () => within(closed, 'the WebSocket to close'),
  };
}

/** Waits until `slots` holds `n` in all (sockets close asynchronously). */
async function settled(slots: StreamSlots, n: number): Promise<number> {
  const deadline = Date.now() + 5000;
  while (slots.total() !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return slots.total();
}

const GAME_EVENTS = 'subscription($id: ID!) { gameEvents(gameId: $id) { version status } }';

t.test('STREAMS_PER_KEY: default 100, 0 = no limit, anything else refused', async (t) => {
  t.equal(loadConfig({}).streamsPerKey, 100);
  t.equal(loadConfig({ STREAMS_PER_KEY: '0' }).streamsPerKey, 0);
  t.equal(loadConfig({ STREAMS_PER_KEY: '7' }).streamsPerKey, 7);
  t.throws(() => loadConfig({ STREAMS_PER_KEY: '-1' }), /STREAMS_PER_KEY/);
});

t.test('SSE streams of every route count together per key; past the limit 429 too_many_streams; a hang-up frees a slot', async (t) => {
  const id = await newGame();
  const a = await openSse(`/games/${id}/events`, york);
  const b = await openSse(`/games/${id}/events`, york);
  const me = await openSse('/me/events', york);
  t.equal(app.streamSlots.total(), 3);

  for (const url of [`/games/${id}/events`, '/me/events']) {
    const r = await refused(url, york);
    t.equal(r.status, 429, url);
    t.match(r.contentType, /^application\/problem\+json/);
    t.match(r.body, { status: 429, code: 'too_many_streams', limit: LIMIT, retryAfter: 15 });
    t.match(r.body?.detail, /close one/);
    t.ok(Number(r.retryAfter) >= 1, 'Retry-After');
  }
  // Another key is not affected.
  const other = await openSse(`/games/${id}/events`, lancaster);

  // A hang-up gives the slot back: the same key opens again.
  a.close();
  const deadline = Date.now() + 5000;
  while (app.streamSlots.total() > 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const again = await openSse(`/games/${id}/events`, york);
  t.equal(again.status, 200, 'open, close, open again');

  for (const s of [b, me, other, again]) s.close();
  t.equal(await drained(), 0, 'nothing leaks');
});

t.test('the end of a game and refused starts give slots back', async (t) => {
  const id = await newGame();
  const streams = [await openSse(`/games/${id}/events`, york), await openSse(`/games/${id}/events`, york), await openSse(`/games/${id}/events`, york)];
  t.equal((await refused(`/games/${id}/events`, york)).status, 429);
  // The server ends every stream of the game when it is over.
  const resigned = await york.req('POST', `/games/${id}/resign`, {});
  t.equal(resigned.statusCode, 200, 'resigned');
  for (const s of streams) await s.waitEnded();
  t.equal(await drained(), 0, 'game over: slots given back');

  // Refusals after the slot was taken (not found, cursor ahead, nothing more to send) give it back.
  for (let i = 0; i < LIMIT + 2; i++) {
    t.equal((await refused('/games/no-such-game/events', york)).status, 404);
    t.equal((await refused(`/games/${id}/events?lastEventId=999`, york)).status, 400);
    const version = (await york.req('GET', `/games/${id}`)).json().version as number;
    t.equal((await refused(`/games/${id}/events?lastEventId=${version}`, york)).status, 204);
  }
  t.equal(app.streamSlots.total(), 0, 'refusals hold no slot');
});

t.test('without a key, streams count per client address', async (t) => {
  const id = await newGame();
  const streams = [];
  for (let i = 0; i < LIMIT; i++) streams.push(await openSse(`/games/${id}/events`, null));
  const r = await refused(`/games/${id}/events`, null);
  t.equal(r.status, 429);
  t.match(r.body, { code: 'too_many_streams' });
  const keyed = await openSse(`/games/${id}/events`, york);
  for (const s of [...streams, keyed]) s.close();
  t.equal(await drained(), 0);
});

t.test('GraphQL subscriptions count with SSE streams; over the limit a subscription fails with too_many_streams', async (t) => {
  const id = await newGame();
  const sse = await openSse('/me/events', york);
  const c = wsClient(york);
  const s1 = subscribe(c, GAME_EVENTS, { id });
  const s2 = subscribe(c, 'subscription { myTurn { gameId version } }');
  await s2.first(); // York's turn in the new game: the subscription is live
  const deadline = Date.now() + 5000;
  while (app.streamSlots.total() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.equal(app.streamSlots.total(), 3);

  const over = subscribe(c, GAME_EVENTS, { id });
  const got = await over.first();
  t.match(got.error, [{ extensions: { code: 'too_many_streams', limit: LIMIT } }]);
  t.equal((await refused('/me/events', york)).status, 429, 'and SSE is refused too');

  // Unsubscribing gives the slot back; a new subscription starts.
  s1.stop();
  while (app.streamSlots.total() > 2 && Date.now() < deadline + 5000) await new Promise((r) => setTimeout(r, 20));
  const s3 = subscribe(c, GAME_EVENTS, { id });
  // The game ends: the server completes the subscription, and its slot is back.
  t.equal((await york.req('POST', `/games/${id}/resign`, {})).statusCode, 200);
  const end = await s3.first();
  t.notOk(end.error);
  await s3.completion();
  // A refused start (not found) holds nothing.
  const missing = await subscribe(c, GAME_EVENTS, { id: 'no-such-game' }).first();
  t.match(missing.error, [{ extensions: { code: 'not_found' } }]);

  // Closing the socket ends its subscriptions.
  await c.dispose();
  sse.close();
  t.equal(await drained(), 0, 'nothing leaks');
});

t.test('GraphQL WebSocket connections count per key apart from streams: past the limit, even idle, the next is closed 4429 too_many_streams (found in review)', async (t) => {
  const slots = app.webSocketSlots;
  t.equal(slots.limit, LIMIT, 'the same limit as streams');
  const held = [];
  for (let i = 0; i < LIMIT; i++) {
    const s = rawSocket(york);
    t.equal(await s.init(), true, `connection ${i + 1} acknowledged`);
    held.push(s);
  }
  t.equal(slots.total(), LIMIT);
  t.equal(app.streamSlots.total(), 0, 'idle connections hold no stream slot');
  const over = rawSocket(york);
  t.equal(await over.init(), false, 'no connection_ack past the limit');
  const closed = await over.closed();
  t.equal(closed.code, 4429);
  t.match(closed.reason, /^too_many_streams: /);
  // Another key, and anonymous connections (counted per address), are not affected.
  const other = rawSocket(lancaster);
  t.equal(await other.init(), true, 'another key');
  // Closing one gives its slot back.
  held[0]!.ws.close();
  t.equal(await settled(slots, LIMIT), LIMIT);
  const again = rawSocket(york);
  t.equal(await again.init(), true, 'close one, open another');

  const anonymous = [];
  for (let i = 0; i < LIMIT; i++) {
    const s = rawSocket(null);
    t.equal(await s.init(), true, `anonymous connection ${i + 1}`);
    anonymous.push(s);
  }
  const anonymousOver = rawSocket(null);
  t.equal(await anonymousOver.init(), false, 'anonymous connections count per address');
  t.equal((await anonymousOver.closed()).code, 4429);

  // The graphql-ws client sees the close (4429 is one it does not retry).
  const c = wsClient(york);
  const refused = await subscribe(c, GAME_EVENTS, { id: 'no-such-game' }).first();
  t.match(refused.error, { code: 4429, reason: /^too_many_streams/ });

  for (const s of [...held, other, again, ...anonymous]) s.ws.close();
  t.equal(await settled(slots, 0), 0, 'nothing leaks');
});

t.test('a WebSocket that never sends connection_init is closed after the wait (4408), holding no slot', async (t) => {
  const started = Date.now();
  const silent = rawSocket(york);
  const closed = await within(silent.closed(), 'the silent WebSocket to be closed', INIT_WAIT_MS + 5000);
  t.equal(closed.code, 4408);
  t.match(closed.reason, /initialisation timeout/i);
  t.ok(Date.now() - started >= INIT_WAIT_MS - 100, 'not before the wait');
  // One that initialises in time stays open past the wait.
  const prompt = rawSocket(york);
  t.equal(await prompt.init(), true);
  await new Promise((r) => setTimeout(r, INIT_WAIT_MS + 300));
  t.equal(prompt.ws.readyState, WebSocket.OPEN, 'an initialised connection is not timed out');
  prompt.ws.close();
  t.equal(await settled(app.webSocketSlots, 0), 0);
});

t.test('a subscription the client completes while its start is pending gives its slot back at once (it was held until the socket closed: found in review)', async (t) => {
  for (const [protocol, start, stop] of [['graphql-transport-ws', 'subscribe', 'complete'], ['graphql-ws', 'start', 'stop']] as const) {
    const s = rawSocket(york, protocol);
    t.equal(await s.init(), true);
    const nexts: string[] = [];
    const ended = new Set<string>();
    let allEnded!: () => void;
    const gone = Array.from({ length: LIMIT + 2 }, (_, i) => `gone-${i}`);
    const over = new Promise<void>((resolve) => (allEnded = resolve));
    s.ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string; id?: string };
      if (m.type === 'next' || m.type === 'data') nexts.push(m.id ?? '');
      // The server is done with a start once it answers complete (or error: refused, over the limit).
      if ((m.type === 'complete' || m.type === 'error') && m.id !== undefined) ended.add(m.id);
      if (gone.every((id) => ended.has(id))) allEnded();
    });
    // Each subscription is completed right behind its start: its start (the bus, the database)
    // is still under way when the complete arrives. More than the limit.
    for (const [i, id] of gone.entries()) {
      const query = i % 2 === 0 ? 'subscription { myTurn { gameId version } }' : 'subscription { mySeats { gameId } }';
      s.ws.send(JSON.stringify({ id, type: start, payload: { query } }));
      s.ws.send(JSON.stringify({ id, type: stop }));
    }
    await within(over, () => `${protocol}: the server to be done with every completed start; done with ${JSON.stringify([...ended])}, ${app.streamSlots.total()} slots held`);
    t.equal(await settled(app.streamSlots, 0), 0, `${protocol}: no slot held, the socket still open`);
    t.equal(s.ws.readyState, WebSocket.OPEN);
    // The limit is whole: as many subscriptions as it allows start on the same socket.
    for (let i = 0; i < LIMIT; i++) s.ws.send(JSON.stringify({ id: `live-${i}`, type: start, payload: { query: 'subscription { mySeats { gameId } }' } }));
    const deadline = Date.now() + 5000;
    while (app.streamSlots.total() < LIMIT && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    t.equal(app.streamSlots.total(), LIMIT, `${protocol}: the limit's worth start afterwards`);
    t.same(nexts.filter((id) => id.startsWith('gone-')), [], `${protocol}: nothing sent for a completed subscription`);
    s.ws.close();
    t.equal(await settled(app.streamSlots, 0), 0);
  }
});

t.test('a limit of 0 counts without refusing', async (t) => {
  const slots = new StreamSlots(0);
  const releases = Array.from({ length: 500 }, () => slots.acquire('key:k'));
  t.equal(slots.count('key:k'), 500);
  for (const r of releases) {
    r();
    r(); // idempotent
  }
  t.equal(slots.total(), 0);
});

t.test('HEAD on a stream route answers the headers and gives its slot back (it kept it until restart: found in review)', async (t) => {
  const id = await newGame();
  for (const url of [`/games/${id}/events`, '/me/events']) {
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await fetch(`${base}${url}`, { method: 'HEAD', headers: auth(york), signal: AbortSignal.timeout(10_000) });
      t.equal(res.status, 200, `HEAD ${url} #${i + 1}`);
      t.match(res.headers.get('content-type'), /^text\/event-stream/);
    }
    t.equal(await drained(), 0, `HEAD ${url}: no slot held`);
  }
  const stream = await openSse('/me/events', york);
  t.equal(app.streamSlots.total(), 1, 'a GET stream still opens after the HEADs');
  stream.close();
  t.equal(await drained(), 0);
});
