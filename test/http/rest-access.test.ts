// Keys, applications acting for their players, the operator token, private
// games, invites, the lifecycle (leave, start, abort, resign) and listing.
import t from 'tap';
import { ADMIN_TOKEN, client, restApp, signup } from './rest-helpers.ts';

const app = await restApp(t);
const anon = client(app, null);
const admin = client(app, ADMIN_TOKEN);
const R3 = { gameType: 'richard-iii', scenario: 'richard-iii' };

t.test('keys: shown once, stored hashed, revocable; unknown keys are 401', async (t) => {
  const ada = await signup(app, 'Ada');
  t.match(ada.key, /^hk_[\w-]{32}$/);
  const me = await ada.req('GET', '/me');
  t.equal(me.statusCode, 200);
  t.match(me.json(), { player: { id: ada.id, name: 'Ada', kind: 'player', isBot: false } });
  const stored = await app.store.prisma.apiKey.findMany({ where: { playerId: ada.id } });
  t.equal(stored.length, 1);
  t.not(stored[0]!.hash, ada.key, 'not stored in clear');
  t.equal(stored[0]!.prefix, ada.key!.slice(0, 11));

  const misspelt = await ada.req('POST', '/me/keys', { lable: 'laptop' });
  t.equal(misspelt.statusCode, 400, 'an unknown field is refused, not ignored');
  t.match(misspelt.json(), { code: 'invalid_request', detail: /"lable"/ });
  t.equal(await app.store.prisma.apiKey.count({ where: { playerId: ada.id } }), 1, 'no key made');
  const second = await ada.req('POST', '/me/keys', { label: 'laptop' });
  t.equal(second.statusCode, 201);
  const k2 = second.json();
  t.match(k2, { label: 'laptop', revokedAt: null, key: /^hk_/ });
  const list = (await ada.req('GET', '/me/keys')).json().keys;
  t.equal(list.length, 2);
  t.ok(list.every((k: Record<string, unknown>) => !('key' in k)), 'listing never shows the secret');
  const ada2 = client(app, k2.key);
  t.equal((await ada2.req('GET', '/me')).statusCode, 200);
  t.equal((await ada.req('DELETE', `/me/keys/${k2.id}`)).statusCode, 204);
  const revoked = await ada2.req('GET', '/me');
  t.equal(revoked.statusCode, 401);
  t.match(revoked.json(), { code: 'unauthorized' });
  t.equal((await ada.req('DELETE', `/me/keys/${k2.id}`)).statusCode, 204, 'idempotent');
  const bob = await signup(app, 'Bob');
  t.equal((await bob.req('DELETE', `/me/keys/${stored[0]!.id}`)).statusCode, 404, "no revoking someone else's key");

  t.equal((await anon.req('GET', '/me')).statusCode, 401);
  t.equal((await client(app, 'hk_nonsense').req('GET', '/games')).statusCode, 401, 'a bad key is refused even on public routes');
  const malformed = await app.inject({ method: 'GET', url: '/me', headers: { authorization: 'Basic abc' } });
  t.equal(malformed.statusCode, 401);
  t.match(malformed.headers['content-type'], /^application\/problem\+json/);
});

t.test('applications: created by the operator, create players, act for them with X-Act-As', async (t) => {
  t.equal((await anon.req('POST', '/admin/apps', { name: 'bot' })).statusCode, 401);
  const player = await signup(app, 'Mallory');
  t.equal((await player.req('POST', '/admin/apps', { name: 'bot' })).statusCode, 403);
  t.equal((await client(app, 'wrong-operator-token-xxxxxxxx').req('POST', '/admin/apps', { name: 'bot' })).statusCode, 401);
  t.equal((await admin.req('POST', '/admin/apps', {})).statusCode, 400);
  t.equal((await admin.req('GET', '/me')).statusCode, 403, 'the operator token is not a player');
  const created = await admin.req('POST', '/admin/apps', { name: 'discord-bot' });
  t.equal(created.statusCode, 201);
  const { app: appInfo, key } = created.json();
  t.match(appInfo, { kind: 'app', name: 'discord-bot' });
  const bot = client(app, key.key, appInfo.id);

  const p1 = await bot.req('POST', '/players', { name: 'alice#1234', externalId: 'discord:1' });
  t.equal(p1.statusCode, 201);
  t.match(p1.json(), { created: true, player: { externalId: 'discord:1', createdBy: appInfo.id } });
  t.notOk(p1.json().key, 'app players get no key');
  const again = await bot.req('POST', '/players', { name: 'alice', externalId: 'discord:1' });
  t.equal(again.statusCode, 200, 'get-or-create by externalId');
  t.equal(again.json().player.id, p1.json().player.id);
  const p2 = (await bot.req('POST', '/players', { name: 'bob', externalId: 'discord:2' })).json().player;

  const asAlice = client(app, key.key, appInfo.id, p1.json().player.id);
  const asBob = client(app, key.key, appInfo.id, p2.id);
  t.equal((await asAlice.req('GET', '/me')).json().player.id, p1.json().player.id);
  const g = await asAlice.req('POST', '/games', { ...R3, roles: ['York'] });
  t.equal(g.statusCode, 201);
  t.match(g.json(), { createdBy: p1.json().player.id });
  const joined = await asBob.req('POST', `/games/${g.json().id}/join`, {});
  t.match(joined.json(), { status: 'active', seats: [{ player: { id: p1.json().player.id } }, { player: { id: p2.id } }] });

  t.equal((await client(app, key.key, appInfo.id, player.id).req('GET', '/me')).statusCode, 403, 'not a player it created');
  t.equal((await client(app, player.key, player.id, p2.id).req('GET', '/me')).statusCode, 403, 'X-Act-As needs an app key');
  t.equal((await player.req('POST', '/players', { name: 'x' })).statusCode, 403, 'players do not create players');
  t.equal((await asAlice.req('GET', '/me/keys')).statusCode, 403, 'acted-as players have no keys');
});

