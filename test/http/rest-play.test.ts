// The action write path through REST: version conflicts, idempotency, illegal
// actions, seats and turns, hidden information in views and logs, bad input.
import t from 'tap';
import { foldLog } from '../../src/engine/types.ts';
import { games } from '../../src/games/index.ts';
import { logLines } from '../../src/service/choices.ts';
import { prng, restApp, signup, type Client } from './rest-helpers.ts';

const app = await restApp(t);
const engine = games['richard-iii']!;
const york = await signup(app, 'York');
const lancaster = await signup(app, 'Lancaster');
const watcher = await signup(app, 'Watcher');
const seat: Record<string, Client> = { York: york, Lancaster: lancaster };

async function newGame(seed: string): Promise<string> {
  const res = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York'] });
  const id = res.json().id as string;
  await lancaster.req('POST', `/games/${id}/join`, {});
  return id;
}

async function summary(id: string) {
  return (await watcher.req('GET', `/games/${id}`)).json();
}

async function state(id: string) {
  return (await app.store.prisma.game.findUnique({ where: { id } }))!.state;
}

async function legal(c: Client, id: string): Promise<unknown[]> {
  return (await c.req('GET', `/games/${id}/actions`)).json().actions;
}

/** Plays random legal actions until exactly one role is active. */
async function untilOneActive(id: string, pick: (n: number) => number): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const s = await summary(id);
    if (s.activeRoles.length === 1) return s.activeRoles[0];
    const role = s.activeRoles[pick(s.activeRoles.length)];
    const list = await legal(seat[role]!, id);
    const res = await seat[role]!.req('POST', `/games/${id}/actions`, { action: list[pick(list.length)] });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  throw new Error('never a single active role');
}

t.test('stale expectedVersion: 409 with the current version, nothing committed', async (t) => {
  const id = await newGame('stale');
  const s = await summary(id);
  const [action] = await legal(york, id);
  const res = await york.req('POST', `/games/${id}/actions`, { action, expectedVersion: s.version - 1 });
  t.equal(res.statusCode, 409);
  t.match(res.headers['content-type'], /^application\/problem\+json/);
  t.match(res.json(), { code: 'version_conflict', status: 409, currentVersion: s.version, type: 'urn:herald:problem:version-conflict' });
  t.equal((await summary(id)).version, s.version, 'nothing committed');
  const ok = await york.req('POST', `/games/${id}/actions`, { action, expectedVersion: s.version });
  t.equal(ok.statusCode, 200);
  t.equal(ok.json().version, s.version + 1);
});

t.test('duplicate Idempotency-Key: one commit, the identical response', async (t) => {
  const id = await newGame('idem');
  const s = await summary(id);
  const [action] = await legal(york, id);
  const first = await york.req('POST', `/games/${id}/actions`, { action }, { 'idempotency-key': 'k-1' });
  t.equal(first.statusCode, 200);
  const again = await york.req('POST', `/games/${id}/actions`, { action }, { 'idempotency-key': 'k-1' });
  t.equal(again.statusCode, 200);
  t.equal(again.body, first.body, 'byte-identical body');
  t.equal(again.headers['idempotent-replayed'], 'true');
  t.equal((await summary(id)).version, s.version + 1, 'committed once');
  const rows = await app.store.prisma.action.count({ where: { gameId: id, kind: 'action' } });
  t.equal(rows, 1);
  const other = await york.req('POST', `/games/${id}/actions`, { action: { type: 'something-else' } }, { 'idempotency-key': 'k-1' });
  t.equal(other.statusCode, 400, 'the same key with another request is refused');
  t.match(other.json(), { code: 'invalid_request', detail: /Idempotency-Key/ });

  // Concurrent retries with one key: still one commit, same answers.
  const [action2] = await legal(lancaster, id);
  const results = await Promise.all(
    [1, 2, 3, 4].map(() => lancaster.req('POST', `/games/${id}/actions`, { action: action2 }, { 'idempotency-key': 'k-2' })),
  );
  t.same(results.map((r) => r.statusCode), [200, 200, 200, 200]);
  t.equal(new Set(results.map((r) => r.body)).size, 1, 'one response for all');
  t.equal((await summary(id)).version, s.version + 2);
});

