// A seeded (deterministic) bad-input fuzzer over every REST route of
// openapi.yaml (paths and methods read from the document) and every GraphQL
// operation of schema.graphql (read from the schema): bad JSON, huge bodies,
// wrong types, missing fields, unknown actions, actions for the wrong game,
// other players' games, forged and revoked keys, deep and over-complex
// queries, path params that are not UUIDs, hostile strings.
//
// Transport: the bulk runs through app.inject (the point is the server's
// handling of input, and inject is several times faster); a slice of raw-byte
// requests (bad JSON, huge and truncated bodies, bad percent-encoding) also
// goes over a real listening port with node:http. Requests to the event-stream
// routes (/events) go over the real port in both parts, each with a bound: all
// of them must be refused, and one answered with a stream instead would keep
// app.inject waiting for ever (up to tap's 600 s); over a socket the test
// fails within the bound, saying which request streamed. Asserted: no 5xx, the server
// still answers, every REST error is application/problem+json with
// type/title/status/detail/code, every GraphQL error has extensions.code
// (never internal_error), no 2xx for a request meant to change state, and no
// state change in the database (every table's content hashed before and after).
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, isObjectType } from 'graphql';
import pg from 'pg';
import t from 'tap';
import YAML from 'yaml';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { EVENT_TIMEOUT_MS } from '../helpers/streams.ts';
import { ADMIN_TOKEN, prng } from '../http/rest-helpers.ts';
import { tableSnapshot } from '../helpers/table-snapshot.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TOTAL_INJECT = 10_000;
const TOTAL_HTTP = 400;
const CONCURRENCY = 16;
const SEED = 20261122;

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN }), { store });
t.teardown(() => app.close());
const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
t.teardown(() => db.end());
// A real port from the start: the event-stream requests of the inject part use it too.
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as net.AddressInfo).port;

const rnd = prng(SEED);
/** Percent-encodes; a lone surrogate becomes the (invalid UTF-8) bytes of one. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
const chance = (p: number) => rnd(1_000_000) < p * 1_000_000;
/** Deterministic pseudo-UUID from the generator (valid form, never an existing row). */
const fakeUuid = () => {
  const h = Array.from({ length: 32 }, () => '0123456789abcdef'[rnd(16)]).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

// ---------- fixtures ----------
async function inj(method: string, url: string, key: string | null, payload?: unknown) {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  return app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });
}
async function signup(name: string): Promise<{ key: string; id: string; keyId: string }> {
  const r = await inj('POST', '/players', null, { name });
  const b = r.json();
  return { key: b.key.key, id: b.player.id, keyId: b.key.id };
}
const A = await signup('Alice');
const B = await signup('Bob');
const C = await signup('Carol');
const revokedRes = (await inj('POST', '/me/keys', A.key, { label: 'soon revoked' })).json();
const REVOKED = revokedRes.key as string;
if ((await inj('DELETE', `/me/keys/${revokedRes.id}`, A.key)).statusCode !== 204) throw new Error('fixture: key not revoked');
const appRes = (await inj('POST', '/admin/apps', ADMIN_TOKEN, { name: 'Bot app' })).json();
const APP_KEY = appRes.key.key as string;
// G1: public, active, A = York, B = Lancaster, one action played (abort refused).
const G1 = (await inj('POST', '/games', A.key, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: 'fuzz' })).json().id as string;
await inj('POST', `/games/${G1}/join`, B.key, {});
const LEGAL_A = (await inj('GET', `/games/${G1}/actions`, A.key)).json().actions as unknown[];
if ((await inj('POST', `/games/${G1}/actions`, A.key, { action: LEGAL_A[0] })).statusCode !== 200) throw new Error('fixture: action refused');
// G2: C's private game in set-up (Lancaster open).
const G2 = (await inj('POST', '/games', C.key, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], visibility: 'private' })).json().id as string;
// L1: a running league of D and E (players the fuzzer never acts as), round 1 published with its
// games: A, B, C and the application are outsiders, so every league write they send is refused.
const D = await signup('Dora');
const E = await signup('Ed');
const L1 = (await inj('POST', '/leagues', D.key, { name: 'Fuzz league', gameType: 'richard-iii', format: 'round-robin', autoPair: false })).json().id as string;
for (const p of [D, E]) if ((await inj('POST', `/leagues/${L1}/entrants`, p.key)).statusCode !== 201) throw new Error('fixture: entry refused');
if ((await inj('POST', `/leagues/${L1}/start`, D.key)).statusCode !== 200) throw new Error('fixture: league not started');
if ((await inj('POST', `/leagues/${L1}/rounds`, D.key)).statusCode !== 201) throw new Error('fixture: no round');
const L1_ROUND = await inj('POST', `/leagues/${L1}/rounds/1/publish`, D.key);
if (L1_ROUND.statusCode !== 200) throw new Error(`fixture: round not published: ${L1_ROUND.body}`);
const P1 = L1_ROUND.json().pairings[0].id as string;
const DATA_HASH = ((await inj('GET', '/game-types/richard-iii/data', null)).json().files as Array<{ name: string; hash: string }>).find((f) => f.name === 'map')!.hash;
const G1_VIEW = (await inj('GET', `/games/${G1}/actions`, B.key)).json();
const G1_VERSION = G1_VIEW.version as number;
const LEGAL_B = G1_VIEW.actions as unknown[];

// ---------- state snapshot: every table's content ----------
const snapshot = () => tableSnapshot(db);
const before = await snapshot();

