// Black & White needs a data file an owner of the game types in
// (HERALD_BLACK_AND_WHITE_DATA). Over the API, on real Postgres: unset, a
// missing file, a file that is not JSON and an invalid file leave the game
// listed as not playable with the reasons (GET /game-types and GraphQL
// gameTypes), and creating a game of it is a 400 invalid_request (REST
// problem+json, GraphQL extensions.code) that stores nothing; a valid file
// makes it playable, and the invented file is listed as invented. A file
// whose first row is cramped: a purchase the army could not deploy is refused
// as illegal_action with the reason.
// Creating and playing a game of it needs the rules (another branch): that
// test comes with the merge.
import t, { type Test } from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { projectRoot } from '../../src/paths.ts';
import type { GameTypeInfo } from '../../src/service/api.ts';
import { openTestStore, tempDir, testConfig } from '../helpers/services.ts';
import { client as gqlClient } from './graphql-helpers.ts';
import { signup } from './rest-helpers.ts';

const INVENTED = path.join(projectRoot, 'src/games/black-and-white/data/invented-data.json');
const { store, databaseUrl } = await openTestStore(t);
const dir = await tempDir(t, 'herald-bw-');

/** An app on the shared database with that data file setting (null: unset). */
async function appWith(file: string | null): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ databaseUrl, gameDataFiles: { HERALD_BLACK_AND_WHITE_DATA: file } }), { store });
  t.teardown(() => app.close());
  return app;
}

type Listed = GameTypeInfo & { data: unknown };
const TYPES = '{ gameTypes { id title playable invented missing { message file path } roles aiLevels scenarios { id } data { version } } }';

async function listed(app: FastifyInstance): Promise<{ rest: Listed[]; gql: Listed[] }> {
  const res = await app.inject('/game-types');
  if (res.statusCode !== 200) throw new Error(res.body);
  const g = await gqlClient(app, null)(TYPES);
  return { rest: res.json() as Listed[], gql: (g.data?.gameTypes ?? []) as Listed[] };
}

/** Black & White is listed, not playable, with these reasons (REST and GraphQL alike); creating a game of it is refused. */
async function refused(t: Test, app: FastifyInstance, reasons: { message: RegExp; file: string | null; path: string | null }[]) {
  const { rest, gql } = await listed(app);
  t.same(rest.map((g) => [g.id, g.playable]), [['richard-iii', true], ['black-and-white', false]], 'the playable types first');
  const bw = rest.find((g) => g.id === 'black-and-white')!;
  t.match(bw, { title: 'Black & White', playable: false, invented: false, roles: [], scenarios: [], data: null });
  t.equal(bw.missing.length, reasons.length, JSON.stringify(bw.missing));
  reasons.forEach((r, i) => t.match(bw.missing[i], r, `reason ${i}`));
  t.same(gql.find((g) => g.id === 'black-and-white'), { ...bw, scenarios: [] }, 'GraphQL lists the same');
  t.match(rest.find((g) => g.id === 'richard-iii'), { playable: true, invented: false, missing: [] });

  const before = await store.prisma.game.count();
  const ada = await signup(app, `Ada-${Math.random().toString(36).slice(2, 8)}`);
  const res = await ada.req('POST', '/games', { gameType: 'black-and-white', scenario: 's01' });
  t.equal(res.statusCode, 400);
  t.match(res.headers['content-type'], /application\/problem\+json/);
  const problem = res.json();
  t.match(problem, { code: 'invalid_request', field: 'gameType', gameType: 'black-and-white', playable: ['richard-iii'] });
  t.match(problem.detail, /^Black & White \(black-and-white\) is not playable on this server: /);
  t.match(problem.detail, new RegExp(reasons[0]!.message.source.replace(/^\^|\$$/g, '')), 'the first reason is in the detail');
  t.same(problem.missing, bw.missing, 'the reasons, as listed');
  const viaGql = await gqlClient(app, ada.key)('mutation { createGame(input: { gameType: "black-and-white", scenario: "s01" }) { id } }');
  t.equal(viaGql.errors?.[0]?.extensions?.code, 'invalid_request');
  t.match(viaGql.errors?.[0]?.message, /is not playable on this server/);
  t.equal(await store.prisma.game.count(), before, 'nothing stored');
  // It has no data files; the 404 says why.
  const data = await app.inject('/game-types/black-and-white/data');
  t.equal(data.statusCode, 404);
  t.match(data.json(), { code: 'not_found', detail: /^Black & White \(black-and-white\) is not playable on this server: / });
  // An unknown type is refused the same way, naming what is playable.
  const unknown = await ada.req('POST', '/games', { gameType: 'chess', scenario: 'x' });
  t.match(unknown.json(), { code: 'invalid_request', detail: 'gameType must be one of richard-iii.', playable: ['richard-iii'] });
}

