// CORS against the real server (plugins/cors.ts, CORS_ORIGINS): preflights, simple requests,
// errors (problem+json, 401, 404, 429), GraphQL and SSE streams carry the headers a browser
// needs; a list of origins answers only those; off answers none. Over real sockets (undici),
// as a browser's requests arrive; test/http/cors-browser.test.ts is the browser itself.
import t from 'tap';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import type { Config } from '../../src/config.ts';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE } from '../../src/http/plugins/cors.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { SseClient } from './sse-helpers.ts';
import WebSocket from 'ws';
import net from 'node:net';
import { within } from '../helpers/streams.ts';

const { store, databaseUrl } = await openTestStore(t);

async function serve(overrides: Partial<Config>): Promise<string> {
  const app: FastifyInstance = await buildApp(testConfig({ databaseUrl, jobs: false, ...overrides }), { store });
  t.teardown(() => app.close());
  return app.listen({ port: 0, host: '127.0.0.1' });
}

const anyOrigin = await serve({}); // corsOrigins absent: the default, '*'
const listed = await serve({ corsOrigins: ['https://app.example', 'http://localhost:5173'] });
const off = await serve({ corsOrigins: null });

const WEB = 'https://client.example';

async function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

function list(value: unknown): string[] {
  return String(value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
}

async function signup(base: string): Promise<string> {
  const res = await call(base, 'POST', '/players', {}, { name: `cors-${Math.random().toString(36).slice(2, 8)}` });
  if (res.status !== 201) throw new Error(res.text);
  return (JSON.parse(res.text) as { key: { key: string } }).key.key;
}

t.test('preflight: 204 with the methods, the headers clients send, Max-Age, no credentials', async (t) => {
  const res = await call(anyOrigin, 'OPTIONS', '/games', {
    origin: WEB,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type, idempotency-key',
  });
  t.equal(res.status, 204);
  t.equal(res.text, '');
  t.equal(res.headers['access-control-allow-origin'], '*');
  t.equal(res.headers['access-control-allow-credentials'], undefined, 'never credentials with *');
  const methods = list(res.headers['access-control-allow-methods']);
  for (const m of ['get', 'post', 'put', 'patch', 'delete']) t.ok(methods.includes(m), `allows ${m}`);
  const allowed = list(res.headers['access-control-allow-headers']);
  for (const h of ['authorization', 'content-type', 'idempotency-key', 'if-none-match', 'last-event-id', 'x-act-as']) t.ok(allowed.includes(h), `allows ${h}`);
  t.same(allowed, CORS_ALLOWED_HEADERS.map((h) => h.toLowerCase()));
  t.equal(res.headers['access-control-max-age'], String(CORS_MAX_AGE));

  // Before authentication: a preflight of an operator route is answered all the same.
  const admin = await call(anyOrigin, 'OPTIONS', '/admin/apps', { origin: WEB, 'access-control-request-method': 'POST' });
  t.equal(admin.status, 204);
  // Of a route with parameters, and of the SSE stream (EventSource with Last-Event-ID, or a fetch with Authorization).
  const sse = await call(anyOrigin, 'OPTIONS', '/games/00000000-0000-4000-8000-000000000000/events', {
    origin: WEB,
    'access-control-request-method': 'GET',
    'access-control-request-headers': 'authorization, last-event-id',
  });
  t.equal(sse.status, 204);
  t.equal(sse.headers['access-control-allow-origin'], '*');
  // An OPTIONS that is no preflight stays a 404 problem document, as without CORS.
  for (const headers of [{}, { origin: WEB }, { 'access-control-request-method': 'GET' }] as Array<Record<string, string>>) {
    const plain = await call(anyOrigin, 'OPTIONS', '/games', headers);
    t.equal(plain.status, 404, JSON.stringify(headers));
    t.match(plain.headers['content-type'], /^application\/problem\+json/);
    t.match(JSON.parse(plain.text), { status: 404, code: 'not_found' });
  }
});

t.test('a simple request carries Allow-Origin and exposes the headers clients read', async (t) => {
  const res = await call(anyOrigin, 'GET', '/game-types', { origin: WEB });
  t.equal(res.status, 200);
  t.equal(res.headers['access-control-allow-origin'], '*');
  t.equal(res.headers['access-control-allow-credentials'], undefined);
  const exposed = list(res.headers['access-control-expose-headers']);
  for (const h of ['etag', 'location', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'idempotent-replayed', 'x-game-version']) {
    t.ok(exposed.includes(h), `exposes ${h}`);
  }
  t.same(exposed, CORS_EXPOSED_HEADERS.map((h) => h.toLowerCase()));

  // A write with a key: 201 with Location, readable by the page.
  const key = await signup(anyOrigin);
  const created = await call(anyOrigin, 'POST', '/games', { origin: WEB, authorization: `Bearer ${key}` }, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] });
  t.equal(created.status, 201, created.text);
  t.ok(created.headers.location);
  t.equal(created.headers['access-control-allow-origin'], '*');
});

