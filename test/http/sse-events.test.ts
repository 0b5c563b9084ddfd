// GET /games/:gameId/events: versions in order with the caller's view, resume
// from Last-Event-ID (header or query) without gaps or duplicates, the end of
// a game, errors, and shutdown with open streams. Real Postgres and Redis,
// real sockets.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { prng, signup, type Client } from './rest-helpers.ts';
import { baseUrl, data, requestNoStream, SseClient } from './sse-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }), { store });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const base = baseUrl(app);

const york = await signup(app, 'York');
const lancaster = await signup(app, 'Lancaster');
const seat: Record<string, Client> = { York: york, Lancaster: lancaster };
const pick = prng(4242);

interface Version {
  gameId: string;
  version: number;
  type: string;
  role: string | null;
  status: string;
  activeRoles: string[];
  seat: string | null;
  view: unknown;
}

async function newGame(): Promise<string> {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: `sse-${Math.random()}`, roles: ['York'] });
  if (created.statusCode !== 201) throw new Error(created.body);
  const id = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${id}/join`, {});
  if (joined.statusCode !== 200) throw new Error(joined.body);
  return id; // active, version 2
}

/** Commits `n` random legal actions; returns the version after them. */
async function play(id: string, n: number): Promise<number> {
  let version = 0;
  for (let i = 0; i < n; i++) {
    const summary = (await york.req('GET', `/games/${id}`)).json();
    const role = summary.activeRoles[pick(summary.activeRoles.length)] as string;
    const actions = (await seat[role]!.req('GET', `/games/${id}/actions`)).json().actions as unknown[];
    const res = await seat[role]!.req('POST', `/games/${id}/actions`, { action: actions[pick(actions.length)] });
    if (res.statusCode !== 200) throw new Error(res.body);
    version = res.json().version as number;
  }
  return version;
}

function open(url: string, who: Client | null, headers: Record<string, string> = {}): Promise<SseClient> {
  return SseClient.open(`${base}${url}`, { ...(who ? { authorization: `Bearer ${who.key}` } : {}), ...headers });
}

t.test('resume from Last-Event-ID: exactly the versions after it, in order, then live ones', async (t) => {
  const id = await newGame();
  const v = await play(id, 6);
  t.equal(v, 8);

  const sse = await open(`/games/${id}/events`, york, { 'last-event-id': '4' });
  t.match(sse.headers['content-type'], /^text\/event-stream/);
  const missed = await sse.take(4);
  t.same(missed.map((e) => e.id), ['5', '6', '7', '8']);
  t.same(missed.map((e) => e.event), ['version', 'version', 'version', 'version']);
  const parsed = missed.map((e) => data<Version>(e));
  t.same(parsed.map((e) => e.version), [5, 6, 7, 8]);
  t.ok(parsed.every((e) => e.gameId === id && e.type === 'action' && e.seat === 'York' && e.status === 'active'));
  t.same(parsed.slice(0, 3).map((e) => e.view), [null, null, null], 'versions the game had moved past carry no view');
  const yorkView = (await york.req('GET', `/games/${id}/view`)).json();
  t.same(parsed[3]!.view, yorkView.view, 'the newest version carries York’s own view');

  // Live: each new version arrives once, with its view.
  const v2 = await play(id, 3);
  const live = (await sse.take(3)).map((e) => data<Version>(e));
  t.same(live.map((e) => e.version), [9, 10, 11]);
  t.equal(v2, 11);
  t.same(live[2]!.view, (await york.req('GET', `/games/${id}/view`)).json().view);
  sse.close();

  // Disconnected while two more are committed; reconnect with the last id seen.
  await play(id, 2);
  const again = await open(`/games/${id}/events`, york, { 'last-event-id': '11' });
  t.same((await again.take(2)).map((e) => e.id), ['12', '13']);
  await play(id, 1);
  t.same((await again.take(1)).map((e) => e.id), ['14']);
  await new Promise((r) => setTimeout(r, 200));
  t.same(again.rest(), [], 'no duplicates');
  again.close();
});

t.test('without Last-Event-ID the stream starts at the current version; ?lastEventId= and ?access_token= work', async (t) => {
  const id = await newGame();
  await play(id, 2);
  const fresh = await open(`/games/${id}/events`, lancaster);
  const [first] = await fresh.take(1);
  t.equal(first!.id, '4');
  t.match(data<Version>(first!), { version: 4, seat: 'Lancaster' });
  t.same(data<Version>(first!).view, (await lancaster.req('GET', `/games/${id}/view`)).json().view);
  fresh.close();

  const byQuery = await SseClient.open(`${base}/games/${id}/events?lastEventId=1&access_token=${encodeURIComponent(lancaster.key!)}`);
  const evs = (await byQuery.take(3)).map((e) => data<Version>(e));
  t.same(evs.map((e) => [e.version, e.type]), [[2, 'start'], [3, 'action'], [4, 'action']]);
  t.equal(evs[2]!.seat, 'Lancaster', 'authenticated by access_token');
  byQuery.close();

  const fromZero = await SseClient.open(`${base}/games/${id}/events`, { 'last-event-id': '0' });
  t.same((await fromZero.take(4)).map((e) => [e.id, data<Version>(e).type, data<Version>(e).seat]), [
    ['1', 'join', null],
    ['2', 'start', null],
    ['3', 'action', null],
    ['4', 'action', null],
  ]);
  fromZero.close();
});

t.test('a spectator gets the spectator view; a hot-seat player names the role', async (t) => {
  const id = await newGame();
  await play(id, 1);
  const watcher = await open(`/games/${id}/events`, null);
  const [e] = await watcher.take(1);
  t.equal(data<Version>(e!).seat, null);
  t.same(data<Version>(e!).view, (await app.inject(`/games/${id}/view`)).json().view);
  t.notSame(data<Version>(e!).view, (await york.req('GET', `/games/${id}/view`)).json().view, 'not a seat’s view');
  watcher.close();

  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'Lancaster'] });
  const hot = created.json().id as string;
  const asLancaster = await open(`/games/${hot}/events?role=Lancaster`, york);
  const [h] = await asLancaster.take(1);
  t.equal(data<Version>(h!).seat, 'Lancaster');
  asLancaster.close();
});

t.test('the end of a game: end event, stream closed; resuming at the last version answers 204', async (t) => {
  const id = await newGame();
  await play(id, 1);
  const sse = await open(`/games/${id}/events`, york, { 'last-event-id': '3' });
  const resigned = await york.req('POST', `/games/${id}/resign`, {});
  t.equal(resigned.statusCode, 200);
  const [last, end] = await sse.take(2);
  t.match(data<Version>(last!), { version: 4, type: 'resign', status: 'finished', activeRoles: [] });
  t.not(data<Version>(last!).view, null);
  t.equal(end!.event, 'end');
  t.same(data(end!), { gameId: id, version: 4, status: 'finished' });
  await sse.waitEnded();

  const after = await requestNoStream(`${base}/games/${id}/events`, { authorization: `Bearer ${york.key}`, 'last-event-id': '4' });
  t.equal(after.status, 204);
  const replay = await open(`/games/${id}/events`, york, { 'last-event-id': '2' });
  t.same((await replay.take(3)).map((e) => e.event), ['version', 'version', 'end']);
  await replay.waitEnded();
});

t.test('refusals are problem+json before the stream starts', async (t) => {
  const id = await newGame();
  const cases: Array<[string, Record<string, string>, number, string]> = [
    [`/games/${id}/events`, { 'last-event-id': 'abc' }, 400, 'invalid_request'],
    [`/games/${id}/events`, { 'last-event-id': '99' }, 400, 'invalid_request'],
    ['/games/6f1c2d3e-0000-4000-8000-000000000009/events', {}, 404, 'not_found'],
    [`/games/${id}/events?role=Lancaster`, { authorization: `Bearer ${york.key}` }, 403, 'forbidden'],
    [`/games/${id}/events?access_token=nope`, {}, 401, 'unauthorized'],
    ['/me/events', {}, 401, 'unauthorized'],
    ['/me/events', { authorization: `Bearer ${york.key}`, 'last-event-id': 'garbage' }, 400, 'invalid_request'],
  ];
  for (const [url, headers, status, code] of cases) {
    // A refusal that streams instead (say, another seat's events) fails here, not by hanging.
    const res = await requestNoStream(`${base}${url}`, headers);
    t.equal(res.status, status, url);
    t.match(res.contentType, /^application\/problem\+json/);
    t.match(res.body, { status, code }, `${url} ${JSON.stringify(headers)}`);
  }
  // A private game is not revealed to others.
  const priv = (await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', visibility: 'private', roles: ['York'] })).json().id;
  const res = await requestNoStream(`${base}/games/${priv}/events`, { authorization: `Bearer ${lancaster.key}` });
  t.equal(res.status, 404);
});

t.test('heartbeat comments; close() ends open streams instead of waiting for them', async (t) => {
  const own = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, sseHeartbeatMs: 100 }), { store });
  await own.listen({ port: 0, host: '127.0.0.1' });
  const id = await newGame();
  const a = await SseClient.open(`${baseUrl(own)}/games/${id}/events`);
  const b = await SseClient.open(`${baseUrl(own)}/me/events`, { authorization: `Bearer ${york.key}` });
  await a.take(1);
  await a.waitComment('heartbeat');
  // Hang detection only: without the preClose hook close() waits for the streams forever.
  const closed = await Promise.race([own.close().then(() => 'closed'), new Promise((r) => setTimeout(() => r('hung'), 10_000).unref())]);
  t.equal(closed, 'closed', 'close() did not wait for the open streams');
  await a.waitEnded();
  await b.waitEnded();
  t.ok(a.comments.some((c) => c.startsWith('server shutting down')));
});
