// A game type's data at versioned URLs (routes/game-data.ts): the index and
// each file, their caching headers, conditional requests (304), HEAD, the
// not_found cases, and the same URLs in GET /game-types and GraphQL.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { games } from '../../src/games/index.ts';
import { restApp } from './rest-helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const app = await restApp(t);
const dataFile = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'src/games/richard-iii/data', `${name}.json`), 'utf8'));

t.test('the index lists every file at a URL holding its content hash', async (t) => {
  const res = await app.inject('/game-types/richard-iii/data');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  t.equal(res.headers['cache-control'], 'public, max-age=60');
  const index = res.json();
  t.equal(res.headers.etag, `"${index.version}"`, 'the index’s ETag is its version');
  t.equal(index.index, '/game-types/richard-iii/data');
  t.same(index.files.map((f: any) => f.name), ['blocks', 'cards', 'map', 'options', 'scenarios']);
  for (const f of index.files) {
    t.equal(f.url, `/game-types/richard-iii/data/${f.hash}/${f.name}.json`);
    t.match(f.hash, /^[0-9a-f]{16}$/);
  }
});

t.test('each file: the data as published, immutable caching, hash = ETag = SHA-256 of the bytes', async (t) => {
  const index = (await app.inject('/game-types/richard-iii/data')).json();
  for (const f of index.files) {
    const res = await app.inject(f.url);
    t.equal(res.statusCode, 200, f.name);
    t.match(res.headers['content-type'], /^application\/json/);
    t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.equal(res.headers.etag, `"${f.hash}"`);
    t.equal(createHash('sha256').update(res.rawPayload).digest('hex').slice(0, 16), f.hash, `${f.name}: the URL's hash is the body's`);
    t.equal(res.rawPayload.length, f.bytes);
    if (f.name === 'options') {
      const m = games['richard-iii']!;
      t.same(res.json(), { gameType: 'richard-iii', scenarios: m.scenarios.map((s) => ({ id: s.id, name: s.name, options: s.options })) }, 'options: each scenario’s declarations');
    } else t.same(res.json(), dataFile(f.name), `${f.name}: the game's data file`);
  }
});

t.test('If-None-Match: 304 with the validators and no body; anything else is 200', async (t) => {
  const index = (await app.inject('/game-types/richard-iii/data')).json();
  const map = index.files.find((f: any) => f.name === 'map');
  for (const [url, etag] of [['/game-types/richard-iii/data', `"${index.version}"`], [map.url, `"${map.hash}"`]] as const) {
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await app.inject({ url, headers: { 'if-none-match': header } });
      t.equal(res.statusCode, 304, `${url} with If-None-Match ${header}`);
      t.equal(res.body, '');
      t.equal(res.headers.etag, etag);
      t.ok(res.headers['cache-control'], 'Cache-Control on the 304 too');
    }
    for (const header of ['"nope"', etag.slice(1, -1), '']) {
      t.equal((await app.inject({ url, headers: { 'if-none-match': header } })).statusCode, 200, `${url} with If-None-Match ${JSON.stringify(header)}`);
    }
  }
  const head = await app.inject({ method: 'HEAD', url: map.url });
  t.equal(head.statusCode, 200);
  t.equal(head.headers.etag, `"${map.hash}"`);
  t.equal(head.body, '');
});

t.test('unknown game types, files and versions are 404 not_found (problem+json)', async (t) => {
  const index = (await app.inject('/game-types/richard-iii/data')).json();
  const map = index.files.find((f: any) => f.name === 'map');
  const cases: Array<[string, RegExp]> = [
    ['/game-types/chess/data', /No game type chess/],
    ['/game-types/__proto__/data', /No game type/],
    [`/game-types/chess/data/${map.hash}/map.json`, /No game type chess/],
    [`/game-types/richard-iii/data/${map.hash}/rules.json`, /no data file rules/],
    [`/game-types/richard-iii/data/${map.hash}/map`, /JSON/],
    [`/game-types/richard-iii/data/${map.hash}/constructor.json`, /no data file constructor/],
    [`/game-types/richard-iii/data/0123456789abcdef/map.json`, new RegExp(`the current one is ${map.hash}`)],
    [`/game-types/richard-iii/data/${index.files.find((f: any) => f.name === 'cards').hash}/map.json`, /no version/],
  ];
  for (const [url, detail] of cases) {
    const res = await app.inject(url);
    t.equal(res.statusCode, 404, url);
    t.match(res.headers['content-type'], /^application\/problem\+json/, url);
    t.match(res.json(), { code: 'not_found', detail }, url);
    t.notOk(res.headers['cache-control'], `${url}: a 404 is not cached as immutable`);
  }
});

t.test('GET /game-types and GraphQL GameType.data give the index’s URLs', async (t) => {
  const index = (await app.inject('/game-types/richard-iii/data')).json();
  const types = (await app.inject('/game-types')).json();
  t.same(types.find((g: any) => g.id === 'richard-iii').data, index, 'REST /game-types');
  const gql = await app.inject({
    method: 'POST',
    url: '/graphql',
    payload: { query: '{ gameTypes { id data { gameType index version files { name url hash bytes } } } }' },
  });
  t.equal(gql.statusCode, 200);
  t.same(gql.json().data.gameTypes.find((g: any) => g.id === 'richard-iii').data, index, 'GraphQL');
});