t.test('errors carry the headers, so a page can read the problem document', async (t) => {
  const unauthorized = await call(anyOrigin, 'GET', '/me', { origin: WEB, authorization: 'Bearer not-a-key' });
  t.equal(unauthorized.status, 401);
  t.match(unauthorized.headers['content-type'], /^application\/problem\+json/);
  t.equal(unauthorized.headers['access-control-allow-origin'], '*');
  t.ok(list(unauthorized.headers['access-control-expose-headers']).includes('retry-after'));

  const missing = await call(anyOrigin, 'GET', '/games/00000000-0000-4000-8000-000000000000', { origin: WEB });
  t.equal(missing.status, 404);
  t.equal(JSON.parse(missing.text).code, 'not_found');
  t.equal(missing.headers['access-control-allow-origin'], '*');

  const noRoute = await call(anyOrigin, 'GET', '/no-such-route', { origin: WEB });
  t.equal(noRoute.status, 404);
  t.equal(noRoute.headers['access-control-allow-origin'], '*');

  const invalid = await call(anyOrigin, 'POST', '/players', { origin: WEB }, { name: 42 });
  t.equal(invalid.status, 400);
  t.equal(invalid.headers['access-control-allow-origin'], '*');
});

t.test('a rate-limited answer (429 with Retry-After) carries them too', async (t) => {
  const limited = await serve({ rateLimit: { max: 1000, anonymousMax: 1, appMax: 1000, windowMs: 60_000 } });
  await call(limited, 'GET', '/game-types', { origin: WEB });
  const res = await call(limited, 'GET', '/game-types', { origin: WEB });
  t.equal(res.status, 429);
  t.ok(res.headers['retry-after']);
  t.equal(res.headers['access-control-allow-origin'], '*');
  t.ok(list(res.headers['access-control-expose-headers']).includes('retry-after'));
  // A preflight is not refused by the limit (it runs before it and counts nothing).
  const pre = await call(limited, 'OPTIONS', '/game-types', { origin: WEB, 'access-control-request-method': 'GET' });
  t.equal(pre.status, 204);
});

