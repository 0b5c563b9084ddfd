// Player profiles, rating history and leaderboards over REST and GraphQL: rated games created
// and ended through the API update ratings before the answer; the reads are public; bad ids
// and parameters are typed 4xx problems (GraphQL: extensions.code); the app's settlement sweep
// settles, at start-up, a game a crash left unsettled.
import { randomUUID } from 'node:crypto';
import t, { type Test } from 'tap';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { client as restClient, signup } from './rest-helpers.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
t.teardown(() => db.end());
const GT = 'richard-iii';

const A = await signup(app, 'Ada');
const B = await signup(app, 'Bob');
const anon = restClient(app, null);

function isProblem(t: Test, res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, status: number, code: string): void {
  t.equal(res.statusCode, status, `status ${status}`);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  t.match(res.json(), { status, code });
}

let ratedGameId = '';

t.test('REST: a rated game ended by resignation shows on both profiles at once', async (t) => {
  const created = await A.req('POST', '/games', { gameType: GT, scenario: GT, roles: ['York'], rated: true });
  t.equal(created.statusCode, 201);
  t.match(created.json(), { rated: true, league: null });
  const id = created.json().id as string;
  ratedGameId = id;
  t.equal((await B.req('POST', `/games/${id}/join`, {})).statusCode, 200);
  // One move, then Lancaster resigns.
  const legal = (await A.req('GET', `/games/${id}/actions`)).json().actions as unknown[];
  t.equal((await A.req('POST', `/games/${id}/actions`, { action: legal[0] })).statusCode, 200);
  const resigned = await B.req('POST', `/games/${id}/resign`, {});
  t.equal(resigned.statusCode, 200);
  t.match(resigned.json(), { status: 'finished', rated: true, result: { winner: 'York' } });

  const profile = await anon.req('GET', `/players/${A.id}`);
  t.equal(profile.statusCode, 200);
  const p = profile.json();
  t.match(p.player, { id: A.id, name: 'Ada', isBot: false });
  t.equal(p.ratings.length, 1);
  t.match(p.ratings[0], { gameType: GT, games: 1, wins: 1, losses: 0, provisional: true });
  t.ok(p.ratings[0].rating > 1500);
  t.equal(p.ratings[0].rating, Math.round(p.ratings[0].rating * 10) / 10, 'one decimal');
  t.match(p.recentResults, [{ gameId: id, role: 'York', outcome: 'win', opponent: { id: B.id, name: 'Bob' }, reason: 'Lancaster resigned', rated: true, leagueId: null }]);
  t.ok(p.recentResults[0].ratingChange > 0);
  t.same(p.leagues, []);
  const pb = (await A.req('GET', `/players/${B.id}`)).json();
  t.match(pb.recentResults, [{ gameId: id, outcome: 'loss' }]);
  t.ok(pb.ratings[0].rating < 1500);

  const history = await anon.req('GET', `/players/${A.id}/ratings/${GT}`);
  t.equal(history.statusCode, 200);
  t.match(history.json(), { items: [{ gameId: id, opponent: { id: B.id }, score: 1, ratingBefore: 1500, rating: p.ratings[0].rating }], nextCursor: null });

  const board = await anon.req('GET', `/game-types/${GT}/leaderboard`);
  t.equal(board.statusCode, 200);
  t.same(board.json(), { items: [], nextCursor: null }, 'one game each: both provisional, left out');
  const all = await anon.req('GET', `/game-types/${GT}/leaderboard?includeProvisional=true`);
  t.same(all.json().items.map((e: { rank: number; player: { id: string }; provisional: boolean }) => [e.rank, e.player.id, e.provisional]), [[1, A.id, true], [2, B.id, true]]);
  const first = (await anon.req('GET', `/game-types/${GT}/leaderboard?includeProvisional=1&limit=1`)).json();
  t.equal(first.items.length, 1);
  t.ok(first.nextCursor);
  const second = (await anon.req('GET', `/game-types/${GT}/leaderboard?includeProvisional=true&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`)).json();
  t.same(second.items.map((e: { rank: number; player: { id: string } }) => [e.rank, e.player.id]), [[2, B.id]]);
  t.equal(second.nextCursor, null);
});

t.test('REST: an unrated game changes no rating; rated must be a boolean', async (t) => {
  const created = await A.req('POST', '/games', { gameType: GT, scenario: GT, roles: ['York'] });
  t.match(created.json(), { rated: false, league: null });
  const id = created.json().id as string;
  await B.req('POST', `/games/${id}/join`, {});
  await A.req('POST', `/games/${id}/resign`, {});
  t.match((await anon.req('GET', `/players/${A.id}`)).json().ratings, [{ games: 1 }], 'still one rated game');
  t.match((await anon.req('GET', `/players/${A.id}`)).json().recentResults, [{ gameId: id, outcome: 'loss', rated: false, ratingChange: null }, { rated: true }]);
  isProblem(t, await A.req('POST', '/games', { gameType: GT, scenario: GT, rated: 'yes' }), 400, 'invalid_request');
});

