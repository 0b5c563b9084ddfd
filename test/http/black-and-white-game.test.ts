// A complete Black & White game over the API on the invented data file
// (HERALD_BLACK_AND_WHITE_DATA, test/helpers/games inventedDataFiles), on real
// Postgres and a real port: created with rule options, both seats played
// through purchase, deployment and turns to the end (REST and GraphQL
// mutations in turn, the action picked by the playout adapter from each seat's
// view), followed by an SSE stream and a GraphQL subscription; then export and
// import (the import replays and checks the record). Bad input is a typed 4xx
// that changes nothing: an unknown option, a wrong option value, an illegal
// action (REST and GraphQL), a tampered record.
import t from 'tap';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { FormattedExecutionResult } from 'graphql';
import { inventedDataFiles, allGameModules } from '../helpers/games/index.ts';
import { chooseFromView } from '../helpers/games/black-and-white.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { prng, restApp, signup } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';
import { baseUrl, SseClient } from './sse-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);

const app = await restApp(t, { gameDataFiles: inventedDataFiles() });
await app.listen({ port: 0, host: '127.0.0.1' });
const engine = allGameModules()['black-and-white']!;
const OPTIONS = { a54Revealed: 'hide', a18ZocTest: 'each', a22CounterAfterMiss: true };

const SUBMIT = `mutation($gameId: ID!, $action: JSON!, $expectedVersion: Int) {
  submitAction(gameId: $gameId, action: $action, expectedVersion: $expectedVersion) { version game { status } }
}`;
const GAME_EVENTS = `subscription($id: ID!, $role: String) {
  gameEvents(gameId: $id, role: $role) { version kind status activeRoles role view }
}`;

