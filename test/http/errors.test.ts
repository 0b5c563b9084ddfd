import t from 'tap';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import errors from '../../src/http/plugins/errors.ts';
import { HttpProblem } from '../../src/http/problem.ts';
import { SERVICE_ERROR_STATUS } from '../../src/http/service-errors.ts';
import { ERROR_CODES, ServiceError } from '../../src/service/api.ts';

async function appWithRoutes() {
  const app = Fastify({ logger: false });
  await app.register(errors);
  app.get('/conflict', async () => {
    throw new HttpProblem(409, 'version_conflict', 'game 1 is at version 4, not 3', { currentVersion: 4 });
  });
  app.get('/service', async () => {
    throw new ServiceError('version_conflict', 'game 1 is at version 4, not 3', { currentVersion: 4 });
  });
  app.get('/reserved', async () => {
    throw new ServiceError('game_over', 'The game is finished.', { status: 'finished', code: 'x', gameStatus: 'finished' });
  });
  app.get('/bug', async () => {
    throw new Error('secret internals');
  });
  app.post('/typed', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

t.test('HttpProblem becomes its problem document, with extensions', async (t) => {
  const app = await appWithRoutes();
  t.teardown(() => app.close());
  const res = await app.inject('/conflict');
  t.equal(res.statusCode, 409);
  t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  t.same(res.json(), {
    type: 'urn:herald:problem:version-conflict',
    title: 'Conflict',
    status: 409,
    detail: 'game 1 is at version 4, not 3',
    code: 'version_conflict',
    currentVersion: 4,
  });
});

t.test('ServiceError: the HTTP layer gives its code a status', async (t) => {
  const app = await appWithRoutes();
  t.teardown(() => app.close());
  const res = await app.inject('/service');
  t.equal(res.statusCode, 409);
  t.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
  t.same(res.json(), {
    type: 'urn:herald:problem:version-conflict',
    title: 'Conflict',
    status: 409,
    detail: 'game 1 is at version 4, not 3',
    code: 'version_conflict',
    currentVersion: 4,
  });
  t.notOk('status' in new ServiceError('not_found', 'x'), 'the service error itself has no HTTP status');
});

t.test('extensions never override the problem\'s own members', async (t) => {
  const app = await appWithRoutes();
  t.teardown(() => app.close());
  const res = await app.inject('/reserved');
  t.equal(res.statusCode, 409);
  t.same(res.json(), {
    type: 'urn:herald:problem:game-over',
    title: 'Conflict',
    status: 409,
    detail: 'The game is finished.',
    code: 'game_over',
    gameStatus: 'finished',
  });
});

t.test('every service error code has a client-error or unavailable status', async (t) => {
  t.same(Object.keys(SERVICE_ERROR_STATUS).sort(), [...ERROR_CODES].sort());
  for (const code of ERROR_CODES) {
    const status = SERVICE_ERROR_STATUS[code];
    t.ok((status >= 400 && status < 500) || status === 503, `${code}: ${status}`);
  }
});

t.test('unexpected errors: 500 without internals', async (t) => {
  const app = await appWithRoutes();
  t.teardown(() => app.close());
  const res = await app.inject('/bug');
  t.equal(res.statusCode, 500);
  t.match(res.json(), { status: 500, code: 'internal_error', title: 'Internal Server Error' });
  t.notMatch(res.body, /secret internals/);
});

t.test('schema validation and malformed JSON: 400 problem+json', async (t) => {
  const app = await appWithRoutes();
  t.teardown(() => app.close());
  const invalid = await app.inject({ method: 'POST', url: '/typed', payload: { n: 'x' } });
  t.equal(invalid.statusCode, 400);
  t.match(invalid.json(), { status: 400, code: 'invalid_request', detail: /n/ });
  const malformed = await app.inject({ method: 'POST', url: '/typed', headers: { 'content-type': 'application/json' }, payload: '{"n":' });
  t.equal(malformed.statusCode, 400);
  t.equal(malformed.headers['content-type'], 'application/problem+json; charset=utf-8');
  t.match(malformed.json(), { status: 400, title: 'Bad Request', code: 'invalid_request', type: 'urn:herald:problem:invalid-request' });
});

t.test('unknown route: 404 problem+json', async (t) => {
  const app = await appWithRoutes();
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'PUT', url: '/nope' });
  t.equal(res.statusCode, 404);
  t.match(res.json(), { code: 'not_found', detail: 'No route for PUT /nope' });
});

t.test('a client that hangs up while its body is read is not "database unavailable" (its reset shares ECONNRESET)', async (t) => {
  // Found by probing: Content-Length 100, two bytes, then the socket closed. Node's request
  // stream fails with "aborted" (code ECONNRESET), which was taken for a database reset: a 503
  // `unavailable` with Retry-After and a warning "request failed: database unavailable".
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>); done(); } });
  const app = Fastify({ logger: { level: 'info', stream } });
  await app.register(errors);
  app.post('/body', async () => ({ ok: true }));
  t.teardown(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write('POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}');
  // The server has the request (its "incoming request" line) before the socket goes.
  while (!lines.some((l) => l.msg === 'incoming request')) await new Promise((r) => setTimeout(r, 10));
  socket.destroy();
  while (!lines.some((l) => l.msg === 'request completed' || l.msg === 'request rejected' || l.msg === 'request failed: database unavailable')) await new Promise((r) => setTimeout(r, 10));
  t.notOk(lines.some((l) => l.msg === 'request failed: database unavailable'), 'not logged as a database failure');
  const rejected = lines.find((l) => l.msg === 'request rejected');
  t.match(rejected, { code: 'invalid_request', detail: /closed the connection/ });
});
