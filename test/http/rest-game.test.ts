// A complete game of the richard-iii scenario through REST with both seats
// held by different players, driven by random legal actions from each seat's
// own legal list; then the records round trip (export → import).
import t from 'tap';
import { games } from '../../src/games/index.ts';
import { prng, restApp, signup, type Client } from './rest-helpers.ts';

const app = await restApp(t);
const engine = games['richard-iii']!;

t.test('a full game through REST: create, join, play to the end, export, import', async (t) => {
  const york = await signup(app, 'York player');
  const lancaster = await signup(app, 'Lancaster player');
  const watcher = await signup(app, 'Watcher');

  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'rest-game-1', roles: ['York'] });
  t.equal(created.statusCode, 201, created.body);
  const game = created.json();
  t.match(game, { status: 'setup', version: 0, seats: [{ role: 'York', player: { id: york.id } }, { role: 'Lancaster', player: null }] });
  t.notOk('seed' in game, 'the seed is secret while the game is not over');
  const id = game.id as string;

  const joined = await lancaster.req('POST', `/games/${id}/join`, {});
  t.equal(joined.statusCode, 200, joined.body);
  t.match(joined.json(), { status: 'active', version: 2, seats: [{ player: { id: york.id } }, { player: { id: lancaster.id } }] });

  const seat: Record<string, Client> = { York: york, Lancaster: lancaster };
  const pick = prng(12345);
  let version = 2;
  let moves = 0;
  for (;;) {
    const summary = (await watcher.req('GET', `/games/${id}`)).json();
    t.equal(summary.version, version);
    if (summary.status !== 'active') break;
    const role = summary.activeRoles[pick(summary.activeRoles.length)] as string;
    const legal = await seat[role]!.req('GET', `/games/${id}/actions`);
    t.equal(legal.statusCode, 200);
    const actions = legal.json().actions as unknown[];
    if (!t.ok(actions.length > 0, 'an active seat has legal actions')) break;
    const res = await seat[role]!.req('POST', `/games/${id}/actions`, { action: actions[pick(actions.length)], expectedVersion: version });
    if (res.statusCode !== 200) {
      t.fail(`action rejected: ${res.body}`);
      break;
    }
    version++;
    moves++;
    t.equal(res.json().version, version);
    if (moves > 3000) {
      t.fail('the game did not end');
      break;
    }
  }
  t.ok(moves > 10, `played ${moves} actions`);
  const final = (await watcher.req('GET', `/games/${id}`)).json();
  t.match(final, { status: 'finished', activeRoles: [], result: { reason: String } });
  t.equal(final.seed, 'rest-game-1', 'the seed is shown once the game is over');

  // The log now shows every action to everyone.
  const log = (await watcher.req('GET', `/games/${id}/log`)).json();
  t.equal(log.entries.filter((e: { kind: string }) => e.kind === 'action').length, moves);
  t.ok(log.entries.every((e: { kind: string; action?: unknown }) => e.kind !== 'action' || e.action !== undefined));

  // An earlier version of a finished game, by replay: the view as it was.
  const v3 = await york.req('GET', `/games/${id}/view?version=3`);
  t.equal(v3.statusCode, 200, v3.body);
  t.equal(v3.json().version, 3);
  t.equal(v3.json().role, 'York');

  // Export → import replays to the same state.
  const exported = await watcher.req('GET', `/games/${id}/export`);
  t.equal(exported.statusCode, 200, exported.body);
  const record = exported.json();
  t.match(record, { format: 'herald-game-record', seed: 'rest-game-1', status: 'finished' });
  t.equal(record.actions.length, moves);
  const imported = await watcher.req('POST', '/games/import', { record });
  t.equal(imported.statusCode, 201, imported.body);
  const copy = imported.json();
  t.match(copy, { status: 'finished', result: final.result, scenario: 'richard-iii' });
  const [a, b] = await Promise.all([
    app.store.prisma.game.findUnique({ where: { id } }),
    app.store.prisma.game.findUnique({ where: { id: copy.id } }),
  ]);
  t.same(b!.state, a!.state, 'the imported game replays to the same engine state');
  const specA = (await watcher.req('GET', `/games/${id}/view`)).json();
  const specB = (await watcher.req('GET', `/games/${copy.id}/view`)).json();
  t.same(specB.view, specA.view, 'same spectator view');
  t.same(specA.view, engine.view(a!.state, null));

  // Earlier versions match a replay of the record: version 2 + k = after the first k actions.
  let replayed = engine.setup({ scenario: 'richard-iii', seed: 'rest-game-1' });
  for (let k = 0; k <= Math.min(moves, 12); k++) {
    if (k > 0) replayed = engine.apply(replayed, record.actions[k - 1].role, record.actions[k - 1].action);
    const at = (await lancaster.req('GET', `/games/${id}/view?version=${2 + k}`)).json();
    t.same(at.view, engine.view(replayed, 'Lancaster'), `version ${2 + k}`);
    t.same(at.activeRoles, engine.activeRoles(replayed));
  }
  t.equal((await lancaster.req('GET', `/games/${id}/view?version=1`)).json().view, null, 'before the start: no view');

  // A record that does not replay is rejected, and nothing is created.
  const before = await app.store.prisma.game.count();
  const tampered = structuredClone(record);
  tampered.actions[Math.floor(moves / 2)].action = { type: 'no-such-action' };
  const bad = await watcher.req('POST', '/games/import', { record: tampered });
  t.equal(bad.statusCode, 422);
  t.match(bad.json(), { code: 'invalid_record', detail: /does not replay/ });
  const noSeed = { ...record };
  delete noSeed.seed;
  t.equal((await watcher.req('POST', '/games/import', { record: noSeed })).statusCode, 422);
  t.equal(await app.store.prisma.game.count(), before, 'rejected imports create nothing');
});
