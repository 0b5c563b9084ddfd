// The Fastify application factory, used by src/main.ts and by the tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_STREAMS_PER_KEY, type Config } from '../config.ts';
import { createMemoryBus, createRedisBus, type Bus } from '../bus/index.ts';
import { openStore, type Store } from '../store/store.ts';
import { projectRoot } from '../paths.ts';
import errors, { clientErrors, frameworkErrors } from './plugins/errors.ts';
import graceful, { closingAwareResponse, type ClosingFlag } from './plugins/graceful.ts';
import services from './plugins/services.ts';
import health from './plugins/health.ts';
import openapi from './plugins/openapi.ts';
import graphql from './plugins/graphql.ts';
import home from './plugins/home.ts';
import gameService from './plugins/service.ts';
import auth from './plugins/auth.ts';
import inputGuard from './plugins/input-guard.ts';
import cors from './plugins/cors.ts';
import accountRoutes from './routes/accounts.ts';
import gameRoutes from './routes/games.ts';
import gameDataRoutes from './routes/game-data.ts';
import pageRoutes from './routes/pages.ts';
import playerRoutes from './routes/players.ts';
import webhookRoutes from './routes/webhooks.ts';
import leagueRoutes from './routes/leagues.ts';
import metrics from './plugins/metrics.ts';
import rateLimit from './plugins/rate-limit.ts';
import notify from '../notify/plugin.ts';
import type { GameModule } from '../engine/types.ts';
import eventRoutes from './routes/events.ts';
import { collectRoutes } from './routes.ts';
import { subscriptionRefusals } from './graphql/errors.ts';
import { StreamSlots } from './stream-slots.ts';
import { KeyStreams } from './key-streams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live streams (SSE and GraphQL subscriptions) per key or IP on this instance (stream-slots.ts). */
    streamSlots: StreamSlots;
    /** GraphQL WebSocket connections per key or IP on this instance (graphql/ws-sockets.ts). */
    webSocketSlots: StreamSlots;
    /** Live streams by API key, ended when their key is revoked (key-streams.ts). */
    keyStreams: KeyStreams;
  }
}

export interface AppServices {
  /** Write the log here instead of standard output (tests read it). */
  logStream?: NodeJS.WritableStream;
  /** Use this store instead of opening one from config (the caller closes it). */
  store?: Store;
  /** Use this bus instead of creating one from config (the caller closes it). */
  bus?: Bus;
  /** The service's clock (default Date.now): tests move time forward with it. */
  now?: () => number;
  /** How often due timeouts are fired (default 5 s). */
  clockSweepMs?: number;
  /** How often league rounds due on a schedule are started (default 15 s). */
  roundSweepMs?: number;
  /** How often due webhook messages are looked for (default 1 s). */
  webhookSweepMs?: number;
  /** How often finished webhook messages past their retention are deleted (default 1 h). */
  webhookPruneMs?: number;
  /** Webhook delivery settings beyond the configuration's (tests: a short retry schedule). */
  webhooks?: { retrySchedule?: readonly number[]; perEndpoint?: number; maxInFlight?: number; timeoutMs?: number };
  /** The game modules by id (default: src/games/index.ts); tests add a test-only game type. */
  games?: Record<string, GameModule>;
  /** How often games where an AI seat is to act are looked for (default 5 s). */
  aiSweepMs?: number;
  /** Another AI worker module and its workerData (tests: one that waits for a signal). */
  aiWorker?: { filename: string; workerData?: Record<string, unknown> };
  /** How long a new GraphQL WebSocket may wait before its connection_init (default 10 s). */
  connectionInitWaitMs?: number;
}

const version = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

export function createBus(config: Pick<Config, 'redisUrl' | 'busPrefix'>, app: FastifyInstance): Bus {
  const onHandlerError = (err: unknown) => app.log.error({ err }, 'bus subscriber failed');
  if (config.redisUrl === null) return createMemoryBus({ onHandlerError });
  return createRedisBus({
    url: config.redisUrl,
    prefix: config.busPrefix,
    onHandlerError,
    onConnectionError: (err, connection) => app.log.warn({ connection, error: err.message }, 'redis connection lost or unreachable'),
    onReconnected: (connection) => app.log.info({ connection }, 'redis connection restored'),
  });
}

/**
 * Builds the app: opens the store (embedded Postgres when config.databaseUrl is
 * null; migrations applied) and the bus unless given, and registers the plugins.
 * Rejects with a StartupError when the database cannot be used.
 */
