// Request bodies that are not JSON objects, and single-value headers sent twice (found by
// black-box probing). PATCH /leagues/:id with the JSON body null answered 200 (null read as {});
// webhook routes passed null, arrays and strings to the service as they came. Two Authorization
// headers were answered as the first one's key (Node keeps the first); two Idempotency-Key or
// X-Act-As headers were joined ("a, b") and taken for one odd value. Now every such request is
// 400 invalid_request and changes nothing. So is an unknown field in the bodies of POST /games,
// /games/:id/actions, /games/:id/invites and /games/import (they were ignored: {"visibilty":
// "private"} created a public game, an action with a misspelt expectedVersion was applied
// without the version check). A JSON body that is not valid UTF-8 was decoded with U+FFFD in
// place of its bad bytes and stored so ("Zoë" in Latin-1 became "Zo\uFFFD"), and a body with a
// Content-Encoding (gzip) was read as if uncompressed ("not valid JSON", or taken as it came when
// the header lied): now 400 and 415. Real Postgres.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { newGame } from './app-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, webhookAllowPrivate: true }), { store });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('not listening');
const port = address.port;

/** A request with raw headers (pairs, repeats kept as sent) and a raw body. */
function raw(method: string, path: string, headers: string[], body?: string | Buffer): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    // With raw headers Node adds none of its own: Host and the body's length are ours to send.
    const own = ['host', `127.0.0.1:${port}`, ...(body === undefined ? [] : ['content-length', String(Buffer.byteLength(body))])];
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: [...own, ...headers] }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const ada = await signup(app, 'Ada');
const bob = await signup(app, 'Bob');
const made = await ada.req('POST', '/leagues', { name: 'Bodies', gameType: 'richard-iii', format: 'round-robin' });
t.equal(made.statusCode, 201);
const league = made.json() as { id: string; name: string };
const hook = await ada.req('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['game.finished'] });

t.test('a body that is JSON null, an array, a string or a number: 400 invalid_request, nothing changes', async (t) => {
  const routes: Array<[string, string]> = [
    ['PATCH', `/leagues/${league.id}`],
    ['POST', '/leagues'],
    ['POST', '/games'],
    ['POST', '/players'],
    ['POST', '/me/keys'],
    ['POST', '/webhooks'],
    ['POST', '/games/import'],
  ];
  if (hook.statusCode === 201) routes.push(['PATCH', `/webhooks/${hook.json().id}`], ['POST', `/webhooks/${hook.json().id}/redeliver`]);
  for (const [method, url] of routes) {
    for (const body of ['null', '[]', '[{"name":"x"}]', '"text"', '12']) {
      const res = await raw(method, url, ['authorization', `Bearer ${ada.key}`, 'content-type', 'application/json'], body);
      t.equal(res.status, 400, `${method} ${url} ${body}`);
      t.match(res.json, { code: 'invalid_request', detail: /body must be a JSON object/ }, `${method} ${url} ${body}: typed`);
    }
  }
  const after = await ada.req('GET', `/leagues/${league.id}`);
  t.equal(after.json().name, 'Bodies', 'the league is unchanged');
  // No body at all is still fine where a route takes none.
  const gameId = await newGame(ada, bob);
  const noBody = await raw('POST', `/games/${gameId}/resign`, ['authorization', `Bearer ${ada.key}`]);
  t.not(noBody.status, 400, 'no body: not refused as a body');
  t.ok(noBody.status < 500);
});

t.test('single-value headers sent twice: 400 invalid_request, nothing changes', async (t) => {
  const gameId = await newGame(ada, bob);
  const twice: Array<[string, string[]]> = [
    ['Authorization', ['authorization', `Bearer ${bob.key}`, 'Authorization', `Bearer ${ada.key}`]],
    ['X-Act-As', ['authorization', `Bearer ${ada.key}`, 'x-act-as', ada.id, 'x-act-as', bob.id]],
    ['Idempotency-Key', ['authorization', `Bearer ${ada.key}`, 'idempotency-key', 'one', 'Idempotency-Key', 'two']],
    ['Content-Type', ['authorization', `Bearer ${ada.key}`, 'content-type', 'application/json', 'content-type', 'text/plain']],
  ];
  for (const [name, headers] of twice) {
    const res = await raw('POST', `/games/${gameId}/resign`, [...headers, ...(headers.includes('content-type') ? [] : ['content-type', 'application/json'])], '{}');
    t.equal(res.status, 400, name);
    t.match(res.json, { code: 'invalid_request', detail: new RegExp(`${name} header is sent more than once`, 'i') }, `${name}: typed`);
  }
  t.equal((await ada.req('GET', `/games/${gameId}`)).json().status, 'active', 'nobody resigned');
  // GraphQL too (its own error shape), and a header that may repeat (Accept) is fine.
  const gql = await raw('POST', '/graphql', ['authorization', `Bearer ${ada.key}`, 'authorization', `Bearer ${bob.key}`, 'content-type', 'application/json'], JSON.stringify({ query: '{ me { id } }' }));
  t.equal(gql.status, 400);
  t.match(gql.json, { errors: [{ extensions: { code: 'invalid_request' } }] });
  const ok = await raw('GET', `/games/${gameId}`, ['authorization', `Bearer ${ada.key}`, 'accept', 'application/json', 'accept', '*/*']);
  t.equal(ok.status, 200, 'Accept twice is fine');
});

t.test('unknown fields in a game, action, invite or import body: 400 invalid_request, nothing changes', async (t) => {
  const before = (await ada.req('GET', '/games?player=me')).json().items.length as number;
  const misspelt = await ada.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], visibilty: 'private' });
  t.equal(misspelt.statusCode, 400, 'POST /games visibilty');
  t.match(misspelt.json(), { code: 'invalid_request', fields: ['visibilty'] });
  t.equal((await ada.req('GET', '/games?player=me')).json().items.length, before, 'no game created');

  const gameId = await newGame(ada, bob);
  const legal = (await ada.req('GET', `/games/${gameId}/actions?role=York`)).json() as { version: number; actions: unknown[] };
  const action = await ada.req('POST', `/games/${gameId}/actions`, { action: legal.actions[0], expectedVersoin: legal.version + 5 });
  t.equal(action.statusCode, 400, 'an action with expectedVersoin');
  t.match(action.json(), { code: 'invalid_request', fields: ['expectedVersoin'] });
  t.equal((await ada.req('GET', `/games/${gameId}`)).json().version, legal.version, 'not applied');

  const open = (await ada.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] })).json().id as string;
  const invite = await ada.req('POST', `/games/${open}/invites`, { role: 'Lancaster', expires: 5 });
  t.equal(invite.statusCode, 400, 'an invite with an unknown field');

  const imported = await ada.req('POST', '/games/import', { record: {}, visibilty: 'private' });
  t.equal(imported.statusCode, 400, 'an import with visibilty');
  t.match(imported.json(), { code: 'invalid_request', fields: ['visibilty'] });
  // The known fields still work.
  t.equal((await ada.req('POST', `/games/${open}/invites`, { role: 'Lancaster' })).statusCode, 201);
  const ok = await ada.req('POST', `/games/${gameId}/actions`, { action: legal.actions[0], expectedVersion: legal.version, role: 'York', idempotencyKey: 'k1' });
  t.equal(ok.statusCode, 200, 'an action with every known field');
});

