// Strings PostgreSQL cannot store (U+0000, lone UTF-16 surrogates) are refused
// at the edge, for every input path (REST body, query string, path, headers;
// GraphQL variables over POST and GET, and string literals), with 400
// invalid_request and no change; malformed GraphQL requests ({"query": 123})
// and empty query parameters (?role=) are 400s as well.
import t from 'tap';
import pg from 'pg';
import { parse as parseDoc } from 'graphql';
import { findUnstorable, isStorable } from '../../src/http/storable.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { buildApp } from '../../src/http/app.ts';
import { ADMIN_TOKEN, signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN }), { store });
t.teardown(() => app.close());
const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
t.teardown(() => db.end());

const alice = await signup(app, 'Alice');
const bob = await signup(app, 'Bob');
const created = await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: 'guard' });
const gameId = created.json().id as string;
await bob.req('POST', `/games/${gameId}/join`, {});
const legal = (await alice.req('GET', `/games/${gameId}/actions`)).json().actions as unknown[];
const version = (await alice.req('GET', `/games/${gameId}`)).json().version as number;
const keyId = (await alice.req('GET', '/me/keys')).json().keys[0].id as string;

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ['players', 'api_keys', 'games', 'seats', 'actions', 'idempotency_records']) {
    out[table] = (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  }
  return out;
}

// JSON.stringify writes a lone surrogate as the escape \ud800: the raw JSON text a client would send.
const BAD = { nul: 'a\u0000b', highSurrogate: 'a\ud800b', lowSurrogate: '\udc00' };

t.test('isStorable / findUnstorable', async (t) => {
  t.ok(isStorable('York 🂡 \ufffd \u0001 é'), 'pairs, U+FFFD and other control characters are storable');
  for (const [name, s] of Object.entries(BAD)) t.notOk(isStorable(s), name);
  t.same(findUnstorable({ a: [1, { b: 'x' }, { c: BAD.nul }] }, 'body'), { path: 'body.a[2].c', reason: 'contains U+0000 (NUL)' });
  t.match(findUnstorable({ ['k\u0000']: 1 }, 'body'), { reason: /has a key that contains U\+0000/ });
  // Iterative: nesting far deeper than the call stack allows.
  let deep: unknown = BAD.highSurrogate;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  t.match(findUnstorable({ deep }, 'body'), { reason: 'contains a lone UTF-16 surrogate' });
  t.equal(findUnstorable({ ok: ['🂡', 1, null, true] }, 'body'), null);
});

t.test('REST: every input path refuses unstorable strings with 400 invalid_request and changes nothing', async (t) => {
  const before = await counts();
  for (const [kind, bad] of Object.entries(BAD)) {
    const cases: Array<[string, string, unknown?, Record<string, string>?]> = [
      ['POST', '/players', { name: bad }],
      ['POST', '/me/keys', { label: bad }],
      ['POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: bad }],
      ['POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', options: { deep: [{ x: bad }] } }],
      ['POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', [bad]: 1 }],
      ['POST', `/games/${gameId}/actions`, { action: legal[0], idempotencyKey: bad }],
      ['POST', `/games/${gameId}/actions`, { action: legal[0] }, { 'idempotency-key': bad }],
      ['POST', `/games/${gameId}/actions`, { action: { ...(legal[0] as object), note: bad } }],
      ['POST', '/admin/apps', { name: bad }],
      ['GET', '/games', undefined, { 'x-act-as': bad }],
    ];
    if (kind === 'nul') {
      // A lone surrogate cannot be percent-encoded (its UTF-8 is invalid): only U+0000 here.
      cases.push(
        ['GET', '/games?gameType=%00'],
        ['GET', '/games?status=a%00'],
        ['GET', '/games?player=%00'],
        ['GET', '/games?cursor=%00'],
        ['GET', `/games/${gameId}/view?role=York%00`],
        ['GET', `/games/${gameId}/log?role=%00`],
        ['GET', `/games/${gameId}/events?access_token=%00`],
        ['GET', '/games/%00'],
        ['DELETE', '/me/keys/%00'],
        ['GET', `/games?unknownParameter=%00`],
      );
    }
    for (const [method, url, body, headers] of cases) {
      const client = url.startsWith('/admin') ? { req: (m: string, u: string, b?: unknown, h: Record<string, string> = {}) => app.inject({ method: m as 'POST', url: u, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...h }, ...(b !== undefined ? { payload: JSON.stringify(b) } : {}) }) } : alice;
      const res = await client.req(method, url, body, { 'content-type': 'application/json', ...(headers ?? {}) });
      const where = `${kind}: ${method} ${url} ${JSON.stringify(body ?? headers ?? '').slice(0, 80)}`;
      t.equal(res.statusCode, 400, where);
      t.match(res.headers['content-type'], /^application\/problem\+json/, where);
      t.match(res.json(), { code: 'invalid_request', detail: /cannot be stored/ }, where);
    }
  }
  t.same(await counts(), before, 'no rows added');
  t.equal((await alice.req('GET', `/games/${gameId}`)).json().version, version, 'the game did not move');
  t.equal((await alice.req('GET', '/me/keys')).json().keys.length, 1, 'no key created');
  t.equal((await alice.req('DELETE', `/me/keys/${keyId}`, undefined, { 'x-act-as': BAD.nul })).statusCode, 400, 'the key was not revoked');
  t.equal((await alice.req('GET', '/me')).statusCode, 200, 'the key still works');
});