// ---------- ingredients ----------
const LONG = 'A'.repeat(100_000);
const HOSTILE = [
  "' OR 1=1 --", "'; DROP TABLE games; --", '<script>alert(1)</script>', '../../../../etc/passwd', '\u0000', 'nul\u0000byte',
  '${jndi:ldap://127.0.0.1/x}', '{{7*7}}', '__proto__', 'constructor', 'prototype', '\ud800', '\udfff\ud800', '🂡🂢🂣'.repeat(50),
  '\u202eRTL', '%00', '%s%s%s%n', '\r\nX-Injected: 1', ' ', '', 'null', 'undefined', 'NaN', '-1', '1e400', 'x'.repeat(5000), LONG,
];
const NOT_UUIDS = [
  'not-a-uuid', '1', '0', '-1', 'null', '%00', '..%2F..%2Fetc', "'%20OR%201=1", '00000000-0000-0000-0000-00000000000g',
  'x'.repeat(3000), '%F0%9F%98%80', '%ZZ', '%', '__proto__', 'constructor', '%E2%80%AE', 'a%0d%0ab', '{}', '[]',
  '12345678-1234-1234-1234-1234567890123', '%20', 'NaN', '1e10',
];
const FORGED = () => `hk_${randomBytes(24).toString('base64url')}`; // random per call, but never valid
const WEIRD_AUTH = [
  'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(10_000)}`, 'Bearer hk_', 'bearer \u0000', `Bearer ${ADMIN_TOKEN}x`,
  `Bearer ${A.key} ${B.key}`, 'Bearer hk_"\'<>', 'Token abc', `Bearer ${A.key.slice(0, -1)}`, `Bearer ${A.key.toUpperCase()}`,
];
const BAD_JSON = [
  '{', '}', '{"a":', '[1,2', 'nul', 'tru', '{"action":}', "{'action':1}", '{"a":1,}', '\u0000', '\ufeff{"x":1', '{"a":1}{"b":2}',
  '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '"just a string"', '12345', '[]', 'null',
  '['.repeat(50_000), '{"a":'.repeat(20_000), '{"n":1e999999}', '{"s":"\\ud800"}', '{"s":"\\u00"}',
];
function wrongValue(): unknown {
  return pick<() => unknown>([
    () => null, () => 42, () => -1, () => 1.5, () => 1e308, () => true, () => [], () => [1, 'a', null], () => ({}),
    () => ({ nested: { deeper: [{}] } }), () => pick(HOSTILE), () => Number.MAX_SAFE_INTEGER + 2, () => '', () => ({ __proto__: { x: 1 } }),
    () => Array.from({ length: 2000 }, (_, i) => i),
  ])();
}
function deepObject(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
function unknownAction(): unknown {
  return pick<() => unknown>([
    () => ({ type: 'win_the_game' }), () => ({ type: pick(HOSTILE) }), () => ({}), () => ({ type: 42 }),
    () => ({ ...(LEGAL_A[0] as object), extra: 'field' }), () => ({ type: 'keep_hand', role: 'Lancaster' }),
    () => deepObject(200 + rnd(3000)), () => ({ type: 'x', blob: LONG }), () => LEGAL_B[rnd(LEGAL_B.length)] ?? { type: 'none' },
    () => ({ type: 'move', block: pick(HOSTILE), to: pick(HOSTILE) }), () => [LEGAL_A[0]], () => JSON.stringify(LEGAL_A[0]),
  ])();
}

// ---------- REST: routes from openapi.yaml ----------
const spec = YAML.parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const routes: Array<{ path: string; method: string }> = [];
for (const [p, item] of Object.entries(spec.paths)) for (const m of METHODS) if (item[m]) routes.push({ path: p, method: m.toUpperCase() });
const routeKeys = new Set(routes.map((r) => `${r.method} ${r.path}`));

type Auth = { kind: string; header: string | null; actor: 'A' | 'B' | 'C' | 'app' | 'admin' | null };
function badAuth(): Auth {
  return pick<() => Auth>([
    () => ({ kind: 'none', header: null, actor: null }),
    () => ({ kind: 'forged', header: `Bearer ${FORGED()}`, actor: null }),
    () => ({ kind: 'revoked', header: `Bearer ${REVOKED}`, actor: null }),
    () => ({ kind: 'malformed', header: pick(WEIRD_AUTH), actor: null }),
  ])();
}
const asActor = (who: 'A' | 'B' | 'C' | 'app'): Auth => ({
  kind: `key-${who}`, header: `Bearer ${{ A: A.key, B: B.key, C: C.key, app: APP_KEY }[who]}`, actor: who,
});

interface Req { class: string; method: string; url: string; headers: Record<string, string>; payload?: string | Buffer; route: string; mayRead: boolean; htmlErrors?: boolean }

function bodyFor(kind: string): { payload: string; ct: string; cls: string } {
  switch (kind) {
    case 'badjson': return { payload: pick(BAD_JSON), ct: 'application/json', cls: 'bad-json' };
    case 'huge': return { payload: JSON.stringify({ name: 'x', action: { type: 'x', pad: 'y'.repeat(1_200_000 + rnd(500_000)) } }), ct: 'application/json', cls: 'huge-body' };
    case 'ctype': return { payload: pick(['name=x&action=1', '<xml/>', '{"name":"x"}', '\u0000\u0001']), ct: pick(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x', 'application/octet-stream']), cls: 'wrong-content-type' };
    default: return { payload: JSON.stringify(wrongValue()), ct: 'application/json', cls: 'wrong-type' };
  }
}

/** Bodies that are invalid for a given route even from an authorised caller. */
function invalidBodyFor(route: string): { payload: string; cls: string } {
  const w = wrongValue;
  const choices: Record<string, Array<() => unknown>> = {
    'POST /players': [() => ({}), () => ({ name: w() === null ? 1 : 42 }), () => ({ name: '' }), () => ({ name: LONG }), () => ({ name: ['x'] }), () => ({ name: 'x', isBot: 'yes' }), () => ({ name: { $gt: '' } })],
    'POST /me/vacation': [() => ({ until: 'soon' }), () => ({ until: 42 }), () => ({ until: LONG }), () => ({ days: 3 }), () => ({ until: '1999-01-01T00:00:00Z' }), () => ({ until: '2999-01-01T00:00:00Z' })],
    'POST /me/keys': [() => ({ label: 42 }), () => ({ label: LONG }), () => ({ label: ['x'] }), () => ({ label: {} })],
    'POST /games': [
      () => ({}), () => ({ gameType: 42 }), () => ({ gameType: pick(HOSTILE), scenario: 'richard-iii' }), () => ({ gameType: 'richard-iii', scenario: pick(HOSTILE) }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', roles: 'York' }), () => ({ gameType: 'richard-iii', scenario: 'richard-iii', roles: [pick(HOSTILE)] }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'York'] }), () => ({ gameType: 'richard-iii', scenario: 'richard-iii', visibility: 'secret' }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', seed: 42 }), () => ({ gameType: 'richard-iii', scenario: 'richard-iii', seed: LONG }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', options: 'all' }), () => ({ gameType: ['richard-iii'], scenario: 'richard-iii' }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', autoStart: 'no' }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', timeControl: { kind: 'correspondence', daysPerMove: 2, onTimeout: pick(HOSTILE) } }),
      () => ({ gameType: 'richard-iii', scenario: 'richard-iii', timeControl: { kind: 'none', onTimeout: 'claim' } }),
    ],
    'POST /games/import': [
      () => ({}), () => ({ record: w() }), () => ({ record: { format: 'herald-game-record', formatVersion: 1, gameType: pick(HOSTILE) } }),
      () => ({ record: { format: 'herald-game-record', formatVersion: 1, gameType: 'richard-iii', scenario: 'richard-iii', seed: 's', status: 'finished', actions: [{ role: 'York', action: unknownAction() }] } }),
      () => ({ record: { format: 'herald-game-record', formatVersion: 1, gameType: 'richard-iii', scenario: 'richard-iii', seed: '', status: 'finished', actions: [] } }),
      () => ({ record: { format: 'herald-game-record', formatVersion: 1, gameType: 'richard-iii', scenario: 'richard-iii', seed: 's', status: 'active', actions: [] } }),
      () => ({ record: { format: 'herald-game-record', formatVersion: 1, gameType: 'richard-iii', scenario: 'richard-iii', seed: 's', status: 'finished', actions: 'all' } }),
      () => ({ record: { format: 'herald-game-record', formatVersion: 1, gameType: 'richard-iii', scenario: 'richard-iii', seed: 's', status: 'finished', actions: [], result: { winner: 'York', reason: 'York resigned' } } }),
    ],
    'POST /games/{gameId}/actions': [
      () => ({}), () => ({ action: unknownAction() }), () => ({ action: unknownAction(), expectedVersion: -1 }),
      () => ({ action: LEGAL_A[rnd(LEGAL_A.length)], expectedVersion: w() }), () => ({ action: unknownAction(), role: w() }),
      () => ({ action: LEGAL_B[0], expectedVersion: 1 }), () => ({ action: unknownAction(), idempotencyKey: LONG }),
      () => ({ action: unknownAction(), idempotencyKey: 42 }), () => ({ action: w() }),
      // Submitting by id (issue 16): an id of no legal action, of the wrong type, or beside an action.
      () => ({ actionId: pick(['play:no-such-card', 'h-0000000000000000', 'select:henry-vi', LONG]) }), () => ({ actionId: w() }),
      () => ({ actionId: 'keep_hand', action: LEGAL_A[0] }), () => ({ actionId: '' }),
    ],
    'POST /games/{gameId}/resign': [() => ({ role: pick(HOSTILE) }), () => ({ role: 42 }), () => ({ role: ['York'] })],
    'POST /games/{gameId}/claim-timeout': [() => ({ role: pick(HOSTILE) }), () => ({ role: 42 }), () => ({ role: ['York'] }), () => ({}), () => ({ role: 'York' })],
    'POST /games/{gameId}/invites': [() => ({}), () => ({ role: pick(HOSTILE) }), () => ({ role: 42 })],
    'POST /games/{gameId}/join': [() => ({ role: pick(HOSTILE) }), () => ({ role: 7 }), () => ({ code: pick(HOSTILE) })],
    'POST /leagues': [
      () => ({}), () => ({ name: 42, gameType: 'richard-iii', format: 'swiss' }), () => ({ name: 'x', gameType: pick(HOSTILE), format: 'swiss' }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'ladder' }), () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', rounds: w() === null ? 0 : -3 }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', tieBreaks: ['coin'] }), () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', points: { win: 0.3, draw: 0, loss: 0 } }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', maxEntrants: -1 }), () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', registrationOpensAt: 'yesterday' }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', timeControl: '5+3' }), () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', options: { endCampaign: 99 } }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', scenarios: [pick(HOSTILE)] }), () => ({ name: LONG, gameType: 'richard-iii', format: 'swiss' }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'round-robin', pools: w() }), () => ({ name: 'x', gameType: 'richard-iii', format: 'swiss', colour: 'red' }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'round-robin', schedule: w() ?? 'weekly' }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'round-robin', schedule: { firstRoundAt: pick(HOSTILE), everyDays: 7 } }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'round-robin', schedule: { firstRoundAt: '2030-01-07T18:00:00Z', everyDays: w() === null ? 0 : 1e9 } }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'round-robin', schedule: { firstRoundAt: '2030-01-07T18:00:00Z', everyDays: 7, unfinished: pick(HOSTILE) } }),
      () => ({ name: 'x', gameType: 'richard-iii', format: 'round-robin', schedule: { firstRoundAt: '2030-01-07T18:00:00Z', everyDays: 7, [pick(HOSTILE)]: 1 } }),
    ],
  };
  const list = choices[route] ?? [() => w()];
  return { payload: JSON.stringify(pick(list)()), cls: 'invalid-fields' };
}

