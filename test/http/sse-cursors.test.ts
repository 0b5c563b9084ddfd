// One cursor rule on every stream: an empty (or blank) Last-Event-ID header is
// no cursor, as if it were not sent (EventSource never sends one, but proxies
// may), and an empty or blank ?lastEventId= is refused (as any empty query
// parameter), on /games/:id/events, /me/events and /apps/me/events alike; and GraphQL gameEvents refuses a `since` ahead of the game as REST
// refuses such a Last-Event-ID (invalid_request, currentVersion). Real
// Postgres and Redis, real sockets.
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { buildApp } from '../../src/http/app.ts';
import { openTestStore, TEST_REDIS_URL, testConfig } from '../helpers/services.ts';
import { signup, type Client } from './rest-helpers.ts';
import { baseUrl, data, requestNoStream, SseClient } from './sse-helpers.ts';
import { STREAM_FILE_TIMEOUT_MS, within } from '../helpers/streams.ts';
import { createApplication } from './app-helpers.ts';

t.setTimeout(STREAM_FILE_TIMEOUT_MS);
const ADMIN = 'sse-cursors-operator-token-0123';
const { store, databaseUrl } = await openTestStore(t);
const app: FastifyInstance = await buildApp(testConfig({ databaseUrl, redisUrl: TEST_REDIS_URL, adminToken: ADMIN }), { store });
t.teardown(() => app.close());
await app.listen({ port: 0, host: '127.0.0.1' });
const base = baseUrl(app);

const york = await signup(app, 'York');
const lancaster = await signup(app, 'Lancaster');
const bot = await createApplication(app, ADMIN, 'cursor-bot');

async function newGame(): Promise<{ id: string; version: number }> {
  const created = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed: `cursors-${Math.random()}`, roles: ['York'] });
  if (created.statusCode !== 201) throw new Error(created.body);
  const id = created.json().id as string;
  const joined = await lancaster.req('POST', `/games/${id}/join`, {});
  if (joined.statusCode !== 200) throw new Error(joined.body);
  return { id, version: joined.json().version as number };
}

const bearer = (key: string | null): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
const who = (c: Client) => c.key;

t.test('an empty or blank Last-Event-ID is no cursor on every stream', async (t) => {
  const game = await newGame();
  const routes: Array<[string, string | null]> = [
    [`/games/${game.id}/events`, who(york)],
    [`/games/${game.id}/events`, null],
    ['/me/events', who(york)],
    ['/apps/me/events', bot.key],
  ];
  for (const [url, key] of routes) {
    for (const value of ['', '  ']) {
      const s = await SseClient.open(`${base}${url}`, { ...bearer(key), 'last-event-id': value });
      t.equal(s.status, 200, `${url} with Last-Event-ID ${JSON.stringify(value)}`);
      s.close();
      // The query parameter follows every route's rule for query parameters: an empty one is refused.
      const q = await requestNoStream(`${base}${url}?lastEventId=${encodeURIComponent(value)}`, bearer(key));
      t.equal(q.status, 400, `${url} with ?lastEventId=${JSON.stringify(value)}`);
      t.match(q.body, { code: 'invalid_request' });
    }
  }
  // As if not sent: a blank header leaves ?lastEventId= to decide.
  const resumed = await SseClient.open(`${base}/games/${game.id}/events?lastEventId=${game.version - 1}`, { ...bearer(who(york)), 'last-event-id': '' });
  const [first] = await resumed.take(1);
  t.equal(first!.id, String(game.version), 'resumed from ?lastEventId=: the one missed version comes');
  t.equal(data<{ version: number }>(first!).version, game.version);
  resumed.close();
  // A game stream with no cursor starts from the present (nothing replayed).
  const fresh = await SseClient.open(`${base}/games/${game.id}/events`, { ...bearer(who(york)), 'last-event-id': ' ' });
  const [now] = await fresh.take(1);
  t.equal(now!.id, String(game.version));
  fresh.close();
  // Values that are not cursors are still refused, alike.
  for (const url of [`/games/${game.id}/events`, '/me/events']) {
    const r = await requestNoStream(`${base}${url}`, { ...bearer(who(york)), 'last-event-id': 'nonsense' });
    t.equal(r.status, 400, url);
    t.match(r.body, { code: 'invalid_request' });
  }
});

t.test('GraphQL gameEvents refuses a since ahead of the game, as REST refuses such a Last-Event-ID', async (t) => {
  const game = await newGame();
  const ahead = game.version + 5;
  const rest = await requestNoStream(`${base}/games/${game.id}/events`, { ...bearer(who(york)), 'last-event-id': String(ahead) });
  t.equal(rest.status, 400);
  t.match(rest.body, { code: 'invalid_request', currentVersion: game.version });

  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  const c = createClient({ url: `ws://127.0.0.1:${address.port}/graphql`, webSocketImpl: WebSocket, connectionParams: { Authorization: `Bearer ${york.key}` }, retryAttempts: 0, lazy: true });
  t.teardown(() => c.dispose());
  const outcome = (since: number) =>
    within(
      new Promise<{ data?: unknown; error?: unknown }>((resolve) => {
        const stop = c.subscribe(
          { query: 'subscription($id: ID!, $since: Int) { gameEvents(gameId: $id, since: $since) { version } }', variables: { id: game.id, since } },
          {
            next: (r) => {
              stop();
              resolve({ data: r.data });
            },
            error: (error) => resolve({ error }),
            complete: () => {},
          },
        );
      }),
      `gameEvents(since: ${since}) to answer`,
    );
  const refused = await outcome(ahead);
  t.match(refused.error, [{ extensions: { code: 'invalid_request', currentVersion: game.version } }]);
  t.match(refused.error, [{ message: /ahead of the game/ }]);
  // since behind the game still catches up.
  const caught = await outcome(0);
  t.notOk(caught.error);
  t.match(caught.data, { gameEvents: { version: game.version } });
});