t.test('REST: bad ids and parameters are typed problems', async (t) => {
  isProblem(t, await anon.req('GET', '/players/not-a-uuid'), 404, 'not_found');
  isProblem(t, await anon.req('GET', `/players/${randomUUID()}`), 404, 'not_found');
  isProblem(t, await anon.req('GET', `/players/${randomUUID()}/ratings/${GT}`), 404, 'not_found');
  isProblem(t, await anon.req('GET', `/players/${A.id}/ratings/chess`), 404, 'not_found');
  isProblem(t, await anon.req('GET', `/players/${A.id}/ratings/__proto__`), 404, 'not_found');
  isProblem(t, await anon.req('GET', '/game-types/chess/leaderboard'), 404, 'not_found');
  isProblem(t, await anon.req('GET', '/game-types/constructor/leaderboard'), 404, 'not_found');
  for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=-1', 'limit=1&limit=2', 'cursor=zzz', 'cursor=', 'includeProvisional=maybe']) {
    isProblem(t, await anon.req('GET', `/game-types/${GT}/leaderboard?${q}`), 400, 'invalid_request');
  }
  for (const q of ['limit=0', 'limit=1000', 'cursor=%E2%80%AE', `cursor=${Buffer.from('[1,2]').toString('base64url')}`]) {
    isProblem(t, await anon.req('GET', `/players/${A.id}/ratings/${GT}?${q}`), 400, 'invalid_request');
  }
  isProblem(t, await restClient(app, 'hk_forged').req('GET', `/players/${A.id}`), 401, 'unauthorized');
});

t.test('GraphQL: createGame rated, profile, leaderboard, rating history, errors', async (t) => {
  const ga = gqlClient(app, A.key);
  const gb = gqlClient(app, B.key);
  const anonGql = gqlClient(app, null);
  const created = await ok(ga(`mutation { createGame(input: { gameType: "${GT}", scenario: "${GT}", roles: ["York"], rated: true }) { id rated league { leagueId round board } } }`));
  t.match(created.createGame, { rated: true, league: null });
  const id = created.createGame.id as string;
  await ok(gb(`mutation($id: ID!) { joinGame(gameId: $id) { id } }`, { id }));
  await ok(ga(`mutation($id: ID!) { resign(gameId: $id) { status } }`, { id }));

  const d = await ok(anonGql(`query($id: ID!) {
    player(id: $id) {
      id name isBot createdAt
      ratings { gameType rating rd vol games wins draws losses provisional updatedAt }
      leagues { leagueId name status organiser }
      recentResults { gameId gameType role opponent { id name isBot } outcome reason rated ratingChange leagueId endedAt }
    }
  }`, { id: A.id }));
  const rest = (await anon.req('GET', `/players/${A.id}`)).json();
  t.same(d.player, { ...rest.player, ratings: rest.ratings, leagues: [], recentResults: rest.recentResults }, 'the same profile as REST (flattened)');
  t.match(d.player.ratings, [{ games: 2, wins: 1, losses: 1 }]);
  t.match(d.player.recentResults[0], { gameId: id, outcome: 'loss' });

  const board = await ok(anonGql(`{ leaderboard(gameType: "${GT}", includeProvisional: true, first: 1) { nodes { rank player { id name } rating rd games provisional } nextCursor } }`));
  t.equal(board.leaderboard.nodes.length, 1);
  t.equal(board.leaderboard.nodes[0].rank, 1);
  const next = await ok(anonGql(`query($after: String) { leaderboard(gameType: "${GT}", includeProvisional: true, first: 1, after: $after) { nodes { rank } nextCursor } }`, { after: board.leaderboard.nextCursor }));
  t.same(next.leaderboard, { nodes: [{ rank: 2 }], nextCursor: null });
  t.same((await ok(anonGql(`{ leaderboard(gameType: "${GT}") { nodes { rank } nextCursor } }`))).leaderboard, { nodes: [], nextCursor: null });

  const hist = await ok(anonGql(`query($p: ID!) { ratingHistory(playerId: $p, gameType: "${GT}") { nodes { gameId opponent { id } score ratingBefore rating rd at } nextCursor } }`, { p: A.id }));
  t.same(hist.ratingHistory.nodes.map((n: { gameId: string; score: number }) => [n.gameId, n.score]), [[id, 0], [ratedGameId, 1]]);
  t.equal(hist.ratingHistory.nodes[0].ratingBefore, hist.ratingHistory.nodes[1].rating);

  t.same((await ok(anonGql(`{ player(id: "${randomUUID()}") { id } }`))).player, null, 'no such player: null');
  t.same((await ok(anonGql('{ player(id: "nope") { id } }'))).player, null);
  const codes = async (q: string) => (await anonGql(q)).errors?.map((e) => e.extensions?.code);
  t.same(await codes('{ leaderboard(gameType: "chess") { nodes { rank } } }'), ['not_found']);
  t.same(await codes(`{ leaderboard(gameType: "${GT}", first: 0) { nodes { rank } } }`), ['invalid_request']);
  t.same(await codes(`{ leaderboard(gameType: "${GT}", first: 101) { nodes { rank } } }`), ['invalid_request']);
  t.same(await codes(`{ leaderboard(gameType: "${GT}", after: "garbage") { nodes { rank } } }`), ['invalid_request']);
  t.same(await codes(`{ ratingHistory(playerId: "${A.id}", gameType: "chess") { nodes { gameId } } }`), ['not_found']);
  t.same(await codes(`{ ratingHistory(playerId: "${randomUUID()}", gameType: "${GT}") { nodes { gameId } } }`), ['not_found']);
  t.same(await codes(`{ ratingHistory(playerId: "${A.id}", gameType: "${GT}", first: -1) { nodes { gameId } } }`), ['invalid_request']);
});

