// Every GraphQL limit at its value and just past it, over HTTP with the
// default limits: nesting and tokens (checked on the raw text before parsing),
// aliases and fields (before validation), depth and complexity (validation
// rules). Past a limit: 400, data null, extensions.code query_too_complex with
// measure/value/limit, nothing executed. The documents that once broke the
// server (5,000 levels deep; 2,000 aliases) are typed 400s; so are deep
// documents over WebSocket, the 5,000-level one included (refused on its raw
// text before Mercurius parses it: ws-sockets.ts).
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { parse } from 'graphql';
import { createClient } from 'graphql-ws';
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { DEFAULT_LIMITS } from '../../src/http/graphql/limits.ts';
import { checkSource, nestingOf, tokensOf } from '../../src/http/graphql/size.ts';
import { WebSocketSockets } from '../../src/http/graphql/ws-sockets.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signUp } from './graphql-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app: FastifyInstance = await buildApp(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());
const L = DEFAULT_LIMITS;

interface GqlBody {
  data?: unknown;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}
async function gql(query: string): Promise<{ status: number; body: GqlBody }> {
  const res = await app.inject({ method: 'POST', url: '/graphql', payload: { query } });
  return { status: res.statusCode, body: res.json() as GqlBody };
}
const tooComplex = (body: GqlBody) => (body.errors ?? []).filter((e) => e.extensions?.code === 'query_too_complex');

/** At the limit: no query_too_complex error (other errors may be there: some documents are only valid in size). */
async function passes(t: Test, query: string, what: string, mustExecute = false) {
  const { status, body } = await gql(query);
  t.same(tooComplex(body), [], `${what}: not refused for its size`);
  t.ok(status < 500, `${what}: status ${status}`);
  if (mustExecute) {
    t.equal(status, 200, what);
    t.notOk(body.errors, `${what}: executed without errors`);
  }
}
/** Past the limit: one typed error naming the measure, nothing executed. */
async function refused(t: Test, query: string, measure: string, value: number | null, what: string) {
  const { status, body } = await gql(query);
  t.equal(status, 400, what);
  t.equal(body.data, null, `${what}: nothing executed`);
  const errs = tooComplex(body);
  t.equal(errs.length, 1, `${what}: one query_too_complex error (${JSON.stringify(body.errors).slice(0, 200)})`);
  t.match(errs[0]?.extensions, { measure, ...(value === null ? {} : { value }) }, what);
  t.notMatch(JSON.stringify(body), /stack|\.ts:\d+|Maximum call stack/, `${what}: no internals`);
}

/** A document of 16 + n tokens (an unused variable: a validation error, but only its size matters here). */
const tokenDoc = (n: number) => `query($x: JSON = [${' 1'.repeat(n)} ]) { server { name } }`;

t.test('the raw-text measures agree with graphql-js', async (t) => {
  t.equal(nestingOf('{ a(x: "{{{{", y: """ [[[ \\""" ((( """) { b } } # {{{{{{'), 2, 'strings, block strings and comments do not nest');
  t.equal(nestingOf('query($x: JSON = [[[1]]]) { a }'), 4);
  // query ( $ x : JSON = [ … ] ) { server { name } }: 16 tokens around the list.
  t.equal(tokensOf(tokenDoc(0), 100), 16);
  t.equal(tokensOf(tokenDoc(L.maxTokens - 16), L.maxTokens), L.maxTokens);
  t.doesNotThrow(() => parse(tokenDoc(L.maxTokens - 16), { maxTokens: L.maxTokens }), "graphql-js's own count agrees at the limit");
  t.throws(() => parse(tokenDoc(L.maxTokens - 15), { maxTokens: L.maxTokens }), /more that 5000 tokens/, '… and just past it');
  t.equal(tokensOf(tokenDoc(L.maxTokens), L.maxTokens), L.maxTokens + 1, 'counting stops just past the limit');
});

t.test(`nesting: ${L.maxNesting} levels pass, ${L.maxNesting + 1} are refused before parsing`, async (t) => {
  // ( + k brackets: nesting k + 1. The variable is unused (a validation error): only its size matters.
  const doc = (k: number) => `query($x: JSON = ${'['.repeat(k)}1${']'.repeat(k)}) { server { name } }`;
  await passes(t, doc(L.maxNesting - 1), 'at the limit');
  await refused(t, doc(L.maxNesting), 'nesting', L.maxNesting + 1, 'just past');
});

t.test(`tokens: ${L.maxTokens} pass, ${L.maxTokens + 1} are refused before parsing`, async (t) => {
  await passes(t, tokenDoc(L.maxTokens - 16), 'at the limit');
  await refused(t, tokenDoc(L.maxTokens - 15), 'tokens', L.maxTokens + 1, 'just past');
});