t.test('GraphQL POST carries the headers', async (t) => {
  const pre = await call(anyOrigin, 'OPTIONS', '/graphql', { origin: WEB, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' });
  t.equal(pre.status, 204);
  const res = await call(anyOrigin, 'POST', '/graphql', { origin: WEB }, { query: '{ server { name } }' });
  t.equal(res.status, 200);
  t.same(JSON.parse(res.text), { data: { server: { name: 'herald' } } });
  t.equal(res.headers['access-control-allow-origin'], '*');
});

t.test('an SSE stream is answered with the headers', async (t) => {
  const key = await signup(anyOrigin);
  const stream = await SseClient.open(`${anyOrigin}/me/events`, { origin: WEB, authorization: `Bearer ${key}` });
  t.teardown(() => stream.close());
  t.match(stream.headers['content-type'], /^text\/event-stream/);
  t.equal(stream.headers['access-control-allow-origin'], '*');
  t.ok(list(stream.headers['access-control-expose-headers']).includes('ratelimit-remaining'));

  // EventSource's way: the key in the URL, no preflight at all.
  const viaQuery = await SseClient.open(`${anyOrigin}/me/events?access_token=${encodeURIComponent(key)}`, { origin: WEB });
  t.teardown(() => viaQuery.close());
  t.equal(viaQuery.headers['access-control-allow-origin'], '*');
});

t.test('the HTML pages are never readable with credentials', async (t) => {
  const res = await call(anyOrigin, 'GET', '/play/00000000-0000-4000-8000-000000000000', { origin: WEB, accept: 'text/html' });
  t.equal(res.status, 200);
  t.equal(res.headers['access-control-allow-credentials'], undefined);
  t.equal(res.headers['set-cookie'], undefined, 'no cookie to send along');
  const listedPage = await call(listed, 'GET', '/play/00000000-0000-4000-8000-000000000000', { origin: 'https://app.example', accept: 'text/html' });
  t.equal(listedPage.headers['access-control-allow-credentials'], undefined);
});

t.test('a list of origins: those are answered with their own origin, others without CORS', async (t) => {
  const ok = await call(listed, 'GET', '/game-types', { origin: 'https://app.example' });
  t.equal(ok.headers['access-control-allow-origin'], 'https://app.example');
  t.equal(ok.headers['access-control-allow-credentials'], undefined);
  t.ok(list(ok.headers.vary).includes('origin'), 'Vary: Origin');
  const local = await call(listed, 'OPTIONS', '/games', { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' });
  t.equal(local.status, 204);
  t.equal(local.headers['access-control-allow-origin'], 'http://localhost:5173');

  const other = await call(listed, 'GET', '/game-types', { origin: 'https://evil.example' });
  t.equal(other.status, 200, 'the server answers; the browser keeps the answer from the page');
  t.equal(other.headers['access-control-allow-origin'], undefined);
  const otherPre = await call(listed, 'OPTIONS', '/games', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
  t.equal(otherPre.headers['access-control-allow-origin'], undefined);

  // A route that sets its own Vary (Accept) keeps Origin in it.
  const page = await call(listed, 'GET', '/play/00000000-0000-4000-8000-000000000000', { origin: 'https://app.example' });
  t.same(list(page.headers.vary).sort(), ['accept', 'accept-language', 'origin']);
  // And errors too.
  const missing = await call(listed, 'GET', '/games/00000000-0000-4000-8000-000000000000', { origin: 'https://app.example' });
  t.equal(missing.status, 404);
  t.equal(missing.headers['access-control-allow-origin'], 'https://app.example');
  t.ok(list(missing.headers.vary).includes('origin'));
});

t.test('off: no CORS headers, OPTIONS is 404', async (t) => {
  const pre = await call(off, 'OPTIONS', '/games', { origin: WEB, 'access-control-request-method': 'POST' });
  t.equal(pre.status, 404);
  t.match(pre.headers['content-type'], /^application\/problem\+json/);
  t.equal(pre.headers['access-control-allow-origin'], undefined);
  const res = await call(off, 'GET', '/game-types', { origin: WEB });
  t.equal(res.status, 200);
  t.equal(res.headers['access-control-allow-origin'], undefined);
  t.equal(res.headers['access-control-expose-headers'], undefined);
});

/**
 * A GraphQL WebSocket to `base` with these headers: 101 with connection_ack, or the HTTP status
 * the upgrade was refused with and its code (a GraphQL error at /graphql, as herald-auth's).
 */
async function upgrade(base: string, headers: Record<string, string>): Promise<{ status: number; code?: string }> {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
  ws.on('error', () => {}); // a refused upgrade; terminate() before the handshake
  try {
    return await within(
      new Promise((resolve) => {
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => {
            const doc = JSON.parse(body) as { errors?: Array<{ extensions?: { code?: string } }> };
            resolve({ status: res.statusCode ?? 0, code: doc.errors?.[0]?.extensions?.code });
          });
        });
        ws.once('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
        ws.on('message', (d) => {
          if ((JSON.parse(String(d)) as { type: string }).type === 'connection_ack') resolve({ status: 101 });
        });
      }),
      'the upgrade to be answered',
    );
  } finally {
    ws.terminate();
  }
}

t.test('WebSocket upgrades: Origin checked against CORS_ORIGINS unless *, 403 origin_not_allowed (found in review)', async (t) => {
  const own = (base: string) => ({ origin: base }); // a page the server serves itself
  // Any origin with the default.
  t.same(await upgrade(anyOrigin, { origin: WEB }), { status: 101 }, '*: another origin');
  t.same(await upgrade(anyOrigin, {}), { status: 101 }, '*: no Origin');
  // A list: the listed origins, the server's own, and clients that send no Origin (not browsers).
  t.same(await upgrade(listed, { origin: 'https://app.example' }), { status: 101 }, 'list: a listed origin');
  t.same(await upgrade(listed, own(listed)), { status: 101 }, 'list: the server’s own origin');
  t.same(await upgrade(listed, {}), { status: 101 }, 'list: no Origin');
  for (const origin of [WEB, 'null', 'https://app.example.evil', 'http://app.example']) {
    t.same(await upgrade(listed, { origin }), { status: 403, code: 'origin_not_allowed' }, `list: ${origin} refused`);
  }
  // Off: no other origin at all.
  t.same(await upgrade(off, { origin: WEB }), { status: 403, code: 'origin_not_allowed' }, 'off: another origin refused');
  t.same(await upgrade(off, own(off)), { status: 101 }, 'off: the server’s own origin');
  t.same(await upgrade(off, {}), { status: 101 }, 'off: no Origin');
  // The HTTP API is unchanged: a request from another origin is answered (the browser decides).
  t.equal((await call(listed, 'GET', '/healthz', { origin: WEB })).status, 200);
});

t.test('a refused upgrade’s socket is closed once answered (it stayed open, unread, until the client left)', async (t) => {
  const rawUpgrade = (base: string, headers: Record<string, string>) => {
    const { hostname, port } = new URL(base);
    const socket = net.connect(Number(port), hostname);
    t.teardown(() => socket.destroy());
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    const lines = ['GET /graphql HTTP/1.1', `Host: ${hostname}:${port}`, 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol: graphql-transport-ws'];
    for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    return within(new Promise<string>((resolve) => socket.once('close', () => resolve(received))), () => `the server to close the socket; got ${JSON.stringify(received)}`, 5000);
  };
  t.match(await rawUpgrade(listed, { Origin: WEB }), /^HTTP\/1\.1 403 /, 'another origin: 403, then closed');
  t.match(await rawUpgrade(anyOrigin, { Authorization: 'Bearer no-such-key' }), /^HTTP\/1\.1 401 /, 'a bad key: 401, then closed');
});
