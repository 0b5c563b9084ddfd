// Game routes: create, list, read, the lifecycle (join, leave, invites, start,
// resign, claim-timeout, abort), views, legal actions, THE action write path, the per-seat
// log, and records (export/import). Thin adapters over the game service.
import type { FastifyInstance } from 'fastify';
import { requireCaller } from '../plugins/auth.ts';
import { ServiceError, type CreateGameInput, type GameFilter, type ImportInput, type JoinInput, type SubmitActionInput } from '../../service/api.ts';
import { body, bool, int, query, str, type IdParams } from './query.ts';

type P = { Params: IdParams };

export default async function gameRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  app.get('/game-types', async () => svc.listGameTypes());

  app.post('/games', async (request, reply) => {
    const game = await svc.createGame(requireCaller(request), body<CreateGameInput>(request) as CreateGameInput);
    return reply.code(201).header('location', `/games/${game.id}`).send(game);
  });

  app.get('/games', async (request) => {
    const q = query(request);
    let playerId = str(q, 'player');
    if (playerId === 'me') playerId = requireCaller(request).playerId;
    const filter: GameFilter = {};
    const status = str(q, 'status');
    if (status !== undefined) filter.status = status as GameFilter['status'];
    const gameType = str(q, 'gameType');
    if (gameType !== undefined) filter.gameType = gameType;
    if (playerId !== undefined) filter.playerId = playerId;
    if (bool(q, 'myTurn')) filter.myTurn = true;
    const cursor = str(q, 'cursor');
    const limit = int(q, 'limit');
    return svc.listGames(request.caller, filter, { ...(cursor !== undefined ? { cursor } : {}), ...(limit !== undefined ? { limit } : {}) });
  });

  app.post('/games/import', async (request, reply) => {
    const game = await svc.importGame(requireCaller(request), body<ImportInput>(request) as ImportInput);
    return reply.code(201).header('location', `/games/${game.id}`).send(game);
  });

  app.get<P>('/games/:gameId', async (request) => svc.getGame(request.caller, request.params.gameId));

  app.post<P>('/games/:gameId/join', async (request) => svc.join(requireCaller(request), request.params.gameId, body<JoinInput>(request)));

  app.post<P>('/games/:gameId/leave', async (request) => svc.leave(requireCaller(request), request.params.gameId, body(request)));

  app.post<P>('/games/:gameId/invites', async (request, reply) => {
    const invite = await svc.createInvite(requireCaller(request), request.params.gameId, body<{ role: string }>(request));
    return reply.code(201).send(invite);
  });

  app.post<P>('/games/:gameId/start', async (request) => svc.start(requireCaller(request), request.params.gameId));

  app.post<P>('/games/:gameId/resign', async (request) => svc.resign(requireCaller(request), request.params.gameId, body(request)));

  // A win on time under onTimeout claim (service/clocks.ts claimTimeout): a seat action like resign.
  app.post<P>('/games/:gameId/claim-timeout', async (request) => svc.claimTimeout(requireCaller(request), request.params.gameId, body(request)));

  app.post<P>('/games/:gameId/abort', async (request) => svc.abort(requireCaller(request), request.params.gameId));

  app.get<P>('/games/:gameId/view', async (request) => {
    const q = query(request);
    const role = str(q, 'role');
    const version = int(q, 'version');
    return svc.getView(request.caller, request.params.gameId, { ...(role !== undefined ? { role } : {}), ...(version !== undefined ? { version } : {}) });
  });

  app.get<P>('/games/:gameId/actions', async (request) => {
    const role = str(query(request), 'role');
    return svc.getLegalActions(requireCaller(request), request.params.gameId, role !== undefined ? { role } : {});
  });

  app.post<P>('/games/:gameId/actions', async (request, reply) => {
    const b = body<SubmitActionInput>(request);
    const header = request.headers['idempotency-key'];
    if (Array.isArray(header)) throw new ServiceError('invalid_request', 'Give one Idempotency-Key.');
    if (b.idempotencyKey !== undefined && header !== undefined && b.idempotencyKey !== header) {
      throw new ServiceError('invalid_request', 'The Idempotency-Key header and idempotencyKey in the body differ.');
    }
    const input: SubmitActionInput = { ...b, ...(header !== undefined ? { idempotencyKey: header } : {}) };
    const result = await svc.submitAction(requireCaller(request), request.params.gameId, input);
    // A retry gets the identical body; the header only says it was a replay.
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    const { replayed: _replayed, ...response } = result;
    return response;
  });

  app.get<P>('/games/:gameId/log', async (request) => {
    const role = str(query(request), 'role');
    return svc.getLog(request.caller, request.params.gameId, role !== undefined ? { role } : {});
  });

  app.get<P>('/games/:gameId/export', async (request) => svc.exportGame(requireCaller(request), request.params.gameId));
}
