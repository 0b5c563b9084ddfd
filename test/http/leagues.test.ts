// The HTTP faces of leagues: REST (routes/leagues.ts) and GraphQL
// (graphql/leagues.ts) round trips over the real league service, problem
// documents (GraphQL extensions.code) for bad input, the CSV export, and the
// `seated` notice of a published round on GET /me/events and the mySeats
// subscription.
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { playerChannel } from '../../src/service/api.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { client as gqlClient, type Gql, type GqlResult } from './graphql-helpers.ts';
import { restApp, signup, type Client } from './rest-helpers.ts';
import { baseUrl, SseClient } from './sse-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);

const app = await restApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });

const ada = await signup(app, 'Ada'); // organises
const bob = await signup(app, 'Bob');
const cy = await signup(app, 'Cy');
const dee = await signup(app, 'Dee');
const eve = await signup(app, 'Eve');
const anon: Pick<Client, 'req'> = { req: (method, url, payload, headers = {}) => app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) }) };
const gql = (c: Client | null): Gql => gqlClient(app, c?.key ?? null);

const MISSING = '7a0b1c2d-0000-4000-8000-0000000000ff';

function problem(t: Test, res: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, code: string, what: string) {
  t.equal(res.statusCode, status, `${what}: status`);
  t.match(String(res.headers['content-type']), /^application\/problem\+json/, `${what}: problem+json`);
  t.match(res.json(), { status, code, type: String, title: String, detail: String }, `${what}: ${code}`);
}

function gqlError(t: Test, r: GqlResult, code: string, what: string) {
  t.ok(r.errors?.some((e) => e.extensions?.code === code), `${what}: ${code} (${JSON.stringify(r.errors)})`);
  t.notMatch(JSON.stringify(r.errors ?? []), /internal_error/, `${what}: not an internal error`);
}

function wsUrl(a: FastifyInstance): string {
  return `${baseUrl(a).replace(/^http/, 'ws')}/graphql`;
}

function connect(key: string): WsClient {
  const c = createClient({ url: wsUrl(app), webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => c.dispose());
  return c;
}

/** A subscription's results; `until` waits (bounded) for one that matches. */
function subscribe(c: WsClient, query: string) {
  type R = FormattedExecutionResult<Record<string, any>, unknown>;
  const results: R[] = [];
  const waiters: Array<{ test: (r: R) => boolean; resolve: (r: R) => void }> = [];
  const stop = c.subscribe<Record<string, any>>({ query }, {
    next: (r) => {
      results.push(r);
      for (const w of [...waiters]) if (w.test(r)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(r);
    },
    error: () => {},
    complete: () => {},
  });
  t.teardown(stop);
  return {
    results,
    until(test: (r: R) => boolean, what: string): Promise<R> {
      const found = results.find(test);
      if (found) return Promise.resolve(found);
      return within(new Promise<R>((resolve) => waiters.push({ test, resolve })), () => `${what}; got ${JSON.stringify(results)}`);
    },
  };
}

// ─── Bad input: refused by the adapters before the service (or by it), never a 500 ───

t.test('REST: malformed ids are 404, bad round numbers and bodies 400, missing keys 401', async (t) => {
  problem(t, await anon.req('GET', '/leagues/not-a-uuid'), 404, 'not_found', 'malformed league id');
  problem(t, await anon.req('GET', '/leagues/not-a-uuid/standings'), 404, 'not_found', 'malformed league id (standings)');
  problem(t, await ada.req('POST', '/leagues/x/pairings/y/confirm'), 404, 'not_found', 'malformed ids (confirm)');
  problem(t, await ada.req('PUT', `/leagues/${MISSING}/pairings/nope/result`, { result: 'first', reason: 'r' }), 404, 'not_found', 'malformed pairing id');
  problem(t, await ada.req('DELETE', `/leagues/${MISSING}/entrants/12`), 404, 'not_found', 'malformed player id');
  for (const n of ['0', '-1', '1.5', 'abc', '01', '9999999999']) {
    problem(t, await anon.req('GET', `/leagues/${MISSING}/rounds/${n}`), 400, 'invalid_request', `round ${n}`);
  }
  problem(t, await anon.req('POST', '/leagues', { name: 'x', gameType: 'richard-iii', format: 'swiss' }), 401, 'unauthorized', 'create without a key');
  problem(t, await ada.req('POST', '/leagues', { name: 'x', gameType: 'richard-iii', format: 'swiss', colour: 'red' }), 400, 'invalid_request', 'unknown create field');
  problem(t, await ada.req('POST', '/leagues', [1, 2]), 400, 'invalid_request', 'array body');
  problem(t, await ada.req('PATCH', `/leagues/${MISSING}`, { format: 'swiss' }), 400, 'invalid_request', 'format cannot change');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/organisers`, { playerId: 'me' }), 400, 'invalid_request', 'organiser playerId not a UUID');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/organisers`, { playerId: bob.id, role: 'co' }), 400, 'invalid_request', 'unknown organiser field');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/entrants`, { seed: 1 }), 400, 'invalid_request', 'seed without playerId');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/entrants`, { playerId: bob.id, seed: 'one' }), 400, 'invalid_request', 'seed of the wrong type');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/entrants`, { playerId: 42 }), 400, 'invalid_request', 'playerId of the wrong type');
  problem(t, await ada.req('PATCH', `/leagues/${MISSING}/entrants/${bob.id}`, {}), 400, 'invalid_request', 'empty entrant change');
  problem(t, await ada.req('PATCH', `/leagues/${MISSING}/entrants/${bob.id}`, { status: 'active' }), 400, 'invalid_request', 'entrant status active');
  problem(t, await ada.req('PATCH', `/leagues/${MISSING}/entrants/${bob.id}`, { reason: 7 }), 400, 'invalid_request', 'reason of the wrong type');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/start`, { now: true }), 400, 'invalid_request', 'start takes no body');
  problem(t, await ada.req('POST', `/leagues/${MISSING}/rounds`, { number: 1 }), 400, 'invalid_request', 'generate takes no body');
  const edits = [
    [],
    [{ op: 'swap', a: bob.id }],
    [{ op: 'swap', a: bob.id, b: cy.id, player: dee.id }],
    [{ op: 'jump', a: bob.id, b: cy.id }],
    [{ op: 'bye', player: 'bob' }],
    [{ op: 'pair', first: bob.id, second: 5 }],
    ['swap'],
    'swap',
  ];
  for (const e of edits) problem(t, await ada.req('PATCH', `/leagues/${MISSING}/rounds/1/pairings`, { edits: e }), 400, 'invalid_request', `edits ${JSON.stringify(e)}`);
  problem(t, await ada.req('PATCH', `/leagues/${MISSING}/rounds/1/pairings`, { edits: [{ op: 'bye', player: bob.id }], dryRun: true }), 400, 'invalid_request', 'unknown edit body field');
  for (const b of [{}, { result: 'forfeit-first' }, { result: 1 }, { result: 'first', by: bob.id }]) {
    problem(t, await bob.req('POST', `/leagues/${MISSING}/pairings/${MISSING}/report`, b), 400, 'invalid_request', `report ${JSON.stringify(b)}`);
  }
  for (const b of [{ reason: 'r' }, { result: 'first' }, { result: 'first', reason: '' }, { result: 'nope', reason: 'r' }, { result: 'first', reason: 'r', notify: true }]) {
    problem(t, await ada.req('PUT', `/leagues/${MISSING}/pairings/${MISSING}/result`, b), 400, 'invalid_request', `set result ${JSON.stringify(b)}`);
  }
  for (const q of ['limit=0', 'limit=101', 'status=open', 'playerId=bob', 'organiserId=', 'gameType=a&gameType=b']) {
    problem(t, await anon.req('GET', `/leagues?${q}`), 400, 'invalid_request', `list ?${q}`);
  }
  problem(t, await anon.req('GET', '/leagues?playerId=me'), 401, 'unauthorized', 'playerId=me without a key');
  problem(t, await anon.req('GET', `/leagues/${MISSING}/standings?format=xml`), 400, 'invalid_request', 'standings format');
  problem(t, await anon.req('GET', `/leagues/${MISSING}/standings?round=0`), 400, 'invalid_request', 'standings round');
  // One limit, stated, REST and GraphQL alike (found by probing: GraphQL said "a positive integer" of 2147483647).
  for (const url of [`/leagues/${MISSING}/standings?round=`, `/leagues/${MISSING}/rounds/`]) {
    for (const n of ['100001', '999999999']) {
      const res = await anon.req('GET', url + n);
      problem(t, res, 400, 'invalid_request', `${url}${n}`);
      t.match(res.json().detail, /an integer from 1 to 100000/, `${url}${n}: the range is stated`);
    }
    problem(t, await anon.req('GET', `${url}100000`), 404, 'not_found', `${url}100000 is a round number (the league is missing)`);
  }
  problem(t, await ada.req('GET', `/leagues/${MISSING}/results/changes?pairingId=x`), 400, 'invalid_request', 'changes pairingId');
  problem(t, await anon.req('GET', `/leagues/${MISSING}/results/changes`), 401, 'unauthorized', 'changes without a key');
});

