// A position-by-position fuzz of malformed values, over every route the
// running app registers (app.restRoutes(); query parameters and body fields
// from openapi.yaml) and every Query and Mutation field of the served GraphQL
// schema (schema.graphql, which the server serves; every argument and every field of an input
// argument, as a variable and as an inline literal). bad-input.test.ts throws
// random garbage at the API; this one puts each value of a fixed corpus into
// each position of an otherwise valid request, so that a value reaches as deep
// as the rest of the request allows (the store included).
//
// Corpus: U+0000, lone UTF-16 surrogates (raw JSON text with "\ud800"
// escapes), other control characters (seeded random), huge numbers (1e308,
// 2^64, -0), NaN-ish strings, wrong JSON types, 1 MB strings, 10,000 levels
// of arrays, empty strings.
//
// Two phases. Phase 1 holds the values that must be refused wherever they are
// (unstorable strings; wrong types where the schema fixes a primitive type):
// every answer is a 4xx (GraphQL: errors), and every table is unchanged.
// Phase 2 holds values that may be legitimate somewhere (an empty label, a
// 1 MB seed...): the assertion is no 5xx (and no internal_error). Requests go
// through app.inject in a seeded order; heavy values (1 MB, deep nesting) go
// to a seeded sample of positions to keep the run short.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  buildSchema,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import pg from 'pg';
import t from 'tap';
import YAML from 'yaml';
import { buildApp } from '../../src/http/app.ts';
import { projectRoot } from '../../src/paths.ts';
import { loadSdl } from '../../src/http/plugins/graphql.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { ADMIN_TOKEN, prng } from '../http/rest-helpers.ts';
import { tableSnapshot } from '../helpers/table-snapshot.ts';

const SEED = 20261125;
const HEAVY_SHARE = 0.25; // of positions that get the 1 MB and 10,000-deep values
const CONCURRENCY = 8;

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN }), { store });
t.teardown(() => app.close());
const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
t.teardown(() => db.end());
const rnd = prng(SEED);
const chance = (p: number) => rnd(1_000_000) < p * 1_000_000;

// ---------- fixtures ----------
async function call(method: string, url: string, key: string | null, payload?: unknown) {
  return app.inject({ method: method as 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });
}
async function signup(name: string) {
  const b = (await call('POST', '/players', null, { name })).json();
  return { key: b.key.key as string, id: b.player.id as string };
}
const A = await signup('Alice');
const B = await signup('Bob');
const SPARE_KEY = (await call('POST', '/me/keys', A.key, { label: 'spare' })).json().id as string;
/** The current hash of the game data's map (GET /game-types/{gameType}/data/{hash}/{file}). */
const DATA_HASH = ((await call('GET', '/game-types/richard-iii/data', null)).json().files as Array<{ name: string; hash: string }>).find((f) => f.name === 'map')!.hash;
const G1 = (await call('POST', '/games', A.key, { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: 'fuzz' })).json().id as string;
await call('POST', `/games/${G1}/join`, B.key, {});
const LEGAL = (await call('GET', `/games/${G1}/actions`, A.key)).json().actions as unknown[];
const VERSION = (await call('GET', `/games/${G1}`, A.key)).json().version as number;
const RECORD = (await call('GET', `/games/${G1}/export`, A.key)).json();
const FAKE_GAME = '00000000-0000-4000-8000-00000000f022';
// L: A's running league (A and B entered), round 1 a draft: league values reach the service.
const L = (await call('POST', '/leagues', A.key, { name: 'Fuzz league', gameType: 'richard-iii', format: 'round-robin', autoPair: false })).json().id as string;
for (const p of [A, B]) await call('POST', `/leagues/${L}/entrants`, p.key);
await call('POST', `/leagues/${L}/start`, A.key);
const LEAGUE_ROUND = (await call('POST', `/leagues/${L}/rounds`, A.key)).json();
const P = LEAGUE_ROUND.pairings?.[0]?.id as string;
if (typeof P !== 'string') throw new Error(`fixture: no draft round: ${JSON.stringify(LEAGUE_ROUND)}`);
const LEAGUE_SETTINGS = { name: 'Fuzzed league', gameType: 'richard-iii', format: 'swiss', rounds: 3, description: 'd', visibility: 'public', rated: false, autoPair: true, maxEntrants: 16 };

