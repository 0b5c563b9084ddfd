// Rematch (POST /games/{id}/rematch, GraphQL rematch): same players, sides
// swapped, same options and time control, a new seed. The first player's call
// creates the game with the opponent's seat kept for them; the opponent's call
// seats them and starts it; asking again returns the same game; two players
// asking at once get one game; an application acting for both of its players
// starts it in one call. Refusals are typed and change nothing.
import t, { type Test } from 'tap';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { ADMIN_TOKEN, client, signup, type Client } from './rest-helpers.ts';
import { client as gqlClient } from './graphql-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, adminToken: ADMIN_TOKEN }), { store });
t.teardown(() => app.close());
const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
t.teardown(() => db.end());
const GT = 'richard-iii';
const A = await signup(app, 'Ada');
const B = await signup(app, 'Bob');
const C = await signup(app, 'Cat');

function isProblem(t: Test, res: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, code: string): void {
  t.equal(res.statusCode, status, `status ${status}`);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  t.equal(res.json().code, code);
}

const seatOf = (g: any, role: string) => g.seats.find((s: any) => s.role === role);

/** A finished game: `york` created it as York, `lancaster` joined, then Lancaster resigned. */
async function finished(york: Client, lancaster: Client, extra: Record<string, unknown> = {}): Promise<any> {
  const created = await york.req('POST', '/games', { gameType: GT, scenario: GT, roles: ['York'], ...extra });
  if (created.statusCode !== 201) throw new Error(created.body);
  const id = created.json().id as string;
  // A private game is joined with an invite code.
  const code = extra.visibility === 'private' ? (await york.req('POST', `/games/${id}/invites`, { role: 'Lancaster' })).json().code : undefined;
  const joined = await lancaster.req('POST', `/games/${id}/join`, code ? { inviteCode: code } : {});
  if (joined.statusCode !== 200) throw new Error(joined.body);
  const resigned = await lancaster.req('POST', `/games/${id}/resign`, {});
  if (resigned.statusCode !== 200) throw new Error(resigned.body);
  return resigned.json();
}

t.test('the first call creates it, sides swapped, the other seat kept; the opponent accepts and it starts', async (t) => {
  const tc = { kind: 'correspondence', daysPerMove: 3 };
  const old = await finished(A, B, { rated: true, visibility: 'private', timeControl: tc });
  t.equal(old.rematchId, null);
  const asked = await A.req('POST', `/games/${old.id}/rematch`, {});
  t.equal(asked.statusCode, 200);
  const g = asked.json();
  t.not(g.id, old.id);
  t.match(g, { gameType: GT, scenario: GT, status: 'setup', rated: true, visibility: 'private', options: old.options });
  t.same(g.clock.control, old.clock.control, 'the same time control');
  t.equal(seatOf(g, 'Lancaster').player.id, A.id, 'Ada, York before, is Lancaster now');
  t.equal(seatOf(g, 'York').player, null, "York is Bob's, not taken yet");
  t.equal(seatOf(g, 'York').invited, true, 'and kept for him');

  t.equal((await A.req('GET', `/games/${old.id}`)).json().rematchId, g.id, 'the old game names its rematch');
  const again = await A.req('POST', `/games/${old.id}/rematch`, {});
  t.equal(again.json().id, g.id, 'asking again: the same game');
  isProblem(t, await C.req('POST', `/games/${g.id}/join`, { role: 'York' }), 404, 'not_found'); // private, like the old one
  isProblem(t, await C.req('POST', `/games/${old.id}/rematch`, {}), 404, 'not_found');

  const accepted = await B.req('POST', `/games/${old.id}/rematch`, {});
  t.equal(accepted.statusCode, 200);
  t.match(accepted.json(), { id: g.id, status: 'active' });
  t.equal(seatOf(accepted.json(), 'York').player.id, B.id, 'Bob, Lancaster before, is York now');
  t.equal((await B.req('POST', `/games/${old.id}/rematch`, {})).json().version, accepted.json().version, 'accepting twice changes nothing');
  // The seed is new (shown once the game is over: compare after resigning the rematch).
  const over = (await A.req('POST', `/games/${g.id}/resign`, {})).json();
  t.not(over.seed, old.seed, 'a new seed');
});