t.test('GraphQL: malformed ids, bad round numbers and argument shapes are typed errors', async (t) => {
  const q = gql(ada);
  const none = await q('{ league(id: "not-a-uuid") { id } }');
  t.same(none.data, { league: null }, 'league(id) is null for a malformed id');
  t.notOk(none.errors);
  gqlError(t, await q(`{ leagueRound(leagueId: "${MISSING}", number: 0) { number } }`), 'invalid_request', 'round 0');
  gqlError(t, await q(`{ leagueStandings(leagueId: "${MISSING}", round: -2) { rounds } }`), 'invalid_request', 'standings round -2');
  for (const query of [`{ leagueStandings(leagueId: "${MISSING}", round: 2147483647) { rounds } }`, `{ leagueRound(leagueId: "${MISSING}", number: 100001) { number } }`]) {
    const r = await q(query);
    gqlError(t, r, 'invalid_request', query);
    t.match(r.errors?.[0]?.message, /an integer from 1 to 100000/, `${query}: the range is stated`);
  }
  gqlError(t, await q(`{ leagueStandings(leagueId: "${MISSING}", round: 100000) { rounds } }`), 'not_found', 'round 100000 is a round number');
  gqlError(t, await q('{ leagueStandings(leagueId: "x") { rounds } }'), 'not_found', 'standings of a malformed id');
  gqlError(t, await q(`{ leagues(first: 0) { nextCursor } }`), 'invalid_request', 'first 0');
  gqlError(t, await gql(null)('mutation { createLeague(input: { name: "x", gameType: "richard-iii", format: swiss }) { id } }'), 'unauthorized', 'create without a key');
  gqlError(t, await q('mutation { createLeague(input: { name: "x", gameType: "richard-iii", format: "round-robin" }) { id } }'), 'invalid_request', 'format as REST spells it');
  gqlError(t, await q('mutation { createLeague(input: { name: "x", gameType: "richard-iii", format: swiss, colour: "red" }) { id } }'), 'invalid_request', 'unknown input field');
  gqlError(t, await q(`mutation { updateLeague(id: "${MISSING}", input: { name: null }) { id } }`), 'invalid_request', 'null name');
  gqlError(t, await q(`mutation { setResult(leagueId: "${MISSING}", pairingId: "${MISSING}", reason: "r") { id } }`), 'invalid_request', 'setResult without result');
  gqlError(t, await q(`mutation { setResult(leagueId: "${MISSING}", pairingId: "${MISSING}", result: first, reason: " ") { id } }`), 'invalid_request', 'setResult with an empty reason');
  gqlError(t, await q(`mutation { editPairings(leagueId: "${MISSING}", round: 1, edits: [{ op: swap, a: "${bob.id}" }]) { number } }`), 'invalid_request', 'swap without b');
  gqlError(t, await q(`mutation { editPairings(leagueId: "${MISSING}", round: 1, edits: [{ op: bye, player: "${bob.id}", a: "${cy.id}" }]) { number } }`), 'invalid_request', 'bye with a');
  gqlError(t, await q(`mutation { editPairings(leagueId: "${MISSING}", round: 1, edits: []) { number } }`), 'invalid_request', 'no edits');
  gqlError(t, await q(`mutation { updateLeagueEntrant(leagueId: "${MISSING}", playerId: "${bob.id}") { seed } }`), 'invalid_request', 'no entrant change');
  gqlError(t, await q(`mutation { addLeagueEntrant(leagueId: "${MISSING}", playerId: "${bob.id}", seed: 0) { seed } }`), 'invalid_request', 'seed 0');
  gqlError(t, await q(`mutation { publishRound(leagueId: "${MISSING}", round: 0) { number } }`), 'invalid_request', 'publish round 0');
  gqlError(t, await q(`mutation { joinLeague(leagueId: "nope") { status } }`), 'not_found', 'join a malformed id');
});

