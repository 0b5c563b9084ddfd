// GraphQL over WebSocket: the connection's side of the protocol (ws-sockets.ts), found by
// black-box probing. A second connection_init was acknowledged again (Mercurius re-ran its
// context with the new payload's credentials, on a connection counted for the first caller):
// now 4429 Too many initialisation requests. A subscribe before connection_init closes with 4401.
// A message of a type the subprotocol does not know was answered with an error under its id,
// which ended (for the client and for the id check) an operation still running. connection_init
// credentials that cannot be read (a number for X-Act-As, an object for Authorization, the same
// name twice) were dropped silently: the connection ran as the key itself, or anonymous. The
// `extensions` Mercurius reads on a subscribe message (credentials for an onConnect hook Herald
// has not) were dropped silently too. A message over the size limit (a client's protocol error)
// was logged at error level. A message that is not JSON, or of no known type, was answered
// with an error without extensions.code. A socket naming no known subprotocol was reported with
// console.log (a line that is not JSON in the log) and at warn. Real Postgres and Redis, real
// sockets.
import { Writable } from 'node:stream';
import t from 'tap';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { signup } from './rest-helpers.ts';
import { openSocket } from './ws-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const { store, databaseUrl } = await openTestStore(t);
const lines: Array<Record<string, any>> = [];
const logStream = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); done(); } });
const app = await buildApp({ ...testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }), logLevel: 'info' }, { store, logStream });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('not listening');
const port = address.port;

/** A raw graphql-transport-ws socket; with `init`, acknowledged. */
const open = (init?: unknown) => openSocket(t, port, init);

const myTurn = (id: string) => ({ id, type: 'subscribe', payload: { query: 'subscription { myTurn { gameId } }' } });
const settle = () => new Promise((r) => setTimeout(r, 300));

t.test('a second connection_init closes the socket with 4429, and is not acknowledged', async (t) => {
  const ada = await signup(app, 'Ada');
  const bea = await signup(app, 'Bea');
  const c = await open({ Authorization: `Bearer ${ada.key}` });
  c.send({ type: 'connection_init', payload: { Authorization: `Bearer ${bea.key}` } });
  await c.until('the close', () => c.closed() !== null);
  t.match(c.closed(), { code: 4429, reason: 'Too many initialisation requests' });
  t.equal(c.got.filter((m) => m.type === 'connection_ack').length, 1, 'acknowledged once');
});

t.test('a subscribe before connection_init closes the socket with 4401', async (t) => {
  const c = await open();
  c.send(myTurn('early'));
  await c.until('the close', () => c.closed() !== null);
  t.equal(c.closed()?.code, 4401);
  t.notOk(c.got.some((m) => m.type === 'next'), 'nothing ran');
});

t.test('a message of the other subprotocol is answered without ending an operation', async (t) => {
  const cy = await signup(app, 'Cy');
  const c = await open({ Authorization: `Bearer ${cy.key}` });
  c.send(myTurn('a'));
  // "stop" is the older graphql-ws subprotocol's complete: unknown on graphql-transport-ws.
  c.send({ id: 'a', type: 'stop' });
  await c.until('an answer to stop', () => c.got.some((m) => m.type === 'error'));
  const error = c.got.find((m) => m.type === 'error')!;
  t.equal(error.id, undefined, 'the error names no operation');
  t.match(error.payload, [{ message: 'Invalid payload type' }]);
  await settle();
  c.send(myTurn('a'));
  await c.until('the close', () => c.closed() !== null);
  t.equal(c.closed()?.code, 4409, 'a is still running: its id is taken');
});

t.test('a message that is not JSON, or of no known type, is answered with a typed error; the socket goes on', async (t) => {
  const gus = await signup(app, 'Gus');
  const c = await open({ Authorization: `Bearer ${gus.key}` });
  // Mercurius answered these with errors without extensions.code (found probing).
  const cases: Array<[string | Buffer, string]> = [
    ['not json', 'Message must be a JSON string'],
    [Buffer.from([0xff, 0x00, 0x01]), 'Message must be a JSON string'],
    ['5', 'Invalid payload type'],
    ['[]', 'Invalid payload type'],
    ['"subscribe"', 'Invalid payload type'],
    ['{}', 'Invalid payload type'],
    ['{"type":"foo"}', 'Invalid payload type'],
    ['{"type":7,"id":"q"}', 'Invalid payload type'],
  ];
  for (const [message, answer] of cases) {
    const before = c.got.length;
    c.send(message);
    await c.until(`the answer to ${String(message)}`, () => c.got.length > before);
    t.match(c.got[before], { type: 'error', payload: [{ message: answer, extensions: { code: 'invalid_request' } }] }, String(message));
  }
  c.send(myTurn('after'));
  await settle();
  t.notOk(c.got.some((m) => m.id === 'after'), 'a subscription still runs');
  t.equal(c.closed(), null, 'the socket is open');
});