export async function buildApp(config: Config, given: AppServices = {}): Promise<FastifyInstance> {
  const closing: ClosingFlag = { closing: false };
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(given.logStream ? { stream: given.logStream } : {}),
      hooks: {
        // A GraphQL subscription refused at its start (forbidden, not found, bad arguments) is a
        // client error, logged as REST's refusals are (info), not at error level as Mercurius
        // logs it; a real fault among the errors keeps its level (graphql/errors.ts).
        logMethod(args, method, level) {
          const refused = level === 50 ? subscriptionRefusals(args[0]) : null;
          if (refused) return this.info({ refused }, 'graphql subscription refused');
          return method.apply(this, args);
        },
      },
    },
    // Responses sent while the app closes say `Connection: close` (plugins/graceful.ts).
    http: { ServerResponse: closingAwareResponse(closing) },
    // Give in-flight requests time to finish on close; refuse new ones with 503.
    return503OnClosing: true,
    // Errors before routing (a badly percent-encoded URL) are problem documents as well.
    frameworkErrors,
    // And so are requests Node's HTTP parser refuses (headers too large, malformed framing).
    clientErrorHandler: clientErrors,
    // Behind a reverse proxy: request.ip (rate limits per IP, request logs) is the client's, from X-Forwarded-For.
    trustProxy: config.trustProxy,
  });
  collectRoutes(app);

  let store: Store | undefined = given.store;
  let bus: Bus | undefined = given.bus;
  try {
    store ??= await openStore(config, app.log);
    bus ??= createBus(config, app);
    await app.register(graceful, { flag: closing });
    await app.register(errors);
    await app.register(services, { store, bus, owned: { store: !given.store, bus: !given.bus } });
    // First of the onRequest hooks: every answer after it carries the CORS headers (errors, 429s, streams).
    await app.register(cors, { origins: config.corsOrigins === undefined ? '*' : config.corsOrigins });
    // Before everything they measure or limit (rate limits run before authentication).
    await app.register(metrics);
    await app.register(rateLimit, { limits: config.rateLimit, redisUrl: config.redisUrl, prefix: config.busPrefix });
    await app.register(gameService, {
      adminToken: config.adminToken,
      openSignup: config.openSignup,
      vacationDays: config.vacationDays,
      ...(config.gameDataFiles ? { gameDataFiles: config.gameDataFiles } : {}),
      ...(config.jobs === false ? { jobs: false } : {}),
      ...(config.reminderSharePercent !== undefined ? { reminderSharePercent: config.reminderSharePercent } : {}),
      ...(given.now ? { now: given.now } : {}),
      ...(given.games ? { games: given.games } : {}),
      ...(given.clockSweepMs !== undefined ? { clockSweepMs: given.clockSweepMs } : {}),
      ...(given.roundSweepMs !== undefined ? { roundSweepMs: given.roundSweepMs } : {}),
      ...(given.webhookSweepMs !== undefined ? { webhookSweepMs: given.webhookSweepMs } : {}),
      ...(given.webhookPruneMs !== undefined ? { webhookPruneMs: given.webhookPruneMs } : {}),
      ...(config.ai ? { ai: config.ai } : {}),
      ...(given.aiSweepMs !== undefined ? { aiSweepMs: given.aiSweepMs } : {}),
      ...(given.aiWorker ? { aiWorker: given.aiWorker } : {}),
      webhooks: { allowPrivate: config.webhookAllowPrivate, publicUrl: config.publicUrl, retentionMs: config.webhookRetentionDays * 86_400_000, ...(config.webhookMaxEndpoints !== undefined ? { maxEndpoints: config.webhookMaxEndpoints } : {}), ...given.webhooks },
    });
    // Before authentication (which reads X-Act-As) and every route.
    await app.register(inputGuard);
    await app.register(auth);
    await app.register(health);
    await app.register(accountRoutes);
    await app.register(gameRoutes);
    await app.register(gameDataRoutes);
    await app.register(playerRoutes);
    await app.register(leagueRoutes);
    await app.register(webhookRoutes);
    await app.register(pageRoutes);
    await app.register(notify);
    app.decorate('streamSlots', new StreamSlots(config.streamsPerKey ?? DEFAULT_STREAMS_PER_KEY));
    // Counted apart from streams, against the same limit.
    app.decorate('webSocketSlots', new StreamSlots(config.streamsPerKey ?? DEFAULT_STREAMS_PER_KEY));
    const keyStreams = new KeyStreams({ bus, revokedKeys: (ids) => app.gameService.revokedKeys(ids), checkMs: config.sseHeartbeatMs, log: app.log });
    app.decorate('keyStreams', keyStreams);
    // Not awaited: a bus that is down does not hold up the start (the periodic check covers it).
    void keyStreams.start();
    app.addHook('onClose', () => keyStreams.close());
    await app.register(eventRoutes, { heartbeatMs: config.sseHeartbeatMs });
    await app.register(openapi);
    await app.register(graphql, {
      graphiql: config.development,
      version,
      pollMs: config.sseHeartbeatMs,
      ...(given.connectionInitWaitMs !== undefined ? { connectionInitWaitMs: given.connectionInitWaitMs } : {}),
    });
    await app.register(home, { version, graphiql: config.development, gameTypes: app.gameService.listGameTypes() });
    await app.ready();
  } catch (err) {
    // Nothing may be left running when start-up fails.
    if (!given.bus && bus) await bus.close().catch(() => {});
    if (!given.store && store) await store.close().catch(() => {});
    await app.close().catch(() => {});
    throw err;
  }
  app.log.info({ database: store.kind, bus: bus.kind }, 'app ready');
  return app;
}
