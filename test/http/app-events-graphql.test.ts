// The appEvents subscription (graphql-ws over real sockets): an application
// key's notices for every player it created, each naming its player; resumed
// with `after` (the last notice's cursor) without loss or duplication, between
// two notices of one version too; on another instance through Redis, and with
// the in-process bus. Another application's players never appear.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import type { FormattedExecutionResult } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { client, prng, signup, type Client } from './rest-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { act, appPlayer, byGame, createApplication, newGame, owed, type AppPlayerInfo } from './app-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const ADMIN = 'app-events-gql-operator-token-01';
const { store, databaseUrl } = await openTestStore(t);
const config = testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, adminToken: ADMIN });
const a = await buildApp(config, { store });
t.teardown(() => a.close());
const b = await buildApp(config);
t.teardown(() => b.close());
const solo = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN, sseHeartbeatMs: 200 }), { store }); // in-process bus
t.teardown(() => solo.close());
for (const app of [a, b, solo]) await app.listen({ port: 0, host: '127.0.0.1' });
const pick = prng(2929);

const bot = await createApplication(a, ADMIN, 'gql-bot');
const other = await createApplication(a, ADMIN, 'gql-other');
const ann = await appPlayer(a, bot, 'ann');
const ben = await appPlayer(a, bot, 'ben');
const cy = await appPlayer(a, bot, 'cy');
const zed = await appPlayer(a, other, 'zed');
const zoe = await appPlayer(a, other, 'zoe');
const sam = await signup(a, 'sam');
const botIds = [ann.info.id, ben.info.id, cy.info.id];
const names = new Map([ann, ben, cy].map((p) => [p.info.id, p.info]));

interface Table {
  id: string;
  seat: Record<string, Client>;
  botSeats: Record<string, string>;
}
async function table(york: Client, lancaster: Client, botSeats: Record<string, string>): Promise<Table> {
  return { id: await newGame(york, lancaster), seat: { York: york, Lancaster: lancaster }, botSeats };
}
const g1 = await table(ann.as, ben.as, { York: ann.info.id, Lancaster: ben.info.id });
const g2 = await table(cy.as, sam, { York: cy.info.id });
const g3 = await table(zed.as, zoe.as, {});
const tables = [g1, g2, g3];

interface Notice {
  type: string;
  cursor: string;
  player: AppPlayerInfo;
  yourTurn: { gameId: string; version: number; roles: string[] } | null;
  seated: unknown;
}
const APP_EVENTS = `subscription($after: String) { appEvents(after: $after) { type cursor player { id name externalId } yourTurn { gameId version roles } seated { gameId } } }`;

function wsUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${address.port}/graphql`;
}

/** A subscription's notices as they come; take(n) waits (bounded) for n more. */
function subscribe(app: FastifyInstance, key: string | null, variables: Record<string, unknown> = {}, actAs?: string) {
  const c = createClient({
    url: wsUrl(app),
    webSocketImpl: WebSocket,
    connectionParams: key ? { Authorization: `Bearer ${key}`, ...(actAs ? { 'X-Act-As': actAs } : {}) } : {},
    retryAttempts: 0,
    lazy: true,
  });
  const got: Notice[] = [];
  let taken = 0;
  let wake = () => {};
  let failure: unknown = null;
  const stop = c.subscribe<{ appEvents: Notice }>(
    { query: APP_EVENTS, variables },
    {
      next: (r: FormattedExecutionResult<{ appEvents: Notice }>) => {
        if (r.data) got.push(r.data.appEvents);
        wake();
      },
      error: (err) => {
        failure = err;
        wake();
      },
      complete: () => wake(),
    },
  );
  const close = () => {
    stop();
    void c.dispose();
  };
  t.teardown(close);
  return {
    close,
    async take(n: number): Promise<Notice[]> {
      const ready = () => got.length >= taken + n || failure !== null;
      await within(
        (async () => {
          while (!ready()) await new Promise<void>((r) => (wake = r));
        })(),
        () => `${n} more notices; got ${JSON.stringify(got.slice(taken))}`,
      );
      if (failure !== null) throw new Error(`subscription failed: ${JSON.stringify(failure)}`);
      const out = got.slice(taken, taken + n);
      taken += n;
      return out;
    },
    rest(): Notice[] {
      const out = got.slice(taken);
      taken = got.length;
      return out;
    },
    async failure(): Promise<unknown> {
      await within(
        (async () => {
          while (failure === null) await new Promise<void>((r) => (wake = r));
        })(),
        'the subscription to fail',
      );
      return failure;
    },
  };
}

const keyOf = (n: Notice) => `${n.yourTurn!.gameId}@${n.yourTurn!.version}:${n.player.id}`;

async function versionsNow(games: Table[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const g of games) out.set(g.id, (await sam.req('GET', `/games/${g.id}`)).json().version);
  return out;
}
async function owedAfter(versions: Map<string, number>, games: Table[]): Promise<string[]> {
  const all: string[] = [];
  for (const g of games) all.push(...(await owed(a, g.id, versions.get(g.id) ?? 0, g.botSeats)));
  return all;
}
const settle = () => new Promise((r) => setTimeout(r, 300));

let lastCursor = '';

t.test('appEvents on instance B: the present turns, then live ones committed on A, each naming its player', async (t) => {
  const sub = subscribe(b, bot.key);
  const now = [...(await owed(a, g1.id, 1, g1.botSeats)), ...(await owed(a, g2.id, 1, g2.botSeats))];
  const present = await sub.take(now.length);
  t.same(byGame(present.map(keyOf)), byGame(now));
  const before = await versionsNow([g1, g2]);
  for (let i = 0; i < 9; i++) await act(tables[i % 3]!.id, tables[i % 3]!.seat, pick);
  const expected = await owedAfter(before, [g1, g2]);
  t.ok(expected.length >= 3, `some turns of the bot’s players (${expected.length})`);
  const live = await sub.take(expected.length);
  t.same(byGame(live.map(keyOf)), byGame(expected));
  for (const n of [...present, ...live]) {
    t.equal(n.type, 'your_turn');
    t.equal(n.seated, null, 'only the field its type names');
    t.same(n.player, names.get(n.player.id), 'one of the bot’s players, named: id, name, externalId');
  }
  await settle();
  t.same(sub.rest(), [], 'nothing twice, nothing of the other app');
  lastCursor = live.at(-1)!.cursor;
  sub.close();
});

t.test('resubscribing with after: the moves made meanwhile, on another instance, nothing lost or twice', async (t) => {
  const at = await versionsNow([g1, g2]);
  for (let i = 0; i < 8; i++) await act(tables[(i * 2) % 3]!.id, tables[(i * 2) % 3]!.seat, pick);
  const expected = await owedAfter(at, [g1, g2]);
  const sub = subscribe(a, bot.key, { after: lastCursor });
  const got = await sub.take(expected.length);
  t.same(byGame(got.map(keyOf)), byGame(expected));
  await settle();
  t.same(sub.rest(), [], 'nothing twice');
  sub.close();
});

t.test('from a cursor between two notices of one version, and with the in-process bus', async (t) => {
  const expected = await owedAfter(new Map([[g1.id, 1]]), [g1, g2]);
  const full = subscribe(b, bot.key, { after: `${g1.id}@1` });
  const all = await full.take(expected.length);
  full.close();
  t.same(byGame(all.map(keyOf)), byGame(expected));
  const i = all.findIndex((n) => n.cursor.includes('~'));
  t.ok(i >= 0, 'a version that is the turn of both of the bot’s players in g1');
  const resumed = subscribe(solo, bot.key, { after: all[i]!.cursor });
  const rest = await resumed.take(all.length - i - 1);
  t.same(byGame(rest.map(keyOf)), byGame(all.slice(i + 1).map(keyOf)));
  // Live on the in-process bus: its own commits.
  const at = await versionsNow([g1, g2]);
  const here = (g: Table) => Object.fromEntries(Object.entries(g.seat).map(([r, c]) => [r, client(solo, c.key, c.id, c.actAs)]));
  for (let k = 0; k < 6; k++) await act(tables[k % 2]!.id, here(tables[k % 2]!), pick);
  const more = await owedAfter(at, [g1, g2]);
  t.same(byGame((await resumed.take(more.length)).map(keyOf)), byGame(more));
  await settle();
  t.same(resumed.rest(), [], 'nothing twice');
  resumed.close();
});

t.test('refusals are typed; another app sees only its own players', async (t) => {
  const code = async (s: ReturnType<typeof subscribe>) => (JSON.stringify(await s.failure()).match(/"code":"(\w+)"/) ?? [])[1];
  t.equal(await code(subscribe(b, null)), 'unauthorized');
  t.equal(await code(subscribe(b, sam.key!)), 'forbidden');
  t.equal(await code(subscribe(b, bot.key, {}, ann.info.id)), 'forbidden');
  t.equal(await code(subscribe(b, bot.key, { after: 'garbage' })), 'invalid_request');
  const theirs = subscribe(b, other.key);
  const [n] = await theirs.take(1);
  t.ok([zed.info.id, zoe.info.id].includes(n!.player.id));
  t.notOk(botIds.includes(n!.player.id));
  theirs.close();
});