const snapshot = () => tableSnapshot(db);

// ---------- corpus ----------
type Kind = 'unstorable' | 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';
interface Bad {
  name: string;
  kind: Kind;
  /** Raw JSON text (keeps -0, 2^64 and "\ud800" escapes exactly as a client sends them). */
  json: string;
  /** As a query parameter, path segment or header value. */
  text: string;
  /** As a GraphQL literal. */
  literal: string;
  heavy?: boolean;
}
const MB = 'x'.repeat(1_000_000);
const DEEP = 10_000;
function randomControls(): string {
  const pool = [1, 2, 7, 8, 9, 10, 11, 12, 13, 27, 31, 127, 0x85, 0x2028, 0x2029, 0x202e, 0xfeff];
  return Array.from({ length: 3 + rnd(6) }, () => String.fromCharCode(pool[rnd(pool.length)]!)).join('');
}
const str = (name: string, s: string, kind: Kind = 'string', heavy = false): Bad => ({ name, kind, json: JSON.stringify(s), text: s, literal: JSON.stringify(s), heavy });
const CORPUS: Bad[] = [
  str('nul', 'a\u0000b', 'unstorable'),
  str('only-nul', '\u0000', 'unstorable'),
  // JSON.stringify writes lone surrogates as \ud800 escapes: the raw text the black-box tests sent.
  str('lone-high-surrogate', 'x\ud800', 'unstorable'),
  str('lone-low-surrogate', '\udfffy', 'unstorable'),
  str('reversed-pair', '\udc00\ud800', 'unstorable'),
  str('control-characters', randomControls()),
  str('more-control-characters', randomControls()),
  str('empty', ''),
  str('nan', 'NaN'),
  str('minus-zero-text', '-0'),
  str('infinity', 'Infinity'),
  str('1e308-text', '1e308'),
  str('2^64-text', '18446744073709551616'),
  str('one-megabyte', MB, 'string', true),
  { name: '1e308', kind: 'number', json: '1e308', text: '1e308', literal: '1e308' },
  { name: '2^64', kind: 'number', json: '18446744073709551616', text: '18446744073709551616', literal: '18446744073709551616' },
  { name: '-0', kind: 'number', json: '-0', text: '-0', literal: '-0' },
  { name: '-1', kind: 'number', json: '-1', text: '-1', literal: '-1' },
  { name: 'fraction', kind: 'number', json: '0.5', text: '0.5', literal: '0.5' },
  { name: 'true', kind: 'boolean', json: 'true', text: 'true', literal: 'true' },
  { name: 'null', kind: 'null', json: 'null', text: 'null', literal: 'null' },
  { name: 'empty-array', kind: 'array', json: '[]', text: '[]', literal: '[]' },
  { name: 'string-array', kind: 'array', json: '["x"]', text: 'x,y', literal: '["x"]' },
  { name: 'object', kind: 'object', json: '{"a":"b"}', text: '{"a":"b"}', literal: '{a: "b"}' },
  { name: 'nul-in-object', kind: 'unstorable', json: '{"a":["\\u0000"]}', text: '{"a":"\u0000"}', literal: '{a: ["\\u0000"]}' },
  { name: 'nul-in-key', kind: 'unstorable', json: '{"k\\u0000":1}', text: 'k\u0000=1', literal: '{a: "\\u0000"}' },
  { name: 'deep-arrays', kind: 'array', json: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`, text: '['.repeat(DEEP), literal: `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`, heavy: true },
];

// ---------- checking ----------
interface Req {
  phase: 1 | 2;
  where: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  graphql: boolean;
}
const findings: string[] = [];
const statuses = new Map<number, number>();
let sent = 0;
let fiveXX = 0;

function check(req: Req, status: number, contentType: string | undefined, body: string): void {
  sent++;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const where = `[phase ${req.phase}] ${req.where} → ${status}`;
  if (status >= 500) {
    fiveXX++;
    findings.push(`${where}: 5xx ${body.slice(0, 200)}`);
  }
  if (req.graphql && !/problem\+json/.test(contentType ?? '')) {
    let json: { errors?: Array<{ extensions?: { code?: unknown } }> };
    try {
      json = JSON.parse(body);
    } catch {
      findings.push(`${where}: not JSON: ${body.slice(0, 120)}`);
      return;
    }
    for (const e of json.errors ?? []) {
      if (typeof e.extensions?.code !== 'string') findings.push(`${where}: error without extensions.code: ${JSON.stringify(e).slice(0, 200)}`);
      if (e.extensions?.code === 'internal_error') findings.push(`${where}: internal_error`);
    }
    if (req.phase === 1 && !json.errors?.length) findings.push(`${where}: accepted: ${body.slice(0, 200)}`);
    return;
  }
  if (status >= 400) {
    if (!/^application\/problem\+json/.test(contentType ?? '')) findings.push(`${where}: content-type ${contentType}`);
    else if (typeof (JSON.parse(body) as { code?: unknown }).code !== 'string') findings.push(`${where}: problem without a code`);
  } else if (req.phase === 1) {
    findings.push(`${where}: accepted: ${body.slice(0, 200)}`);
  }
}

async function send(req: Req): Promise<void> {
  const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, ...(req.payload !== undefined ? { payload: req.payload } : {}) });
  check(req, res.statusCode, res.headers['content-type'] as string | undefined, res.body);
}

async function runPool(items: Req[], n: number): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < items.length) await send(items[i++]!);
  }));
}

/** Which values go to a position: all light ones, the heavy ones to a seeded sample. */
function valuesFor(): Bad[] {
  const heavy = chance(HEAVY_SHARE);
  return CORPUS.filter((v) => !v.heavy || heavy);
}

// ---------- REST ----------
type Json = Record<string, unknown>;
const spec = YAML.parse(readFileSync(path.join(projectRoot, 'openapi.yaml'), 'utf8')) as Json;
function deref<T = Json>(node: unknown): T {
  let n = node as Json;
  while (n && typeof n.$ref === 'string') {
    n = (n.$ref as string).slice(2).split('/').reduce<Json>((o, k) => o[k] as Json, spec);
  }
  return n as T;
}

/** Valid bodies: a bad value in one field then meets an otherwise acceptable request. */
const BASE_BODY: Record<string, Json> = {
  'POST /players': { name: 'Fuzzed' },
  'POST /me/keys': { label: 'fuzzed' },
  'POST /me/vacation': { until: new Date(Date.now() + 2 * 86_400_000).toISOString() },
  'POST /admin/apps': { name: 'Fuzzed app' },
  'POST /games': { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: 's', visibility: 'public', options: {}, autoStart: true },
  'POST /games/import': { record: RECORD, visibility: 'public' },
  'POST /games/:gameId/join': { role: 'Lancaster' },
  'POST /games/:gameId/leave': { role: 'York' },
  'POST /games/:gameId/resign': { role: 'York' },
  'POST /games/:gameId/claim-timeout': { role: 'York' },
  'POST /games/:gameId/invites': { role: 'Lancaster' },
  'POST /games/:gameId/actions': { action: LEGAL[0], expectedVersion: VERSION, idempotencyKey: 'fuzz-key', role: 'York' },
  'POST /leagues': LEAGUE_SETTINGS,
  'PATCH /leagues/:leagueId': { name: 'Renamed', description: 'fuzzed' },
  'POST /leagues/:leagueId/organisers': { playerId: B.id },
  'POST /leagues/:leagueId/entrants': { playerId: B.id, seed: 2 },
  'PATCH /leagues/:leagueId/entrants/:playerId': { seed: 1, reason: 'fuzz' },
  'PATCH /leagues/:leagueId/rounds/:round/pairings': { edits: [{ op: 'swap', a: A.id, b: B.id }] },
  'POST /leagues/:leagueId/pairings/:pairingId/report': { result: 'first' },
  'PUT /leagues/:leagueId/pairings/:pairingId/result': { result: 'first', reason: 'fuzz' },
};
/** Routes that end or change G1 as a whole go last in phase 2 (they may succeed there). */
const ENDS_GAME = /\/(resign|abort|leave) | (resign|abort|leaveGame)\(/;

interface Route { method: string; url: string }
const routes: Route[] = app.restRoutes().filter((r) => r.method !== 'OPTIONS');

function operationOf(r: Route): Json | undefined {
  const item = (spec.paths as Json)[r.url.replace(/:(\w+)/g, '{$1}')] as Json | undefined;
  return item?.[r.method.toLowerCase()] as Json | undefined;
}
function queryParams(op: Json | undefined): string[] {
  return ((op?.parameters as unknown[]) ?? []).map((p) => deref<{ name: string; in: string }>(p)).filter((p) => p.in === 'query').map((p) => p.name);
}
/** Body fields and their primitive type (string, integer, boolean), when openapi says. */
function bodyFields(op: Json | undefined): Map<string, string | undefined> {
  const schema = deref<Json | undefined>((((op?.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema);
  const out = new Map<string, string | undefined>();
  for (const [name, prop] of Object.entries((schema?.properties as Json | undefined) ?? {})) {
    const type = deref<Json>(prop).type;
    out.set(name, typeof type === 'string' && ['string', 'integer', 'boolean'].includes(type) ? type : undefined);
  }
  return out;
}
const kindMatches = (type: string, kind: Kind) => (type === 'string' ? kind === 'string' : type === 'integer' ? kind === 'number' : kind === 'boolean');

function baseRequest(r: Route): { url: string; params: Record<string, string>; headers: Record<string, string>; body: Json | undefined; key: string } {
  const key = `${r.method} ${r.url}`;
  const sse = r.url.endsWith('/events');
  const params: Record<string, string> = { gameId: sse ? FAKE_GAME : G1, keyId: SPARE_KEY, leagueId: L, pairingId: P, round: '1', playerId: B.id, gameType: 'richard-iii', hash: DATA_HASH, file: 'map.json' };
  const url = r.url.replace(/:(\w+)/g, (_, p: string) => params[p] ?? 'x');
  const headers: Record<string, string> = {};
  // A stream that opened would never end: the event routes get a caller or game that is refused first.
  if (r.url.startsWith('/admin')) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  else if (key !== 'POST /players' && r.url !== '/me/events') headers.authorization = `Bearer ${A.key}`;
  const body = r.method === 'GET' ? undefined : (BASE_BODY[key] ?? {});
  return { url, params, headers, body, key };
}

/** A value spliced into JSON or GraphQL text afterwards (as written, so -0 and "\ud800" survive). */
const MARKER = '\u2063fuzz\u2063';
const PLACEHOLDER = JSON.stringify(MARKER);
function restRequests(): Req[] {
  const out: Req[] = [];
  for (const r of routes) {
    const op = operationOf(r);
    const base = baseRequest(r);
    const mk = (phase: 1 | 2, where: string, f: { url?: string; headers?: Record<string, string>; payload?: string }): Req => {
      const headers = { ...base.headers, ...(f.headers ?? {}) };
      let payload = f.payload;
      if (payload === undefined && base.body !== undefined) payload = JSON.stringify(base.body);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      return { phase, where: `${base.key} ${where}`, method: r.method, url: f.url ?? base.url, headers, ...(payload !== undefined ? { payload } : {}), graphql: r.url === '/graphql' };
    };
    const unstorable = (v: Bad): 1 | 2 => (v.kind === 'unstorable' ? 1 : 2);
    // A URL cannot carry a lone surrogate (its UTF-8 is invalid): what arrives is other, storable text.
    const inUrl = (v: Bad): 1 | 2 => (v.kind === 'unstorable' && v.text.includes('\u0000') ? 1 : 2);
    // Path parameters.
    for (const param of [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
      for (const v of valuesFor()) {
        let seg: string;
        try {
          seg = encodeURIComponent(v.text);
        } catch {
          seg = '%ED%A0%80'; // a lone surrogate's UTF-8 bytes (invalid UTF-8)
        }
        out.push(mk(inUrl(v), `path ${param}=${v.name}`, { url: r.url.replace(/:(\w+)/g, (_, p: string) => (p === param ? seg : (base.params[p] ?? 'x'))) }));
      }
    }
    // Query parameters (documented ones, and one nobody reads).
    for (const q of [...queryParams(op), 'unexpected']) {
      for (const v of valuesFor()) {
        let text: string;
        try {
          text = encodeURIComponent(v.text);
        } catch {
          text = '%ED%A0%80';
        }
        out.push(mk(inUrl(v), `query ${q}=${v.name}`, { url: `${base.url}?${q}=${text}` }));
      }
    }
    // Headers that are read (and Idempotency-Key, which is stored).
    for (const h of ['idempotency-key', 'x-act-as', 'last-event-id', 'authorization', 'accept-language']) {
      for (const v of valuesFor()) {
        if (v.heavy && h !== 'idempotency-key') continue; // one header carries the heavy values
        out.push(mk(unstorable(v), `header ${h}=${v.name}`, { headers: { [h]: h === 'authorization' ? `Bearer ${v.text}` : v.text } }));
      }
    }
    if (r.method === 'GET') continue;
    // Body fields, the whole body, and a bad key.
    const fields = bodyFields(op);
    for (const [field, type] of fields) {
      for (const v of valuesFor()) {
        const phase: 1 | 2 = v.kind === 'unstorable' || (type !== undefined && v.kind !== 'null' && !kindMatches(type, v.kind)) ? 1 : 2;
        const text = JSON.stringify({ ...base.body, [field]: MARKER }).replace(PLACEHOLDER, () => v.json);
        out.push(mk(phase, `body ${field}=${v.name}`, { payload: text }));
      }
    }
    // A body that is not an object is refused where the route reads one (null reads as no body).
    const readsBody = op?.requestBody !== undefined;
    for (const v of valuesFor()) {
      const refused = v.kind === 'unstorable' || (readsBody && ['string', 'number', 'boolean', 'array'].includes(v.kind));
      out.push(mk(refused ? 1 : 2, `body=${v.name}`, { payload: v.json }));
      if (v.kind === 'unstorable') out.push(mk(1, `body key ${v.name}`, { payload: JSON.stringify({ ...base.body, [v.text]: 1 }) }));
    }
  }
  return out;
}

// ---------- GraphQL ----------
// The served schema: the server builds it from this file (graphql-schema.test.ts checks they are equal).
const schema: GraphQLSchema = buildSchema(loadSdl());
const GQL_BASE: Record<string, unknown> = {
  'game.id': G1, 'view.gameId': G1, 'boardPicture.gameId': G1, 'legalActions.gameId': G1, 'log.gameId': G1, 'export.gameId': G1, 'games.first': 5,
  'createPlayer.name': 'Fuzzed', 'createKey.label': 'fuzzed', 'startVacation.until': new Date(Date.now() + 2 * 86_400_000).toISOString(), 'revokeKey.id': SPARE_KEY,
  'createGame.input': { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], seed: 's' },
  'joinGame.gameId': G1, 'joinByInvite.gameId': G1, 'joinByInvite.code': 'nope', 'leaveGame.gameId': G1, 'createInvite.gameId': G1, 'createInvite.role': 'Lancaster',
  'startGame.gameId': G1, 'resign.gameId': G1, 'claimTimeout.gameId': G1, 'abort.gameId': G1,
  'submitAction.gameId': G1, 'submitAction.action': LEGAL[0], 'submitAction.expectedVersion': VERSION, 'submitAction.idempotencyKey': 'fuzz-key',
  'importGame.record': RECORD,
  'league.id': L, 'leagues.first': 5, 'leagueRound.leagueId': L, 'leagueRound.number': 1, 'leagueStandings.leagueId': L, 'leagueResultChanges.leagueId': L,
  'createLeague.input': LEAGUE_SETTINGS, 'updateLeague.id': L, 'updateLeague.input': { description: 'fuzzed' },
  'addLeagueOrganiser.leagueId': L, 'addLeagueOrganiser.playerId': B.id, 'removeLeagueOrganiser.leagueId': L, 'removeLeagueOrganiser.playerId': B.id,
  'joinLeague.leagueId': L, 'withdrawFromLeague.leagueId': L, 'addLeagueEntrant.leagueId': L, 'addLeagueEntrant.playerId': B.id,
  'updateLeagueEntrant.leagueId': L, 'updateLeagueEntrant.playerId': B.id, 'updateLeagueEntrant.seed': 1,
  'removeLeagueEntrant.leagueId': L, 'removeLeagueEntrant.playerId': B.id, 'startLeague.leagueId': L, 'generateRound.leagueId': L,
  'editPairings.leagueId': L, 'editPairings.round': 1, 'editPairings.edits': [{ op: 'swap', a: A.id, b: B.id }],
  'publishRound.leagueId': L, 'publishRound.round': 1, 'deleteDraftRound.leagueId': L, 'deleteDraftRound.round': 1,
  'reportResult.leagueId': L, 'reportResult.pairingId': P, 'reportResult.result': 'first', 'confirmResult.leagueId': L, 'confirmResult.pairingId': P,
  'setResult.leagueId': L, 'setResult.pairingId': P, 'setResult.result': 'first', 'setResult.reason': 'fuzz',
};
function baseArg(field: string, arg: GraphQLArgument): unknown {
  const v = GQL_BASE[`${field}.${arg.name}`];
  if (v !== undefined) return v;
  if (!isNonNullType(arg.type)) return undefined;
  const named = getNamedType(arg.type);
  return named.name === 'ID' ? G1 : named.name === 'Int' ? 1 : named.name === 'Boolean' ? false : 'x';
}
function typeName(type: GraphQLInputType): string {
  return type.toString();
}
function literal(value: unknown, type: GraphQLInputType | undefined): string {
  if (value === MARKER) return PLACEHOLDER;
  if (value === null || value === undefined) return 'null';
  const t0 = type ? getNullableType(type) : undefined;
  if (t0 && isEnumType(t0)) return String(value);
  if (Array.isArray(value)) return `[${value.map((x) => literal(x, t0 && isListType(t0) ? t0.ofType : undefined)).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = t0 && isInputObjectType(t0) ? t0.getFields() : undefined;
    return `{${Object.entries(value as Json).map(([k, x]) => `${/^[_A-Za-z]\w*$/.test(k) ? k : 'key'}: ${literal(x, fields?.[k]?.type)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}
function selectionFor(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (isLeafType(named) || isScalarType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const leaf = Object.values(named.getFields()).find((f) => isLeafType(getNamedType(f.type)) && f.args.length === 0);
  return `{ ${leaf ? leaf.name : '__typename'} }`;
}
/** Is the value certainly refused by GraphQL's own coercion in a position of this type? */
function coercionRefuses(type: GraphQLInputType, v: Bad): boolean {
  const named = getNamedType(type);
  if (v.kind === 'null') return isNonNullType(type);
  if (named.name === 'JSON') return false;
  if (isListType(getNullableType(type))) return v.kind === 'object' || v.kind === 'boolean' || (v.kind === 'number' && named.name !== 'Int' && named.name !== 'Float');
  // ID takes integers as well (a variable 1e308 is one); a literal 1e308 is a Float: keep numbers out of phase 1.
  if (named.name === 'ID') return v.kind !== 'string' && v.kind !== 'number';
  if (named.name === 'String') return v.kind !== 'string';
  if (named.name === 'Int') return v.kind !== 'number' || !/^-?\d+$/.test(v.json) || Math.abs(Number(v.json)) > 2 ** 31 - 1;
  if (named.name === 'Boolean') return v.kind !== 'boolean';
  if (isEnumType(named)) return true;
  if (isInputObjectType(named)) return v.kind !== 'object';
  return false;
}

function graphqlRequests(): Req[] {
  const out: Req[] = [];
  for (const [opKind, root] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()]] as const) {
    for (const field of Object.values(root!.getFields())) {
      const key = field.name === 'createPlayer' ? null : A.key;
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
      const base = new Map(field.args.map((a) => [a.name, baseArg(field.name, a)] as const));
      // Positions: each argument, and each field of an input-object argument.
      const positions: Array<{ arg: GraphQLArgument; sub?: string; type: GraphQLInputType }> = [];
      for (const arg of field.args) {
        positions.push({ arg, type: arg.type });
        const named = getNamedType(arg.type);
        if (isInputObjectType(named)) for (const f of Object.values(named.getFields())) positions.push({ arg, sub: f.name, type: f.type });
      }
      for (const pos of positions) {
        for (const v of valuesFor()) {
          const phase: 1 | 2 = v.kind === 'unstorable' || coercionRefuses(pos.type, v) ? 1 : 2;
          const where = `${opKind} ${field.name}(${pos.arg.name}${pos.sub ? `.${pos.sub}` : ''}) = ${v.name}`;
          // 1. As variables: every argument a variable of its own type; the bad one spliced in as raw JSON.
          const vars = field.args.filter((a) => base.get(a.name) !== undefined || a === pos.arg);
          const decl = vars.map((a, i) => `$v${i}: ${typeName(a.type)}`).join(', ');
          const call = vars.map((a, i) => `${a.name}: $v${i}`).join(', ');
          const doc = `${opKind}${decl ? `(${decl})` : ''} { ${field.name}${call ? `(${call})` : ''} ${selectionFor(field)} }`;
          const varObj: Json = {};
          vars.forEach((a, i) => {
            const b = base.get(a.name);
            if (a !== pos.arg) varObj[`v${i}`] = b;
            else varObj[`v${i}`] = pos.sub ? { ...((b ?? {}) as Json), [pos.sub]: MARKER } : MARKER;
          });
          const payload = JSON.stringify({ query: doc, variables: varObj }).replace(PLACEHOLDER, () => v.json);
          out.push({ phase, where: `variables ${where}`, method: 'POST', url: '/graphql', headers, payload, graphql: true });
          // 2. Inline: the same call with literals.
          const args = field.args
            .map((a) => {
              const b = a !== pos.arg ? base.get(a.name) : pos.sub ? { ...((base.get(a.name) ?? {}) as Json), [pos.sub]: MARKER } : MARKER;
              return b === undefined ? null : `${a.name}: ${literal(b, a.type).replace(PLACEHOLDER, () => v.literal)}`;
            })
            .filter((x): x is string => x !== null)
            .join(', ');
          const inline = `${opKind} { ${field.name}${args ? `(${args})` : ''} ${selectionFor(field)} }`;
          out.push({ phase, where: `literal ${where}`, method: 'POST', url: '/graphql', headers, payload: JSON.stringify({ query: inline }), graphql: true });
        }
      }
    }
  }
  return out;
}

// ---------- run ----------
function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rnd(i + 1);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}
const all = shuffle([...restRequests(), ...graphqlRequests()]);
const phase1 = all.filter((r) => r.phase === 1);
// Requests that may end G1 run last, so the rest meet an active game.
const phase2 = all.filter((r) => r.phase === 2).sort((a, b) => Number(ENDS_GAME.test(a.where)) - Number(ENDS_GAME.test(b.where)));

t.test('every route and GraphQL field is enumerated', async (t) => {
  t.ok(routes.length >= 20, `${routes.length} REST routes from the running app`);
  for (const r of routes) t.ok(all.some((q) => q.where.startsWith(`${r.method} ${r.url} `)), `fuzzed: ${r.method} ${r.url}`);
  for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
    for (const f of Object.values(root.getFields())) {
      if (f.args.length > 0) t.ok(all.some((q) => q.where.includes(` ${f.name}(`)), `fuzzed: ${root.name}.${f.name}`);
    }
  }
});

t.test(`phase 1: ${phase1.length} requests that must be refused change nothing`, async (t) => {
  const before = await snapshot();
  findings.length = 0;
  await runPool(phase1, CONCURRENCY);
  t.comment(`phase 1: ${phase1.length} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; 5xx: ${fiveXX}`);
  for (const f of findings.filter((x) => x.includes(': 5xx ')).slice(0, 40)) t.comment(f.slice(0, 160));
  t.same(findings.slice(0, 30), [], `no findings (of ${findings.length})`);
  t.same(await snapshot(), before, 'every table unchanged');
  t.equal((await call('GET', `/games/${G1}`, A.key)).json().version, VERSION, 'the game did not move');
});

t.test(`phase 2: ${phase2.length} requests with values that may be legitimate somewhere: no 5xx`, async (t) => {
  findings.length = 0;
  statuses.clear();
  const before5xx = fiveXX;
  await runPool(phase2, CONCURRENCY);
  t.comment(`phase 2: ${phase2.length} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; 5xx: ${fiveXX - before5xx}`);
  t.same(findings.slice(0, 30), [], `no findings (of ${findings.length})`);
  t.equal((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200, 'the server is still ready');
});

t.test('totals', async (t) => {
  t.comment(`sent ${sent} requests (seed ${SEED}); 5xx answers: ${fiveXX}`);
  t.equal(sent, all.length, 'every request answered');
  t.equal(fiveXX, 0, 'no 5xx');
});
