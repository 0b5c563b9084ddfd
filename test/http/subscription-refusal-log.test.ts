// A GraphQL subscription refused at its start over WebSocket (forbidden, not found, bad
// arguments) is a client error: logged at info as "graphql subscription refused" with its code,
// as REST logs "request rejected", not at error level as Mercurius logs graphql-js's errors
// array (found by probing: every refusal was an error-level line). A real fault keeps error level.
import { Writable } from 'node:stream';
import t from 'tap';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { GraphQLError } from 'graphql';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { within } from '../helpers/streams.ts';
import { signup } from './rest-helpers.ts';

const lines: Array<Record<string, any>> = [];
const logStream = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); done(); } });
const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp({ ...testConfig({ databaseUrl }), logLevel: 'info' }, { store, logStream });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const alice = await signup(app, 'Alice');
const missing = '518624be-b6ac-45a7-830e-74067aadec4a';

t.test('refused subscription starts are logged at info with their code, not at error level', async (t) => {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const ws = createClient({ url: `ws://127.0.0.1:${address.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${alice.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => ws.dispose());
  const refusal = (query: string) =>
    within(new Promise<unknown>((resolve) => {
      ws.subscribe({ query }, { next: (r) => resolve(r), error: (err) => resolve(err), complete: () => resolve('complete') });
    }), `an answer to ${query}`);
  for (const [query, code] of [
    [`subscription { gameEvents(gameId: "${missing}") { version } }`, 'not_found'],
    [`subscription { gameClock(gameId: "${missing}") { gameId } }`, 'not_found'],
    [`subscription { gameEvents(gameId: "${missing}", since: -1) { version } }`, 'invalid_request'],
  ] as const) {
    const from = lines.length;
    const got = await refusal(query);
    const errors = (Array.isArray(got) ? got : [got]) as Array<{ extensions?: { code?: string } }>;
    t.equal(errors[0]?.extensions?.code, code, `${query}: ${code}`);
    for (let i = 0; i < 200 && !lines.slice(from).some((l) => l.msg === 'graphql subscription refused'); i++) await new Promise((r) => setTimeout(r, 10));
    const logged = lines.slice(from);
    t.match(logged.find((l) => l.msg === 'graphql subscription refused'), { level: 30, refused: [{ code }] }, `${query}: logged at info with its code`);
    t.same(logged.filter((l) => l.level >= 50), [], `${query}: nothing at error level`);
  }
  // What is not a client refusal keeps its level: an internal_error among the errors.
  const from = lines.length;
  app.log.error([new GraphQLError('x', { extensions: { code: 'forbidden', status: 403 } }), new GraphQLError('y', { extensions: { code: 'internal_error' } })]);
  app.log.error(new Error('a real fault'));
  t.equal(lines.slice(from).filter((l) => l.level === 50).length, 2, 'faults stay at error level');
});