// ─── The seated notice on the player channel (the message publishRound sends) ───

t.test('a seated message on player:<id> reaches GET /me/events and the mySeats subscription; malformed ones do not', async (t) => {
  const sse = await SseClient.open(`${baseUrl(app)}/me/events`, { authorization: `Bearer ${eve.key}` });
  t.teardown(() => sse.close());
  const seats = subscribe(connect(eve.key!), 'subscription { mySeats { gameId role leagueId round board } }');
  // The subscription is set up once the server acknowledged it: wait until a probe arrives.
  const notice = { type: 'seated', gameId: MISSING, role: 'York', leagueId: '7a0b1c2d-0000-4000-8000-000000000010', round: 1, board: 2 };
  let probe = 0;
  await within(
    (async () => {
      while (seats.results.length === 0) {
        await app.bus.publish(playerChannel(eve.id), { ...notice, board: 100 + ++probe });
        await new Promise((r) => setTimeout(r, 50));
      }
    })(),
    'the subscription to start',
  );
  await app.bus.publish(playerChannel(eve.id), { type: 'seated', gameId: MISSING }); // malformed: ignored
  await app.bus.publish(playerChannel(eve.id), notice);
  const got = await seats.until((r) => r.data?.mySeats.board === 2, 'the seated notice');
  t.same(got.data!.mySeats, { gameId: notice.gameId, role: 'York', leagueId: notice.leagueId, round: 1, board: 2 });
  t.notOk(seats.results.some((r) => r.errors), 'no errors on the subscription');
  const events = await sse.take(probe + 1);
  t.ok(events.every((e) => e.event === 'seated'), 'SSE events named seated');
  t.same(JSON.parse(events.at(-1)!.data), notice, 'SSE data: the SeatedEvent');
  t.equal(typeof events.at(-1)!.id, 'string', 'the event carries the stream cursor as its id');
});

// ─── Round trips over the real service ───

interface LeagueBody { id: string; status: string; format: string; version: number; settings: Record<string, unknown>; organisers: Array<{ player: { id: string }; role: string }> }
interface PairingBody { id: string; board: number; first: { id: string }; second: { id: string } | null; gameId: string | null; result: string | null; source: string | null }
interface RoundBody { number: number; status: string; pairings: PairingBody[] }