t.test('a body that is not valid UTF-8: 400 invalid_request; a compressed body (Content-Encoding): 415; nothing changes', async (t) => {
  const auth = ['authorization', `Bearer ${ada.key}`];
  const name = () => ada.req('GET', `/leagues/${league.id}`).then((r) => (r.json() as { name: string }).name);
  const before = await name();
  // "Zoë" in Latin-1 (0xEB), declared or not: JSON is UTF-8 (RFC 8259), its charset parameter changes nothing.
  const latin1 = Buffer.concat([Buffer.from('{"name":"Zo'), Buffer.from([0xeb]), Buffer.from('"}')]);
  for (const type of ['application/json', 'application/json; charset=iso-8859-1']) {
    const res = await raw('PATCH', `/leagues/${league.id}`, [...auth, 'content-type', type], latin1);
    t.equal(res.status, 400, type);
    t.match(res.json, { code: 'invalid_request', detail: /not valid UTF-8/ }, `${type}: typed`);
  }
  const signupLatin1 = await raw('POST', '/players', ['content-type', 'application/json'], latin1);
  t.equal(signupLatin1.status, 400, 'POST /players: refused (no player named with U+FFFD)');
  const gqlLatin1 = await raw('POST', '/graphql', [...auth, 'content-type', 'application/json'], Buffer.concat([Buffer.from('{"query":"{ me { id } }","variables":{"a":"'), Buffer.from([0xff]), Buffer.from('"}}')]));
  t.equal(gqlLatin1.status, 400, 'GraphQL');
  t.match(gqlLatin1.json, { errors: [{ extensions: { code: 'invalid_request' } }] });
  // An application/graphql body (the query's text): a key labelled "Zo\uFFFD" was created.
  const keys = async () => ((await ada.req('GET', '/me/keys')).json() as { keys: unknown[] }).keys.length;
  const keysBefore = await keys();
  const gqlText = await raw('POST', '/graphql', [...auth, 'content-type', 'application/graphql'], Buffer.concat([Buffer.from('mutation { createKey(label: "Zo'), Buffer.from([0xeb]), Buffer.from('") { label } }')]));
  t.equal(gqlText.status, 400, 'application/graphql');
  t.match(gqlText.json, { errors: [{ message: /not valid UTF-8/, extensions: { code: 'invalid_request' } }] });
  t.equal(await keys(), keysBefore, 'no key created');
  // Compressed bodies are not read (gzip bytes were "not valid JSON"; plain JSON under a gzip header was taken as it came).
  const json = JSON.stringify({ name: 'Compressed' });
  for (const [encoding, body] of [['gzip', gzipSync(json)], ['gzip', json], ['deflate', json], ['br', json]] as const) {
    const res = await raw('PATCH', `/leagues/${league.id}`, [...auth, 'content-type', 'application/json', 'content-encoding', encoding], body);
    t.equal(res.status, 415, `Content-Encoding ${encoding}${typeof body === 'string' ? ' (a plain body)' : ''}`);
    t.match(res.json, { code: 'invalid_request', detail: /Content-Encoding/ });
  }
  const gqlGzip = await raw('POST', '/graphql', [...auth, 'content-type', 'application/json', 'content-encoding', 'gzip'], gzipSync(JSON.stringify({ query: '{ me { id } }' })));
  t.equal(gqlGzip.status, 415, 'GraphQL gzip');
  t.match(gqlGzip.json, { errors: [{ extensions: { code: 'invalid_request' } }] });
  t.equal(await name(), before, 'the league is unchanged');
  // UTF-8 (any charset label), identity, and no body under a Content-Encoding are fine.
  const utf8 = await raw('PATCH', `/leagues/${league.id}`, [...auth, 'content-type', 'application/json; charset=UTF-8', 'content-encoding', 'identity'], JSON.stringify({ name: 'Zoë' }));
  t.equal(utf8.status, 200);
  t.equal(await name(), 'Zoë');
  const empty = await raw('PATCH', `/leagues/${league.id}`, [...auth, 'content-type', 'application/json', 'content-encoding', ''], JSON.stringify({ name: 'Zoë' }));
  t.equal(empty.status, 200, 'an empty Content-Encoding is none');
  const noBody = await raw('GET', `/leagues/${league.id}`, ['content-encoding', 'gzip']);
  t.equal(noBody.status, 200, 'a GET without a body');
  // The body limit still holds.
  const big = await raw('PATCH', `/leagues/${league.id}`, [...auth, 'content-type', 'application/json'], JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }));
  t.equal(big.status, 413);
});

