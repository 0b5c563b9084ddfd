// The bodies of the game lifecycle routes that take no fields (start, abort, rematch) are
// checked as the seat steps' are (join, leave, resign): an unknown field is 400 invalid_request
// naming it in `fields`, and nothing changes; {} or no body is taken. Found by probing: they
// were ignored. (GraphQL's mutations take arguments its schema checks.)
import t from 'tap';
import { restApp, signup } from './rest-helpers.ts';

const app = await restApp(t);
const alice = await signup(app, 'Alice');
const bob = await signup(app, 'Bob');

async function game(autoStart: boolean): Promise<string> {
  const res = await alice.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', roles: ['York'], autoStart });
  const id = res.json().id as string;
  const joined = await bob.req('POST', `/games/${id}/join`, {});
  if (joined.statusCode !== 200) throw new Error(`join: ${joined.statusCode} ${joined.body}`);
  return id;
}

t.test('start, abort and rematch: an unknown body field is 400 invalid_request naming it; nothing changes', async (t) => {
  const setup = await game(false);
  const over = await game(true);
  t.equal((await alice.req('POST', `/games/${over}/resign`, {})).statusCode, 200);
  const version = async (id: string) => (await alice.req('GET', `/games/${id}`)).json().version as number;
  for (const [url, id] of [[`/games/${setup}/start`, setup], [`/games/${setup}/abort`, setup], [`/games/${over}/rematch`, over]] as const) {
    const before = await version(id);
    for (const payload of [{ force: true }, { role: 'York', extra: 1 }]) {
      const res = await alice.req('POST', url, payload);
      t.equal(res.statusCode, 400, `${url} ${JSON.stringify(payload)}: 400 (got ${res.statusCode} ${res.body.slice(0, 160)})`);
      t.match(res.json(), { code: 'invalid_request', fields: Array }, 'invalid_request with fields');
      t.ok(Object.keys(payload).every((k) => res.json().fields.includes(k)), `fields names ${Object.keys(payload).join(', ')}`);
    }
    t.equal(await version(id), before, `${url}: nothing changed`);
  }
  t.equal((await alice.req('POST', `/games/${over}/rematch`)).statusCode, 200, 'rematch without a body');
  t.equal((await alice.req('POST', `/games/${setup}/start`, {})).statusCode, 200, 'start with {}');
  const other = await game(false);
  t.equal((await alice.req('POST', `/games/${other}/abort`, {})).statusCode, 200, 'abort with {}');
  const leave = await bob.req('POST', `/games/${other}/leave`, { force: true });
  t.match(leave.json(), { code: 'invalid_request', fields: ['force'] }, 'the seat steps name the fields too');
});