t.test('REST: a round-robin league from creation to standings and CSV', async (t) => {
  const created = await ada.req('POST', '/leagues', { name: 'Autumn round robin', gameType: 'richard-iii', format: 'round-robin', autoPair: false });
  t.equal(created.statusCode, 201, created.body);
  const league = created.json() as LeagueBody;
  t.equal(created.headers.location, `/leagues/${league.id}`);
  t.match(league, { status: 'registration', format: 'round-robin', organisers: [{ player: { id: ada.id }, role: 'owner' }] });
  t.match(league.settings, { autoPair: false, play: 'herald', points: { win: 1, draw: 0.5, loss: 0 } });

  t.equal((await anon.req('GET', `/leagues/${league.id}`)).json().id, league.id, 'anyone reads a public league');
  problem(t, await anon.req('GET', `/leagues/${MISSING}`), 404, 'not_found', 'unknown league');
  const mine = (await ada.req('GET', '/leagues?organiserId=me&status=registration')).json();
  t.ok(mine.items.some((l: LeagueBody) => l.id === league.id), 'listed for its organiser');

  problem(t, await bob.req('PATCH', `/leagues/${league.id}`, { description: 'mine now' }), 403, 'forbidden', 'a player changes settings');
  const patched = await ada.req('PATCH', `/leagues/${league.id}`, { description: 'Four players, three rounds.' });
  t.equal(patched.statusCode, 200, patched.body);
  t.equal(patched.json().description, 'Four players, three rounds.');

  // Organisers.
  problem(t, await bob.req('POST', `/leagues/${league.id}/organisers`, { playerId: bob.id }), 403, 'forbidden', 'a player makes himself organiser');
  const co = await ada.req('POST', `/leagues/${league.id}/organisers`, { playerId: eve.id });
  t.equal(co.statusCode, 200, co.body);
  t.ok(co.json().organisers.some((o: { player: { id: string }; role: string }) => o.player.id === eve.id && o.role === 'co'));
  const unco = await ada.req('DELETE', `/leagues/${league.id}/organisers/${eve.id}`);
  t.equal(unco.statusCode, 200, unco.body);
  t.notOk(unco.json().organisers.some((o: { player: { id: string } }) => o.player.id === eve.id));

  // Entrants: three join, the organiser enters the fourth; one joins and withdraws again.
  for (const p of [bob, cy]) {
    const r = await p.req('POST', `/leagues/${league.id}/entrants`);
    t.equal(r.statusCode, 201, r.body);
    t.match(r.json(), { player: { id: p.id }, status: 'active' });
  }
  t.equal((await eve.req('POST', `/leagues/${league.id}/entrants`, {})).statusCode, 201, 'joining with {}');
  t.equal((await eve.req('DELETE', `/leagues/${league.id}/entrants/me`)).statusCode, 204, 'withdrawing before the start removes the entry');
  problem(t, await bob.req('POST', `/leagues/${league.id}/entrants`, { playerId: dee.id }), 403, 'forbidden', 'a player enters someone else');
  const added = await ada.req('POST', `/leagues/${league.id}/entrants`, { playerId: dee.id, seed: 1 });
  t.equal(added.statusCode, 201, added.body);
  t.match(added.json(), { player: { id: dee.id }, seed: 1 });
  t.equal((await ada.req('POST', `/leagues/${league.id}/entrants`)).statusCode, 201, 'the organiser plays too');
  t.equal((await ada.req('POST', `/leagues/${league.id}/entrants`, { playerId: eve.id })).statusCode, 201, 'Eve entered by the organiser');
  t.equal((await ada.req('DELETE', `/leagues/${league.id}/entrants/${eve.id}`)).statusCode, 204, 'and removed again before the start');
  const seeded = await ada.req('PATCH', `/leagues/${league.id}/entrants/${dee.id}`, { seed: null });
  t.equal(seeded.statusCode, 200, seeded.body);
  t.equal(seeded.json().seed, null);
  problem(t, await bob.req('PATCH', `/leagues/${league.id}/entrants/${cy.id}`, { status: 'disqualified', reason: 'no' }), 403, 'forbidden', 'a player disqualifies another');
  problem(t, await bob.req('DELETE', `/leagues/${league.id}/entrants/${cy.id}`), 403, 'forbidden', 'a player removes another');
  const entrants = (await anon.req('GET', `/leagues/${league.id}/entrants`)).json().entrants as Array<{ player: { id: string } }>;
  t.same(entrants.map((e) => e.player.id).sort(), [ada.id, bob.id, cy.id, dee.id].sort());

  // Start and round 1.
  problem(t, await bob.req('POST', `/leagues/${league.id}/start`), 403, 'forbidden', 'a player starts the league');
  const started = await ada.req('POST', `/leagues/${league.id}/start`);
  t.equal(started.statusCode, 200, started.body);
  t.equal(started.json().status, 'running');
  problem(t, await eve.req('POST', `/leagues/${league.id}/entrants`), 409, 'registration_closed', 'joining after the start');
  problem(t, await bob.req('POST', `/leagues/${league.id}/rounds`), 403, 'forbidden', 'a player generates a round');
  const generated = await ada.req('POST', `/leagues/${league.id}/rounds`);
  t.equal(generated.statusCode, 201, generated.body);
  t.equal(generated.headers.location, `/leagues/${league.id}/rounds/1`);
  const draft = generated.json() as RoundBody;
  t.match(draft, { number: 1, status: 'draft' });
  t.equal(draft.pairings.length, 2);
  problem(t, await ada.req('POST', `/leagues/${league.id}/rounds`), 409, 'round_in_progress', 'a second open round');

  // A round robin's boards follow its Berger table: only a board's two sides may be swapped.
  const [b1, b2] = draft.pairings as [PairingBody, PairingBody];
  problem(t, await bob.req('PATCH', `/leagues/${league.id}/rounds/1/pairings`, { edits: [{ op: 'swap', a: b1.first.id, b: b2.first.id }] }), 403, 'forbidden', 'a player edits pairings');
  problem(t, await ada.req('PATCH', `/leagues/${league.id}/rounds/1/pairings`, { edits: [{ op: 'swap', a: b1.first.id, b: eve.id }] }), 422, 'invalid_pairing', 'a swap with a non-entrant');
  problem(t, await ada.req('PATCH', `/leagues/${league.id}/rounds/1/pairings`, { edits: [{ op: 'swap', a: b1.first.id, b: b2.first.id }] }), 422, 'invalid_pairing', 'moving a player to another board of a round robin');
  const edited = await ada.req('PATCH', `/leagues/${league.id}/rounds/1/pairings`, { edits: [{ op: 'swap', a: b1.first.id, b: b1.second!.id }] });
  t.equal(edited.statusCode, 200, edited.body);
  const editedRound = edited.json() as RoundBody;
  const swapped = editedRound.pairings.find((p) => p.first.id === b1.second!.id)!;
  t.equal(swapped.second?.id, b1.first.id, 'the two sides of the board changed places');
  t.ok(editedRound.pairings.some((p) => p.first.id === b2.first.id && p.second?.id === b2.second?.id), 'the other board is as it was');

  // Publishing tells both players of each board (SSE), then the round is fixed.
  const bobEvents = await SseClient.open(`${baseUrl(app)}/me/events`, { authorization: `Bearer ${bob.key}` });
  t.teardown(() => bobEvents.close());
  problem(t, await bob.req('POST', `/leagues/${league.id}/rounds/1/publish`), 403, 'forbidden', 'a player publishes');
  const published = await ada.req('POST', `/leagues/${league.id}/rounds/1/publish`);
  t.equal(published.statusCode, 200, published.body);
  const round1 = published.json() as RoundBody;
  t.equal(round1.status, 'published');
  t.ok(round1.pairings.every((p) => typeof p.gameId === 'string'), 'every board has its game');
  const bobsBoard = round1.pairings.find((p) => p.first.id === bob.id || p.second?.id === bob.id)!;
  const seatedEvent = await within(
    (async () => {
      for (;;) {
        const [e] = await bobEvents.take(1);
        if (e!.event === 'seated') return e!;
      }
    })(),
    'a seated event for Bob',
  );
  t.match(JSON.parse(seatedEvent.data), { type: 'seated', gameId: bobsBoard.gameId, leagueId: league.id, round: 1, board: bobsBoard.board, role: String });
  problem(t, await ada.req('DELETE', `/leagues/${league.id}/rounds/1`), 409, 'round_published', 'deleting a published round');
  problem(t, await ada.req('PATCH', `/leagues/${league.id}/rounds/1/pairings`, { edits: [{ op: 'swap', a: b1.first.id, b: b2.first.id }] }), 409, 'round_published', 'editing a published round');
  t.same((await anon.req('GET', `/leagues/${league.id}/rounds/1`)).json().pairings.map((p: PairingBody) => p.id), round1.pairings.map((p) => p.id));
  problem(t, await anon.req('GET', `/leagues/${league.id}/rounds/7`), 404, 'not_found', 'a round that does not exist');
  t.equal((await anon.req('GET', `/leagues/${league.id}/rounds`)).json().rounds.length, 1);

  // Results: organisers set them (a reason is required); players may not.
  const [p1, p2] = round1.pairings as [PairingBody, PairingBody];
  problem(t, await bob.req('PUT', `/leagues/${league.id}/pairings/${p1.id}/result`, { result: 'first', reason: 'I won' }), 403, 'forbidden', 'a player sets a result');
  problem(t, await ada.req('PUT', `/leagues/${league.id}/pairings/${MISSING}/result`, { result: 'first', reason: 'x' }), 404, 'not_found', 'an unknown board');
  const set1 = await ada.req('PUT', `/leagues/${league.id}/pairings/${p1.id}/result`, { result: 'first', reason: 'Agreed over the board.' });
  t.equal(set1.statusCode, 200, set1.body);
  t.match(set1.json(), { id: p1.id, result: 'first', source: 'organiser' });
  const set2 = await ada.req('PUT', `/leagues/${league.id}/pairings/${p2.id}/result`, { result: 'forfeit-second', reason: 'No show.' });
  t.equal(set2.statusCode, 200, set2.body);
  t.equal(set2.json().result, 'forfeit-second');
  const changes = await ada.req('GET', `/leagues/${league.id}/results/changes`);
  t.equal(changes.statusCode, 200, changes.body);
  const log = changes.json().changes as Array<{ pairingId: string; after: string | null; reason: string | null; by: { id: string } | null }>;
  t.ok(log.some((c) => c.pairingId === p1.id && c.after === 'first' && c.reason === 'Agreed over the board.' && c.by?.id === ada.id), JSON.stringify(log));
  const onlyP2 = (await ada.req('GET', `/leagues/${league.id}/results/changes?pairingId=${p2.id}`)).json().changes as Array<{ pairingId: string }>;
  t.ok(onlyP2.length > 0 && onlyP2.every((c) => c.pairingId === p2.id), 'filtered by board');

  // Standings: JSON, then CSV (by ?format=csv and by Accept).
  const standings = await anon.req('GET', `/leagues/${league.id}/standings`);
  t.equal(standings.statusCode, 200, standings.body);
  const s = standings.json();
  t.match(s, { leagueId: league.id, roles: { first: 'York', second: 'Lancaster' }, points: { win: 1 } });
  t.equal(s.standings.length, 4);
  t.same(s.standings.map((r: { rank: number }) => r.rank), [...s.standings.map((r: { rank: number }) => r.rank)].sort((a: number, b: number) => a - b), 'ranked');
  t.equal(s.standings[0].points, 1, 'a winner on top');
  for (const row of s.standings) t.same(Object.keys(row.tieBreaks).sort(), [...s.tieBreaks].sort(), 'a value per tie-break');
  for (const url of [`/leagues/${league.id}/standings?format=csv`, `/leagues/${league.id}/standings`]) {
    const csv = await anon.req('GET', url, undefined, url.endsWith('csv') ? {} : { accept: 'text/csv' });
    t.equal(csv.statusCode, 200, csv.body);
    t.match(csv.headers['content-type'], /^text\/csv/);
    t.equal(csv.headers['content-disposition'], `attachment; filename="league-${league.id}-standings.csv"`);
    const lines = csv.body.split(/\r?\n/).filter((l) => l !== '');
    t.equal(lines.length, 5, 'a header and a row per player');
    const header = lines[0]!.split(',');
    t.same(header.slice(0, 4), ['rank', 'id', 'name', 'points']);
    t.same(header.slice(4 + s.tieBreaks.length), ['played', 'won', 'drawn', 'lost', 'forfeits_won', 'forfeits_lost', 'byes', 'as_York', 'as_Lancaster'], 'a column per tie-break, then the records');
    t.match(lines[1], new RegExp(`^1,${s.standings[0].player.id},${s.standings[0].player.name},1,`), 'the leader first');
    for (const p of ['Ada', 'Bob', 'Cy', 'Dee']) t.ok(lines.some((l) => l.includes(p)), `${p} has a row`);
  }
  const after1 = await anon.req('GET', `/leagues/${league.id}/standings?round=1&format=csv`);
  t.equal(after1.headers['content-disposition'], `attachment; filename="league-${league.id}-standings-round-1.csv"`);
  t.equal((await anon.req('GET', `/leagues/${league.id}/standings?format=json`, undefined, { accept: 'text/csv' })).headers['content-type']?.toString().startsWith('application/json'), true, '?format wins over Accept');
  const typeFor = async (accept: string) => String((await anon.req('GET', `/leagues/${league.id}/standings`, undefined, { accept })).headers['content-type']).split(';')[0];
  t.equal(await typeFor('text/csv;q=0, application/json'), 'application/json', 'q=0 refuses CSV');
  t.equal(await typeFor('application/json, text/csv'), 'application/json', 'JSON listed first');
  t.equal(await typeFor('application/json;q=0.5, text/csv'), 'text/csv', 'CSV preferred by q');
  t.equal(await typeFor('*/*'), 'application/json', 'anything: JSON');

  // Round 2 as a draft, thrown away; withdrawing after the start keeps the entrant.
  const r2 = await ada.req('POST', `/leagues/${league.id}/rounds`);
  t.equal(r2.statusCode, 201, r2.body);
  t.equal((await ada.req('DELETE', `/leagues/${league.id}/rounds/2`)).statusCode, 204);
  const withdrawn = await cy.req('DELETE', `/leagues/${league.id}/entrants/me`);
  t.equal(withdrawn.statusCode, 200, withdrawn.body);
  t.match(withdrawn.json(), { player: { id: cy.id }, status: 'withdrawn' });
});