function gameIdFor(auth: Auth, route: string): { id: string; cls: string } {
  const options: Array<() => { id: string; cls: string }> = [
    () => ({ id: pick(NOT_UUIDS), cls: 'non-uuid-param' }),
    () => ({ id: fakeUuid(), cls: 'unknown-game' }),
    () => ({ id: G2, cls: 'other-players-game' }), // private game of C: anyone but C sees nothing
  ];
  // G1 only where no caller can succeed with the rest of the request.
  if (!route.endsWith('/events')) options.push(() => ({ id: G1, cls: auth.actor === 'C' ? 'other-players-game' : 'wrong-game-or-bad-request' }));
  return pick(options)();
}

function genRest(): Req {
  const { path: p, method } = pick(routes);
  const route = `${method} ${p}`;
  let auth: Auth = badAuth();
  // Authorised callers on writes (then only with invalid bodies or other players' resources).
  if (method !== 'GET' && chance(0.45)) auth = asActor(pick(['A', 'B', 'C', 'app'] as const));
  if (route === 'POST /admin/apps' || route.startsWith('DELETE /admin')) auth = chance(0.5) ? badAuth() : asActor(pick(['A', 'app'] as const));
  if (p === '/me/events') auth = badAuth();
  let url = p;
  let cls = `auth-${auth.kind}`;
  let mayRead = method === 'GET';
  if (p.includes('{gameId}')) {
    const g = gameIdFor(auth, route);
    // C owns G2: C's requests on G2 are only reads or invalid bodies.
    let id = g.id;
    if (id === G2 && auth.actor === 'C' && method !== 'GET') id = G1;
    // A and B hold G1's seats: only the routes that are refused there (started, acted on, both seats held).
    if (id === G1 && (auth.actor === 'A' || auth.actor === 'B') && ['resign', 'abort', 'leave'].some((s) => p.endsWith(s)) && !chance(0.5)) id = fakeUuid();
    url = url.replace('{gameId}', enc(id).replace(/%25/g, '%'));
    if (g.cls !== 'wrong-game-or-bad-request') cls = g.cls;
    if (route === 'GET /games/{gameId}/events' && id === G2 && auth.actor === 'C') url = `/games/${fakeUuid()}/events`;
  }
  const segment = (id: string) => enc(id).replace(/%25/g, '%');
  if (p.includes('{leagueId}')) {
    const l = pick([() => ({ id: pick(NOT_UUIDS), cls: 'non-uuid-param' }), () => ({ id: fakeUuid(), cls: 'unknown-league' }), () => ({ id: L1, cls: 'other-players-league' }), () => ({ id: L1, cls: 'other-players-league' })])();
    url = url.replace('{leagueId}', segment(l.id));
    cls = l.cls;
  }
  if (p.includes('{pairingId}')) url = url.replace('{pairingId}', pick([() => segment(pick(NOT_UUIDS)), () => fakeUuid(), () => P1, () => P1])());
  if (p.includes('{round}')) url = url.replace('{round}', pick(['1', '1', '2', '0', '-1', '1.5', 'x', '99999999999', '%00']));
  // Game data: the current version, another one, and garbage in each segment.
  if (p.includes('{gameType}')) url = url.replace('{gameType}', pick([() => 'richard-iii', () => 'richard-iii', () => segment(pick(HOSTILE.slice(0, -1))), () => segment(pick(NOT_UUIDS))])());
  if (p.includes('{hash}')) url = url.replace('{hash}', pick([() => DATA_HASH, () => DATA_HASH, () => '0123456789abcdef', () => segment(pick(NOT_UUIDS)), () => segment(pick(HOSTILE.slice(0, -1)))])());
  if (p.includes('{file}')) url = url.replace('{file}', pick([() => 'map.json', () => 'options.json', () => 'map', () => 'rules.json', () => '__proto__.json', () => segment(pick(HOSTILE.slice(0, -1)))])());
  if (p.includes('{playerId}')) url = url.replace('{playerId}', pick([() => segment(pick(NOT_UUIDS)), () => fakeUuid(), () => D.id, () => E.id, () => A.id])());
  if (p.includes('{keyId}')) {
    const k = pick([() => pick(NOT_UUIDS), () => fakeUuid(), () => B.keyId, () => C.keyId, () => revokedRes.id as string])();
    url = url.replace('{keyId}', k);
    cls = k === B.keyId || k === C.keyId ? 'other-players-key' : 'bad-key-id';
    // One's own keys (revoking the revoked one again is a valid no-op): someone else's.
    if ((auth.actor === 'B' && k === B.keyId) || (auth.actor === 'C' && k === C.keyId) || (auth.actor === 'A' && k === revokedRes.id)) url = p.replace('{keyId}', fakeUuid());
  }
  // Hostile query strings.
  if (chance(0.3)) {
    const q = pick(['version', 'role', 'lang', 'first', 'after', 'status', 'gameType', 'lastEventId', 'access_token', 'limit', '__proto__']);
    url += `?${q}=${enc(String(pick([...HOSTILE.slice(0, -1), '-1', '1.5', '99999999999999999999', 'true'])))}`;
    if (chance(0.2)) url += `&${q}=dup`;
  }
  const headers: Record<string, string> = {};
  if (auth.header) headers.authorization = auth.header;
  // Pages answer a browser's errors with HTML pages (checked as such below).
  const htmlErrors = (p.endsWith('/page') || p.startsWith('/watch/') || p.startsWith('/play/')) && chance(0.5);
  if (htmlErrors) headers.accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  if (chance(0.05)) headers['x-act-as'] = pick([fakeUuid(), A.id, pick(NOT_UUIDS)]);
  if (chance(0.05)) headers['idempotency-key'] = pick(['', 'k'.repeat(300), 'k1']);
  let payload: string | undefined;
  if (method !== 'GET') {
    if (auth.actor && auth.actor !== 'app' && chance(0.6)) {
      const b = invalidBodyFor(route);
      payload = b.payload;
      cls = b.cls;
    } else {
      // An authorised caller's wrong-type body could be a valid one ({} creates a key): only unparseable ones
      // (and not the JSON text null, which the routes take for "no body").
      let b = bodyFor(pick(auth.actor ? ['badjson', 'huge', 'ctype'] : ['badjson', 'huge', 'ctype', 'wrong', 'wrong', 'badjson']));
      while (auth.actor && b.payload === 'null') b = bodyFor('badjson');
      payload = b.payload;
      headers['content-type'] = b.ct;
      cls = auth.actor ? b.cls : `${cls}+${b.cls}`;
    }
    headers['content-type'] ??= 'application/json';
    // An application acting for nobody, or for someone it does not own.
    if (auth.actor === 'app' && !headers['x-act-as']) headers['x-act-as'] = pick([A.id, fakeUuid()]);
  }
  // Wrong methods on existing paths.
  let m = method;
  if (chance(0.04)) {
    m = pick(['PUT', 'PATCH', 'DELETE', 'POST', 'OPTIONS']);
    if (routeKeys.has(`${m} ${p}`)) m = method;
    else cls = 'wrong-method';
  }
  if (payload !== undefined && m !== 'GET' && (m === 'POST' && method === 'POST' && auth.actor === 'app')) {
    // App keys with X-Act-As of a player it does not own: still invalid.
  }
  return { class: `rest:${cls}`, method: m, url, headers, ...(payload !== undefined ? { payload } : {}), route, mayRead: mayRead && m === 'GET', ...(htmlErrors ? { htmlErrors } : {}) };
}

