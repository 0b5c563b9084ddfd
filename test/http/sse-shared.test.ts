// Many streams of one game: streams of the same game, caller and seat share
// one feed (every spectator of a public game shares one), so a version's view is read and serialised once however many
// streams watch it (counted by the metrics that exist for operators:
// herald_sse_view_reads_total, herald_sse_version_events_encoded_total,
// herald_sse_version_events_sent_total), while every stream still gets
// exactly its own seat's events — the same bytes as its neighbours of the same
// seat, never another seat's — and a stream that joins behind is caught up
// without gaps or duplicates. Real Postgres and Redis, real sockets.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { prng, signup, type Client } from './rest-helpers.ts';
import { baseUrl, data, pause, SseClient, type SseEvent } from './sse-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }), { store });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const base = baseUrl(app);

const york = await signup(app, 'York');
const lancaster = await signup(app, 'Lancaster');
const ward = await signup(app, 'Ward'); // holds no seat: a signed-in spectator
const seat: Record<string, Client> = { York: york, Lancaster: lancaster };
const pick = prng(777);

interface Version {
  version: number;
  seat: string | null;
  view: unknown;
}

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

async function counters(): Promise<{ reads: number; encoded: number; sent: number }> {
  const text = (await app.inject('/metrics')).body;
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { reads: read('herald_sse_view_reads_total'), encoded: read('herald_sse_version_events_encoded_total'), sent: read('herald_sse_version_events_sent_total') };
}

t.test('K streams per seat: one view read and one serialisation per version and seat; each stream gets its own seat only', async (t) => {
  const K = 6;
  const P = 4;
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'sse-shared', roles: ['York'] });
  const id = created.json().id as string;
  t.equal((await lancaster.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  const v0 = await play(id, 1);

  const url = `${base}/games/${id}/events`;
  const groups: Record<string, SseClient[]> = { York: [], Lancaster: [], spectator: [] };
  for (let i = 0; i < K; i++) {
    // The same caller by header or by ?access_token= reads the same thing: one feed.
    groups.York!.push(await (i % 2 ? SseClient.open(url, { authorization: `Bearer ${york.key}` }) : SseClient.open(`${url}?access_token=${encodeURIComponent(york.key!)}`)));
    groups.Lancaster!.push(await SseClient.open(url, { authorization: `Bearer ${lancaster.key}` }));
    // Anonymous or signed in without a seat: the same spectator view, one feed.
    groups.spectator!.push(await (i % 2 ? SseClient.open(url) : SseClient.open(url, { authorization: `Bearer ${ward.key}` })));
  }
  for (const [name, streams] of Object.entries(groups)) {
    for (const s of streams) {
      const [first] = await s.take(1);
      t.equal(data<Version>(first!).version, v0, `${name}: starts at the current version`);
    }
  }

  const before = await counters();
  const v1 = await play(id, P);
  t.equal(v1, v0 + P);
  const got: Record<string, SseEvent[][]> = {};
  for (const [name, streams] of Object.entries(groups)) got[name] = await Promise.all(streams.map((s) => s.take(P)));
  await pause(100);
  const after = await counters();

  const views: Record<string, unknown> = {
    York: (await york.req('GET', `/games/${id}/view`)).json().view,
    Lancaster: (await lancaster.req('GET', `/games/${id}/view`)).json().view,
    spectator: (await app.inject(`/games/${id}/view`)).json().view,
  };
  t.not(JSON.stringify(views.York), JSON.stringify(views.Lancaster), 'the two seats see different things (so a leak would show)');
  for (const [name, lists] of Object.entries(got)) {
    for (const events of lists) {
      const parsed = events.map((e) => data<Version>(e));
      t.same(parsed.map((e) => e.version), Array.from({ length: P }, (_, i) => v0 + 1 + i), `${name}: each version once, in order`);
      t.ok(parsed.every((e) => e.seat === (name === 'spectator' ? null : name)), `${name}: its own seat`);
      t.same(parsed.at(-1)!.view, views[name], `${name}: the newest version carries its own view`);
      t.same(events.map((e) => e.data), lists[0]!.map((e) => e.data), `${name}: the same bytes as the other streams of the seat`);
    }
  }
  for (const streams of Object.values(groups)) for (const s of streams) t.same(s.rest(), [], 'nothing more');

  // 3 feeds (York, Lancaster, spectator) of K streams each.
  t.equal(after.encoded - before.encoded, 3 * P, 'each version serialised once per seat, not once per stream');
  t.equal(after.sent - before.sent, 3 * K * P, 'and sent to every stream');
  t.ok(after.reads - before.reads <= 3 * P, `views read at most once per version and seat (${after.reads - before.reads} for ${3 * K} streams × ${P} versions)`);

  // A stream joining the York feed behind the others: caught up from the log, then live with them.
  const late = await SseClient.open(url, { authorization: `Bearer ${york.key}`, 'last-event-id': String(v0) });
  const missed = (await late.take(P)).map((e) => data<Version>(e));
  t.same(missed.map((e) => e.version), Array.from({ length: P }, (_, i) => v0 + 1 + i), 'the versions it missed, in order');
  t.same(missed.slice(0, -1).map((e) => e.view), Array(P - 1).fill(null), 'views only with the newest');
  t.same(missed.at(-1)!.view, views.York);
  const v2 = await play(id, 1);
  for (const s of [...groups.York!, late]) {
    const [e] = await s.take(1);
    t.equal(data<Version>(e!).version, v2, 'the next version once, for the late stream too');
  }
  await pause(100);
  for (const s of [...groups.York!, late]) t.same(s.rest(), [], 'no duplicates');

  // Closing streams leaves the others running; the last one closes the feed.
  for (const s of groups.York!) s.close();
  const v3 = await play(id, 1);
  const [e] = await late.take(1);
  t.equal(data<Version>(e!).version, v3, 'a stream outlives its neighbours');
  late.close();
  for (const s of [...groups.Lancaster!, ...groups.spectator!]) s.close();
});
