// Decorates the app with the game service (src/service/api.ts) over its store
// and bus: REST routes, GraphQL resolvers and the event delivery all use it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createGameService, type GameServiceApi } from '../../service/api.ts';
import { SETTLE_SWEEP_MS, startSettleSweep } from '../../jobs/settle-sweep.ts';
import { CLOCK_SWEEP_MS, startClockSweep } from '../../jobs/clock-sweep.ts';
import { ROUND_SWEEP_MS, startRoundSweep } from '../../jobs/round-sweep.ts';
import { WEBHOOK_PRUNE_MS, WEBHOOK_SWEEP_MS, startWebhookDeliveries, startWebhookPruning } from '../../jobs/webhook-deliveries.ts';
import type { WebhookOptions } from '../../service/webhooks.ts';
import type { GameModule } from '../../engine/types.ts';
import { createAiPool, DEFAULT_AI_QUEUE, DEFAULT_AI_TIME_CAP_MS, DEFAULT_AI_WORKERS } from '../../service/ai-pool.ts';
import { AI_SWEEP_MS, startAiMoves } from '../../jobs/ai-moves.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gameService: GameServiceApi;
  }
}

export interface GameServicePluginOptions {
  adminToken: string | null;
  openSignup: boolean;
  /** HERALD_VACATION_DAYS: the yearly vacation allowance. */
  vacationDays?: number;
  /** HERALD_REMINDER_PERCENT: the share-used reminder's share of a turn, in percent. */
  reminderSharePercent?: number;
  /** How often games left unsettled are settled (jobs/settle-sweep.ts; default 60 s). */
  settleSweepMs?: number;
  /** How often due timeouts are fired (jobs/clock-sweep.ts; default 5 s). */
  clockSweepMs?: number;
  /** How often league rounds due on a schedule are started (jobs/round-sweep.ts; default 15 s). */
  roundSweepMs?: number;
  /** The service's clock (GameServiceOptions.now); tests move time with it. */
  now?: () => number;
  /** How often due webhook messages are looked for (jobs/webhook-deliveries.ts; default 1 s). */
  webhookSweepMs?: number;
  /** How often finished webhook messages past their retention are deleted (default 1 h). */
  webhookPruneMs?: number;
  /** HERALD_JOBS: false leaves the sweeps and webhook deliveries to other instances (default true). */
  jobs?: boolean;
  /** Webhook settings (HERALD_WEBHOOK_ALLOW_PRIVATE, HERALD_PUBLIC_URL; tests: a short retry schedule). */
  webhooks?: Partial<WebhookOptions>;
  /** The game modules by id (default: src/games/index.ts). */
  games?: Record<string, GameModule>;
  /** The data files of the games that need one (Config.gameDataFiles, e.g. HERALD_BLACK_AND_WHITE_DATA). */
  gameDataFiles?: Record<string, string | null>;
  /** The AI's worker pool (Config.ai: HERALD_AI_WORKERS, HERALD_AI_QUEUE, HERALD_AI_TIME_CAP_MS). */
  ai?: { workers: number; queue: number; timeCapMs: number };
  /** How often games where an AI seat is to act are looked for (jobs/ai-moves.ts; default 5 s). */
  aiSweepMs?: number;
  /** Another AI worker module (tests). */
  aiWorker?: { filename: string; workerData?: Record<string, unknown> };
}

