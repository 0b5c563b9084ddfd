// A game whose every seat is held by Herald's AI (a game to watch) has nobody to resign, so its
// creator may abort it at any time, also after the first action (before, a probe found such games
// could not be stopped once the AI had moved): it ends abandoned, through the one write path
// (log, events), over REST and GraphQL. Nobody else may; a game with a human seat keeps the rule
// "abort before the first action, resign after". The AI moves by the app's own job on its pool.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { client as gqlClient } from './graphql-helpers.ts';
import { signup, type Client } from './rest-helpers.ts';

const R3 = { gameType: 'richard-iii', scenario: 'richard-iii' };
const CLOCK = { kind: 'fischer', initialMs: 3_600_000, incrementMs: 10_000 };

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl, jobs: true, ai: { workers: 1, queue: 16, timeCapMs: 5_000 } }), { store, aiSweepMs: 200 });
t.teardown(() => app.close());
const ada = await signup(app, 'Ada');
const bob = await signup(app, 'Bob');

interface Game { id: string; status: string; version: number; rated: boolean; result: unknown }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const get = async (c: Client, id: string) => (await c.req('GET', `/games/${id}`)).json() as Game;

/** A new game of Ada's with these seats, once the AI has made its first action. */
async function afterFirstAction(body: Record<string, unknown>, o: { join?: Client; mover?: Client } = {}): Promise<string> {
  const { join } = o;
  const mover = o.mover ?? join;
  const res = await ada.req('POST', '/games', { ...R3, timeControl: CLOCK, ...body });
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  const id = (res.json() as Game).id;
  if (join) {
    const j = await join.req('POST', `/games/${id}/join`, {});
    if (j.statusCode !== 200) throw new Error(`join: ${j.statusCode} ${j.body}`);
  }
  for (let i = 0; i < 500; i++) {
    const log = (await ada.req('GET', `/games/${id}/log`)).json() as { entries: { kind: string }[] };
    if (log.entries.some((e) => e.kind === 'action')) return id;
    // A human seat: play its first legal action so the game gets going.
    if (mover) {
      const legal = (await mover.req('GET', `/games/${id}/actions`)).json() as { version: number; actions: unknown[] };
      if (legal.actions.length > 0) await mover.req('POST', `/games/${id}/actions`, { action: legal.actions[0], expectedVersion: legal.version });
    }
    await sleep(20);
  }
  throw new Error('no action was made');
}

t.test('AI against AI: the creator aborts after the AI has moved (REST), nobody else can', async (t) => {
  const id = await afterFirstAction({ ai: { York: 'random', Lancaster: 'random' } });
  const refused = await bob.req('POST', `/games/${id}/abort`, {});
  t.equal(refused.statusCode, 403, 'not the creator: forbidden');
  t.match(refused.json(), { code: 'forbidden' });
  const anonymous = await app.inject({ method: 'POST', url: `/games/${id}/abort`, payload: {} });
  t.equal(anonymous.statusCode, 401);
  t.equal((await get(ada, id)).status, 'active', 'refusals change nothing');

  const res = await ada.req('POST', `/games/${id}/abort`, {});
  t.equal(res.statusCode, 200, res.body);
  t.match(res.json(), { id, status: 'abandoned', result: null });
  const log = (await ada.req('GET', `/games/${id}/log`)).json() as { entries: { kind: string; playerId?: string | null }[] };
  t.match(log.entries.at(-1), { kind: 'abort' }, 'one abort entry ends the log');
  const ended = await get(ada, id);
  await sleep(600);
  t.equal((await get(ada, id)).version, ended.version, 'the AI moves no more');
  const again = await ada.req('POST', `/games/${id}/abort`, {});
  t.equal(again.statusCode, 409);
  t.match(again.json(), { code: 'game_over' });
});

t.test('AI against AI: the creator aborts through GraphQL; another player gets forbidden', async (t) => {
  const id = await afterFirstAction({ ai: { York: 'random', Lancaster: 'random' } });
  const bobGql = gqlClient(app, bob.key);
  const refused = await bobGql(`mutation($id: ID!) { abort(gameId: $id) { id status } }`, { id });
  t.equal(refused.errors?.[0]?.extensions?.code, 'forbidden');
  const adaGql = gqlClient(app, ada.key);
  const res = await adaGql<{ abort: { id: string; status: string } }>(`mutation($id: ID!) { abort(gameId: $id) { id status } }`, { id });
  t.same(res.errors, undefined);
  t.same(res.data?.abort, { id, status: 'abandoned' });
});

t.test('a game with a human seat keeps the rule: no abort after the first action', async (t) => {
  // Ada created it and holds York; the AI plays Lancaster.
  const mine = await afterFirstAction({ roles: ['York'], ai: { Lancaster: 'random' } }, { mover: ada });
  const res = await ada.req('POST', `/games/${mine}/abort`, {});
  t.equal(res.statusCode, 409);
  t.match(res.json(), { code: 'invalid_state' });
  t.equal((await get(ada, mine)).status, 'active');
  // Ada created it without a seat; Bob holds York against the AI: Ada, the creator, cannot abort it either.
  const bobs = await afterFirstAction({ ai: { Lancaster: 'random' } }, { join: bob });
  const byCreator = await ada.req('POST', `/games/${bobs}/abort`, {});
  t.equal(byCreator.statusCode, 409);
  t.match(byCreator.json(), { code: 'invalid_state' });
  t.equal((await get(ada, bobs)).status, 'active');
});

t.test('an AI game aborted after the AI moved exports, and its record imports', async (t) => {
  const id = await afterFirstAction({ ai: { York: 'random', Lancaster: 'random' } });
  t.equal((await ada.req('POST', `/games/${id}/abort`, {})).statusCode, 200);
  const exported = await ada.req('GET', `/games/${id}/export`);
  t.equal(exported.statusCode, 200, exported.body);
  const record = exported.json() as { status: string; result: unknown; actions: unknown[] };
  t.match(record, { status: 'abandoned', result: null });
  t.ok(record.actions.length > 0, 'the record holds the AI moves made before the abort');
  const imported = await ada.req('POST', '/games/import', { record });
  t.equal(imported.statusCode, 201, imported.body);
  t.match(imported.json(), { status: 'abandoned', result: null });
});
