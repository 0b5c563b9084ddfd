// Delivery across instances and without the bus: an action committed on
// instance A reaches SSE clients on instance B (shared Postgres and Redis,
// real ports); an instance whose bus never hears of a commit (its own
// in-process bus: as if Redis were gone) still delivers every version, from
// the database, at its next periodic check. And GET /me/events: your_turn
// notifications across games, resumed from its composite id without gaps or
// duplicates.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { client, prng, signup, type Client } from './rest-helpers.ts';
import { baseUrl, data, SseClient } from './sse-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const { store, databaseUrl } = await openTestStore(t);
const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }); // one bus prefix: one deployment
const a = await buildApp(config, { store });
t.teardown(() => a.close());
const b = await buildApp(config); // its own store and Redis connections
t.teardown(() => b.close());
// No Redis: this instance's bus never hears of commits made on A.
const deaf = await buildApp(testConfig({ databaseUrl, sseHeartbeatMs: 150 }), { store });
t.teardown(() => deaf.close());
for (const app of [a, b, deaf]) await app.listen({ port: 0, host: '127.0.0.1' });

interface Pair {
  york: Client;
  lancaster: Client;
  seat: Record<string, Client>;
}

async function pair(): Promise<Pair> {
  const york = await signup(a, 'York');
  const lancaster = await signup(a, 'Lancaster');
  return { york, lancaster, seat: { York: york, Lancaster: lancaster } };
}

const { york, lancaster } = await pair();
const pick = prng(777);

async function newGame(p: Pair = { york, lancaster, seat: { York: york, Lancaster: lancaster } }): Promise<string> {
  const id = (await p.york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json().id as string;
  const joined = await p.lancaster.req('POST', `/games/${id}/join`, {});
  if (joined.statusCode !== 200) throw new Error(joined.body);
  return id;
}

/** One random legal action on instance A; returns the acting role and the new version. */
async function act(id: string, p: Pair = { york, lancaster, seat: { York: york, Lancaster: lancaster } }): Promise<{ role: string; version: number; activeRoles: string[] }> {
  const summary = (await p.york.req('GET', `/games/${id}`)).json();
  const role = summary.activeRoles[pick(summary.activeRoles.length)] as string;
  const actions = (await p.seat[role]!.req('GET', `/games/${id}/actions`)).json().actions as unknown[];
  const res = await p.seat[role]!.req('POST', `/games/${id}/actions`, { action: actions[pick(actions.length)] });
  if (res.statusCode !== 200) throw new Error(res.body);
  return { role, version: res.json().version, activeRoles: res.json().game.activeRoles };
}

function sse(app: FastifyInstance, url: string, who: Client | null, headers: Record<string, string> = {}): Promise<SseClient> {
  return SseClient.open(`${baseUrl(app)}${url}`, { ...(who ? { authorization: `Bearer ${who.key}` } : {}), ...headers });
}

t.test('an action committed on instance A reaches an SSE client on instance B', async (t) => {
  const id = await newGame();
  const onB = await sse(b, `/games/${id}/events`, lancaster);
  t.same((await onB.take(1)).map((e) => e.id), ['2']);
  const done = await act(id);
  const [e] = await onB.take(1);
  t.match(data(e!), { gameId: id, version: 3, type: 'action', role: done.role, seat: 'Lancaster' });
  // The view B sends is Lancaster's, as B's own REST API shows it.
  t.same(data(e!).view, (await client(b, lancaster.key, lancaster.id).req('GET', `/games/${id}/view`)).json().view);
  onB.close();
});

t.test('without any bus message (Redis gone), a stream still receives every version, in order, from the database', async (t) => {
  const id = await newGame();
  const onDeaf = await sse(deaf, `/games/${id}/events`, york);
  await onDeaf.take(1);
  for (let i = 0; i < 3; i++) await act(id);
  const got = await onDeaf.take(3);
  t.same(got.map((e) => e.id), ['3', '4', '5']);
  t.not(data(got[2]!).view, null);
  await new Promise((r) => setTimeout(r, 400)); // a few more periodic checks
  t.same(onDeaf.rest(), [], 'nothing twice');
  onDeaf.close();
});

t.test('GET /me/events: your_turn now, live from another instance, and a gapless resume', async (t) => {
  const p = await pair(); // players with no other games
  const { york, lancaster } = p;
  const g1 = await newGame(p);
  const g2 = await newGame(p);
  const first = (await york.req('GET', `/games/${g1}`)).json();
  const me = await sse(b, '/me/events', lancaster);
  // A new connection starts from the present: one your_turn per game where Lancaster is active now.
  const lancasterActive = first.activeRoles.includes('Lancaster');
  const present = lancasterActive ? await me.take(2) : [];
  t.same(present.map((e) => data(e).gameId).sort(), lancasterActive ? [g1, g2].sort() : []);
  for (const e of present) t.match(data(e), { type: 'your_turn', version: 2, roles: ['Lancaster'] });

  // Live, committed on A: exactly the versions after which Lancaster is active.
  const expected: string[] = [];
  let lastId: string | null = present.at(-1)?.id ?? null;
  for (let i = 0; i < 6; i++) {
    const r = await act(i % 2 === 0 ? g1 : g2, p);
    if (r.activeRoles.includes('Lancaster')) expected.push(`${i % 2 === 0 ? g1 : g2}@${r.version}`);
  }
  const live = await me.take(expected.length);
  t.same(live.map((e) => `${data(e).gameId}@${data(e).version}`), expected);
  for (const e of live) t.equal(e.event, 'your_turn');
  if (live.length > 0) lastId = live.at(-1)!.id;
  t.ok(lastId, 'some event was delivered');
  me.close();

  // Offline while both games move on; the resumed stream sends exactly what was missed.
  const missed: string[] = [];
  for (let i = 0; i < 6; i++) {
    const g = i % 3 === 0 ? g2 : g1;
    const r = await act(g, p);
    if (r.activeRoles.includes('Lancaster')) missed.push(`${g}@${r.version}`);
  }
  const g3 = await newGame(p); // a game joined since the last id
  if ((await york.req('GET', `/games/${g3}`)).json().activeRoles.includes('Lancaster')) missed.push(`${g3}@2`);
  const resumed = await sse(a, '/me/events', lancaster, { 'last-event-id': lastId! });
  const got = await resumed.take(missed.length);
  const key = (e: { gameId: string; version: number }) => `${e.gameId}@${e.version}`;
  // Per game in order; across games grouped by game.
  const byGame = (list: string[]) => Object.fromEntries([g1, g2, g3].map((g) => [g, list.filter((x) => x.startsWith(g))]));
  t.same(byGame(got.map((e) => key(data(e)))), byGame(missed));
  await new Promise((r) => setTimeout(r, 300));
  t.same(resumed.rest(), [], 'nothing twice');
  // Each id is a cursor naming the player's games in progress.
  if (got.length > 0) t.match(got.at(-1)!.id, new RegExp(`${g1}@\\d+`));
  resumed.close();
});

t.test('GET /me/events with ?access_token=', async (t) => {
  const id = await newGame();
  const summary = (await york.req('GET', `/games/${id}`)).json();
  const who = summary.activeRoles.includes('York') ? york : lancaster;
  const me = await SseClient.open(`${baseUrl(b)}/me/events?access_token=${encodeURIComponent(who.key!)}`);
  const e = await me.waitFor((e) => data(e).gameId === id);
  t.match(data(e), { type: 'your_turn', gameId: id, version: 2 });
  me.close();
});