t.test('connection_init credentials that cannot be read fail every subscription, typed', async (t) => {
  const dee = await signup(app, 'Dee');
  const cases: Array<[unknown, string, RegExp]> = [
    [{ Authorization: `Bearer ${dee.key}`, 'X-Act-As': 5 }, 'invalid_request', /X-Act-As must be a string/],
    [{ Authorization: `Bearer ${dee.key}`, 'X-Act-As': ['a'] }, 'invalid_request', /X-Act-As must be a string/],
    [{ Authorization: 12345 }, 'unauthorized', /Authorization must be a string/],
    [{ headers: { Authorization: { key: dee.key } } }, 'unauthorized', /headers\.Authorization must be a string/],
    [{ Authorization: `Bearer ${dee.key}`, authorization: `Bearer ${dee.key}` }, 'invalid_request', /more than once/],
    [{ Authorization: `Bearer ${dee.key}`, headers: { authorization: `Bearer ${dee.key}` } }, 'invalid_request', /more than once/],
    [{ headers: 'Bearer x' }, 'invalid_request', /headers must be an object/],
    [{ Authorization: '  ' }, 'unauthorized', /Authorization is empty/],
  ];
  for (const [init, code, message] of cases) {
    const c = await open(init);
    c.send(myTurn('1'));
    await c.until('the error', () => c.got.some((m) => m.type === 'error' || m.type === 'next'));
    t.match(c.got.find((m) => m.id === '1'), { type: 'error', payload: [{ message, extensions: { code } }] }, JSON.stringify(init));
  }
  // Credentials under headers alone, or at the top level alone, still work.
  for (const init of [{ headers: { authorization: `Bearer ${dee.key}` } }, { AUTHORIZATION: `Bearer ${dee.key}` }]) {
    const c = await open(init);
    c.send({ id: 'me', type: 'subscribe', payload: { query: 'subscription { mySeats { gameId } }' } });
    await settle();
    t.notOk(c.got.some((m) => m.type === 'error'), `${JSON.stringify(Object.keys(init))}: runs`);
  }
});

t.test('a subscribe message with Mercurius extensions is refused, typed; the socket goes on', async (t) => {
  const eve = await signup(app, 'Eve');
  const other = await signup(app, 'Other');
  const c = await open({ Authorization: `Bearer ${eve.key}` });
  for (const [id, extensions] of [
    ['x1', [{ type: 'connectionInit', payload: { Authorization: `Bearer ${other.key}` } }]],
    ['x2', [null]],
    ['x3', [{ type: 'nope' }]],
    ['x4', {}],
  ] as const) {
    c.send({ ...myTurn(id), extensions });
    await c.until(`the error of ${id}`, () => c.got.some((m) => m.id === id && m.type !== 'next'));
    t.match(c.got.find((m) => m.id === id), { type: 'error', payload: [{ extensions: { code: 'invalid_request' }, message: /no "extensions"/ }] }, id);
  }
  // The GraphQL request's own extensions (in the payload) are ignored, as over HTTP.
  c.send({ id: 'ok', type: 'subscribe', payload: { query: 'subscription { mySeats { gameId } }', extensions: { persistedQuery: 1 } } });
  await settle();
  t.notOk(c.got.some((m) => m.id === 'ok'), 'payload.extensions: runs');
  t.equal(c.closed(), null);
});

t.test('a message over the size limit closes the socket (1009), logged as the client’s error, not at error level', async (t) => {
  const fay = await signup(app, 'Fay');
  const c = await open({ Authorization: `Bearer ${fay.key}` });
  const from = lines.length;
  c.send('x'.repeat(2 * 1024 * 1024));
  await c.until('the close', () => c.closed() !== null);
  t.equal(c.closed()?.code, 1009, 'message too big');
  await settle();
  t.same(lines.slice(from).filter((l) => l.level >= 50).map((l) => l.msg), [], 'nothing at error level');
  t.ok(lines.slice(from).some((l) => l.level === 30 && /protocol error/.test(l.msg)), 'logged at info');
  t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
});

t.test('a socket naming no known subprotocol closes with 1002, logged at info, nothing printed outside the log', async (t) => {
  // Found probing: Mercurius printed "wrong websocket protocol: <the client's text>" with
  // console.log, a line that is not JSON in the server's JSON log, and logged it again at warn.
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => { printed.push(args.map(String).join(' ')); };
  t.teardown(() => { console.log = log; });
  for (const protocol of ['not-graphql', undefined]) {
    const from = lines.length;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, protocol);
    t.teardown(() => socket.terminate());
    const code = await within(new Promise<number>((resolve) => socket.on('close', (c) => resolve(c))), 'the close');
    t.equal(code, 1002, `${protocol ?? 'no subprotocol'}: protocol error`);
    await settle();
    t.same(lines.slice(from).filter((l) => l.level >= 40).map((l) => l.msg), [], `${protocol ?? 'no subprotocol'}: nothing at warn or error level`);
    t.ok(lines.slice(from).some((l) => l.level === 30 && /subprotocol/.test(l.msg)), `${protocol ?? 'no subprotocol'}: logged at info`);
  }
  console.log = log;
  t.same(printed, [], 'nothing printed to stdout');
  // The two subprotocols still connect.
  for (const protocol of ['graphql-transport-ws', 'graphql-ws']) {
    const ok = new WebSocket(`ws://127.0.0.1:${port}/graphql`, protocol);
    t.teardown(() => ok.terminate());
    await within(new Promise((resolve) => ok.on('open', resolve)), () => `${protocol} to open`);
    const first = within(new Promise<string>((resolve) => ok.once('message', (d) => resolve(String(d)))), () => `${protocol}: connection_ack`);
    ok.send(JSON.stringify({ type: 'connection_init', payload: {} }));
    t.match(JSON.parse(await first), { type: 'connection_ack' }, `${protocol}: acknowledged`);
    ok.close();
  }
});
