// Decorates the app with the game service (src/service/api.ts) over its store
// and bus: REST routes, GraphQL resolvers and the event delivery all use it.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createGameService, type GameServiceApi } from '../../service/api.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gameService: GameServiceApi;
  }
}

export interface GameServicePluginOptions {
  adminToken: string | null;
  openSignup: boolean;
}

async function gameService(app: FastifyInstance, opts: GameServicePluginOptions): Promise<void> {
  app.decorate(
    'gameService',
    createGameService({
      store: app.store,
      bus: app.bus,
      adminToken: opts.adminToken,
      openSignup: opts.openSignup,
      log: app.log,
    }),
  );
}

export default fp(gameService, { name: 'herald-game-service', dependencies: ['herald-services'] });