/** A request whose body is sent chunked (Transfer-Encoding: chunked, no Content-Length): `chunks` as they are written, none for an empty body. */
function chunked(method: string, path: string, headers: string[], chunks: string[]): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: ['host', `127.0.0.1:${port}`, 'transfer-encoding', 'chunked', ...headers] }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

t.test('a chunked body of zero bytes without a Content-Type is no body, as Content-Length: 0 is (it was 415)', async (t) => {
  const auth = ['authorization', `Bearer ${ada.key}`];
  // POST /me/keys takes an optional body (a label): Node's http.request sends a POST without a body this way.
  const empty = await chunked('POST', '/me/keys', auth, []);
  t.equal(empty.status, 201, 'empty chunked body');
  t.type(empty.json?.key, 'string');
  const zero = await raw('POST', '/me/keys', [...auth, 'content-length', '0']);
  t.equal(zero.status, 201, 'Content-Length: 0');
  // A body with no Content-Type is still refused (415), chunked or not; so is an unknown media type.
  for (const [what, res] of [
    ['chunked, no Content-Type', await chunked('POST', '/me/keys', auth, ['{"label":', '"x"}'])],
    ['Content-Length, no Content-Type', await raw('POST', '/me/keys', auth, '{"label":"x"}')],
    ['text/xml', await raw('POST', '/me/keys', [...auth, 'content-type', 'text/xml'], '<label>x</label>')],
    ['text/xml, chunked', await chunked('POST', '/me/keys', [...auth, 'content-type', 'text/xml'], ['<label>', 'x</label>'])],
  ] as const) {
    t.equal(res.status, 415, what);
    t.match(res.json, { code: 'invalid_request', status: 415 }, `${what}: typed`);
  }
  // A JSON body sent chunked is read as before.
  const labelled = await chunked('POST', '/me/keys', [...auth, 'content-type', 'application/json'], ['{"label":', '"chunked"}']);
  t.equal(labelled.status, 201);
  t.equal(labelled.json?.label, 'chunked');
  // GraphQL's own answer (its error handler's status) is unchanged: an Unsupported Media Type error.
  for (const res of [await raw('POST', '/graphql', [...auth, 'content-type', 'text/xml'], '<query/>'), await chunked('POST', '/graphql', auth, ['{"query":"{ me { id } }"}'])]) {
    t.match(res.json, { errors: [{ message: 'Unsupported Media Type', extensions: { code: 'invalid_request' } }] }, 'GraphQL');
  }
  // No route: 404, whatever the body.
  t.equal((await chunked('POST', '/no-such-route', auth, [])).status, 404);
  t.equal((await raw('POST', '/no-such-route', [...auth, 'content-type', 'text/xml'], '<x/>')).status, 404);
});

