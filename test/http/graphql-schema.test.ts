// The published SDL (schema.graphql) is what the server serves, and the
// depth/complexity limits and error codes of the GraphQL endpoint.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { buildClientSchema, buildSchema, getIntrospectionQuery, parse, printSchema, validate, type IntrospectionQuery } from 'graphql';
import { DEFAULT_LIMITS, limitsRule, type QueryLimits } from '../../src/http/graphql/limits.ts';
import { buildApp } from '../../src/http/app.ts';
import { projectRoot } from '../../src/paths.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());

async function gql(query: string, variables?: Record<string, unknown>) {
  const res = await app.inject({ method: 'POST', url: '/graphql', payload: { query, variables } });
  return { status: res.statusCode, body: res.json() as { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } };
}

t.test('schema.graphql equals the schema the server serves (printed from introspection)', async (t) => {
  const sdl = readFileSync(path.join(projectRoot, 'schema.graphql'), 'utf8');
  const { status, body } = await gql(getIntrospectionQuery({ descriptions: true }));
  t.equal(status, 200);
  t.notOk(body.errors, 'introspection is allowed within the limits');
  const served = printSchema(buildClientSchema(body.data as IntrospectionQuery));
  t.equal(served + '\n', sdl, 'regenerate schema.graphql with printSchema if this fails');
  t.equal(printSchema(buildSchema(sdl)) + '\n', sdl, 'the file is in printSchema form');
  t.match(sdl, /scalar JSON/);
  t.match(sdl, /submitAction\(gameId: ID!, role: String, action: JSON, actionId: String, expectedVersion: Int, idempotencyKey: String\): ActionResult!/);
  t.match(sdl, /gameEvents\(gameId: ID!, role: String, since: Int\): GameUpdate!/);
});

t.test('an over-deep query is rejected with query_too_complex before anything runs', async (t) => {
  const ok = await gql('{ games(first: 1) { nodes { seats { player { id } } } } }');
  t.notOk(ok.body.errors, 'the deepest real path (5 levels) passes');
  // Depth is measured even below fields the schema does not know: a deep
  // document is refused however wrong it is, without resolving anything.
  const nest = (n: number): string => (n === 0 ? 'x' : `x { ${nest(n - 1)} }`);
  const { status, body } = await gql(`query Deep { games { nodes { ${nest(10)} } } }`);
  t.equal(status, 400);
  t.equal(body.data, null);
  t.ok(
    body.errors?.some((e) => e.extensions?.code === 'query_too_complex' && e.extensions.measure === 'depth' && e.extensions.limit === 8 && /operation Deep is 13 levels deep/.test(e.message)),
    JSON.stringify(body.errors),
  );
  // Fragments count at their real depth (a spread adds no level, and cannot hide one).
  const viaFragment = await gql(`{ ...F } fragment F on Query { games { nodes { ${nest(10)} } } }`);
  t.ok(viaFragment.body.errors?.some((e) => e.extensions?.code === 'query_too_complex' && e.extensions.measure === 'depth'));
});

t.test('the limits rule on the real schema with small limits', async (t) => {
  const schema = buildSchema(readFileSync(path.join(projectRoot, 'schema.graphql'), 'utf8'));
  const check = (query: string, limits: Partial<QueryLimits>) =>
    validate(schema, parse(query), [limitsRule({ ...DEFAULT_LIMITS, ...limits })]).map((e) => e.extensions);
  t.same(check('{ games(first: 1) { nodes { seats { player { id } } } } }', { maxDepth: 5 }), []);
  t.match(check('{ games(first: 1) { nodes { seats { player { id } } } } }', { maxDepth: 4 }), [{ code: 'query_too_complex', measure: 'depth', value: 5, limit: 4 }]);
  // games(first: 10) { nodes { id } }: 1 + 10 × (nodes 1 + id 1) = 21 (the page's list is not multiplied again)
  t.same(check('{ games(first: 10) { nodes { id } } }', { maxComplexity: 21 }), []);
  t.match(check('{ games(first: 10) { nodes { id } } }', { maxComplexity: 20 }), [{ code: 'query_too_complex', measure: 'complexity', value: 21 }]);
  // A variable page size is costed at the largest page; the default page size when absent.
  t.match(check('query($n: Int) { games(first: $n) { nodes { id } } }', { maxComplexity: 200 }), [{ value: 201 }]);
  t.match(check('{ games { nodes { id } } }', { maxComplexity: 40 }), [{ value: 41 }]);
  // Each mutation field costs 10.
  t.match(check('mutation { a: abort(gameId: "1") { id } b: abort(gameId: "2") { id } }', { maxComplexity: 21 }), [{ value: 22 }]);
});

t.test('too many aliased fields: query_too_complex (complexity)', async (t) => {
  const query = `{ ${Array.from({ length: 30 }, (_, i) => `g${i}: games(first: 100) { nodes { id seats { role player { id name } } } }`).join(' ')} }`;
  const { status, body } = await gql(query);
  t.equal(status, 400);
  t.equal(body.data, null);
  t.match(body.errors, [{ message: /costs \d+; the limit is 5000/, extensions: { code: 'query_too_complex', measure: 'complexity', limit: 5000 } }]);
});

t.test('syntax and validation errors carry invalid_request; no stack traces', async (t) => {
  const syntax = await gql('{ games { ');
  t.equal(syntax.status, 400);
  t.match(syntax.body.errors, [{ message: /Syntax Error/, extensions: { code: 'invalid_request' } }]);
  const unknown = await gql('{ nope }');
  t.equal(unknown.status, 400);
  t.match(unknown.body.errors, [{ message: /Cannot query field "nope"/, extensions: { code: 'invalid_request' } }]);
  const badVar = await gql('query($n: Int) { games(first: $n) { nextCursor } }', { n: 'many' });
  t.equal(badVar.status, 400);
  t.match(badVar.body.errors, [{ extensions: { code: 'invalid_request' } }]);
  for (const b of [syntax.body, unknown.body, badVar.body]) t.notMatch(JSON.stringify(b), /stack|\.ts:\d+/);
  const page = await gql('{ games(first: 1000) { nextCursor } }');
  t.match(page.body.errors, [{ message: 'first must be from 1 to 100', extensions: { code: 'invalid_request' } }]);
});

t.test('operations needing a caller answer unauthorized; a bad key never becomes anonymous', async (t) => {
  const anon = await gql('{ me { id } }');
  t.match(anon.body.errors, [{ extensions: { code: 'unauthorized' }, path: ['me'] }]);
  const bad = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: 'Bearer hk_nonsense' }, payload: { query: '{ server { name } }' } });
  t.equal(bad.statusCode, 401, 'refused before anything runs, as on REST');
  t.match(bad.json(), { data: null, errors: [{ extensions: { code: 'unauthorized' } }] });
  const malformed = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: 'Basic abc' }, payload: { query: '{ games { nextCursor } }' } });
  t.match(malformed.json().errors, [{ extensions: { code: 'unauthorized' } }]);
});