t.test('the app settles, when it starts, a game a crash left unsettled', async (t) => {
  const created = (await A.req('POST', '/games', { gameType: GT, scenario: GT, roles: ['York'], rated: true })).json();
  await B.req('POST', `/games/${created.id}/join`, {});
  const games = async () => (await db.query('SELECT games FROM ratings WHERE player_id = $1', [A.id])).rows[0].games as number;
  const before = await games();
  // Finished, but never settled: as if the process died right after the commit.
  await db.query(`UPDATE games SET status = 'finished', active_roles = '{}', result = '{"winner": "York", "reason": "test"}' WHERE id = $1`, [created.id]);
  // A league board, so that the sweep takes the full path (league result hook included).
  const league = randomUUID();
  await db.query(`INSERT INTO leagues (id, name, game_type, format, settings, seed, created_by_id, updated_at) VALUES ($1, 'Ladder', $2, 'swiss', '{}', 's', $3, now())`, [league, GT, A.id]);
  await db.query(`INSERT INTO league_pairings (id, league_id, round, board, first_id, second_id, game_id) VALUES ($1, $2, 3, 7, $3, $4, $5)`, [randomUUID(), league, A.id, B.id, created.id]);
  const second = await buildApp(testConfig({ databaseUrl }), { store });
  t.teardown(() => second.close());
  let settled: Date | null = null;
  for (let i = 0; i < 200 && settled === null; i++) {
    settled = (await db.query('SELECT settled_at FROM games WHERE id = $1', [created.id])).rows[0].settled_at;
    if (settled === null) await new Promise((r) => setTimeout(r, 25));
  }
  t.ok(settled, 'settled by the start-up sweep');
  t.equal(await games(), before + 1);
  const p = (await anon.req('GET', `/players/${A.id}`)).json();
  t.match(p.recentResults[0], { gameId: created.id, outcome: 'win', rated: true, leagueId: league });
  t.ok(p.recentResults[0].ratingChange > 0);
  // The game's board, as REST and GraphQL show it (read on the second app: its game cache is fresh).
  t.match((await restClient(second, null).req('GET', `/games/${created.id}`)).json(), { rated: true, league: { id: league, round: 3, board: 7 } });
  const g = await ok(gqlClient(second, null)(`query($id: ID!) { game(id: $id) { rated league { leagueId round board } } }`, { id: created.id }));
  t.same(g.game, { rated: true, league: { leagueId: league, round: 3, board: 7 } });
  await db.query(`INSERT INTO league_entrants (league_id, player_id) VALUES ($1, $2)`, [league, A.id]);
  const leagues = (await ok(gqlClient(second, null)(`query($id: ID!) { player(id: $id) { leagues { leagueId name gameType format leagueStatus status organiser } } }`, { id: A.id }))).player.leagues;
  t.same(leagues, [{ leagueId: league, name: 'Ladder', gameType: GT, format: 'swiss', leagueStatus: 'registration', status: 'active', organiser: false }]);
  // A league A organises, made by the service: its format as the GraphQL enum spells it.
  const organised = await app.gameService.createLeague(await app.gameService.authenticate(A.key!), { name: 'Double', gameType: GT, format: 'double-round-robin' });
  const again = (await ok(gqlClient(app, A.key)(`query($id: ID!) { player(id: $id) { leagues { leagueId format status organiser } } }`, { id: A.id }))).player.leagues;
  t.same(again, [
    { leagueId: organised.id, format: 'double_round_robin', status: null, organiser: true },
    { leagueId: league, format: 'swiss', status: 'active', organiser: false },
  ], 'newest first');
});
