// GET /apps/me/events: one stream for an application key over every player it
// created, each notice naming its player; resumed from Last-Event-ID without
// loss or duplication (between two notices of one version too), from another
// instance, and with the in-process bus (no Redis). Another application's
// players never appear. Real Postgres and Redis, real sockets.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { client, prng, signup, type Client } from './rest-helpers.ts';
import { baseUrl, data, requestNoStream, SseClient, type SseEvent } from './sse-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';
import { act, appPlayer, byGame, createApplication, newGame, owed, type AppPlayerInfo } from './app-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const ADMIN = 'app-events-operator-token-0123';
const { store, databaseUrl } = await openTestStore(t);
const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, adminToken: ADMIN }); // one bus prefix: one deployment
const a = await buildApp(config, { store });
t.teardown(() => a.close());
const b = await buildApp(config); // its own store and Redis connections
t.teardown(() => b.close());
// The in-process bus: it hears only its own commits (others' at its periodic check).
const solo = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN, sseHeartbeatMs: 200 }), { store });
t.teardown(() => solo.close());
for (const app of [a, b, solo]) await app.listen({ port: 0, host: '127.0.0.1' });
const pick = prng(1717);

const bot = await createApplication(a, ADMIN, 'table-bot');
const other = await createApplication(a, ADMIN, 'other-bot');
const ann = await appPlayer(a, bot, 'ann');
const ben = await appPlayer(a, bot, 'ben');
const cy = await appPlayer(a, bot, 'cy');
const zed = await appPlayer(a, other, 'zed');
const zoe = await appPlayer(a, other, 'zoe');
const sam = await signup(a, 'sam'); // a player of its own

interface Table {
  id: string;
  seat: Record<string, Client>;
  /** Role → the bot's player holding it. */
  botSeats: Record<string, string>;
}

async function table(york: { as: Client; info?: AppPlayerInfo } | Client, lancaster: { as: Client; info?: AppPlayerInfo } | Client, owner: string[] = []): Promise<Table> {
  const y = 'as' in york ? york.as : york;
  const l = 'as' in lancaster ? lancaster.as : lancaster;
  const id = await newGame(y, l);
  const botSeats: Record<string, string> = {};
  if ('info' in york && york.info && owner.includes(york.info.id)) botSeats.York = york.info.id;
  if ('info' in lancaster && lancaster.info && owner.includes(lancaster.info.id)) botSeats.Lancaster = lancaster.info.id;
  return { id, seat: { York: y, Lancaster: l }, botSeats };
}

const botIds = [ann.info.id, ben.info.id, cy.info.id];
// Two of the bot's players against each other; one against a player of its own; the other app's game.
const g1 = await table(ann, ben, botIds);
const g2 = await table(cy, sam, botIds);
const g3 = await table(zed, zoe, botIds);
const tables = [g1, g2, g3];

const names = new Map([ann, ben, cy].map((p) => [p.info.id, p.info]));
const keyOf = (e: SseEvent) => {
  const d = data<{ gameId: string; version: number; player: { id: string } }>(e);
  return `${d.gameId}@${d.version}:${d.player.id}`;
};

function sse(app: FastifyInstance, key: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return SseClient.open(`${baseUrl(app)}/apps/me/events`, { authorization: `Bearer ${key}`, ...headers });
}

/** What the stream owes for the bot's games after the given versions (a game not named: from its start). */
async function owedAfter(versions: Map<string, number>, games: Table[]): Promise<string[]> {
  const all: string[] = [];
  for (const g of games) all.push(...(await owed(a, g.id, versions.get(g.id) ?? 0, g.botSeats)));
  return all;
}

async function versionsNow(games: Table[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const g of games) out.set(g.id, (await sam.req('GET', `/games/${g.id}`)).json().version);
  return out;
}

let lastId = '';

t.test('one stream for the whole app: the present turns, then live ones from another instance, each naming its player', async (t) => {
  const stream = await sse(b, bot.key);
  // From the present: a your_turn for each of the bot's players whose turn it is now (g1: both, simultaneous card play).
  const now = await owed(a, g1.id, 1, g1.botSeats);
  now.push(...(await owed(a, g2.id, 1, g2.botSeats)));
  t.ok(now.filter((k) => k.startsWith(g1.id)).length === 2, 'both of the bot’s players in g1 have a turn at version 2');
  const present = await stream.take(now.length);
  t.same(byGame(present.map(keyOf)), byGame(now));
  for (const e of present) {
    t.equal(e.event, 'your_turn');
    const d = data<{ player: AppPlayerInfo; roles: string[] }>(e);
    t.same(d.player, names.get(d.player.id), 'the player named: id, name, externalId');
  }

  // Live: moves in all three games, committed on instance A.
  const before = await versionsNow([g1, g2]);
  for (let i = 0; i < 9; i++) await act(tables[i % 3]!.id, tables[i % 3]!.seat, pick);
  const expected = await owedAfter(before, [g1, g2]);
  t.ok(expected.length >= 3, `some turns of the bot’s players (${expected.length})`);
  const live = await stream.take(expected.length);
  t.same(byGame(live.map(keyOf)), byGame(expected), 'exactly the bot’s players’ turns, in order per game');
  for (const e of live) {
    const d = data<{ type: string; player: AppPlayerInfo; roles: string[]; clock: unknown }>(e);
    t.equal(d.type, 'your_turn');
    t.ok(botIds.includes(d.player.id), 'never another app’s player');
    t.same(Object.keys(d).sort(), ['clock', 'gameId', 'player', 'roles', 'type', 'version'], 'the per-player payload and the player, nothing more');
  }
  await new Promise((r) => setTimeout(r, 300));
  t.same(stream.rest(), [], 'nothing twice, nothing of the other app');
  lastId = live.at(-1)!.id!;
  t.match(lastId, new RegExp(`${g1.id}@\\d+`));
  t.notMatch(lastId, g3.id, 'the other app’s game is not in the cursor');
  stream.close();
});