t.test('HERALD_BLACK_AND_WHITE_DATA unset: listed, not playable, because it is not set', async (t) => {
  await refused(t, await appWith(null), [{ message: /^HERALD_BLACK_AND_WHITE_DATA is not set: it names the data file an owner of the game types in/, file: null, path: null }]);
});

t.test('a file that does not exist', async (t) => {
  const file = path.join(dir, 'nowhere.json');
  await refused(t, await appWith(file), [{ message: new RegExp(`^HERALD_BLACK_AND_WHITE_DATA names ${file}, which does not exist$`), file, path: null }]);
});

t.test('a file that is not JSON', async (t) => {
  const file = path.join(dir, 'broken.json');
  writeFileSync(file, '{ "format": ');
  await refused(t, await appWith(file), [{ message: /is not JSON: /, file, path: '' }]);
});

t.test('an invalid file: every problem, with its file and JSON pointer, reaches the API', async (t) => {
  const file = path.join(dir, 'owner.json');
  const d = JSON.parse(readFileSync(INVENTED, 'utf8'));
  d.kinds[0].strength = 6;
  d.scenarios[0].firstRows.Vesania[2] = '12,3';
  d.scenarios[1].turnLimit = 11;
  writeFileSync(file, JSON.stringify(d));
  await refused(t, await appWith(file), [
    { message: /^must be a whole number from 1 to 4, not the number 6$/, file, path: '/kinds/0/strength' },
    { message: /^must be one of 10, 12, not the number 11$/, file, path: '/scenarios/1/turnLimit' },
  ]);
  // The shape is right but the rules' checks fail: those reach the API as well.
  d.kinds[0].strength = 3;
  d.scenarios[1].turnLimit = 12;
  writeFileSync(file, JSON.stringify(d));
  await refused(t, await appWith(file), [{ message: /^12,3 is not on the board \(9 columns × 7 rows/, file, path: '/scenarios/0/firstRows/Vesania/2' }]);
});

t.test('the invented file: playable, and listed as invented', async (t) => {
  const app = await appWith(INVENTED);
  const { rest, gql } = await listed(app);
  const bw = rest.find((g) => g.id === 'black-and-white')!;
  t.match(bw, { title: 'Black & White', playable: true, invented: true, missing: [], roles: ['Thargaton', 'Vesania'] });
  t.same(bw.scenarios.map((s) => s.id), ['s01', 's06', 's11', 's16', 's21']);
  t.ok(bw.scenarios.every((s) => /\(invented\)/.test(s.name)), 'every scenario says it is invented');
  t.ok(bw.data, 'its data files are published');
  t.match(gql.find((g) => g.id === 'black-and-white'), { playable: true, invented: true, missing: [] });
  t.match(rest.find((g) => g.id === 'richard-iii'), { playable: true, invented: false });
});

t.test('a cramped first row: a purchase the army could not deploy is refused, saying why (REST problem+json, GraphQL code)', async (t) => {
  // The invented file with s01's Thargaton first row cut to one open hex: one cavalry fills it for artillery.
  const d = JSON.parse(readFileSync(INVENTED, 'utf8'));
  d.scenarios[0].firstRows.Thargaton = ['1,1'];
  const file = path.join(dir, 'cramped.json');
  writeFileSync(file, JSON.stringify(d));
  const app = await appWith(file);
  const ada = await signup(app, `Ada-${Math.random().toString(36).slice(2, 8)}`);
  const created = await ada.req('POST', '/games', { gameType: 'black-and-white', scenario: 's01', roles: ['Thargaton', 'Vesania'] });
  t.equal(created.statusCode, 201, created.body);
  const id = created.json().id as string;
  t.equal((await ada.req('POST', `/games/${id}/actions`, { role: 'Thargaton', action: { type: 'buy', kind: 'regular-cavalry' } })).statusCode, 200);
  const res = await ada.req('POST', `/games/${id}/actions`, { role: 'Thargaton', action: { type: 'buy', kind: 'regular-artillery' } });
  t.equal(res.statusCode, 422, res.body);
  t.match(res.json(), { code: 'illegal_action', detail: /^That is not a legal action for Thargaton now: regular-artillery may not be bought: Thargaton's first row could not hold it with the units already bought, within the stacking limit/ });
  const gql = await gqlClient(app, ada.key)(
    'mutation($gameId: ID!, $role: String, $action: JSON!) { submitAction(gameId: $gameId, role: $role, action: $action) { version } }',
    { gameId: id, role: 'Thargaton', action: { type: 'buy', kind: 'regular-artillery' } },
  );
  t.equal(gql.errors?.[0]?.extensions?.code, 'illegal_action');
  t.match(gql.errors?.[0]?.message, /could not hold it/);
  const plain = await ada.req('POST', `/games/${id}/actions`, { role: 'Thargaton', action: { type: 'buy', kind: 'no-such-kind' } });
  t.match(plain.json(), { code: 'illegal_action', detail: 'That is not a legal action for Thargaton now.' }, 'no reason where the module has none');
});
