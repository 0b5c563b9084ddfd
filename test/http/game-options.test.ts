// Game options over the API: the declaration published by GET /game-types and
// GraphQL gameTypes, and creation (REST and GraphQL) enforcing exactly it —
// unknown, mistyped and out-of-range options are 422 invalid_options naming the
// option, with nothing stored; the values it allows are accepted and played.
import t from 'tap';
import { richardIII } from '../../src/games/richard-iii/index.ts';
import type { GameTypeInfo, OptionDeclaration } from '../../src/service/api.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';
import { restApp, signup } from './rest-helpers.ts';

const app = await restApp(t);
const ada = await signup(app, 'Ada');
const gql = gqlClient(app, ada.key);
const gameCount = () => app.store.prisma.game.count();

const OPTION_FIELDS = 'name type description default min max values';
const TYPES_QUERY = `{ gameTypes { id title playable invented missing { message file path } roles aiLevels scenarios { id name description options { ${OPTION_FIELDS} } } } }`;

/** A GraphQL option as the REST declaration: the fields of other types are null there. */
function fromGql(o: Record<string, unknown>): OptionDeclaration {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as unknown as OptionDeclaration;
}

const published = (await app.inject('/game-types')).json() as GameTypeInfo[];

t.test('GET /game-types and gameTypes publish each scenario\'s option declaration', async (t) => {
  const res = await app.inject('/game-types');
  t.equal(res.statusCode, 200, 'no key needed');
  const r3 = published.find((g) => g.id === 'richard-iii')!;
  t.match(r3, { title: richardIII.title, roles: ['York', 'Lancaster'] });
  t.same(r3.scenarios.map((s) => s.id), richardIII.scenarios.map((s) => s.id));
  t.same(r3.scenarios.map((s) => s.options), richardIII.scenarios.map((s) => s.options), 'the module\'s declarations, as declared');
  t.match(r3.scenarios.find((s) => s.id === 'wars-of-the-roses')!.options, [{ name: 'endCampaign', type: 'integer', min: 1, max: 3, default: 3 }]);

  const d = await ok(gqlClient(app, null)(TYPES_QUERY));
  const viaGql = (d.gameTypes as GameTypeInfo[]).map((g) => ({ ...g, scenarios: g.scenarios.map((s) => ({ ...s, options: s.options.map((o) => fromGql(o as never)) })) }));
  // REST adds each type's data URLs (GameType.data, not asked for here: test/http/game-data.test.ts compares them).
  t.same(viaGql, published.map(({ data: _data, ...g }: GameTypeInfo & { data?: unknown }) => g), 'GraphQL publishes the same');
});

/** Values to try for a declaration: inside and just outside its range, and of other types. */
function probes(d: OptionDeclaration): { value: unknown; valid: boolean; problem?: 'type' | 'range' }[] {
  const wrongTypes = [null, [], {}, ...(d.type === 'boolean' ? [1, 'true'] : d.type === 'integer' ? [`${d.default}`, d.default + 0.5, true] : [1, true])];
  const out: { value: unknown; valid: boolean; problem?: 'type' | 'range' }[] = wrongTypes.map((value) => ({ value, valid: false, problem: 'type' }));
  if (d.type === 'boolean') out.push({ value: true, valid: true }, { value: false, valid: true });
  if (d.type === 'integer') for (let v = d.min - 2; v <= d.max + 2; v++) out.push({ value: v, valid: v >= d.min && v <= d.max, problem: 'range' });
  if (d.type === 'string') out.push(...d.values.map((value) => ({ value, valid: true })), { value: `${d.values[0]}-not`, valid: false, problem: 'range' });
  return out;
}