t.test('REST: results reported by the players of a league played elsewhere', async (t) => {
  const league = (await ada.req('POST', '/leagues', { name: 'Club nights', gameType: 'richard-iii', format: 'round-robin', play: 'elsewhere', autoPair: false, visibility: 'unlisted' })).json() as LeagueBody;
  t.ok(league.id, 'created');
  for (const p of [bob, cy]) t.equal((await p.req('POST', `/leagues/${league.id}/entrants`)).statusCode, 201);
  t.equal((await ada.req('POST', `/leagues/${league.id}/start`)).statusCode, 200);
  const round = (await ada.req('POST', `/leagues/${league.id}/rounds`)).json() as RoundBody;
  const published = await ada.req('POST', `/leagues/${league.id}/rounds/${round.number}/publish`);
  t.equal(published.statusCode, 200, published.body);
  const board = (published.json() as RoundBody).pairings[0]!;
  t.equal(board.gameId, null, 'no game on Herald');
  problem(t, await dee.req('POST', `/leagues/${league.id}/pairings/${board.id}/report`, { result: 'first' }), 403, 'forbidden', 'an outsider reports');
  const reporter = board.first.id === bob.id ? bob : cy;
  const opponent = reporter === bob ? cy : bob;
  const reported = await reporter.req('POST', `/leagues/${league.id}/pairings/${board.id}/report`, { result: 'first' });
  t.equal(reported.statusCode, 200, reported.body);
  t.match(reported.json(), { result: null, report: { by: reporter.id, result: 'first' } });
  const confirmed = await opponent.req('POST', `/leagues/${league.id}/pairings/${board.id}/confirm`);
  t.equal(confirmed.statusCode, 200, confirmed.body);
  t.match(confirmed.json(), { result: 'first', source: 'reported' });
  problem(t, await reporter.req('POST', `/leagues/${league.id}/pairings/${board.id}/report`, { result: 'draw' }), 409, 'result_recorded', 'reporting a recorded result');
  const theirs = (await bob.req('GET', `/leagues/${league.id}/results/changes`)).json().changes as Array<{ pairingId: string }>;
  t.ok(theirs.length > 0 && theirs.every((c) => c.pairingId === board.id), 'a player sees the changes of their own boards');
  const listed = (await bob.req('GET', '/leagues?playerId=me')).json().items as LeagueBody[];
  t.ok(listed.some((l) => l.id === league.id), 'an unlisted league is listed for its players');
  t.notOk((await anon.req('GET', '/leagues')).json().items.some((l: LeagueBody) => l.id === league.id), 'and not for everyone');
});