t.test(`aliases: ${L.maxAliases} run, ${L.maxAliases + 1} are refused before validation`, async (t) => {
  const doc = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: server { name }`).join(' ')} }`;
  await passes(t, doc(L.maxAliases), 'at the limit', true);
  await refused(t, doc(L.maxAliases + 1), 'aliases', L.maxAliases + 1, 'just past');
});

t.test(`fields: ${L.maxFields} run, ${L.maxFields + 1} are refused before validation`, async (t) => {
  // server + (n - 1) × name: n Field nodes as written (repeats of one field merge when executed).
  const doc = (n: number) => `{ server { ${'name '.repeat(n - 1)}} }`;
  await passes(t, doc(L.maxFields), 'at the limit', true);
  await refused(t, doc(L.maxFields + 1), 'fields', L.maxFields + 1, 'just past');
});

t.test(`depth: ${L.maxDepth} levels pass, ${L.maxDepth + 1} are refused`, async (t) => {
  // games › nodes › n fields of nesting below (unknown fields: depth is measured all the same).
  const nest = (n: number): string => (n === 1 ? 'x' : `x { ${nest(n - 1)} }`);
  const doc = (depth: number) => `{ games { nodes { ${nest(depth - 2)} } } }`;
  await passes(t, doc(L.maxDepth), 'at the limit');
  await refused(t, doc(L.maxDepth + 1), 'depth', L.maxDepth + 1, 'just past');
});

t.test(`complexity: ${L.maxComplexity} runs, ${L.maxComplexity + 1} is refused`, async (t) => {
  // games(first: n) { nodes { id } } costs 1 + 2n; server { name } costs 2, server { name version } 3.
  const doc = (last: string) =>
    `{ ${Array.from({ length: 24 }, (_, i) => `g${i}: games(first: 100) { nodes { id } }`).join(' ')} h: games(first: 85) { nodes { id } } i: games(first: 1) { nodes { id } } ${last} }`;
  await passes(t, doc('server { name }'), 'at the limit (24 × 201 + 171 + 3 + 2)', true);
  await refused(t, doc('server { name version }'), 'complexity', L.maxComplexity + 1, 'just past');
});

t.test('the documents that broke the server: typed 400s', async (t) => {
  let deep = 'x';
  for (let i = 0; i < 5000; i++) deep = `a { ${deep} }`;
  await refused(t, `{ ${deep} }`, 'nesting', 5001, 'a selection 5,000 levels deep');
  await refused(t, `query($x: JSON = ${'['.repeat(50_000)}${']'.repeat(50_000)}) { server { name } }`, 'nesting', null, 'a list literal 50,000 levels deep');
  await refused(t, `{ ${'...on Query { '.repeat(5000)}server { name }${' }'.repeat(5000)} }`, 'nesting', null, 'inline fragments 5,000 deep');
  const aliases = Array.from({ length: 2000 }, (_, i) => `a${i}: server { name }`).join(' ');
  const { status, body } = await gql(`{ ${aliases} }`);
  t.equal(status, 400, '2,000 aliases are refused');
  t.equal(body.data, null);
  t.match(tooComplex(body)[0]?.extensions, { measure: /^(tokens|aliases)$/ }, 'as too complex (it is past the token limit too)');
  // Compact: 2,000 aliases in fewer tokens is impossible (alias, colon, field: 3 each), so tokens go first; aliases alone:
  await refused(t, `{ ${Array.from({ length: 1500 }, (_, i) => `a${i}:server`).join(' ')} }`, 'aliases', 1500, '1,500 aliases of a leaf field');
});

t.test('the WebSocket guard: a refused text goes on as a stand-in naming its refusal, once', async (t) => {
  const guard = new WebSocketSockets({ check: (source) => checkSource(source, L), initWaitMs: 60_000 });
  const socket = Object.assign(new EventEmitter(), { protocol: 'graphql-transport-ws' });
  guard.watch(socket);
  socket.emit('message', Buffer.from('{"type":"connection_init"}'), false);
  const seen: Array<{ type: string; payload: { query: string; operationName?: string } }> = [];
  const raw: string[] = [];
  socket.on('message', (data: Buffer) => {
    raw.push(data.toString());
    if (data.toString() !== 'not json') seen.push(JSON.parse(data.toString()));
  });
  const deep = `subscription D { myTurn { ${'a { '.repeat(100)}x${' }'.repeat(100)} } }`;
  socket.emit('message', Buffer.from(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: deep, operationName: 'D' } })), false);
  const shallow = { id: '2', type: 'subscribe', payload: { query: 'subscription { myTurn { gameId } }' } };
  socket.emit('message', Buffer.from(JSON.stringify(shallow)), false);
  socket.emit('message', Buffer.from('not json'), false);
  t.equal(raw.length, 3, 'every message goes on');
  t.equal(raw[2], 'not json', 'one the guard cannot read as it came');
  const standIn = seen[0]!.payload.query;
  t.notOk(standIn.includes('a {'), 'the refused text is not passed on');
  t.notOk('operationName' in seen[0]!.payload, 'nor its operation name');
  t.same(seen[1], shallow, 'a text within the limits goes on untouched');
  t.match(guard.take(standIn)?.extensions, { code: 'query_too_complex', measure: 'nesting', value: 102 }, 'the stand-in names the refusal');
  t.equal(guard.take(standIn), null, '… once');
  t.equal(guard.take(standIn.replace(/[0-9a-f]{8}-/, '00000000-')), null, 'a text a client wrote like a stand-in names nothing');
  socket.emit('message', Buffer.from(JSON.stringify({ id: '3', type: 'subscribe', payload: { query: deep } })), false);
  const kept = seen[2]!.payload.query;
  socket.emit('close');
  t.equal(guard.take(kept), null, 'refusals of a closed socket are dropped');
});