t.test('self-signup can be closed', async (t) => {
  const closed = await restApp(t, { openSignup: false });
  const res = await closed.inject({ method: 'POST', url: '/players', payload: { name: 'x' } });
  t.equal(res.statusCode, 403);
  t.equal(res.json().code, 'forbidden');
});

t.test('private games are invisible to others; invites let a player in', async (t) => {
  const owner = await signup(app, 'Owner');
  const guest = await signup(app, 'Guest');
  const other = await signup(app, 'Other');
  const g = (await owner.req('POST', '/games', { ...R3, visibility: 'private', roles: ['York'] })).json();
  for (const c of [other, guest, anon]) {
    t.equal((await c.req('GET', `/games/${g.id}`)).statusCode, 404, 'not found, not forbidden');
    t.equal((await c.req('GET', `/games/${g.id}/view`)).statusCode, 404);
    t.equal((await c.req('GET', `/games/${g.id}/log`)).statusCode, 404);
    t.notOk((await c.req('GET', '/games?limit=100')).json().items.some((x: { id: string }) => x.id === g.id), 'not listed');
  }
  t.equal((await other.req('POST', `/games/${g.id}/join`, {})).statusCode, 404, 'no joining without the code');
  t.ok((await owner.req('GET', '/games?limit=100')).json().items.some((x: { id: string }) => x.id === g.id), 'the owner lists it');

  t.equal((await other.req('POST', `/games/${g.id}/invites`, { role: 'Lancaster' })).statusCode, 404);
  const inv = await owner.req('POST', `/games/${g.id}/invites`, { role: 'Lancaster' });
  t.equal(inv.statusCode, 201);
  const code = inv.json().code as string;
  t.match((await owner.req('GET', `/games/${g.id}`)).json().seats, [{ invited: false }, { role: 'Lancaster', invited: true }]);
  t.equal((await other.req('POST', `/games/${g.id}/join`, { inviteCode: 'wrong' })).statusCode, 404);
  const joined = await guest.req('POST', `/games/${g.id}/join`, { inviteCode: code });
  t.equal(joined.statusCode, 200, joined.body);
  t.match(joined.json(), { status: 'active', seats: [{}, { role: 'Lancaster', player: { id: guest.id }, invited: false }] });
  t.equal((await guest.req('GET', `/games/${g.id}`)).statusCode, 200, 'a seat holder sees it');
  t.equal((await other.req('POST', `/games/${g.id}/join`, { inviteCode: code })).statusCode, 404, 'the code is single-use');

  // A public game's invited seat: reserved for the code.
  const pub = (await owner.req('POST', '/games', { ...R3, roles: ['York'] })).json();
  const code2 = (await owner.req('POST', `/games/${pub.id}/invites`, { role: 'Lancaster' })).json().code;
  const taken = await other.req('POST', `/games/${pub.id}/join`, { role: 'Lancaster' });
  t.equal(taken.statusCode, 403);
  t.equal((await other.req('POST', `/games/${pub.id}/join`, { inviteCode: code2 })).statusCode, 200);
});