t.test('GraphQL: the same operations, enums with _ and maps as lists', async (t) => {
  const asAda = gql(ada);
  const created = await asAda(
    `mutation($input: CreateLeagueInput!) { createLeague(input: $input) { id format status settings { tieBreaks autoPair points { win } } organisers { player { id } role } } }`,
    { input: { name: 'Winter GraphQL', gameType: 'richard-iii', format: 'round_robin', autoPair: false, tieBreaks: ['sonneborn_berger', 'wins'] } },
  );
  t.notOk(created.errors, JSON.stringify(created.errors));
  const league = created.data!.createLeague;
  t.match(league, { format: 'round_robin', status: 'registration', settings: { tieBreaks: ['sonneborn_berger', 'wins'], autoPair: false, points: { win: 1 } }, organisers: [{ player: { id: ada.id }, role: 'owner' }] });
  const rest = (await anon.req('GET', `/leagues/${league.id}`)).json();
  t.same(rest.settings.tieBreaks, ['sonneborn-berger', 'wins'], 'REST spells them with -');

  const updated = await asAda(`mutation($id: ID!) { updateLeague(id: $id, input: { description: "GraphQL only", maxEntrants: null }) { description settings { maxEntrants } } }`, { id: league.id });
  t.same(updated.data, { updateLeague: { description: 'GraphQL only', settings: { maxEntrants: null } } }, JSON.stringify(updated.errors));
  gqlError(t, await gql(bob)(`mutation($id: ID!) { updateLeague(id: $id, input: { description: "x" }) { id } }`, { id: league.id }), 'forbidden', 'a player updates');

  const organiser = await asAda(`mutation($l: ID!, $p: ID!) { addLeagueOrganiser(leagueId: $l, playerId: $p) { organisers { role } } }`, { l: league.id, p: eve.id });
  t.equal(organiser.data?.addLeagueOrganiser.organisers.length, 2, JSON.stringify(organiser.errors));
  const removed = await asAda(`mutation($l: ID!, $p: ID!) { removeLeagueOrganiser(leagueId: $l, playerId: $p) { organisers { role } } }`, { l: league.id, p: eve.id });
  t.equal(removed.data?.removeLeagueOrganiser.organisers.length, 1);

  for (const p of [bob, cy]) {
    const j = await gql(p)(`mutation($l: ID!) { joinLeague(leagueId: $l) { player { id } status } }`, { l: league.id });
    t.same(j.data?.joinLeague, { player: { id: p.id }, status: 'active' }, JSON.stringify(j.errors));
  }
  const joinedEve = await gql(eve)(`mutation($l: ID!) { joinLeague(leagueId: $l) { status } }`, { l: league.id });
  t.notOk(joinedEve.errors);
  const gone = await gql(eve)(`mutation($l: ID!) { withdrawFromLeague(leagueId: $l) { status } }`, { l: league.id });
  t.same(gone.data, { withdrawFromLeague: null }, 'removed before the start: null');
  const addedDee = await asAda(`mutation($l: ID!, $p: ID!) { addLeagueEntrant(leagueId: $l, playerId: $p, seed: 2) { seed player { name } } }`, { l: league.id, p: dee.id });
  t.same(addedDee.data?.addLeagueEntrant, { seed: 2, player: { name: 'Dee' } }, JSON.stringify(addedDee.errors));
  const reseeded = await asAda(`mutation($l: ID!, $p: ID!) { updateLeagueEntrant(leagueId: $l, playerId: $p, seed: null) { seed } }`, { l: league.id, p: dee.id });
  t.same(reseeded.data?.updateLeagueEntrant, { seed: null }, JSON.stringify(reseeded.errors));
  t.notOk((await asAda(`mutation($l: ID!) { joinLeague(leagueId: $l) { status } }`, { l: league.id })).errors);
  gqlError(t, await gql(bob)(`mutation($l: ID!, $p: ID!) { removeLeagueEntrant(leagueId: $l, playerId: $p) }`, { l: league.id, p: cy.id }), 'forbidden', 'a player removes another');
  t.notOk((await asAda(`mutation($l: ID!, $p: ID!) { addLeagueEntrant(leagueId: $l, playerId: $p) { status } }`, { l: league.id, p: eve.id })).errors);
  const removedEve = await asAda(`mutation($l: ID!, $p: ID!) { removeLeagueEntrant(leagueId: $l, playerId: $p) }`, { l: league.id, p: eve.id });
  t.same(removedEve.data, { removeLeagueEntrant: true }, JSON.stringify(removedEve.errors));

  gqlError(t, await gql(bob)(`mutation($l: ID!) { startLeague(leagueId: $l) { status } }`, { l: league.id }), 'forbidden', 'a player starts');
  const started = await asAda(`mutation($l: ID!) { startLeague(leagueId: $l) { status roundCount } }`, { l: league.id });
  t.equal(started.data?.startLeague.status, 'running', JSON.stringify(started.errors));
  const PAIRING = 'id board first { id } second { id } gameId result source';
  const draft = await asAda(`mutation($l: ID!) { generateRound(leagueId: $l) { number status stage pairings { ${PAIRING} } } }`, { l: league.id });
  t.match(draft.data?.generateRound, { number: 1, status: 'draft', stage: 'round_robin' }, JSON.stringify(draft.errors));
  const [d1] = draft.data!.generateRound.pairings;
  const edited = await asAda(`mutation($l: ID!, $e: [PairingEditInput!]!) { editPairings(leagueId: $l, round: 1, edits: $e) { pairings { ${PAIRING} } } }`, {
    l: league.id,
    e: [{ op: 'swap', a: d1.first.id, b: d1.second.id, player: null }],
  });
  t.notOk(edited.errors, JSON.stringify(edited.errors));
  gqlError(t, await gql(bob)(`mutation($l: ID!) { publishRound(leagueId: $l, round: 1) { status } }`, { l: league.id }), 'forbidden', 'a player publishes');

  const seats = subscribe(connect(dee.key!), 'subscription { mySeats { gameId role leagueId round board } }');
  // Published only once the subscription is live: a published round's notice is not replayed.
  await within(
    (async () => {
      while (seats.results.length === 0) {
        await app.bus.publish(playerChannel(dee.id), { type: 'seated', gameId: MISSING, role: 'York', leagueId: MISSING, round: 99, board: 1 });
        await new Promise((r) => setTimeout(r, 50));
      }
    })(),
    'the subscription to start',
  );
  const published = await asAda(`mutation($l: ID!) { publishRound(leagueId: $l, round: 1) { status pairings { ${PAIRING} } } }`, { l: league.id });
  t.equal(published.data?.publishRound.status, 'published', JSON.stringify(published.errors));
  const deesBoard = published.data!.publishRound.pairings.find((p: PairingBody) => p.first.id === dee.id || p.second?.id === dee.id);
  const notice = await seats.until((r) => r.data?.mySeats.leagueId === league.id, 'Dee is seated');
  t.match(notice.data!.mySeats, { gameId: deesBoard.gameId, leagueId: league.id, round: 1, board: deesBoard.board });
  gqlError(t, await asAda(`mutation($l: ID!) { deleteDraftRound(leagueId: $l, round: 1) }`, { l: league.id }), 'round_published', 'deleting a published round');

  const boards = published.data!.publishRound.pairings as PairingBody[];
  const set = await asAda(`mutation($l: ID!, $p: ID!) { setResult(leagueId: $l, pairingId: $p, result: forfeit_first, reason: "No show") { result source } }`, { l: league.id, p: boards[0]!.id });
  t.same(set.data?.setResult, { result: 'forfeit_first', source: 'organiser' }, JSON.stringify(set.errors));
  const cleared = await asAda(`mutation($l: ID!, $p: ID!) { setResult(leagueId: $l, pairingId: $p, result: null, reason: "Wrong board") { result } }`, { l: league.id, p: boards[0]!.id });
  t.same(cleared.data?.setResult, { result: null }, JSON.stringify(cleared.errors));
  t.notOk((await asAda(`mutation($l: ID!, $p: ID!) { setResult(leagueId: $l, pairingId: $p, result: draw, reason: "Agreed") { result } }`, { l: league.id, p: boards[1]!.id })).errors);

  const changes = await asAda(`query($l: ID!) { leagueResultChanges(leagueId: $l) { pairingId kind before after reason by { id } } }`, { l: league.id });
  t.ok(changes.data?.leagueResultChanges.some((c: { before: string | null; after: string | null }) => c.before === 'forfeit_first' && c.after === null), JSON.stringify(changes));

  const round = await gql(null)(`query($l: ID!) { leagueRound(leagueId: $l, number: 1) { number status pairings { result } } }`, { l: league.id });
  t.match(round.data?.leagueRound, { number: 1, status: 'published' }, JSON.stringify(round.errors));
  t.same((await gql(null)(`query($l: ID!) { leagueRound(leagueId: $l, number: 5) { number } }`, { l: league.id })).data, { leagueRound: null }, 'no such round: null');

  const standings = await gql(null)(
    `query($l: ID!) { leagueStandings(leagueId: $l) { rounds roles { first second } tieBreaks standings { rank player { name } points tieBreaks { name value } perSide { role played won drawn lost } } } }`,
    { l: league.id },
  );
  t.notOk(standings.errors, JSON.stringify(standings.errors));
  const st = standings.data!.leagueStandings;
  t.same(st.tieBreaks, ['sonneborn_berger', 'wins']);
  t.equal(st.standings.length, 4);
  for (const row of st.standings) {
    t.same(row.tieBreaks.map((x: { name: string }) => x.name), ['sonneborn_berger', 'wins'], 'tie-break values as a list, in the league order');
    t.same(row.perSide.map((x: { role: string }) => x.role), ['York', 'Lancaster'], 'per side, in seat order');
  }
  const nested = await gql(null)(
    `query($l: ID!) { league(id: $l) { id entrants { player { id } status } rounds { number pairings { board } } standings(round: 1) { rounds } } }`,
    { l: league.id },
  );
  t.notOk(nested.errors, JSON.stringify(nested.errors));
  t.equal(nested.data!.league.entrants.length, 4);
  t.equal(nested.data!.league.rounds.length, 1);
  const second = await asAda(`mutation($l: ID!) { generateRound(leagueId: $l) { number status } }`, { l: league.id });
  t.same(second.errors?.map((e) => e.extensions?.code), ['round_in_progress'], 'round 1 is still open');
  const out = await gql(cy)(`mutation($l: ID!) { withdrawFromLeague(leagueId: $l) { status player { id } } }`, { l: league.id });
  t.same(out.data, { withdrawFromLeague: { status: 'withdrawn', player: { id: cy.id } } }, JSON.stringify(out.errors));
  const listed = await gql(ada)(`{ leagues(filter: { organiserId: "${ada.id}", status: running }, first: 50) { nodes { id format } nextCursor } }`);
  t.ok(listed.data?.leagues.nodes.some((l: { id: string; format: string }) => l.id === league.id && l.format === 'round_robin'), JSON.stringify(listed));
});