t.test('illegal action: 422 with the legal list; out of turn and other seats: 403', async (t) => {
  const id = await newGame('rules');
  const s = await summary(id);
  const list = await legal(york, id);
  const res = await york.req('POST', `/games/${id}/actions`, { action: { type: 'play', card: 'no-such-card' } });
  t.equal(res.statusCode, 422);
  t.match(res.json(), { code: 'illegal_action', currentVersion: s.version });
  t.same(res.json().legalActions, list, 'the legal actions of that seat');

  const notMine = await york.req('POST', `/games/${id}/actions`, { role: 'Lancaster', action: list[0] });
  t.equal(notMine.statusCode, 403);
  t.equal(notMine.json().code, 'forbidden');
  const noSeat = await watcher.req('POST', `/games/${id}/actions`, { action: list[0] });
  t.equal(noSeat.statusCode, 403);
  t.equal(noSeat.json().code, 'forbidden');
  t.equal((await watcher.req('GET', `/games/${id}/actions`)).statusCode, 403, 'no legal list without a seat');

  const active = await untilOneActive(id, prng(7));
  const idle = active === 'York' ? 'Lancaster' : 'York';
  const before = await summary(id);
  const idleLegal = await seat[idle]!.req('GET', `/games/${id}/actions`);
  t.match(idleLegal.json(), { active: false, actions: [] });
  const activeList = await legal(seat[active]!, id);
  const outOfTurn = await seat[idle]!.req('POST', `/games/${id}/actions`, { action: activeList[0] });
  t.equal(outOfTurn.statusCode, 403);
  t.match(outOfTurn.json(), { code: 'not_your_turn', activeRoles: [active] });
  t.equal((await summary(id)).version, before.version, 'nothing committed by rejected requests');
});

t.test('views and logs hold only what the seat may see (the engine’s view for that role)', async (t) => {
  const id = await newGame('views');
  await untilOneActive(id, prng(3));
  const st = await state(id);
  const mine = (await york.req('GET', `/games/${id}/view`)).json();
  t.equal(mine.role, 'York');
  t.same(mine.view, engine.view(st, 'York'));
  const theirs = (await lancaster.req('GET', `/games/${id}/view`)).json();
  t.equal(theirs.role, 'Lancaster');
  t.same(theirs.view, engine.view(st, 'Lancaster'));
  t.notSame(theirs.view, mine.view, 'the seats see different things');
  for (const spectator of [watcher, { req: (m: string, u: string) => app.inject({ method: m as 'GET', url: u }) }]) {
    const v = (await spectator.req('GET', `/games/${id}/view`)).json();
    t.equal(v.role, null);
    t.same(v.view, engine.view(st, null), 'spectator view');
  }
  const forbidden = await lancaster.req('GET', `/games/${id}/view?role=York`);
  t.equal(forbidden.statusCode, 403, 'no reading the other seat');
  // No secret of the state appears anywhere in what is served.
  const served = JSON.stringify([mine, theirs, (await watcher.req('GET', `/games/${id}`)).json()]);
  t.notMatch(served, /"rng"|"deck"|"undo"|"seed"/);
  t.notMatch(served, /"views"/); // the seed string itself

  // The log: a seat's own actions are shown to it, not to the opponent or spectators.
  const logs = {
    York: (await york.req('GET', `/games/${id}/log`)).json(),
    Lancaster: (await lancaster.req('GET', `/games/${id}/log`)).json(),
    spectator: (await watcher.req('GET', `/games/${id}/log`)).json(),
  };
  const ll = logs.Lancaster;
  type Log = { entries: { kind: string; role: string; action?: unknown }[] };
  const actionsOf = (l: Log, role: string) => l.entries.filter((e) => e.kind === 'action' && e.role === role);
  t.ok(logs.spectator.entries.some((e: { kind: string }) => e.kind === 'action'), 'actions were played');
  for (const [role, other] of [['York', 'Lancaster'], ['Lancaster', 'York']] as const) {
    t.ok(actionsOf(logs[role], role).every((e) => e.action !== undefined), `${role} sees its own actions`);
    t.ok(actionsOf(logs[other], role).every((e) => e.action === undefined), `${other} does not see ${role}'s actions during the game`);
    t.ok(actionsOf(logs.spectator, role).every((e) => e.action === undefined), 'nor does a spectator');
  }
  // The engine's log, replayed from the seed and the actions, as Lancaster reads it.
  const g = (await app.store.prisma.game.findUnique({ where: { id } }))!;
  const played = await app.store.prisma.action.findMany({ where: { gameId: id, kind: 'action' }, orderBy: { seq: 'asc' } });
  let s = engine.setup({ scenario: g.scenario, seed: g.seed });
  const changes = [engine.logChange(s)];
  for (const a of played) changes.push(engine.logChange((s = engine.apply(s, a.role!, a.action))));
  const folded = foldLog(changes);
  t.same(ll.lines, logLines(engine, folded, 'Lancaster', 'en'), "log lines are the engine's messages in English, as Lancaster reads them");
  t.equal(ll.lang, 'en');
  t.ok(ll.lines.length > played.length / 2, `${ll.lines.length} lines for ${played.length} actions`);
  const lastChange = folded.slice(folded.length - (st as { log: unknown[] }).log.length);
  t.same(lastChange.map((e) => engine.logLine(e, 'Lancaster')), theirs.view.log, "the view's log lines are the last change's");
  t.equal(theirs.view.logFrom + theirs.view.log.length, ll.lines.length);
  const exp = await lancaster.req('GET', `/games/${id}/export`);
  t.equal(exp.statusCode, 403, 'no export of a game in progress by one seat');
  t.equal((await york.req('GET', `/games/${id}/view?version=2`)).statusCode, 403, 'no history while the game runs');
});