t.test('lifecycle: leave before start, manual start, abort before the first action, resign', async (t) => {
  const a = await signup(app, 'A');
  const b = await signup(app, 'B');
  const g = (await a.req('POST', '/games', { ...R3, roles: ['York'], autoStart: false })).json();
  t.equal((await a.req('POST', `/games/${g.id}/start`)).statusCode, 409, 'seats still open');
  t.match((await b.req('POST', `/games/${g.id}/join`, { role: 'Lancaster' })).json(), { status: 'setup', version: 1 });
  t.match((await b.req('POST', `/games/${g.id}/leave`, {})).json(), { status: 'setup', version: 2, seats: [{}, { player: null }] });
  t.equal((await b.req('POST', `/games/${g.id}/leave`, {})).statusCode, 403, 'no seat to leave');
  await b.req('POST', `/games/${g.id}/join`, {});
  t.equal((await anon.req('POST', `/games/${g.id}/start`)).statusCode, 401);
  const started = await b.req('POST', `/games/${g.id}/start`);
  t.match(started.json(), { status: 'active', version: 4 });
  t.equal((await b.req('POST', `/games/${g.id}/leave`, {})).statusCode, 409, 'no leaving after the start');
  const log = (await anon.req('GET', `/games/${g.id}/log`)).json();
  t.same(log.entries.map((e: { kind: string }) => e.kind), ['join', 'leave', 'join', 'start'], 'every change is one version');

  const aborted = await a.req('POST', `/games/${g.id}/abort`);
  t.equal(aborted.statusCode, 200);
  t.match(aborted.json(), { status: 'abandoned', version: 5, activeRoles: [] });
  t.ok(aborted.json().seed, 'the seed is shown once the game is over');
  t.equal((await a.req('POST', `/games/${g.id}/abort`)).statusCode, 409);

  const h = (await a.req('POST', '/games', { ...R3, roles: ['York'] })).json();
  await b.req('POST', `/games/${h.id}/join`, {});
  const [action] = (await a.req('GET', `/games/${h.id}/actions`)).json().actions;
  t.equal((await a.req('POST', `/games/${h.id}/actions`, { action })).statusCode, 200);
  const late = await a.req('POST', `/games/${h.id}/abort`);
  t.equal(late.statusCode, 409);
  t.equal(late.json().code, 'invalid_state');
  const other = await signup(app, 'C');
  t.equal((await other.req('POST', `/games/${h.id}/resign`, {})).statusCode, 403);
  const resigned = await b.req('POST', `/games/${h.id}/resign`, {});
  t.match(resigned.json(), { status: 'finished', result: { winner: 'York', reason: 'Lancaster resigned' }, activeRoles: [] });
  const after = await a.req('POST', `/games/${h.id}/actions`, { action });
  t.equal(after.statusCode, 409);
  t.equal(after.json().code, 'game_over');
  // A resigned game exports and imports (its record ends with the resignation).
  const record = (await a.req('GET', `/games/${h.id}/export`)).json();
  const imported = await a.req('POST', '/games/import', { record });
  t.equal(imported.statusCode, 201, imported.body);
  t.match(imported.json(), { status: 'finished', result: { winner: 'York', reason: 'Lancaster resigned' } });
});

t.test('listing: filters, "my turn", cursor pagination', async (t) => {
  const p = await signup(app, 'Lister');
  const q = await signup(app, 'Opponent');
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await p.req('POST', '/games', { ...R3, roles: ['York'] })).json().id);
  await q.req('POST', `/games/${ids[0]}/join`, {});
  await q.req('POST', `/games/${ids[1]}/join`, {});

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/games?player=me&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
    const page = (await p.req('GET', url)).json();
    t.ok(page.items.length <= 2);
    seen.push(...page.items.map((g: { id: string }) => g.id));
    cursor = page.nextCursor;
  } while (cursor);
  t.same(seen, [...ids].reverse(), 'every game once, newest first');

  t.same((await p.req('GET', '/games?player=me&status=setup')).json().items.map((g: { id: string }) => g.id).sort(), ids.slice(2).sort());
  t.same((await anon.req('GET', `/games?player=${q.id}`)).json().items.map((g: { id: string }) => g.id).sort(), ids.slice(0, 2).sort());
  t.equal((await anon.req('GET', '/games?myTurn=true')).statusCode, 401);
  // At the start both sides choose at once (redeal offer / card play): both have their turn.
  const mine = (await q.req('GET', '/games?myTurn=true')).json().items.map((g: { id: string; activeRoles: string[] }) => g.id).sort();
  const expected = [];
  for (const id of ids.slice(0, 2)) {
    const s = (await q.req('GET', `/games/${id}`)).json();
    if (s.activeRoles.includes('Lancaster')) expected.push(id);
  }
  t.same(mine, expected.sort());
  t.same((await p.req('GET', '/games?gameType=none')).json(), { items: [], nextCursor: null });
});