t.test('REST: POST /games enforces exactly the published declaration', async (t) => {
  for (const game of published) {
    for (const sc of game.scenarios) {
      const base = { gameType: game.id, scenario: sc.id };
      const before = await gameCount();
      const example = await app.inject({ method: 'POST', url: '/games', headers: { authorization: `Bearer ${ada.key}` }, payload: { ...base, options: { bogus: true, endCampaign: 99 } } });
      t.equal(example.statusCode, 422, `${sc.id}: the issue's example`);
      t.match(example.json(), { code: 'invalid_options', option: 'bogus', problem: 'unknown', detail: /"bogus"/ });
      for (const d of sc.options) {
        for (const p of probes(d)) {
          const res = await ada.req('POST', '/games', { ...base, options: { [d.name]: p.value } });
          const what = `${sc.id} ${d.name}=${JSON.stringify(p.value)}`;
          if (p.valid) {
            t.equal(res.statusCode, 201, `${what}: accepted`);
            t.same(res.json().options, { ...Object.fromEntries(sc.options.map((o) => [o.name, o.default])), [d.name]: p.value }, `${what}: stored`);
          } else {
            t.equal(res.statusCode, 422, `${what}: refused`);
            t.match(res.json(), { code: 'invalid_options', option: d.name, problem: p.problem, declaration: d, detail: new RegExp(`"${d.name}"`) }, what);
          }
        }
      }
      const valid = sc.options.flatMap((d) => probes(d).filter((p) => p.valid)).length;
      t.equal(await gameCount(), before + valid, `${sc.id}: only the accepted ones were stored`);
    }
  }
  const body = (await ada.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', options: 'all' })).json();
  t.match(body, { code: 'invalid_request' }, 'options that are not an object stay a 400');
});

t.test('REST: a valid option takes effect in the game', async (t) => {
  const res = await ada.req('POST', '/games', { gameType: 'richard-iii', scenario: 'wars-of-the-roses', options: { endCampaign: 2 }, roles: ['York', 'Lancaster'] });
  t.equal(res.statusCode, 201, res.body);
  const view = (await ada.req('GET', `/games/${res.json().id}/view?role=York`)).json();
  t.equal(view.view.endCampaign, 2, 'the engine plays to campaign 2');
  const record = (await ada.req('GET', `/games/${res.json().id}/export`)).json();
  t.same(record.options, { endCampaign: 2 }, 'and the record carries it');
});

t.test('GraphQL: createGame enforces the same, with the option named in extensions', async (t) => {
  const create = `mutation($input: CreateGameInput!) { createGame(input: $input) { id options } }`;
  const input = (options: unknown) => ({ input: { gameType: 'richard-iii', scenario: 'wars-of-the-roses', options, roles: ['York', 'Lancaster'] } });
  const before = await gameCount();
  for (const [options, option, problem] of [
    [{ bogus: true }, 'bogus', 'unknown'],
    [{ endCampaign: 99 }, 'endCampaign', 'range'],
    [{ endCampaign: 0 }, 'endCampaign', 'range'],
    [{ endCampaign: '2' }, 'endCampaign', 'type'],
    [{ endCampaign: 1.5 }, 'endCampaign', 'type'],
  ] as const) {
    const r = await gql(create, input(options));
    t.equal(r.data, null, JSON.stringify(options));
    t.match(r.errors, [{ message: new RegExp(`"${option}"`), extensions: { code: 'invalid_options', option, problem } }], JSON.stringify(options));
  }
  t.equal(await gameCount(), before, 'nothing stored');
  const made = await ok(gql(create, input({ endCampaign: 1 })));
  t.same(made.createGame.options, { endCampaign: 1 });
  const view = await ok(gql(`query($id: ID!) { view(gameId: $id, role: "York") { view } }`, { id: made.createGame.id }));
  t.equal(view.view.view.endCampaign, 1, 'takes effect');
  t.same((await ok(gql(create, input(null)))).createGame.options, { endCampaign: 3 }, 'none given: the defaults');
});

t.test('imports check the options too (REST and GraphQL)', async (t) => {
  const g = await ada.req('POST', '/games', { gameType: 'richard-iii', scenario: 'kingmaker', roles: ['York', 'Lancaster'] });
  await ada.req('POST', `/games/${g.json().id}/abort`);
  const record = (await ada.req('GET', `/games/${g.json().id}/export`)).json();
  const before = await gameCount();
  const rest = await ada.req('POST', '/games/import', { record: { ...record, options: { endCampaign: 3, speed: 'fast' } } });
  t.equal(rest.statusCode, 422);
  t.match(rest.json(), { code: 'invalid_record', field: 'options', option: 'speed', problem: 'unknown' });
  const r = await gql(`mutation($r: JSON!) { importGame(record: $r) { id } }`, { r: { ...record, options: { endCampaign: 1 } } });
  t.match(r.errors, [{ extensions: { code: 'invalid_record', field: 'options', option: 'endCampaign', problem: 'range' } }]);
  t.equal(await gameCount(), before, 'nothing stored');
  t.equal((await ada.req('POST', '/games/import', { record })).statusCode, 201, 'the untouched record imports');
});