// ---------- GraphQL: operations from schema.graphql ----------
const schema = buildSchema(readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
const ops: Array<{ kind: 'query' | 'mutation' | 'subscription'; name: string; args: string[] }> = [];
for (const kind of ['query', 'mutation', 'subscription'] as const) {
  const type = kind === 'query' ? schema.getQueryType() : kind === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (type && isObjectType(type)) for (const f of Object.values(type.getFields())) ops.push({ kind, name: f.name, args: f.args.map((a) => a.name) });
}
function gqlValue(arg: string): string {
  const bad = pick<() => string>([
    () => '42', () => 'null', () => '[1,2]', () => '{a: 1}', () => JSON.stringify(pick(HOSTILE.filter((s) => s.length < 6000))), () => 'true', () => '-1',
    () => `"${pick(NOT_UUIDS).replace(/"/g, '')}"`, () => `"${fakeUuid()}"`, () => `"${G2}"`, () => `"${G1}"`, () => '$undeclared',
    () => `"${L1}"`, () => `"${P1}"`, () => `"${D.id}"`,
  ]);
  if (arg === 'action' || arg === 'record' || arg === 'input') return pick([bad, () => '{type: "win_the_game"}', () => `{type: ${JSON.stringify(pick(HOSTILE.slice(0, 10)))}}`])();
  return bad();
}
function selection(kind: string, name: string): string {
  const type = (kind === 'query' ? schema.getQueryType() : kind === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType())!.getFields()[name]!.type;
  let named = type;
  while ('ofType' in named && named.ofType) named = named.ofType as typeof named;
  if (!isObjectType(named)) return '';
  const scalars = Object.values(named.getFields()).filter((f) => {
    let ty = f.type;
    while ('ofType' in ty && ty.ofType) ty = ty.ofType as typeof ty;
    return !isObjectType(ty) && f.args.length === 0;
  });
  const pickF = scalars.slice(0, 3).map((f) => f.name);
  return pickF.length ? `{ ${pickF.join(' ')} ${chance(0.2) ? 'noSuchField' : ''} }` : '{ __typename }';
}
function deepGameQuery(depth: number): string {
  // Game → seats → ... cycles are limited; nesting fragments/inline selections goes deep.
  let s = '{ id }';
  for (let i = 0; i < depth; i++) s = `{ ... on Query { game(id: "${G1}") ${i % 2 ? s : '{ id }'} } __typename }`;
  return `query Deep ${s}`;
}
function genGraphql(): Req {
  const op = pick(ops);
  let auth = badAuth();
  if (chance(0.5)) auth = asActor(pick(['A', 'B', 'C'] as const));
  let cls = 'gql-bad-args';
  let query: string;
  let variables: unknown = undefined;
  const flavour = rnd(10);
  if (flavour === 0) {
    cls = 'gql-deep';
    query = chance(0.5) ? deepGameQuery(10 + rnd(60)) : `query { ${'me { id } '.repeat(1)}${'__schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } }'} }`;
    if (chance(0.5)) query = `query { ${'games(first: 100) { edges { node { id seats { role } } } } '.repeat(1 + rnd(4))} ${Array.from({ length: 50 + rnd(300) }, (_, i) => `a${i}: games(first: 100) { edges { node { id } } }`).join(' ')} }`;
  } else if (flavour === 1) {
    cls = 'gql-syntax';
    query = pick(['{', 'query {', 'mutation { submitAction( }', '{ game(id: ) { id } }', '}}}}', '\u0000', 'query'.repeat(5000), 'fragment F on Query { ...F } query { ...F }', '{ a: me { id } a: myKeys { id } }', '{ __typename @skip }', '{ me @nonexistent { id } }', `{ ${'a'.repeat(100_000)} }`]);
  } else if (flavour === 2) {
    cls = 'gql-bad-variables';
    query = `${op.kind === 'subscription' ? 'subscription' : op.kind} Op($x: String, $y: Int) { ${op.name}${op.args.length ? `(${op.args.map((a, i) => `${a}: ${i % 2 ? '$y' : '$x'}`).join(', ')})` : ''} ${selection(op.kind, op.name)} }`;
    variables = pick([{ x: 42, y: 'a' }, { x: null, y: 1e20 }, 'not-an-object', [1, 2], { x: pick(HOSTILE), y: -1 }, { x: deepObject(500) }]);
  } else {
    const args = op.args.length && !chance(0.1) ? `(${op.args.filter(() => !chance(0.2)).map((a) => `${a}: ${gqlValue(a)}`).join(', ')})` : '';
    query = `${op.kind} { ${op.name}${args === '()' ? '' : args} ${selection(op.kind, op.name)} }`;
    if (op.kind === 'mutation' && op.name === 'submitAction' && chance(0.5)) {
      query = chance(0.3)
        ? `mutation { submitAction(gameId: "${pick([G1, G2, fakeUuid()])}", actionId: ${pick(['"play:no-such-card"', '""', '"keep_hand", action: {type: "keep_hand"}', 'null'])}) { version } }`
        : `mutation { submitAction(gameId: "${pick([G1, G2, fakeUuid()])}", action: ${pick(['{type: "win_the_game"}', '{}', '{type: "keep_hand", role: "York"}', '[]'])}${chance(0.3) ? ', expectedVersion: -5' : ''}) { version } }`;
      cls = 'gql-unknown-action';
    }
  }
  // Mutations by authorised callers are refused only when their arguments are bad:
  // the generator above never builds a valid one except createPlayer/createKey/startVacation (until may be left out), which only go with bad auth.
  if (op.kind === 'mutation' && ['createPlayer', 'createKey', 'createGame', 'importGame', 'startVacation'].includes(op.name) && flavour >= 3) auth = badAuth();
  // No key at all is self-signup, which succeeds whenever the generated name happens to be valid.
  while (op.kind === 'mutation' && op.name === 'createPlayer' && flavour >= 3 && auth.kind === 'none') auth = badAuth();
  if (op.kind === 'mutation' && ['joinGame', 'leaveGame', 'abort', 'resign', 'startGame', 'createInvite', 'joinByInvite'].includes(op.name) && flavour >= 3 && auth.actor === 'C') auth = badAuth();
  if (op.kind === 'mutation' && ['resign', 'leaveGame', 'abort', 'joinGame'].includes(op.name) && flavour >= 3 && (auth.actor === 'A' || auth.actor === 'B')) auth = badAuth();
  if (op.kind === 'mutation' && op.name === 'revokeKey' && flavour >= 3) auth = badAuth();
  if (!auth.actor) cls = `${cls}+auth-${auth.kind}`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth.header) headers.authorization = auth.header;
  let payload: string;
  let method = 'POST';
  let url = '/graphql';
  if (chance(0.05)) {
    payload = pick(BAD_JSON);
    cls = 'gql-bad-json';
  } else if (chance(0.03)) {
    payload = JSON.stringify({ query: `mutation { createKey(label: "x") { key } }` });
    method = 'GET';
    url = `/graphql?query=${encodeURIComponent('mutation { createKey(label: "via-get") { key } }')}`;
    cls = 'gql-mutation-over-get';
  } else if (chance(0.03)) {
    payload = JSON.stringify([{ query }, { query }]);
    cls = 'gql-batch';
  } else {
    payload = JSON.stringify({ query, ...(variables !== undefined ? { variables } : {}), ...(chance(0.05) ? { operationName: pick(HOSTILE.slice(0, 8)) } : {}) });
  }
  // Mutations from authorised callers with bad args or for other players' games must fail.
  const mutation = method === 'GET' || /^\s*mutation/.test(query);
  return { class: cls, method, url, headers, ...(method === 'POST' ? { payload } : {}), route: `GRAPHQL ${op.kind} ${op.name}`, mayRead: !mutation };
}

