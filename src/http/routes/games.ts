// Game routes: create, list, read, the lifecycle (join, leave, invites, start,
// resign, claim-timeout, abort), views, legal actions, THE action write path, the per-seat
// log, and records (export/import). Thin adapters over the game service.
import type { FastifyInstance } from 'fastify';
import { requireCaller } from '../plugins/auth.ts';
import { gameDataIndex } from '../game-data.ts';
import { PICTURE_FORMATS, ServiceError, type CreateGameInput, type GameFilter, type ImportInput, type JoinInput, type SubmitActionInput } from '../../service/api.ts';
import { body, bool, int, language, onlyFields, query, str, type IdParams } from './query.ts';

type P = { Params: IdParams };

// Bodies whose unknown fields are refused, not ignored: a misspelt field silently dropped did
// the wrong thing (found probing: {"visibilty": "private"} created a public game; an action with
// a misspelt expectedVersion was applied without the version check).
const CREATE_GAME_FIELDS = ['gameType', 'scenario', 'options', 'seed', 'visibility', 'roles', 'ai', 'autoStart', 'rated', 'timeControl'];
const SUBMIT_ACTION_FIELDS = ['role', 'action', 'actionId', 'expectedVersion', 'idempotencyKey'];

function checkedBody(request: Parameters<typeof body>[0], allowed: readonly string[]): Record<string, unknown> {
  const b = body(request);
  onlyFields(b, allowed);
  return b;
}

/** A seat step's body ({role}, join's inviteCode): an unknown field is refused, not ignored (a misspelt role would act for the wrong seat). */
function seatBody(request: Parameters<typeof body>[0], allowed: readonly string[] = ['role']): Record<string, unknown> {
  return checkedBody(request, allowed);
}

export default async function gameRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  // Each with the URLs of its data files (routes/game-data.ts).
  // A type that is not playable has no module, so no data files: data is null.
  app.get('/game-types', async () => svc.listGameTypes().map((t) => ({ ...t, data: t.playable ? gameDataIndex(svc.getGameData(t.id)) : null })));

  app.post('/games', async (request, reply) => {
    const game = await svc.createGame(requireCaller(request), checkedBody(request, CREATE_GAME_FIELDS) as unknown as CreateGameInput);
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
    const game = await svc.importGame(requireCaller(request), checkedBody(request, ['record', 'visibility']) as unknown as ImportInput);
    return reply.code(201).header('location', `/games/${game.id}`).send(game);
  });

  app.get<P>('/games/:gameId', async (request) => svc.getGame(request.caller, request.params.gameId));

  app.post<P>('/games/:gameId/join', async (request) => svc.join(requireCaller(request), request.params.gameId, seatBody(request, ['role', 'inviteCode']) as JoinInput));

  app.post<P>('/games/:gameId/leave', async (request) => svc.leave(requireCaller(request), request.params.gameId, seatBody(request)));

  app.post<P>('/games/:gameId/invites', async (request, reply) => {
    const invite = await svc.createInvite(requireCaller(request), request.params.gameId, checkedBody(request, ['role']) as { role: string });
    return reply.code(201).send(invite);
  });

  app.post<P>('/games/:gameId/start', async (request) => {
    // No body fields: an unknown one is refused, as for the seat steps.
    const caller = requireCaller(request);
    seatBody(request, []);
    return svc.start(caller, request.params.gameId);
  });

  app.post<P>('/games/:gameId/resign', async (request) => svc.resign(requireCaller(request), request.params.gameId, seatBody(request)));

  // A win on time under onTimeout claim (service/clocks.ts claimTimeout): a seat action like resign.
  app.post<P>('/games/:gameId/claim-timeout', async (request) => svc.claimTimeout(requireCaller(request), request.params.gameId, seatBody(request)));

  app.post<P>('/games/:gameId/abort', async (request) => {
    // No body fields: an unknown one is refused, as for the seat steps.
    const caller = requireCaller(request);
    seatBody(request, []);
    return svc.abort(caller, request.params.gameId);
  });

  // Same players, sides swapped, same options (service/lifecycle.ts rematch); asked again, the same game.
  app.post<P>('/games/:gameId/rematch', async (request) => {
    // No body fields: an unknown one is refused, as for the seat steps.
    const caller = requireCaller(request);
    seatBody(request, []);
    return svc.rematch(caller, request.params.gameId);
  });

  app.get<P>('/games/:gameId/view', async (request) => {
    const q = query(request);
    const role = str(q, 'role');
    const version = int(q, 'version');
    return svc.getView(request.caller, request.params.gameId, { ...(role !== undefined ? { role } : {}), ...(version !== undefined ? { version } : {}) });
  });

  // Board pictures: the seat's (or the spectator's, role=spectator) board as SVG or PNG.
  for (const format of PICTURE_FORMATS) {
    app.get<P>(`/games/:gameId/board.${format}`, async (request, reply) => {
      const q = query(request);
      const role = str(q, 'role');
      const version = int(q, 'version');
      const lang = str(q, 'lang');
      const accept = request.headers['accept-language'];
      const pic = await svc.getBoardPicture(request.caller, request.params.gameId, {
        format,
        ...(role !== undefined ? { role } : {}),
        ...(version !== undefined ? { version } : {}),
        ...(lang !== undefined ? { lang } : {}),
        ...(typeof accept === 'string' ? { acceptLanguage: accept } : {}),
      });
      return reply
        .header('content-type', pic.contentType)
        .header('content-language', pic.lang)
        .header('vary', 'Accept-Language, Authorization')
        // A named version never changes; the current one does with the next move.
        .header('cache-control', version !== undefined ? 'private, max-age=86400, immutable' : 'private, no-cache')
        .header('x-game-version', String(pic.version))
        .send(pic.body);
    });
  }

  app.get<P>('/games/:gameId/actions', async (request) => {
    const q = query(request);
    const role = str(q, 'role');
    const group = str(q, 'group');
    if (group !== undefined && group !== 'tree') throw new ServiceError('invalid_request', 'group must be "tree" (or left out).');
    return svc.getLegalActions(requireCaller(request), request.params.gameId, {
      ...(role !== undefined ? { role } : {}), lang: language(request, q), ...(group === 'tree' ? { group } : {}),
    });
  });

  app.post<P>('/games/:gameId/actions', async (request, reply) => {
    const b = checkedBody(request, SUBMIT_ACTION_FIELDS) as SubmitActionInput;
    // A string: Node joins a repeated header's values (only set-cookie is a list), and the input
    // guard refuses Idempotency-Key sent twice before any handler.
    const header = request.headers['idempotency-key'] as string | undefined;
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
    const q = query(request);
    const role = str(q, 'role');
    return svc.getLog(request.caller, request.params.gameId, { ...(role !== undefined ? { role } : {}), lang: language(request, q) });
  });

  app.get<P>('/games/:gameId/export', async (request) => svc.exportGame(requireCaller(request), request.params.gameId));
}