async function gameService(app: FastifyInstance, opts: GameServicePluginOptions): Promise<void> {
  // The AI thinks on worker threads, on the instances that run the jobs (its moves are made by one).
  const ai = opts.ai ?? { workers: DEFAULT_AI_WORKERS, queue: DEFAULT_AI_QUEUE, timeCapMs: DEFAULT_AI_TIME_CAP_MS };
  const aiPool = opts.jobs === false ? null : createAiPool({
    ...ai,
    ...(opts.gameDataFiles ? { gameDataFiles: opts.gameDataFiles } : {}),
    ...(opts.aiWorker ? { filename: opts.aiWorker.filename, ...(opts.aiWorker.workerData ? { workerData: opts.aiWorker.workerData } : {}) } : {}),
  });
  // A warm pool starts its thread once the server listens: loading the games there does not delay readiness.
  if (aiPool) app.addHook('onListen', () => aiPool.warm());
  const service = createGameService({
    ...(aiPool ? { aiPool } : {}),
    store: app.store,
    bus: app.bus,
    adminToken: opts.adminToken,
    openSignup: opts.openSignup,
    ...(opts.vacationDays !== undefined ? { vacationDays: opts.vacationDays } : {}),
    ...(opts.reminderSharePercent !== undefined ? { reminders: { shareUsed: opts.reminderSharePercent / 100 } } : {}),
    log: app.log,
    ...(opts.gameDataFiles ? { gameDataFiles: opts.gameDataFiles } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.games ? { games: opts.games } : {}),
    ...(opts.webhooks ? { webhooks: opts.webhooks } : {}),
  });
  app.decorate('gameService', service);
  // An API-only instance (HERALD_JOBS=false): the jobs below run on others. Each of them claims its
  // work through Postgres, so any number of instances may run them; at least one must.
  if (opts.jobs === false) {
    app.log.info('background jobs off on this instance (HERALD_JOBS=false)');
    return;
  }
  // Games a crash left unsettled: now, then every minute. Stopped (and a run in progress
  // awaited) before the store closes: onClose hooks run last-registered first.
  const sweep = startSettleSweep({ sweep: () => service.sweepUnsettled(), intervalMs: opts.settleSweepMs ?? SETTLE_SWEEP_MS, log: app.log });
  app.addHook('onClose', () => sweep.stop());
  // Timeouts that came due (also while every instance was down): now, then every few seconds.
  const clockSweep = startClockSweep({ sweep: () => service.sweepClocks(), remind: () => service.sweepReminders(), intervalMs: opts.clockSweepMs ?? CLOCK_SWEEP_MS, log: app.log });
  app.addHook('onClose', () => clockSweep.stop());
  // League rounds due on their schedule (also those that came due while every instance was down).
  const roundSweep = startRoundSweep({ sweep: () => service.sweepRounds(), intervalMs: opts.roundSweepMs ?? ROUND_SWEEP_MS, log: app.log });
  app.addHook('onClose', () => roundSweep.stop());
  // Webhook messages that are due (the outbox): now, then every second.
  const deliveries = startWebhookDeliveries({ deliver: (stopping) => service.deliverWebhooksJob(stopping), signal: service.webhookSignal, intervalMs: opts.webhookSweepMs ?? WEBHOOK_SWEEP_MS, log: app.log });
  app.addHook('onClose', () => deliveries.stop());
  // Finished webhook messages past their retention (HERALD_WEBHOOK_RETENTION_DAYS): now, then hourly.
  const pruning = startWebhookPruning({ prune: () => service.pruneWebhooks(), intervalMs: opts.webhookPruneMs ?? WEBHOOK_PRUNE_MS, log: app.log });
  app.addHook('onClose', () => pruning.stop());
  // The AI seats' moves: on each AI player's "your turn", and a sweep (now, then every few seconds).
  const aiMoves = startAiMoves({
    play: (gameId) => service.playAiTurn(gameId),
    pending: () => service.pendingAiGames(),
    subscribe: (onTurn) => service.onAiTurn(onTurn),
    concurrency: ai.workers + 1,
    intervalMs: opts.aiSweepMs ?? AI_SWEEP_MS,
    log: app.log,
  });
  app.addHook('onClose', async () => {
    // No new moves; the threads stop (a decision in progress is dropped: the sweep after a restart makes it).
    const stopped = aiMoves.stop();
    await aiPool!.close();
    await stopped;
  });
}

export default fp(gameService, { name: 'herald-game-service', dependencies: ['herald-services'] });