// ---------- checks ----------
const counts = new Map<string, number>();
const findings: string[] = [];
const statuses = new Map<number, number>();
const CODE = /^[a-z][a-z0-9_]*$/;

function check(req: Req, status: number, contentType: string | undefined, body: string): void {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const where = `${req.class} ${req.method} ${req.url.slice(0, 120)} [${String(req.payload ?? '').slice(0, 160)}] → ${status}`;
  if (status >= 500) findings.push(`${where}: 5xx ${body.slice(0, 300)}`);
  if (req.url.startsWith('/graphql')) {
    let json: { errors?: Array<{ extensions?: { code?: unknown } }>; data?: unknown } | null = null;
    try {
      json = JSON.parse(body);
    } catch {
      findings.push(`${where}: GraphQL answer is not JSON: ${body.slice(0, 200)}`);
      return;
    }
    if (status >= 400 && /problem\+json/.test(contentType ?? '')) return checkProblem(where, status, json);
    for (const e of json?.errors ?? []) {
      const code = e.extensions?.code;
      if (typeof code !== 'string' || !CODE.test(code)) findings.push(`${where}: GraphQL error without a stable extensions.code: ${JSON.stringify(e).slice(0, 300)}`);
      if (code === 'internal_error') findings.push(`${where}: internal_error ${body.slice(0, 300)}`);
    }
    if (!req.mayRead && !json?.errors?.length) findings.push(`${where}: a bad mutation succeeded: ${body.slice(0, 300)}`);
    return;
  }
  if (status >= 400 && req.htmlErrors && /^text\/html/.test(contentType ?? '')) {
    // A page's error page for a browser: an HTML document naming the status, nothing echoed unescaped.
    if (!body.startsWith('<!DOCTYPE html>') || !body.includes('Error code <code>')) findings.push(`${where}: not an error page: ${body.slice(0, 200)}`);
    if (/<script/i.test(body)) findings.push(`${where}: a script in an error page`);
  } else if (status >= 400) {
    if (!/^application\/problem\+json/.test(contentType ?? '')) findings.push(`${where}: content-type ${contentType}`);
    let json: unknown = null;
    try {
      json = JSON.parse(body);
    } catch {
      findings.push(`${where}: problem body is not JSON: ${body.slice(0, 200)}`);
      return;
    }
    checkProblem(where, status, json);
  } else if (status < 300 && !req.mayRead) {
    findings.push(`${where}: 2xx for an invalid ${req.method}: ${body.slice(0, 300)}`);
  }
}
function checkProblem(where: string, status: number, json: unknown): void {
  const p = json as Record<string, unknown> | null;
  if (!p || typeof p.type !== 'string' || typeof p.title !== 'string' || p.status !== status || typeof p.detail !== 'string' || typeof p.code !== 'string' || !CODE.test(p.code)) {
    findings.push(`${where}: malformed problem ${JSON.stringify(json).slice(0, 300)}`);
  }
}

