// An event stream given both Authorization and ?access_token= (found by black-box probing): the
// header's key won silently over a different token. Now two different keys are 400
// invalid_request; the same key in both places is one key. Real Postgres.
import t from 'tap';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';
import { signup } from './rest-helpers.ts';

const { store, databaseUrl } = await openTestStore(t);
const app = await buildApp(testConfig({ databaseUrl }), { store });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('not listening');
const url = `http://127.0.0.1:${address.port}/me/events`;
const ada = await signup(app, 'Ada');
const bob = await signup(app, 'Bob');

t.test('Authorization and a different ?access_token=: 400; the same key twice opens the stream', async (t) => {
  const stop = new AbortController();
  const differ = await fetch(`${url}?access_token=${encodeURIComponent(bob.key!)}`, { headers: { authorization: `Bearer ${ada.key}` }, signal: stop.signal });
  t.equal(differ.status, 400);
  // On a 200 (the stream opened) the body never ends: read it only when refused.
  if (differ.status === 400) t.match(await differ.json(), { code: 'invalid_request', detail: /different keys/ });
  stop.abort();
  const same = new AbortController();
  const res = await fetch(`${url}?access_token=${encodeURIComponent(ada.key!)}`, { headers: { authorization: `Bearer ${ada.key}` }, signal: same.signal });
  t.equal(res.status, 200, 'the same key twice');
  same.abort();
  await res.body?.cancel().catch(() => {});
});
