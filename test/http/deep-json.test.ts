// Client JSON nested thousands of levels deep (found by black-box probing):
// the service measured an action's or options' size with JSON.stringify,
// which overflowed the call stack on such a value: a 500 (GraphQL
// internal_error) for an action (REST and GraphQL, from about 4,000 levels,
// fewer with an Idempotency-Key), a game's or a league's options and an
// imported record's options. Now the size is measured without recursion and
// the nesting is capped (64 levels): a typed 4xx, nothing stored. Real
// Postgres.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { jsonWithin, MAX_JSON_DEPTH } from '../../src/service/json.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());

const alice = await signup(app, 'Alice');
const gql = gqlClient(app, alice.key);

const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const DEPTHS = [4_000, 4_990, 50_000];

/** A raw JSON request (the value spliced in as text: JSON.stringify here would overflow too). */
async function raw(method: 'POST' | 'PATCH', url: string, body: string, headers: Record<string, string> = {}) {
  return app.inject({ method, url, payload: body, headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/json', ...headers } });
}

const created = await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'Lancaster'] });
const gameId = created.json().id as string;
const league = await alice.req('POST', '/leagues', { name: 'Deep', gameType: 'richard-iii', format: 'round-robin' });
const leagueId = league.json().id as string;

t.test('jsonWithin: the length JSON.stringify gives, and the nesting', async (t) => {
  const values: unknown[] = [{}, [], { a: 1, b: [true, null, 'x"\u00e9\n'], c: { d: -1.5e-7 } }, [[[]], {}, ''], { 'k"ey': [1, [2, [3]]] }, 'plain', 12345];
  for (const v of values) {
    const n = JSON.stringify(v).length;
    t.ok(jsonWithin(v, n), `${JSON.stringify(v)}: within ${n}`);
    t.notOk(jsonWithin(v, n - 1), `${JSON.stringify(v)}: not within ${n - 1}`);
  }
  const nested = (n: number): unknown => (n === 0 ? 1 : { a: nested(n - 1) });
  t.ok(jsonWithin(nested(MAX_JSON_DEPTH), 1e6), `${MAX_JSON_DEPTH} levels`);
  t.notOk(jsonWithin(nested(MAX_JSON_DEPTH + 1), 1e6), `${MAX_JSON_DEPTH + 1} levels`);
  t.notOk(jsonWithin(JSON.parse(arrays(100_000)), 1e9), '100,000 levels, without overflowing');
});

t.test('an action nested thousands deep: 400 invalid_request over REST and GraphQL, with or without an Idempotency-Key', async (t) => {
  for (const n of DEPTHS) {
    for (const key of [undefined, `deep-${n}`]) {
      const res = await raw('POST', `/games/${gameId}/actions`, `{"role":"York","action":{"x":${arrays(n)}}}`, key ? { 'idempotency-key': key } : {});
      t.equal(res.statusCode, 400, `REST ${n} levels${key ? ' with a key' : ''}: 400 (got ${res.statusCode} ${res.body.slice(0, 100)})`);
      t.equal(res.json().code, 'invalid_request');
      const body = `{"query":"mutation($a: JSON!) { submitAction(gameId: \\"${gameId}\\", role: \\"York\\", action: $a${key ? `, idempotencyKey: \\"g${key}\\"` : ''}) { version } }","variables":{"a":{"x":${arrays(n)}}}}`;
      const g = await raw('POST', '/graphql', body);
      t.equal(g.json().errors?.[0]?.extensions?.code, 'invalid_request', `GraphQL ${n} levels${key ? ' with a key' : ''}: ${g.body.slice(0, 120)}`);
    }
  }
  const game = await alice.req('GET', `/games/${gameId}`);
  t.equal(game.json().version, created.json().version, 'the game did not move');
});

t.test('options nested thousands deep: a typed refusal for a game, a league, an update and an import; nothing stored', async (t) => {
  const before = (await alice.req('GET', '/games?limit=100')).json().items.length as number;
  for (const n of DEPTHS) {
    for (const inner of [objects(n), arrays(n)]) {
      const game = await raw('POST', '/games', `{"gameType":"richard-iii","scenario":"richard-iii","options":{"endCampaign":${inner}}}`);
      t.equal(game.statusCode, 400, `createGame ${n}: 400 (got ${game.statusCode})`);
      t.equal(game.json().code, 'invalid_request');
      const gameOptions = await raw('POST', '/games', `{"gameType":"richard-iii","scenario":"richard-iii","options":${inner.startsWith('{') ? inner : `{"a":${inner}}`}}`);
      t.equal(gameOptions.statusCode, 400, `createGame options object ${n}: 400 (got ${gameOptions.statusCode})`);
      const created = await raw('POST', '/leagues', `{"name":"x","gameType":"richard-iii","format":"swiss","options":{"a":${inner}}}`);
      t.equal(created.statusCode, 422, `createLeague ${n}: 422 (got ${created.statusCode})`);
      t.match(created.json(), { code: 'invalid_settings', setting: 'options' });
      const updated = await raw('PATCH', `/leagues/${leagueId}`, `{"options":{"a":${inner}}}`);
      t.equal(updated.statusCode, 422, `updateLeague ${n}: 422 (got ${updated.statusCode})`);
      const record = `{"record":{"format":"herald-game-record","formatVersion":1,"gameType":"richard-iii","scenario":"richard-iii","options":{"a":${inner}},"seed":"s","status":"abandoned","result":null,"version":1,"actions":[]}}`;
      const imported = await raw('POST', '/games/import', record);
      t.equal(imported.statusCode, 422, `import ${n}: 422 (got ${imported.statusCode})`);
      t.match(imported.json(), { code: 'invalid_record', field: 'options' });
    }
    const g = await raw('POST', '/graphql', `{"query":"mutation($o: JSON) { createGame(input: { gameType: \\"richard-iii\\", scenario: \\"richard-iii\\", options: $o }) { id } }","variables":{"o":{"a":${objects(n)}}}}`);
    t.equal(g.json().errors?.[0]?.extensions?.code, 'invalid_request', `GraphQL createGame ${n}: ${g.body.slice(0, 120)}`);
  }
  t.equal((await alice.req('GET', '/games?limit=100')).json().items.length, before, 'no game was created');
  const l = await gql(`{ league(id: "${leagueId}") { settings { options } } }`);
  t.same(l.data?.league?.settings?.options, {}, 'the league kept its options');
});