t.test('a Black & White game through REST, GraphQL, SSE, export and import', async (t) => {
  const tharg = await signup(app, 'Thargaton player');
  const ves = await signup(app, 'Vesania player');
  const watcher = await signup(app, 'Watcher');

  const types = (await app.inject('/game-types')).json() as { id: string; playable: boolean; invented: boolean; roles: string[]; scenarios: { id: string; options: { name: string }[] }[] }[];
  const bw = types.find((g) => g.id === 'black-and-white')!;
  t.match(bw, { playable: true, invented: true, roles: ['Thargaton', 'Vesania'] });
  t.same(bw.scenarios.map((s) => s.id), engine.scenarios.map((s) => s.id));
  t.ok(bw.scenarios[0]!.options.some((o) => o.name === 'a54Revealed'), 'the rule options are declared');

  // Bad options: typed 422, nothing stored (REST and GraphQL).
  const before = await app.store.prisma.game.count();
  const base = { gameType: 'black-and-white', scenario: 's01', roles: ['Thargaton'] };
  const unknown = await tharg.req('POST', '/games', { ...base, options: { noSuchOption: true } });
  t.equal(unknown.statusCode, 422, 'unknown option: 422');
  t.match(unknown.json(), { code: 'invalid_options', option: 'noSuchOption', problem: 'unknown' });
  const wrong = await tharg.req('POST', '/games', { ...base, options: { a54Revealed: 'sometimes' } });
  t.equal(wrong.statusCode, 422, 'wrong option value: 422');
  t.match(wrong.json(), { code: 'invalid_options', option: 'a54Revealed' });
  const wrongType = await tharg.req('POST', '/games', { ...base, options: { a22CounterAfterMiss: 'yes' } });
  t.match(wrongType.json(), { code: 'invalid_options', option: 'a22CounterAfterMiss' });
  const gqlWrong = await gqlClient(app, tharg.key)('mutation($input: CreateGameInput!) { createGame(input: $input) { id } }', { input: { ...base, options: { a1StackBonus: 'both' } } });
  t.equal(gqlWrong.errors?.[0]?.extensions?.code, 'invalid_options');
  const badScenario = await tharg.req('POST', '/games', { ...base, scenario: 's99' });
  t.ok(badScenario.statusCode >= 400 && badScenario.statusCode < 500, `unknown scenario: ${badScenario.statusCode}`);
  t.equal(await app.store.prisma.game.count(), before, 'nothing stored');

  // The game, with options.
  const created = await tharg.req('POST', '/games', { ...base, seed: 'bw-api-1', options: OPTIONS });
  t.equal(created.statusCode, 201, 'created');
  const game = created.json();
  t.match(game, { status: 'setup', gameType: 'black-and-white', scenario: 's01' });
  t.match(game.options, OPTIONS, 'the options given, the others at their defaults');
  t.equal(Object.keys(game.options).length, engine.scenarios[0]!.options.length);
  const id = game.id as string;

  // Thargaton's GraphQL subscription, from before the start.
  const ws = createClient({ url: `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${tharg.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => ws.dispose());
  const subResults: FormattedExecutionResult<Record<string, any>, unknown>[] = [];
  let subEnd: (() => void) | null = null;
  let finalVersion = -1;
  const subDone = new Promise<void>((resolve) => (subEnd = resolve));
  const stop = ws.subscribe<Record<string, any>>({ query: GAME_EVENTS, variables: { id, role: 'Thargaton' } }, {
    next: (r) => {
      subResults.push(r);
      if (r.data?.gameEvents?.version === finalVersion) subEnd?.();
    },
    error: () => subEnd?.(),
    complete: () => subEnd?.(),
  });
  t.teardown(stop);

  const joined = await ves.req('POST', `/games/${id}/join`, {});
  t.equal(joined.statusCode, 200, 'joined');
  t.match(joined.json(), { status: 'active' });
  // Vesania's SSE stream, from the first version on (lastEventId=0: caught up, then live).
  const sse = await SseClient.open(`${baseUrl(app)}/games/${id}/events?lastEventId=0`, { authorization: `Bearer ${ves.key}` });
  t.teardown(() => sse.close());

  const seat = { Thargaton: tharg, Vesania: ves } as const;
  const gql = { Thargaton: gqlClient(app, tharg.key), Vesania: gqlClient(app, ves.key) } as const;
  const pick = prng(4242);
  const random = () => pick(1_000_000) / 1_000_000;
  const played: Record<string, number> = {};
  let version = joined.json().version as number;
  let moves = 0;
  let badTried = false;
  for (;;) {
    const summary = (await watcher.req('GET', `/games/${id}`)).json();
    if (summary.version !== version) {
      t.fail(`version ${summary.version}, expected ${version}`);
      break;
    }
    if (summary.status !== 'active') break;
    const role = summary.activeRoles[pick(summary.activeRoles.length)] as 'Thargaton' | 'Vesania';
    const view = (await seat[role].req('GET', `/games/${id}/view`)).json().view as { phase: string };
    const legal = (await seat[role].req('GET', `/games/${id}/actions`)).json();
    if (legal.actions.length === 0) {
      t.fail(`${role} active with no legal action at ${version}`);
      break;
    }
    if (!badTried && view.phase === 'play') {
      // Illegal actions: typed, nothing changes.
      badTried = true;
      const bad = await seat[role].req('POST', `/games/${id}/actions`, { action: { type: 'move', to: '99,99' }, expectedVersion: version });
      t.equal(bad.statusCode, 422, 'illegal action: 422');
      t.match(bad.json(), { code: 'illegal_action', currentVersion: version });
      const notAnAction = await seat[role].req('POST', `/games/${id}/actions`, { action: { kind: 'buy' }, expectedVersion: version });
      t.match(notAnAction.json(), { code: 'illegal_action' });
      const other = role === 'Thargaton' ? 'Vesania' : 'Thargaton';
      const outOfTurn = await seat[other].req('POST', `/games/${id}/actions`, { action: legal.actions[0], expectedVersion: version });
      t.ok(outOfTurn.statusCode >= 400 && outOfTurn.statusCode < 500, `the other seat acting: ${outOfTurn.statusCode} ${outOfTurn.json().code}`);
      const viaGql = await gql[role](SUBMIT, { gameId: id, action: { type: 'buy', kind: 'iron-order' }, expectedVersion: version });
      t.equal(viaGql.errors?.[0]?.extensions?.code, 'illegal_action');
      t.equal((await watcher.req('GET', `/games/${id}`)).json().version, version, 'nothing changed');
    }
    const action = chooseFromView(legal.actions as { type: string }[], random, view, role);
    played[action.type] = (played[action.type] ?? 0) + 1;
    if (moves % 3 === 2) {
      const r = await gql[role](SUBMIT, { gameId: id, action, expectedVersion: version });
      if (r.errors || r.data!.submitAction.version !== version + 1) {
        t.fail(`GraphQL submit ${JSON.stringify(action)} at ${version}: ${JSON.stringify(r)}`);
        break;
      }
    } else {
      const r = await seat[role].req('POST', `/games/${id}/actions`, { action, expectedVersion: version });
      if (r.statusCode !== 200 || r.json().version !== version + 1) {
        t.fail(`action rejected: ${r.body}`);
        break;
      }
    }
    version++;
    moves++;
    if (moves > 4000) {
      t.fail('the game did not end');
      break;
    }
  }
  t.ok(badTried, 'illegal actions tried during play');
  t.pass(`${moves} actions, two in three by REST, one in three by GraphQL, each at the version it expected`);
  for (const type of ['buy', 'done', 'place', 'activate', 'end-turn']) t.ok((played[type] ?? 0) > 0, `played ${type} (${played[type]})`);
  const final = (await watcher.req('GET', `/games/${id}`)).json();
  t.match(final, { status: 'finished', activeRoles: [], result: { reason: String } });
  t.equal(final.seed, 'bw-api-1', 'the seed is public once over');
  t.comment(`${moves} actions: ${JSON.stringify(played)}; result ${JSON.stringify(final.result)}`);

  // The SSE stream saw every version in order, then the end.
  const end = await sse.waitFor((e) => e.event === 'end', 10_000);
  const versions = sse.events.filter((e) => e.event === 'version').map((e) => JSON.parse(e.data).version as number);
  t.same(versions, Array.from({ length: final.version }, (_, i) => i + 1), 'SSE: versions 1..end, one by one');
  t.equal(JSON.parse(end.data).version, final.version);
  const last = JSON.parse(sse.events.filter((e) => e.event === 'version').at(-1)!.data);
  const stored = (await app.store.prisma.game.findUnique({ where: { id } }))!.state;
  t.same(last.view, JSON.parse(JSON.stringify(engine.view(stored, 'Vesania'))), 'the last event carries the seat\'s view');
  // The GraphQL subscription reached the end too.
  finalVersion = final.version;
  if (!subResults.some((r) => r.data?.gameEvents?.version === finalVersion)) await within(subDone, () => `the subscription to reach ${finalVersion}; got ${subResults.length}`);
  const subVersions = subResults.map((r) => r.data?.gameEvents?.version as number);
  t.equal(subVersions.at(-1), final.version, `GraphQL subscription: ${subResults.length} events, up to the end`);
  t.ok(subResults.every((r) => !r.errors), 'no subscription error');
  t.ok(subResults.filter((r) => r.data?.gameEvents?.view).every((r) => r.data!.gameEvents.view.seat === 'Thargaton'), 'the subscriber\'s own views');

  // Earlier versions of the finished game, by replay of the stored actions (jsonb: keys in its own order).
  const entries = await app.store.prisma.action.findMany({ where: { gameId: id, kind: 'action' }, orderBy: { seq: 'asc' } });
  let replayed = engine.setup({ scenario: 's01', seed: 'bw-api-1', options: final.options });
  for (let k = 0; k < entries.length; k++) {
    replayed = engine.apply(replayed, entries[k]!.role!, entries[k]!.action);
    if (k % 40 !== 39) continue;
    const at = (await tharg.req('GET', `/games/${id}/view?version=${entries[k]!.seq}`)).json();
    t.same(at.view, JSON.parse(JSON.stringify(engine.view(replayed, 'Thargaton'))), `Thargaton's view at version ${entries[k]!.seq}`);
  }
  const log = (await ves.req('GET', `/games/${id}/log`)).json();
  t.equal(log.entries.filter((e: { kind: string }) => e.kind === 'action').length, moves, 'the log: every action');

  // Export → import: the import replays the record and gives the same game.
  const exported = await watcher.req('GET', `/games/${id}/export`);
  t.equal(exported.statusCode, 200, 'exported');
  const record = exported.json();
  t.match(record, { format: 'herald-game-record', gameType: 'black-and-white', scenario: 's01', seed: 'bw-api-1', status: 'finished' });
  t.match(record.options, OPTIONS);
  t.equal(record.actions.length, moves);
  const imported = await watcher.req('POST', '/games/import', { record });
  t.equal(imported.statusCode, 201, 'imported');
  const copy = imported.json();
  t.match(copy, { status: 'finished', result: final.result, gameType: 'black-and-white', scenario: 's01' });
  const [a, b] = await Promise.all([app.store.prisma.game.findUnique({ where: { id } }), app.store.prisma.game.findUnique({ where: { id: copy.id } })]);
  t.same(b!.state, a!.state, 'the imported game replays to the same state');
  const gqlExport = await gqlClient(app, watcher.key)('query($id: ID!) { game(id: $id) { export } }', { id });
  if (!gqlExport.errors) t.same(gqlExport.data!.game.export.actions.length, moves, 'GraphQL export');

  // A record that does not replay is refused, nothing created.
  const count = await app.store.prisma.game.count();
  const tampered = structuredClone(record);
  tampered.actions[Math.floor(moves / 2)].action = { type: 'move', to: '99,99' };
  const bad = await watcher.req('POST', '/games/import', { record: tampered });
  t.equal(bad.statusCode, 422);
  t.match(bad.json(), { code: 'invalid_record', detail: /does not replay/ });
  const badOptions = { ...structuredClone(record), options: { ...record.options, a54Revealed: 'sometimes' } };
  const refused = await watcher.req('POST', '/games/import', { record: badOptions });
  t.ok(refused.statusCode >= 400 && refused.statusCode < 500, `a record with a wrong option value: ${refused.statusCode} ${refused.json().code}`);
  t.equal(await app.store.prisma.game.count(), count, 'rejected imports create nothing');
});
