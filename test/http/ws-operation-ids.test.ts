// GraphQL over WebSocket: operation ids and messages Mercurius did not hold to
// the protocol (found by black-box probing). Mercurius keeps a socket's
// operations in a map by id: a second subscribe reusing the id of a running
// one replaced it there, and the first ran on for ever, even after the socket
// closed, holding its slot among the key's live streams (STREAMS_PER_KEY: the
// key could no longer open streams until the server restarted) and polling
// the database. Now a start whose id is in use closes the socket with 4409, one
// without a text id with 4400 (graphql-transport-ws), every stream ends with
// its socket (also one Mercurius lost track of: a complete racing its start),
// and the JSON message null is answered like any message of no known type
// instead of a TypeError logged at error level. Real Postgres and Redis, real
// sockets.
import { Writable } from 'node:stream';
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { STREAM_FILE_TIMEOUT_MS } from '../helpers/streams.ts';
import { signup, type Client } from './rest-helpers.ts';
import { openSocket } from './ws-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const LIMIT = 3;
const lines: Array<Record<string, any>> = [];
const logStream = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); done(); } });
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp({ ...testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, streamsPerKey: LIMIT }), logLevel: 'info' }, { store, logStream });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('not listening');
const port = address.port;

/** A raw graphql-transport-ws socket, acknowledged. */
const connect = (who: Client) => openSocket(t, port, { Authorization: `Bearer ${who.key}` });

const subscribe = (id: unknown) => ({ id, type: 'subscribe', payload: { query: 'subscription { myTurn { gameId } }' } });

/** Waits until the slots held reach n (streams close asynchronously); the count then. */
async function slotsHeld(n: number): Promise<number> {
  const deadline = Date.now() + 3000;
  while (app.streamSlots.total() !== n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return app.streamSlots.total();
}

/** Can the player still open LIMIT streams (every slot given back)? */
async function canOpenAll(who: Client): Promise<boolean> {
  const c = await connect(who);
  for (let i = 0; i < LIMIT; i++) c.send(subscribe(`fresh-${i}`));
  const held = await slotsHeld(LIMIT);
  const refused = c.got.some((m) => m.type === 'error');
  await c.close();
  return held === LIMIT && !refused;
}

t.test('a subscribe reusing the id of a running one closes the socket with 4409; no stream outlives it', async (t) => {
  const ada = await signup(app, 'Ada');
  const c = await connect(ada);
  c.send(subscribe('1'));
  t.equal(await slotsHeld(1), 1, 'the first subscription holds a slot');
  c.send(subscribe('1'));
  c.send(subscribe('1'));
  await c.until('the socket to close', () => c.closed() !== null);
  t.match(c.closed(), { code: 4409, reason: /^Subscriber for 1 already exists$/ }, 'closed 4409, as graphql-transport-ws says');
  t.equal(await slotsHeld(0), 0, 'every slot is given back');
  t.ok(await canOpenAll(ada), `the key opens ${LIMIT} streams again`);
});

t.test('an id is free again once the client or the server ended its operation', async (t) => {
  const bea = await signup(app, 'Bea');
  const created = await bea.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'Lancaster'] });
  t.equal(created.statusCode, 201, 'a hot-seat game');
  const gameId = created.json().id as string;
  // gameEvents with since catches up at once: its first update says the subscription runs.
  const watch = (id: string) => ({ id, type: 'subscribe', payload: { query: `subscription { gameEvents(gameId: "${gameId}", role: "York", since: 0) { version } }` } });
  const c = await connect(bea);
  c.send(watch('a'));
  await c.until('the first update of a', () => c.got.some((m) => m.type === 'next' && m.id === 'a'));
  t.equal(await slotsHeld(1), 1);
  c.send({ id: 'a', type: 'complete' });
  t.equal(await slotsHeld(0), 0, 'the client completed it');
  const before = c.got.length;
  c.send(watch('a'));
  await c.until('the first update of a again', () => c.got.slice(before).some((m) => m.type === 'next' && m.id === 'a'));
  t.equal(await slotsHeld(1), 1, 'the id is taken again');
  // The server ends an operation with an error: its id may be used again.
  c.send({ id: 'b', type: 'subscribe', payload: { query: 'subscription { gameClock(gameId: "518624be-b6ac-45a7-830e-74067aadec4a") { gameId } }' } });
  await c.until('the error of b', () => c.got.some((m) => m.type === 'error' && m.id === 'b'));
  c.send({ id: 'b', type: 'subscribe', payload: { query: 'subscription { mySeats { gameId } }' } });
  t.equal(await slotsHeld(2), 2, 'b runs after its error');
  t.equal(c.closed(), null, 'the socket stays open');
  await c.close();
  t.equal(await slotsHeld(0), 0);
});

t.test('a subscribe without a text id closes the socket with 4400', async (t) => {
  const cy = await signup(app, 'Cy');
  for (const id of [undefined, null, 5, {}, '']) {
    const c = await connect(cy);
    c.send(subscribe(id));
    await c.until(`the close for id ${JSON.stringify(id)}`, () => c.closed() !== null);
    t.equal(c.closed()?.code, 4400, `id ${JSON.stringify(id)}: 4400`);
    t.notOk(c.got.some((m) => m.type === 'next'), 'nothing ran');
  }
  t.equal(await slotsHeld(0), 0, 'no slot is held');
});

t.test('an id longer than 128 characters closes the socket with 4400; one of 128 runs', async (t) => {
  const cy = await signup(app, 'Cy2');
  const long = await connect(cy);
  long.send(subscribe('x'.repeat(129)));
  await long.until('the close for a 129-character id', () => long.closed() !== null);
  t.equal(long.closed()?.code, 4400, '129 characters: 4400');
  t.notOk(long.got.some((m) => m.type === 'next'), 'nothing ran');
  t.equal(await slotsHeld(0), 0, 'no slot is held');
  const ok = await connect(cy);
  ok.send(subscribe('y'.repeat(128)));
  t.equal(await slotsHeld(1), 1, '128 characters: the subscription runs');
  t.equal(ok.closed(), null, 'the socket stays open');
  await ok.close();
  t.equal(await slotsHeld(0), 0, 'no slot is held');
});

t.test('a complete racing its subscribe, then the id again: both streams end with the socket', async (t) => {
  const dee = await signup(app, 'Dee');
  for (let round = 0; round < 5; round++) {
    const c = await connect(dee);
    // One write: Mercurius reads the complete while the first start still awaits its hooks.
    c.send(subscribe('r'));
    c.send({ id: 'r', type: 'complete' });
    c.send(subscribe('r'));
    await new Promise((r) => setTimeout(r, 200));
    await c.close();
    t.equal(await slotsHeld(0), 0, `round ${round}: every slot is given back once the socket closed`);
  }
  t.ok(await canOpenAll(dee), `the key opens ${LIMIT} streams again`);
});

t.test('the JSON message null is answered like an unknown message, not a TypeError at error level', async (t) => {
  const eve = await signup(app, 'Eve');
  const c = await connect(eve);
  const from = lines.length;
  c.send('null');
  await c.until('an answer to null', () => c.got.some((m) => m.type === 'error'));
  t.match(c.got.find((m) => m.type === 'error')?.payload, [{ message: 'Invalid payload type' }]);
  c.send(subscribe('after'));
  t.equal(await slotsHeld(1), 1, 'the socket still serves');
  t.equal(c.closed(), null);
  t.same(lines.slice(from).filter((l) => l.level >= 50), [], 'nothing logged at error level');
  await c.close();
});