/** Runs fn over items, n at a time; the first failure stops every worker (no new items) and is thrown. */
async function runPool<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    try {
      while (i < items.length) await fn(items[i++]!);
    } catch (err) {
      i = items.length;
      throw err;
    }
  }));
}

/** GET /games/{gameId}/events and GET /me/events: an answer that may never end. */
const isEventStream = (req: Req) => / \/(games\/\{gameId\}|me)\/events$/.test(req.route);

// Generate everything up front (deterministic for a seed), half REST, half GraphQL-ish.
const requests: Req[] = [];
for (let i = 0; i < TOTAL_INJECT; i++) requests.push(i % 5 < 3 ? genRest() : genGraphql());
// Every route and operation at least a few times.
for (const r of routes) for (let k = 0; k < 3; k++) requests.push(genRestFor(r));
function genRestFor(r: { path: string; method: string }): Req {
  for (let k = 0; k < 500; k++) {
    const q = genRest();
    if (q.route === `${r.method} ${r.path}`) return q;
  }
  throw new Error(`no request generated for ${r.method} ${r.path}`);
}

t.test(`fuzz: ${requests.length} bad requests through app.inject (concurrency ${CONCURRENCY})`, async (tt) => {
  const t0 = performance.now();
  const seenRoutes = new Set<string>();
  await runPool(requests, CONCURRENCY, async (req) => {
    counts.set(req.class, (counts.get(req.class) ?? 0) + 1);
    seenRoutes.add(req.route);
    if (isEventStream(req)) {
      // Over the port, bounded (inject would wait for the end of a stream). Header
      // bytes node:http cannot send become '?': the other routes cover them.
      const r = await rawRequest(port, req);
      if (r) check(req, r.status, r.contentType, r.body);
      return;
    }
    const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, ...(req.payload !== undefined ? { payload: req.payload } : {}) });
    check(req, res.statusCode, res.headers['content-type'] as string | undefined, res.body);
  });
  const ms = Math.round(performance.now() - t0);
  for (const r of routes) tt.ok(seenRoutes.has(`${r.method} ${r.path}`), `REST route fuzzed: ${r.method} ${r.path}`);
  for (const o of ops) tt.ok(seenRoutes.has(`GRAPHQL ${o.kind} ${o.name}`), `GraphQL operation fuzzed: ${o.kind} ${o.name}`);
  tt.comment(`inject: ${requests.length} requests (${requests.filter(isEventStream).length} to event streams, over the port) in ${ms} ms; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  tt.comment(`classes: ${JSON.stringify(Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])))}`);
  tt.same(findings.slice(0, 40), [], `no findings (of ${findings.length})`);
});

t.test(`fuzz over a real port: ${TOTAL_HTTP} raw-byte requests`, async (tt) => {
  const t0 = performance.now();
  findings.length = 0;
  const raw: Req[] = [];
  for (let i = 0; i < TOTAL_HTTP; i++) {
    const q = i % 3 === 0 ? genGraphql() : genRest();
    const kind = pick(['badjson', 'huge', 'truncated', 'as-is', 'as-is']);
    if (kind === 'badjson' && q.method !== 'GET') q.payload = pick(BAD_JSON), q.class = `http:${q.class}+bad-json`;
    else if (kind === 'huge' && q.method !== 'GET') q.payload = Buffer.alloc(2_000_000 + rnd(1_000_000), 0x7b), q.class = `http:huge-body`;
    else if (kind === 'truncated' && q.method !== 'GET') q.headers['x-truncate'] = '1', q.class = `http:truncated-body`;
    else q.class = `http:${q.class}`;
    raw.push(q);
  }
  let sent = 0;
  await runPool(raw, 8, async (req) => {
    sent++;
    const r = await rawRequest(port, req);
    if (r) check(req, r.status, r.contentType, r.body);
  });
  const ms = Math.round(performance.now() - t0);
  tt.comment(`real port: ${sent} requests in ${ms} ms`);
  tt.same(findings.slice(0, 40), [], `no findings (of ${findings.length})`);
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  tt.equal(health.status, 200, 'server still up');
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  tt.equal(ready.status, 200, 'server still ready');
});

/**
 * One request with raw bytes; a truncated body (Content-Length larger than sent) ends with a socket close.
 * A request to an event stream rejects, and its socket is closed, when its answer has not ended within
 * EVENT_TIMEOUT_MS: every one the fuzzer sends must be refused, not streamed.
 */
function rawRequest(port: number, req: Req): Promise<{ status: number; contentType: string | undefined; body: string } | null> {
  return new Promise((resolve, reject) => {
    let answer = 'no response';
    const bound = isEventStream(req)
      ? setTimeout(() => {
          r.destroy();
          reject(new Error(`${req.class} ${req.method} ${req.url.slice(0, 120)}: no complete answer within ${EVENT_TIMEOUT_MS} ms (${answer}): a stream where a refusal was due?`));
        }, EVENT_TIMEOUT_MS)
      : undefined;
    const truncated = req.headers['x-truncate'] === '1';
    const payload = req.payload === undefined ? undefined : Buffer.isBuffer(req.payload) ? req.payload : Buffer.from(req.payload);
    const headers: Record<string, string | number> = { ...req.headers };
    delete headers['x-truncate'];
    if (payload) headers['content-length'] = truncated ? payload.length + 100 : payload.length;
    // Node refuses to send some header bytes (NUL, CR/LF): replace them; the bytes are covered by inject.
    for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') headers[k] = v.replace(/[^\t\x20-\x7e]/g, '?');
    const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers }, (res) => {
      answer = `${res.statusCode} ${res.headers['content-type'] ?? ''}`;
      res.on('close', () => clearTimeout(bound));
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve(null));
    });
    r.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(bound);
      // The server may close the connection on an oversized or truncated body: not an error of ours.
      if (['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(err.code ?? '') || truncated) resolve(null);
      else reject(err);
    });
    if (truncated) r.setTimeout(3000, () => { r.destroy(); resolve(null); });
    if (payload) r.write(payload);
    if (truncated) {
      // Leave the body short, then give up: the server must time the request out or keep waiting, never crash.
      setTimeout(() => { r.destroy(); resolve(null); }, 50);
    } else r.end();
  });
}

t.test('regressions found by the fuzzer', async (tt) => {
  // 1. A subscription document over plain HTTP was an internal_error (null for a non-null field).
  for (const query of ['subscription { myTurn { gameId } }', `subscription { gameEvents(gameId: "${G1}") { version } }`]) {
    const r = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${A.key}` }, payload: { query } });
    tt.equal(r.json().errors?.[0]?.extensions?.code, 'invalid_request', `${query.slice(0, 30)}… over HTTP is a client error`);
  }
  // 2. A URL that is not valid percent-encoding got Fastify's own JSON, not a problem document.
  const bad = await app.inject({ method: 'GET', url: '/games/%ZZ' });
  tt.equal(bad.statusCode, 400);
  tt.match(bad.headers['content-type'], /^application\/problem\+json/);
  tt.match(bad.json(), { status: 400, code: 'invalid_request', type: String, title: String, detail: String });
  // 3. /graphiql refused a bad key with a GraphQL-shaped body; /graphql keeps GraphQL errors.
  const ide = await app.inject({ method: 'GET', url: '/graphiql', headers: { authorization: `Bearer ${REVOKED}` } });
  tt.equal(ide.statusCode, 401);
  tt.match(ide.headers['content-type'], /^application\/problem\+json/);
  tt.match(ide.json(), { status: 401, code: 'unauthorized' });
  const gql = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${REVOKED}` }, payload: { query: '{ me { id } }' } });
  tt.equal(gql.statusCode, 401);
  tt.equal(gql.json().errors[0].extensions.code, 'unauthorized');
});

t.test('no state change', async (tt) => {
  const after = await snapshot();
  tt.same(after, before, 'every table has the same rows and content');
  const g1 = (await inj('GET', `/games/${G1}`, A.key)).json();
  tt.equal(g1.version, G1_VERSION, 'G1 still at its version');
  const keys = (await inj('GET', '/me/keys', A.key)).json().keys as Array<{ revokedAt: string | null }>;
  tt.equal(keys.length, 2, "A's keys unchanged");
  tt.equal((await inj('GET', '/me', REVOKED)).statusCode, 401, 'the revoked key stays revoked');
});
void randomUUID;