t.test('over WebSocket: the same limits, typed errors', async (t) => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const player = await signUp(app, 'Ws');
  const attempt = (query: string) =>
    new Promise<unknown>((resolve) => {
      const c = createClient({ url: `ws://127.0.0.1:${address.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${player.key}` }, retryAttempts: 0, lazy: true });
      t.teardown(() => c.dispose());
      c.subscribe({ query }, { next: (r) => resolve(r), error: (err) => resolve(err), complete: () => resolve('completed') });
    });
  const nested = `subscription { myTurn { ${'x { '.repeat(L.maxNesting)}y${' }'.repeat(L.maxNesting)} } }`;
  t.match(await attempt(nested), [{ extensions: { code: 'query_too_complex', measure: 'nesting' } }], 'nesting');
  const aliased = `subscription { myTurn { ${Array.from({ length: L.maxAliases + 1 }, (_, i) => `a${i}: gameId`).join(' ')} } }`;
  t.match(await attempt(aliased), [{ extensions: { code: 'query_too_complex', measure: 'aliases' } }], 'aliases');
  const tokens = `subscription { myTurn { ${'gameId '.repeat(L.maxTokens)}} }`;
  t.match(await attempt(tokens), [{ extensions: { code: 'query_too_complex', measure: 'tokens' } }], 'tokens');
  let deep = 'x';
  for (let i = 0; i < 5000; i++) deep = `a { ${deep} }`;
  // Mercurius parses a WebSocket document (recursively) before any hook runs:
  // this one would overflow its parser. It is refused on its raw text first.
  const got = await attempt(`subscription Deep { myTurn { ${deep} } }`);
  t.match(got, [{ extensions: { code: 'query_too_complex', measure: 'nesting', value: 5002, limit: L.maxNesting } }], '5,000 levels deep: typed');
  t.notMatch(JSON.stringify(got), /Maximum call stack|internal_error|\.ts:\d+/, 'no internals');
  // Both subprotocols, with the subscription sent right behind connection_init
  // (not waiting for the ack): the error comes after the ack, under the
  // message's id, and the connection stays usable.
  for (const [protocol, start] of [['graphql-transport-ws', 'subscribe'], ['graphql-ws', 'start']] as const) {
    const ws = new WebSocket(`ws://127.0.0.1:${address.port}/graphql`, protocol);
    t.teardown(() => ws.close());
    const received: Array<{ type: string; id?: string; payload?: unknown }> = [];
    const errors = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const msg = JSON.parse(data.toString()) as { type: string; id?: string; payload?: unknown };
        if (msg.type === 'ping' || msg.type === 'ka') return; // keep-alives
        received.push(msg);
        if (received.filter((m) => m.type === 'error').length === 2) resolve();
      });
    });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${player.key}` } }));
    ws.send(JSON.stringify({ id: 'deep', type: start, payload: { query: `subscription Deep { myTurn { ${deep} } }`, operationName: 'Deep' } }));
    ws.send(JSON.stringify({ id: 'unknown', type: start, payload: { query: 'subscription { noSuchField }' } }));
    await errors;
    t.same(received.map((m) => [m.type, m.id]), [['connection_ack', undefined], ['error', 'deep'], ['error', 'unknown']], `${protocol}: ack, then each error under its id`);
    t.match(received[1]?.payload, [{ extensions: { code: 'query_too_complex', measure: 'nesting' } }], `${protocol}: typed`);
    t.notMatch(JSON.stringify(received[2]?.payload), /query_too_complex/, `${protocol}: the next document is judged on its own`);
  }
  const health = await app.inject({ method: 'GET', url: '/healthz' });
  t.equal(health.statusCode, 200, 'the server still answers');
});
