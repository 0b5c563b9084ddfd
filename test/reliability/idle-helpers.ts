// The idle scenario of issue 13, shared by the embedded and the real-Postgres
// test: authenticated requests, then the pool closes its idle connection, then
// authenticated REST, GraphQL and SSE catch-up requests must still succeed.
//
// Why fresh keys after each idle spell: a key checked lately is answered from
// the instance's key cache (10 s) without the database; in production the idle
// spell that broke the embedded store was 15 s, past that cache. A fresh key
// makes the request run the key lookup (a named prepared statement) on the
// pool's new connection, as it did there.
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { signup } from '../http/rest-helpers.ts';
import { baseUrl, SseClient } from '../http/sse-helpers.ts';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once the pool has closed every connection (its idle timeout passed). */
async function untilPoolEmpty(app: FastifyInstance, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (app.store.pool.totalCount > 0) {
    if (Date.now() > deadline) throw new Error(`the pool kept ${app.store.pool.totalCount} connections`);
    await pause(20);
  }
}

export async function idleScenario(t: Test, app: FastifyInstance): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = baseUrl(app);

  const york = await signup(app, 'York');
  const lancaster = await signup(app, 'Lancaster');
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: 'idle', roles: ['York'] });
  t.equal(created.statusCode, 201, created.body);
  const gameId = created.json().id as string;
  t.equal((await lancaster.req('POST', `/games/${gameId}/join`, {})).statusCode, 200, 'joined: the game is at version 2');
  t.equal((await york.req('GET', '/me')).statusCode, 200, 'before idling: GET /me');

  for (const round of [1, 2]) {
    const [rest, gql, sse] = [await signup(app, `Rest ${round}`), await signup(app, `Gql ${round}`), await signup(app, `Sse ${round}`)];
    await untilPoolEmpty(app);

    const me = await rest.req('GET', '/me');
    t.equal(me.statusCode, 200, `round ${round}: REST GET /me after idling (${me.body.slice(0, 200)})`);
    t.equal(me.json().player?.id, rest.id);

    const res = await app.inject({ method: 'POST', url: '/graphql', headers: { authorization: `Bearer ${gql.key}` }, payload: { query: '{ me { id } }' } });
    t.equal(res.statusCode, 200, `round ${round}: GraphQL after idling`);
    t.same(res.json(), { data: { me: { id: gql.id } } }, `round ${round}: GraphQL me, no errors`);

    await untilPoolEmpty(app);
    const stream = await SseClient.open(`${base}/games/${gameId}/events`, { authorization: `Bearer ${sse.key}`, 'last-event-id': '0' }).catch((err: unknown) => err as Error);
    if (stream instanceof Error) {
      t.fail(`round ${round}: SSE catch-up after idling: ${stream.message}`);
    } else {
      try {
        t.same((await stream.take(2)).map((e) => e.id), ['1', '2'], `round ${round}: SSE catch-up replays versions 1 and 2`);
      } finally {
        stream.close();
      }
    }

    const ready = await app.inject('/readyz');
    t.equal(ready.statusCode, 200, `round ${round}: /readyz`);
  }
}