t.test('a JSON body with a __proto__ or constructor.prototype key: 400 invalid_request saying so (it said "not valid JSON")', async (t) => {
  const auth = ['authorization', `Bearer ${ada.key}`, 'content-type', 'application/json'];
  const name = () => ada.req('GET', `/leagues/${league.id}`).then((r) => (r.json() as { name: string }).name);
  const before = await name();
  for (const body of ['{"ai":{"__proto__":"random"}}', '{"name":"P","__proto__":{"admin":true}}', '{"name":"P","constructor":{"prototype":{"admin":true}}}']) {
    const res = await raw('PATCH', `/leagues/${league.id}`, auth, body);
    t.equal(res.status, 400, body);
    t.match(res.json, { code: 'invalid_request', detail: /__proto__.*constructor\.prototype.*not allowed/ }, `${body}: says why`);
    t.notMatch(res.json.detail, /not valid JSON/, `${body}: not "not valid JSON"`);
  }
  const entry = await raw('POST', `/leagues/${league.id}/entries`, auth, '{"ai":{"__proto__":"random"}}');
  t.match(entry, { status: 400, json: { code: 'invalid_request', detail: /__proto__/ } }, 'the probe\'s body');
  // GraphQL's JSON body: the same message, as a GraphQL error.
  const gql = await raw('POST', '/graphql', auth, '{"query":"{ me { id } }","variables":{"__proto__":{"x":1}}}');
  t.match(gql.json, { errors: [{ message: /__proto__/, extensions: { code: 'invalid_request' } }] }, 'GraphQL');
  // JSON that is not valid is still said to be so; a key that merely contains the word is fine.
  const broken = await raw('PATCH', `/leagues/${league.id}`, auth, '{"name":');
  t.match(broken, { status: 400, json: { code: 'invalid_request', detail: /not valid JSON/ } });
  const broken2 = await raw('PATCH', `/leagues/${league.id}`, auth, '{"__proto__":');
  t.match(broken2, { status: 400, json: { code: 'invalid_request', detail: /not valid JSON/ } }, 'invalid JSON with a __proto__ key is invalid JSON');
  t.equal(await name(), before, 'the league is unchanged');
  const fine = await raw('PATCH', `/leagues/${league.id}`, auth, '{"name":"__proto__ constructor"}');
  t.equal(fine.status, 200, 'the words in a value are fine');
});
