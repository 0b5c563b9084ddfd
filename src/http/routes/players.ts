// Player profiles, rating history and leaderboards: public reads (a key is optional; with one,
// the caller's own private games and unlisted leagues show). Thin adapters over the service.
import type { FastifyInstance } from 'fastify';
import { bool, int, query, str } from './query.ts';

type PlayerParams = { Params: { playerId: string } };
type HistoryParams = { Params: { playerId: string; gameType: string } };
type GameTypeParams = { Params: { gameType: string } };

function page(q: ReturnType<typeof query>): { cursor?: string; limit?: number } {
  const cursor = str(q, 'cursor');
  const limit = int(q, 'limit');
  return { ...(cursor !== undefined ? { cursor } : {}), ...(limit !== undefined ? { limit } : {}) };
}

export default async function playerRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  app.get<PlayerParams>('/players/:playerId', async (request) => svc.getPlayerProfile(request.caller, request.params.playerId));

  app.get<HistoryParams>('/players/:playerId/ratings/:gameType', async (request) =>
    svc.getRatingHistory(request.caller, request.params.playerId, request.params.gameType, page(query(request))),
  );

  app.get<GameTypeParams>('/game-types/:gameType/leaderboard', async (request) => {
    const q = query(request);
    const includeProvisional = bool(q, 'includeProvisional');
    return svc.getLeaderboard(request.params.gameType, { ...page(q), ...(includeProvisional !== undefined ? { includeProvisional } : {}) });
  });
}