t.test('REST: storable text is not refused (pairs, U+FFFD, other control characters)', async (t) => {
  const res = await alice.req('POST', '/me/keys', { label: 'bot 🂡 \ufffd \u0001' });
  t.equal(res.statusCode, 201);
  t.equal(res.json().label, 'bot 🂡 \ufffd \u0001');
});

t.test('an empty query parameter is refused, not taken for an absent one', async (t) => {
  for (const url of [
    `/games/${gameId}/view?role=`,
    `/games/${gameId}/actions?role=`,
    `/games/${gameId}/log?role=`,
    `/games/${gameId}/events?role=`,
    '/games?cursor=',
    '/games?status=',
    '/games?gameType=',
    `/games/${gameId}/view?version=`,
  ]) {
    const res = await alice.req('GET', url);
    t.equal(res.statusCode, 400, url);
    t.match(res.json(), { code: 'invalid_request', detail: /is empty: give a value, or leave the parameter out/ }, url);
  }
  t.equal((await alice.req('GET', `/games/${gameId}/view?role=York`)).statusCode, 200, 'a real role still works');
  t.equal((await alice.req('GET', `/games/${gameId}/view`)).statusCode, 200, 'and so does none');
});

async function gql(payload: unknown, key: string | null = alice.key) {
  const res = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: res.statusCode, body: res.json() as { data: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
}

t.test('GraphQL: unstorable strings in variables (POST and GET) and literals are invalid_request; nothing changes', async (t) => {
  const before = await counts();
  const mutations: Array<[string, Record<string, unknown>]> = [
    ['mutation($v: String!) { createPlayer(name: $v) { player { id } } }', {}],
    ['mutation($v: String) { createKey(label: $v) { id } }', {}],
    ['mutation($v: String) { createGame(input: { gameType: "richard-iii", scenario: "richard-iii", roles: ["York"], seed: $v }) { id } }', {}],
    ['mutation($v: JSON) { createGame(input: { gameType: "richard-iii", scenario: "richard-iii", options: $v }) { id } }', { wrap: true }],
    [`mutation($v: String) { submitAction(gameId: "${gameId}", action: ${JSON.stringify(JSON.stringify(legal[0]))}, idempotencyKey: $v) { version } }`, {}],
    ['query($v: String) { games(filter: { gameType: $v }) { nodes { id } } }', {}],
  ];
  for (const [kind, bad] of Object.entries(BAD)) {
    for (const [query, opts] of mutations) {
      const value = opts.wrap ? { list: [bad] } : bad;
      const r = await gql({ query, variables: { v: value } });
      t.equal(r.status, 400, `${kind}: ${query.slice(0, 50)}`);
      t.match(r.body, { data: null, errors: [{ message: /^variables\.v.* cannot be stored/, extensions: { code: 'invalid_request' } }] }, query.slice(0, 50));
    }
  }
  // GET: the variables are JSON text inside the query string.
  const get = await app.inject({
    method: 'GET',
    url: `/graphql?query=${encodeURIComponent('query($v: String) { games(filter: { gameType: $v }) { nodes { id } } }')}&variables=${encodeURIComponent('{"v":"\\u0000"}')}`,
  });
  t.equal(get.statusCode, 400);
  t.match(get.json(), { errors: [{ extensions: { code: 'invalid_request' } }] });
  // Literals: GraphQL's own "\u0000" escape; a lone surrogate escape is already a syntax error.
  for (const query of [
    'mutation { createPlayer(name: "a\\u0000") { player { id } } }',
    'mutation { createKey(label: """x\u0000""") { id } }',
    'mutation { createGame(input: { gameType: "richard-iii", scenario: "richard-iii", options: { a: [{ b: "\\u0000" }] } }) { id } }',
    `mutation { submitAction(gameId: "${gameId}", action: { type: "x\\u0000" }) { version } }`,
    '{ games(filter: { gameType: "\\u0000" }) { nodes { id } } }',
    'mutation { createPlayer(name: "a\\ud800") { player { id } } }',
  ]) {
    const r = await gql({ query });
    const what = JSON.stringify(query); // the raw text holds a NUL: keep it out of the test output
    t.equal(r.status, 400, what);
    t.equal(r.body.data, null, what);
    t.equal(r.body.errors?.[0]?.extensions?.code, 'invalid_request', what);
  }
  t.same(await counts(), before, 'no rows added');
  t.equal((await alice.req('GET', `/games/${gameId}`)).json().version, version, 'the game did not move');
});

t.test('GraphQL: a request of the wrong shape is 400 invalid_request, never a 500', async (t) => {
  const shapes: unknown[] = [
    { query: 123 },
    { query: true },
    { query: null },
    { query: { kind: 'Document', definitions: [] } },
    { query: ['{ server { name } }'] },
    {},
    { query: '{ server { name } }', operationName: 5 },
    { query: '{ server { name } }', operationName: {} },
    { query: '{ server { name } }', variables: [1] },
    { query: '{ server { name } }', variables: 'x' },
    { query: '{ server { name } }', variables: 7 },
    [{ query: '{ server { name } }' }],
    'null',
    '"{ server { name } }"',
  ];
  for (const payload of shapes) {
    const r = await gql(typeof payload === 'string' ? payload : payload);
    t.equal(r.status, 400, JSON.stringify(payload));
    t.equal(r.body.errors?.[0]?.extensions?.code, 'invalid_request', JSON.stringify(payload));
  }
  for (const qs of ['query=%7B%20server%20%7B%20name%20%7D%20%7D&variables=nope', 'query=%7B%20server%20%7B%20name%20%7D%20%7D&variables=%5B1%5D', 'query=a&query=b']) {
    const res = await app.inject({ method: 'GET', url: `/graphql?${qs}` });
    t.equal(res.statusCode, 400, qs);
    t.equal(res.json().errors?.[0]?.extensions?.code, 'invalid_request', qs);
  }
  // Text that is not GraphQL but is JSON: Mercurius would take it for an already-parsed document.
  for (const query of ['1e308', '-0', 'null', '[]', '"x"', JSON.stringify({ kind: 'Document', definitions: [] }), JSON.stringify(parseDoc('{ me { id } }'))]) {
    const r = await gql({ query });
    t.equal(r.status, 400, `query ${query.slice(0, 40)}`);
    t.match(r.body, { data: null, errors: [{ message: /^Syntax Error/, extensions: { code: 'invalid_request' } }] }, `query ${query.slice(0, 40)}`);
  }
  const fine = await gql({ query: '{ server { name } }', operationName: null, variables: null });
  t.same(fine.body, { data: { server: { name: 'herald' } } }, 'null operationName and variables are fine');
  // The refusal says what came: a text/plain body was told "batched requests are not supported" (found probing).
  const text = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'text/plain' }, payload: '{ server { name } }' });
  t.equal(text.statusCode, 400);
  t.match(text.json().errors[0], { message: /not a string .*application\/graphql/, extensions: { code: 'invalid_request' } }, 'text/plain');
  t.match((await gql([{ query: '{ server { name } }' }])).body.errors?.[0]?.message, /^Batched requests \(a JSON array\) are not supported/, 'an array');
  t.match((await gql('null')).body.errors?.[0]?.message, /not null/, 'null');
});
