// A complete game of the 'richard-iii' scenario (one campaign) played through
// GraphQL by two players, each from its own seat's legal actions; then the
// error codes of the write path as GraphQL reports them.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { client, GAME_FIELDS, ok, picker, signUp, type Gql } from './graphql-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL }), { store });
t.teardown(() => app.close());

const alice = await signUp(app, 'Alice');
const bob = await signUp(app, 'Bob');
const carol = await signUp(app, 'Carol');
const asAlice = client(app, alice.key);
const asBob = client(app, bob.key);
const asCarol = client(app, carol.key);
const anonymous = client(app, null);

const SUBMIT = `mutation($gameId: ID!, $role: String, $action: JSON!, $expectedVersion: Int, $idempotencyKey: String) {
  submitAction(gameId: $gameId, role: $role, action: $action, expectedVersion: $expectedVersion, idempotencyKey: $idempotencyKey) {
    version role replayed view game { id status version activeRoles }
  }
}`;

async function newGame(seed: string, visibility = 'public'): Promise<string> {
  const created = await ok(
    asAlice(`mutation($input: CreateGameInput!) { createGame(input: $input) { ${GAME_FIELDS} } }`, {
      input: { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York'], visibility },
    }),
  );
  const id = created.createGame.id as string;
  t.equal(created.createGame.status, 'setup');
  t.same(created.createGame.myRoles, ['York']);
  // A private game is joined with an invite code; a public one by anyone.
  const invite =
    visibility === 'private' ? (await ok(asAlice(`mutation($id: ID!) { createInvite(gameId: $id, role: "Lancaster") { code } }`, { id }))).createInvite.code : null;
  const joined = await ok(
    invite
      ? asBob(`mutation($id: ID!, $code: String!) { joinGame: joinByInvite(gameId: $id, code: $code) { ${GAME_FIELDS} } }`, { id, code: invite })
      : asBob(`mutation($id: ID!) { joinGame(gameId: $id) { ${GAME_FIELDS} } }`, { id }),
  );
  t.equal(joined.joinGame.status, 'active', 'starts when the last seat is taken');
  t.same(joined.joinGame.myRoles, ['Lancaster']);
  return id;
}

const seatOf: Record<string, Gql> = { York: asAlice, Lancaster: asBob };

t.test('a complete game through GraphQL, both seats choosing from their own legal actions', async (t) => {
  const gameId = await newGame('graphql-full-game');
  const pick = picker('graphql-full-game-play');
  let actions = 0;
  let submitMs = 0;
  const started = performance.now();
  for (;;) {
    const { game } = await ok(asAlice(`query($id: ID!) { game(id: $id) { status version activeRoles } }`, { id: gameId }));
    if (game.status !== 'active') break;
    t.ok(game.activeRoles.length > 0);
    for (const role of game.activeRoles as string[]) {
      const as = seatOf[role]!;
      const { legalActions } = await ok(as(`query($id: ID!) { legalActions(gameId: $id) { role active version actions } }`, { id: gameId }));
      if (!legalActions.active) continue; // the other seat's action changed whose turn it is
      t.equal(legalActions.role, role);
      const action = pick(legalActions.actions);
      const t0 = performance.now();
      const r = await ok(as(SUBMIT, { gameId, action, expectedVersion: legalActions.version }));
      submitMs += performance.now() - t0;
      if (r.submitAction.version !== legalActions.version + 1 || r.submitAction.role !== role) {
        t.fail(`unexpected submit result ${JSON.stringify(r.submitAction)}`);
        return;
      }
      actions++;
    }
    if (actions > 5000) {
      t.fail('game did not end within 5000 actions');
      return;
    }
  }
  // Informational only (no timing assertions).
  t.comment(`${actions} actions; submitAction ${(submitMs / actions).toFixed(1)} ms mean; whole loop ${((performance.now() - started) / actions).toFixed(1)} ms per action`);
  const { game } = await ok(asCarol(`query($id: ID!) { game(id: $id) { status result { winner reason } seed version } }`, { id: gameId }));
  t.equal(game.status, 'finished');
  t.ok(game.result.reason);
  t.equal(game.seed, 'graphql-full-game', 'the seed is revealed once the game is over');
  t.ok(game.version > actions, 'versions count lifecycle events too');

  const views = await ok(
    asAlice(`query($id: ID!) { own: view(gameId: $id) { role version status view } log(gameId: $id) { role entries { version kind role } lines } }`, { id: gameId }),
  );
  t.equal(views.own.role, 'York');
  t.equal(views.own.version, game.version);
  t.equal(views.log.entries.length, game.version);
  t.ok(views.log.lines.length > 0);
  const spectator = await ok(anonymous(`query($id: ID!) { view(gameId: $id) { role view } }`, { id: gameId }));
  t.equal(spectator.view.role, null, 'spectator view without a seat');

  const exported = await ok(asAlice(`query($id: ID!) { export(gameId: $id) }`, { id: gameId }));
  t.equal(exported.export.seed, 'graphql-full-game');
  t.equal(exported.export.actions.length, actions);
  const imported = await ok(asCarol(`mutation($r: JSON!) { importGame(record: $r) { id status version } }`, { r: exported.export }));
  t.equal(imported.importGame.status, 'finished');
  const before = await ok(asCarol(`query($id: ID!) { view(gameId: $id) { view } }`, { id: gameId }));
  const after = await ok(asCarol(`query($id: ID!) { view(gameId: $id) { view } }`, { id: imported.importGame.id }));
  t.same(after.view.view, before.view.view, 'the imported record replays to the same state');
});

t.test('write-path errors carry the REST codes in extensions.code', async (t) => {
  const gameId = await newGame('graphql-errors', 'private');
  const state = async () => (await ok(asAlice(`query($id: ID!) { game(id: $id) { version activeRoles } }`, { id: gameId }))).game;
  let g = await state();

  const illegal = await asAlice(SUBMIT, { gameId, action: { type: 'no-such-action' } });
  t.match(illegal.errors, [{ path: ['submitAction'], extensions: { code: 'illegal_action', status: 422, legalActions: Array } }]);
  t.equal(illegal.data, null);
  const legal = (await ok(asAlice(`query($id: ID!) { legalActions(gameId: $id) { actions } }`, { id: gameId }))).legalActions.actions;
  t.same((illegal.errors![0]!.extensions as { legalActions: unknown[] }).legalActions, legal, 'the legal list is the seat’s');
  t.notMatch(JSON.stringify(illegal), /stack|\.ts:\d+/, 'no stack traces');

  const stale = await asAlice(SUBMIT, { gameId, action: legal[0], expectedVersion: g.version - 1 });
  t.match(stale.errors, [{ extensions: { code: 'version_conflict', status: 409, currentVersion: g.version } }]);

  const stranger = await asCarol(SUBMIT, { gameId, action: legal[0] });
  t.match(stranger.errors, [{ extensions: { code: /^(forbidden|not_found)$/ } }], 'no seat in a private game');
  const othersSeat = await asAlice(SUBMIT, { gameId, role: 'Lancaster', action: legal[0] });
  t.match(othersSeat.errors, [{ extensions: { code: 'forbidden' } }], 'acting on another player’s seat');
  t.equal((await anonymous(`query($id: ID!) { game(id: $id) { id } }`, { id: gameId })).data?.game, null, 'a private game is invisible to others');

  // Idempotency: a retry returns the original result and commits nothing.
  const first = await ok(asAlice(SUBMIT, { gameId, action: legal[0], idempotencyKey: 'gql-retry-1' }));
  const retry = await ok(asAlice(SUBMIT, { gameId, action: legal[0], idempotencyKey: 'gql-retry-1' }));
  t.equal(retry.submitAction.version, first.submitAction.version);
  t.equal(retry.submitAction.replayed, true);
  t.equal(first.submitAction.replayed, false);
  g = await state();
  t.equal(g.version, first.submitAction.version, 'one commit');

  // Out of turn: play until one seat alone is active, then the other one tries.
  const pick = picker('graphql-errors-play');
  for (let i = 0; i < 500 && g.activeRoles.length !== 1; i++) {
    for (const role of g.activeRoles as string[]) {
      const as = seatOf[role]!;
      const la = (await ok(as(`query($id: ID!) { legalActions(gameId: $id) { active actions } }`, { id: gameId }))).legalActions;
      if (la.active) await ok(as(SUBMIT, { gameId, action: pick(la.actions) }));
    }
    g = await state();
  }
  t.equal(g.activeRoles.length, 1);
  const idle = g.activeRoles[0] === 'York' ? asBob : asAlice;
  const idleRole = g.activeRoles[0] === 'York' ? 'Lancaster' : 'York';
  const la = (await ok(idle(`query($id: ID!) { legalActions(gameId: $id) { role active actions } }`, { id: gameId }))).legalActions;
  t.same([la.role, la.active, la.actions], [idleRole, false, []]);
  const outOfTurn = await idle(SUBMIT, { gameId, action: { type: 'end' } });
  t.match(outOfTurn.errors, [{ extensions: { code: 'not_your_turn', status: 403 } }]);
  t.equal((await state()).version, g.version, 'rejections change nothing');
});

t.test('a player holding both seats names the role; views hide the other seat', async (t) => {
  const created = await ok(
    asCarol(`mutation($input: CreateGameInput!) { createGame(input: $input) { ${GAME_FIELDS} } }`, {
      input: { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'hot-seat', roles: ['York', 'Lancaster'] },
    }),
  );
  const gameId = created.createGame.id;
  t.equal(created.createGame.status, 'active');
  t.same([...created.createGame.myRoles].sort(), ['Lancaster', 'York']);
  const york = await ok(asCarol(`query($id: ID!) { view(gameId: $id, role: "York") { role view } }`, { id: gameId }));
  const lancaster = await ok(asCarol(`query($id: ID!) { view(gameId: $id, role: "Lancaster") { role view } }`, { id: gameId }));
  t.equal(york.view.role, 'York');
  t.equal(lancaster.view.role, 'Lancaster');
  t.notSame(york.view.view, lancaster.view.view, 'each seat has its own view');
  const unnamed = await asCarol(`query($id: ID!) { legalActions(gameId: $id) { actions } }`, { id: gameId });
  t.match(unnamed.errors, [{ extensions: { code: 'invalid_request' } }], 'legal actions need the role');
  const la = await ok(asCarol(`query($id: ID!) { legalActions(gameId: $id, role: "York") { role actions } }`, { id: gameId }));
  const r = await ok(asCarol(SUBMIT, { gameId, role: 'York', action: la.legalActions.actions[0] }));
  t.equal(r.submitAction.role, 'York');
  const spectator = await ok(anonymous(`query($id: ID!) { view(gameId: $id) { role view } }`, { id: gameId }));
  t.equal(spectator.view.role, null);
  t.notSame(spectator.view.view, york.view.view);
});

t.test('games: filters and cursor pagination; invites; abort and resign', async (t) => {
  const mine = await ok(asBob(`{ games(filter: { myTurn: true }, first: 50) { nodes { id myRoles } nextCursor } }`));
  for (const g of mine.games.nodes) t.ok(g.myRoles.length > 0);
  const seen = new Set<string>();
  let after: string | null = null;
  let pages = 0;
  do {
    const page: any = await ok(asAlice(`query($after: String) { games(first: 1, after: $after) { nodes { id } nextCursor } }`, { after }));
    for (const n of page.games.nodes) {
      t.notOk(seen.has(n.id), 'no game twice');
      seen.add(n.id);
    }
    after = page.games.nextCursor;
    pages++;
  } while (after && pages < 50);
  t.ok(seen.size >= 2, `${seen.size} games over ${pages} pages`);

  const created = await ok(
    asAlice(`mutation($input: CreateGameInput!) { createGame(input: $input) { id } }`, {
      input: { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'] },
    }),
  );
  const gameId = created.createGame.id;
  const invite = await ok(asAlice(`mutation($id: ID!) { createInvite(gameId: $id, role: "Lancaster") { code role gameId } }`, { id: gameId }));
  t.equal(invite.createInvite.role, 'Lancaster');
  const seats = await ok(asAlice(`query($id: ID!) { game(id: $id) { seats { role invited } } }`, { id: gameId }));
  t.ok(seats.game.seats.some((s: { role: string; invited: boolean }) => s.role === 'Lancaster' && s.invited));
  const wrong = await asCarol(`mutation($id: ID!) { joinByInvite(gameId: $id, code: "nope") { id } }`, { id: gameId });
  t.ok(wrong.errors?.[0]?.extensions?.code, `typed error: ${wrong.errors?.[0]?.extensions?.code}`);
  const joined = await ok(asCarol(`mutation($id: ID!, $code: String!) { joinByInvite(gameId: $id, code: $code) { status myRoles } }`, { id: gameId, code: invite.createInvite.code }));
  t.same(joined.joinByInvite.myRoles, ['Lancaster']);
  t.equal(joined.joinByInvite.status, 'active');
  const aborted = await ok(asAlice(`mutation($id: ID!) { abort(gameId: $id) { status } }`, { id: gameId }));
  t.equal(aborted.abort.status, 'abandoned');
  const again = await asAlice(`mutation($id: ID!) { resign(gameId: $id) { status } }`, { id: gameId });
  t.match(again.errors, [{ extensions: { code: /^(game_over|invalid_state)$/ } }]);

  const other = await newGame('graphql-resign');
  const resigned = await ok(asBob(`mutation($id: ID!) { resign(gameId: $id) { status result { winner reason } } }`, { id: other }));
  t.equal(resigned.resign.status, 'finished');
  t.equal(resigned.resign.result.winner, 'York');

  const me = await ok(asAlice(`{ me { id name kind } myKeys { prefix revokedAt } }`));
  t.same(me.me, { id: alice.id, name: 'Alice', kind: 'player' });
  t.equal(me.myKeys.length, 1);
});