t.test('hot-seat: one player holds both seats and names the role', async (t) => {
  const res = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'hot', roles: ['York', 'Lancaster'] });
  t.equal(res.statusCode, 201);
  const g = res.json();
  t.match(g, { status: 'active', version: 1 });
  const id = g.id;
  t.equal((await york.req('GET', `/games/${id}/actions`)).statusCode, 400, 'role needed');
  const list = (await york.req('GET', `/games/${id}/actions?role=Lancaster`)).json().actions;
  const noRole = await york.req('POST', `/games/${id}/actions`, { action: list[0] });
  t.equal(noRole.statusCode, 400);
  t.match(noRole.json(), { code: 'invalid_request', yourRoles: ['York', 'Lancaster'] });
  const ok = await york.req('POST', `/games/${id}/actions`, { role: 'Lancaster', action: list[0] });
  t.equal(ok.statusCode, 200);
  t.same(ok.json().view, engine.view(await state(id), 'Lancaster'), "the response carries the acting seat's view");
  t.equal((await york.req('GET', `/games/${id}/view`)).json().role, null, 'without a role: the spectator view');
  t.equal((await york.req('GET', `/games/${id}/view?role=Lancaster`)).json().role, 'Lancaster');
  const exp = await york.req('GET', `/games/${id}/export`);
  t.equal(exp.statusCode, 200, 'a player holding every seat may export in progress');
  t.notOk('seed' in exp.json(), 'but without the seed');
});

t.test('bad input: 4xx problem+json, nothing changes', async (t) => {
  const id = await newGame('bad');
  const s = await summary(id);
  const count = await app.store.prisma.game.count();
  const cases: [string, string, unknown, number, string?][] = [
    ['POST', '/games', { gameType: 'chess', scenario: 'x' }, 400, 'invalid_request'],
    ['POST', '/games', { gameType: 'richard-iii', scenario: 'nope' }, 400, 'invalid_request'],
    ['POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York', 'York'] }, 400, 'invalid_request'],
    ['POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', visibility: 'secret' }, 400, 'invalid_request'],
    ['POST', '/games', [1, 2], 400],
    ['POST', `/games/${id}/actions`, { action: 'play' }, 400, 'invalid_request'],
    ['POST', `/games/${id}/actions`, {}, 400, 'invalid_request'],
    ['POST', `/games/${id}/actions`, { action: { type: 'x' }, expectedVersion: -1 }, 400, 'invalid_request'],
    ['POST', `/games/${id}/actions`, { action: { type: 'x' }, expectedVersion: 'one' }, 400, 'invalid_request'],
    ['POST', `/games/${id}/actions`, { action: { type: 'x' }, role: 'Tudor' }, 400, 'invalid_request'],
    ['POST', '/games/00000000-0000-4000-8000-000000000000/actions', { action: { type: 'x' } }, 404, 'not_found'],
    ['POST', '/games/not-a-uuid/join', {}, 404, 'not_found'],
    ['GET', '/games/not-a-uuid', undefined, 404, 'not_found'],
    ['GET', `/games/${id}/view?version=abc`, undefined, 400, 'invalid_request'],
    ['GET', `/games/${id}/view?version=99999`, undefined, 400, 'invalid_request'],
    ['GET', '/games?limit=0', undefined, 400, 'invalid_request'],
    ['GET', '/games?status=won', undefined, 400, 'invalid_request'],
    ['GET', '/games?cursor=garbage', undefined, 400, 'invalid_request'],
    ['POST', `/games/${id}/join`, {}, 409, 'invalid_state'],
    ['POST', `/games/${id}/leave`, {}, 409, 'invalid_state'],
    ['POST', `/games/${id}/invites`, { role: 'York' }, 409, 'invalid_state'],
    ['POST', '/games/import', { record: { format: 'zip' } }, 422, 'invalid_record'],
    ['POST', '/games/import', {}, 400, 'invalid_request'],
  ];
  for (const [method, url, payload, status, code] of cases) {
    const res = await york.req(method, url, payload);
    t.equal(res.statusCode, status, `${method} ${url} ${JSON.stringify(payload)} → ${res.body}`);
    t.match(res.headers['content-type'], /^application\/problem\+json/);
    if (code) t.equal(res.json().code, code);
  }
  const malformed = await app.inject({
    method: 'POST', url: `/games/${id}/actions`, payload: '{"action":', headers: { authorization: `Bearer ${york.key}`, 'content-type': 'application/json' },
  });
  t.equal(malformed.statusCode, 400);
  t.match(malformed.headers['content-type'], /^application\/problem\+json/);
  t.equal((await summary(id)).version, s.version, 'the game did not change');
  t.equal(await app.store.prisma.game.count(), count, 'no game was created');
});
