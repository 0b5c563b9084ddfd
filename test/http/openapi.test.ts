import t from 'tap';
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { buildApp } from '../../src/http/app.ts';
import { OPENAPI_PATH } from '../../src/http/plugins/openapi.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const { store, databaseUrl } = await openTestStore(t);
const text = await readFile(OPENAPI_PATH, 'utf8');

t.test('openapi.yaml is a valid OpenAPI 3.1 document', async (t) => {
  const result = await new Validator().validate(parse(text));
  t.same(result.errors ?? [], [], 'no schema errors');
  t.equal(result.valid, true);
  t.match(parse(text).openapi, /^3\.1\./);
});

t.test('openapi.yaml lists every registered route, and nothing else', async (t) => {
  // development: true registers everything (GraphiQL included).
  const app = await buildApp(testConfig({ databaseUrl, development: true }), { store });
  t.teardown(() => app.close());
  const registered = app.restRoutes().map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
  const doc = parse(text) as { paths: Record<string, Record<string, unknown>> };
  const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).filter((k) => METHODS.includes(k)).map((m) => `${m.toUpperCase()} ${path}`),
  );
  t.ok(registered.length > 0);
  t.same(registered.filter((r) => !documented.includes(r)), [], 'no registered route missing from openapi.yaml');
  t.same(documented.filter((d) => !registered.includes(d)), [], 'no stale route in openapi.yaml');
});

t.test('/openapi.yaml serves the file; /docs serves Swagger UI with its assets', async (t) => {
  const app = await buildApp(testConfig({ databaseUrl }), { store });
  t.teardown(() => app.close());
  const spec = await app.inject('/openapi.yaml');
  t.equal(spec.statusCode, 200);
  t.match(spec.headers['content-type'], /^application\/yaml/);
  t.equal(spec.body, text);
  const docs = await app.inject('/docs');
  t.equal(docs.statusCode, 200);
  t.match(docs.headers['content-type'], /^text\/html/);
  t.match(docs.body, /swagger-ui/i);
  const json = await app.inject('/docs/json');
  t.equal(json.statusCode, 200);
  t.same(json.json().paths && Object.keys(json.json().paths).sort(), Object.keys(parse(text).paths).sort(), 'the UI shows this document');
  const asset = await app.inject('/docs/static/swagger-ui-bundle.js');
  t.equal(asset.statusCode, 200, 'UI assets are served locally (no CDN)');
});