t.test('a disconnect: moves interleaved while away, a new player and game; the resume on another instance loses and repeats nothing', async (t) => {
  const at = await versionsNow([g1, g2]);
  for (let i = 0; i < 8; i++) await act(tables[(i * 2) % 3]!.id, tables[(i * 2) % 3]!.seat, pick);
  const dan = await appPlayer(a, bot, 'dan'); // created while the stream was down
  names.set(dan.info.id, dan.info);
  botIds.push(dan.info.id);
  const g4 = await table(sam, dan, botIds);
  tables.push(g4);
  for (let i = 0; i < 3; i++) await act(g4.id, g4.seat, pick);
  const expected = await owedAfter(at, [g1, g2, g4]);
  const resumed = await sse(a, bot.key, { 'last-event-id': lastId });
  const got = await resumed.take(expected.length);
  t.same(byGame(got.map(keyOf)), byGame(expected), 'exactly what was missed, per game in order');
  t.ok(got.some((e) => data<{ player: { id: string } }>(e).player.id === dan.info.id) || !expected.some((k) => k.endsWith(dan.info.id)), 'the new player’s turns too');
  await new Promise((r) => setTimeout(r, 300));
  t.same(resumed.rest(), [], 'nothing twice');
  lastId = got.at(-1)?.id ?? lastId;
  resumed.close();
});

t.test('resuming from any id, between two notices of one version too, sends exactly the rest', async (t) => {
  // A cursor naming g1 before its start: everything of g1 from version 2 on, and the other games from their start.
  const from = `${g1.id}@1`;
  const games = [g1, g2, tables[3]!];
  const expected = await owedAfter(new Map([[g1.id, 1]]), games);
  const full = await sse(b, bot.key, { 'last-event-id': from });
  const all = await full.take(expected.length);
  full.close();
  t.same(byGame(all.map(keyOf)), byGame(expected));
  const partial = all.filter((e) => e.id!.includes('~'));
  t.ok(partial.length >= 1, 'a version that is the turn of two of the bot’s players gives an id between them');
  t.match(partial[0]!.id, new RegExp(`${g1.id}@2~1`));
  // Resume from each partial id and a few others: the rest of the list, per game, nothing more.
  const samples = new Set([...partial.map((e) => all.indexOf(e)), 0, Math.floor(all.length / 2), all.length - 1]);
  for (const i of samples) {
    const rest = all.slice(i + 1).map(keyOf);
    const s = await sse(a, bot.key, { 'last-event-id': all[i]!.id! });
    const got = await s.take(rest.length);
    await new Promise((r) => setTimeout(r, 200));
    t.same(byGame(got.map(keyOf)), byGame(rest), `resumed after event ${i} (${all[i]!.id!.includes('~') ? 'partial' : 'whole'} version)`);
    t.same(s.rest(), [], 'nothing twice');
    s.close();
  }
});

t.test('with the in-process bus (no Redis): live notices of its own commits, and a resume', async (t) => {
  const here = (g: Table): Record<string, Client> => Object.fromEntries(Object.entries(g.seat).map(([r, c]) => [r, client(solo, c.key, c.id, c.actAs)]));
  const at = await versionsNow([g1, g2]);
  const stream = await sse(solo, bot.key, { 'last-event-id': (await versionsNowId()) });
  for (let i = 0; i < 6; i++) await act(tables[i % 2]!.id, here(tables[i % 2]!), pick);
  const expected = await owedAfter(at, [g1, g2]);
  const got = await stream.take(expected.length);
  t.same(byGame(got.map(keyOf)), byGame(expected));
  await new Promise((r) => setTimeout(r, 500)); // two periodic checks
  t.same(stream.rest(), [], 'nothing twice');
  stream.close();
});

/** A cursor at every game's current version (nothing owed before now). */
async function versionsNowId(): Promise<string> {
  const v = await versionsNow(tables.filter((g) => g !== g3));
  return [...v].map(([g, n]) => `${g}@${n}`).join(',');
}

t.test('refusals before any stream starts', async (t) => {
  const base = baseUrl(a);
  const cases: Array<[Record<string, string>, number, string]> = [
    [{}, 401, 'unauthorized'],
    [{ authorization: `Bearer ${sam.key}` }, 403, 'forbidden'],
    [{ authorization: `Bearer ${bot.key}`, 'x-act-as': ann.info.id }, 403, 'forbidden'],
    [{ authorization: `Bearer ${ADMIN}` }, 403, 'forbidden'],
    [{ authorization: `Bearer ${bot.key}`, 'last-event-id': 'garbage' }, 400, 'invalid_request'],
    [{ authorization: `Bearer ${bot.key}`, 'last-event-id': `${g1.id}@3~0` }, 400, 'invalid_request'],
  ];
  for (const [headers, status, code] of cases) {
    const res = await requestNoStream(`${base}/apps/me/events`, headers);
    t.equal(res.status, status, JSON.stringify(headers));
    t.match(res.contentType, /^application\/problem\+json/);
    t.match(res.body, { status, code });
  }
  // The other app sees only its own players.
  const theirs = await sse(a, other.key);
  const [e] = await theirs.take(1);
  t.ok([zed.info.id, zoe.info.id].includes(data<{ player: { id: string } }>(e!).player.id));
  theirs.close();
});