t.test('two players asking at once get one game', async (t) => {
  for (let i = 0; i < 4; i++) {
    const old = await finished(A, B);
    const [a, b] = await Promise.all([A.req('POST', `/games/${old.id}/rematch`, {}), B.req('POST', `/games/${old.id}/rematch`, {})]);
    t.equal(a.statusCode, 200);
    t.equal(b.statusCode, 200);
    const id = (await A.req('GET', `/games/${old.id}`)).json().rematchId;
    t.ok(a.json().id === id && b.json().id === id, `round ${i}: both answers are the one rematch`);
    const now = (await A.req('GET', `/games/${id}`)).json();
    t.equal(now.status, 'active', 'both seated: it started');
    t.equal(seatOf(now, 'York').player.id, B.id);
    t.equal(seatOf(now, 'Lancaster').player.id, A.id);
  }
});

t.test('an application acting for both of its players: one call starts it', async (t) => {
  const admin = client(app, ADMIN_TOKEN);
  const made = (await admin.req('POST', '/admin/apps', { name: 'rematch-bot' })).json() as { app: { id: string }; key: { key: string } };
  const bot = client(app, made.key.key, made.app.id);
  const p1 = (await bot.req('POST', '/players', { name: 'ann', externalId: 'rm:1' })).json().player as { id: string };
  const p2 = (await bot.req('POST', '/players', { name: 'ben', externalId: 'rm:2' })).json().player as { id: string };
  const asAnn = client(app, made.key.key, p1.id, p1.id);
  const asBen = client(app, made.key.key, p2.id, p2.id);
  const old = await finished(asAnn, asBen);
  const res = await asAnn.req('POST', `/games/${old.id}/rematch`, {});
  t.equal(res.statusCode, 200);
  t.match(res.json(), { status: 'active' });
  t.equal(seatOf(res.json(), 'York').player.id, p2.id);
  t.equal(seatOf(res.json(), 'Lancaster').player.id, p1.id);
});

t.test('GraphQL: rematch, and Game.rematchId', async (t) => {
  const old = await finished(A, B);
  const gql = gqlClient(app, A.key);
  const r = await gql('mutation($id: ID!) { rematch(gameId: $id) { id status seats { role player { id } invited } } }', { id: old.id });
  t.equal(r.errors, undefined);
  t.equal(r.data?.rematch.seats.find((s: any) => s.role === 'York').invited, true);
  isProblem(t, await C.req('POST', `/games/${r.data?.rematch.id}/join`, { role: 'York' }), 403, 'forbidden'); // public, but York is kept for Bob
  const q = await gql('query($id: ID!) { game(id: $id) { rematchId } }', { id: old.id });
  t.equal(q.data?.game.rematchId, r.data?.rematch.id);
  const bad = await gqlClient(app, C.key)('mutation($id: ID!) { rematch(gameId: $id) { id } }', { id: old.id });
  t.equal(bad.errors?.[0]?.extensions?.code, 'forbidden', 'a public game, but Cat held no seat');
});

t.test('refused, changing nothing: a game in play, no seat, no key, a bad id', async (t) => {
  const created = (await A.req('POST', '/games', { gameType: GT, scenario: GT, roles: ['York'] })).json();
  await B.req('POST', `/games/${created.id}/join`, {});
  isProblem(t, await A.req('POST', `/games/${created.id}/rematch`, {}), 409, 'invalid_state');
  const old = await finished(A, B);
  isProblem(t, await C.req('POST', `/games/${old.id}/rematch`, {}), 403, 'forbidden');
  isProblem(t, await client(app, null).req('POST', `/games/${old.id}/rematch`, {}), 401, 'unauthorized');
  isProblem(t, await A.req('POST', '/games/not-a-uuid/rematch', {}), 404, 'not_found');
  t.equal((await A.req('GET', `/games/${old.id}`)).json().rematchId, null, 'no rematch was made');
  t.equal((await A.req('GET', `/games/${created.id}`)).json().rematchId, null);
});

t.test('another instance does not serve a stale rematchId from its cache', async (t) => {
  // The rematch is set without a new version: the cache check compares it too.
  const old = await finished(A, B);
  t.equal((await A.req('GET', `/games/${old.id}`)).json().rematchId, null, 'cached with no rematch');
  // Set it behind this instance's back, as another instance's rematch would.
  const other = (await A.req('POST', '/games', { gameType: GT, scenario: GT, roles: ['York'] })).json();
  const set = await db.query('UPDATE games SET rematch_id = $1 WHERE id = $2', [other.id, old.id]);
  t.equal(set.rowCount, 1);
  t.equal((await A.req('GET', `/games/${old.id}`)).json().rematchId, other.id, 'read past the cache');
});