t.test('GraphQL: a report confirmed by the opponent, and a draft round thrown away', async (t) => {
  const asAda = gql(ada);
  const created = await asAda(`mutation { createLeague(input: { name: "Pub league", gameType: "richard-iii", format: double_round_robin, play: elsewhere, autoPair: false }) { id } }`);
  const id = created.data?.createLeague.id as string;
  t.ok(id, JSON.stringify(created.errors));
  for (const p of [bob, cy]) t.notOk((await gql(p)(`mutation($l: ID!) { joinLeague(leagueId: $l) { status } }`, { l: id })).errors);
  t.notOk((await asAda(`mutation($l: ID!) { startLeague(leagueId: $l) { status } }`, { l: id })).errors);
  const draft = await asAda(`mutation($l: ID!) { generateRound(leagueId: $l) { number status } }`, { l: id });
  t.same(draft.data?.generateRound, { number: 1, status: 'draft' }, JSON.stringify(draft.errors));
  gqlError(t, await gql(bob)(`mutation($l: ID!) { deleteDraftRound(leagueId: $l, round: 1) }`, { l: id }), 'forbidden', 'a player deletes a draft');
  t.same((await asAda(`mutation($l: ID!) { deleteDraftRound(leagueId: $l, round: 1) }`, { l: id })).data, { deleteDraftRound: true });
  t.same((await gql(null)(`query($l: ID!) { leagueRound(leagueId: $l, number: 1) { number } }`, { l: id })).data, { leagueRound: null }, 'gone');
  t.notOk((await asAda(`mutation($l: ID!) { generateRound(leagueId: $l) { number } }`, { l: id })).errors, 'paired again');
  const published = await asAda(`mutation($l: ID!) { publishRound(leagueId: $l, round: 1) { pairings { id gameId first { id } second { id } } } }`, { l: id });
  const board = published.data?.publishRound.pairings[0];
  t.equal(board?.gameId, null, JSON.stringify(published.errors));
  const [reporter, opponent] = board.first.id === bob.id ? [bob, cy] : [cy, bob];
  const reported = await gql(reporter)(`mutation($l: ID!, $p: ID!) { reportResult(leagueId: $l, pairingId: $p, result: second) { result report { by result } } }`, { l: id, p: board.id });
  t.same(reported.data?.reportResult, { result: null, report: { by: reporter.id, result: 'second' } }, JSON.stringify(reported.errors));
  const confirmed = await gql(opponent)(`mutation($l: ID!, $p: ID!) { confirmResult(leagueId: $l, pairingId: $p) { result source report { by } } }`, { l: id, p: board.id });
  t.same(confirmed.data?.confirmResult, { result: 'second', source: 'reported', report: null }, JSON.stringify(confirmed.errors));
  gqlError(t, await gql(reporter)(`mutation($l: ID!, $p: ID!) { reportResult(leagueId: $l, pairingId: $p, result: draw) { result } }`, { l: id, p: board.id }), 'result_recorded', 'reporting again');
  const mine = await gql(opponent)(`query($l: ID!, $p: ID!) { leagueResultChanges(leagueId: $l, pairingId: $p) { kind after by { id } } }`, { l: id, p: board.id });
  t.ok(mine.data?.leagueResultChanges.some((c: { after: string | null }) => c.after === 'second'), JSON.stringify(mine));
});

t.test('GraphQL: a page of 10 leagues with their entrants, rounds, pairings and standings fits the depth and cost limits', async (t) => {
  const r = await gql(null)(`{ leagues(first: 10) { nodes { id entrants { player { name } } rounds { number pairings { board first { name } second { name } result } }
    standings { standings { rank player { name } tieBreaks { name value } perSide { role won } } } } nextCursor } }`);
  t.notOk(r.errors, JSON.stringify(r.errors));
  t.ok(r.data!.leagues.nodes.length >= 2, 'public leagues of the tests above');
  const deep = await gql(null)(`{ leagues(first: 100) { nodes { rounds { pairings { first { name } } } standings { standings { perSide { role won } } } } } }`);
  t.match(deep.errors, [{ extensions: { code: 'query_too_complex', measure: 'complexity' } }], 'a page of 100 with every nested list is refused before it runs');
});
