// League routes (issue 14): leagues, organisers, entrants, rounds and their
// pairings, results and their audit log, standings (JSON or CSV). Thin
// adapters over the league methods of the game service: they check the shape
// of paths and bodies (unknown fields, wrong types: 400 invalid_request) and
// leave every rule and access check to the service.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireCaller } from '../plugins/auth.ts';
import { ServiceError, type GameServiceApi, type LeagueFilter, type LeagueSettingsInput, type LeagueUpdateInput } from '../../service/api.ts';
import {
  LEAGUE_SETTINGS_FIELDS,
  LEAGUE_STATUSES,
  LEAGUE_UPDATE_FIELDS,
  UUID,
  oneOf,
  pairingEdits,
  pairingResult,
  pathId,
  playerIdField,
  reportableResult,
  requiredString,
  roundNumber,
  seedField,
  string,
} from '../league-input.ts';
import { body, int, onlyFields, query, str } from './query.ts';

/** The body of POST /leagues, fields checked by name; their values are the service's to judge (invalid_settings). */
function settingsBody(request: FastifyRequest): LeagueSettingsInput {
  const b = body(request);
  onlyFields(b, LEAGUE_SETTINGS_FIELDS);
  return b as unknown as LeagueSettingsInput;
}

/** Operations that take no body refuse one with fields (an empty object or no body is fine). */
function noFields(request: FastifyRequest): void {
  const b = body(request);
  const names = Object.keys(b);
  if (names.length > 0) throw new ServiceError('invalid_request', `This operation takes no body; unknown field ${names.map((k) => JSON.stringify(k)).join(', ')}.`);
}

type L = { Params: { leagueId: string } };
type LP = { Params: { leagueId: string; playerId: string } };
type LR = { Params: { leagueId: string; round: string } };
type LPair = { Params: { leagueId: string; pairingId: string } };

/**
 * CSV when asked for with ?format=csv, or when Accept prefers text/csv to
 * JSON (a higher q, or the same q and listed first); ?format wins over Accept.
 */
export function wantsCsv(request: FastifyRequest): boolean {
  const format = oneOf(str(query(request), 'format'), ['json', 'csv'] as const, 'format');
  if (format !== undefined) return format === 'csv';
  const accept = request.headers.accept;
  if (typeof accept !== 'string') return false;
  let csv = 0;
  let json = 0;
  for (const [i, part] of accept.split(',').entries()) {
    const [type = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!(q > 0)) continue;
    const rank = q * 1000 - i; // earlier wins a tie
    if (type === 'text/csv') csv = Math.max(csv, rank);
    else if (type === 'application/json' || type === 'application/*') json = Math.max(json, rank);
  }
  return csv > json;
}

export function standingsFilename(leagueId: string, round: number | undefined): string {
  return `league-${leagueId}-standings${round === undefined ? '' : `-round-${round}`}.csv`;
}

async function sendStandings(svc: GameServiceApi, request: FastifyRequest<L>, reply: FastifyReply) {
  const leagueId = pathId(request.params.leagueId, 'league');
  const q = query(request);
  const r = str(q, 'round');
  const round = r === undefined ? undefined : roundNumber(r);
  const opts = round === undefined ? {} : { round };
  if (wantsCsv(request)) {
    const csv = await svc.exportStandingsCsv(request.caller, leagueId, opts);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${standingsFilename(leagueId, round)}"`)
      .header('vary', 'Accept')
      .send(csv);
  }
  return reply.header('vary', 'Accept').send(await svc.getStandings(request.caller, leagueId, opts));
}

export default async function leagueRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  // ─── Leagues ──────────────────────────────────────────────────────────────

  app.post('/leagues', async (request, reply) => {
    const caller = requireCaller(request);
    const league = await svc.createLeague(caller, settingsBody(request));
    return reply.code(201).header('location', `/leagues/${league.id}`).send(league);
  });

  app.get('/leagues', async (request) => {
    const q = query(request);
    const filter: LeagueFilter = {};
    const gameType = str(q, 'gameType');
    if (gameType !== undefined) filter.gameType = gameType;
    const status = oneOf(str(q, 'status'), LEAGUE_STATUSES, 'status');
    if (status !== undefined) filter.status = status;
    for (const name of ['playerId', 'organiserId'] as const) {
      let id = str(q, name);
      if (id === 'me') id = requireCaller(request).playerId;
      if (id !== undefined && !UUID.test(id)) throw new ServiceError('invalid_request', `${name} must be a player id (a UUID) or me.`);
      if (id !== undefined) filter[name] = id;
    }
    const cursor = str(q, 'cursor');
    const limit = int(q, 'limit');
    if (limit !== undefined && (limit < 1 || limit > 100)) throw new ServiceError('invalid_request', 'limit must be from 1 to 100.');
    return svc.listLeagues(request.caller, filter, { ...(cursor !== undefined ? { cursor } : {}), ...(limit !== undefined ? { limit } : {}) });
  });

  app.get<L>('/leagues/:leagueId', async (request) => svc.getLeague(request.caller, pathId(request.params.leagueId, 'league')));

  app.patch<L>('/leagues/:leagueId', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const b = body(request);
    onlyFields(b, LEAGUE_UPDATE_FIELDS);
    return svc.updateLeague(caller, leagueId, b as LeagueUpdateInput);
  });

  // ─── Organisers ───────────────────────────────────────────────────────────

  app.post<L>('/leagues/:leagueId/organisers', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const b = body(request);
    onlyFields(b, ['playerId']);
    return svc.addOrganiser(caller, leagueId, playerIdField(b));
  });

  app.delete<LP>('/leagues/:leagueId/organisers/:playerId', async (request) => {
    const caller = requireCaller(request);
    return svc.removeOrganiser(caller, pathId(request.params.leagueId, 'league'), pathId(request.params.playerId, 'player'));
  });

  // ─── Entrants ─────────────────────────────────────────────────────────────

  app.get<L>('/leagues/:leagueId/entrants', async (request) => ({
    entrants: await svc.listEntrants(request.caller, pathId(request.params.leagueId, 'league')),
  }));

  // No body (or {}): the caller joins. {playerId, seed?}: an organiser enters that player; {ai: level, seed?}: Herald's AI.
  app.post<L>('/leagues/:leagueId/entrants', async (request, reply) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const b = body(request);
    onlyFields(b, ['playerId', 'seed', 'ai']);
    if (b.ai !== undefined) {
      const seed = seedField(b, false) as number | undefined;
      return reply.code(201).send(await svc.addEntrant(caller, leagueId, { ai: b.ai, ...(b.playerId !== undefined ? { playerId: playerIdField(b) } : {}), ...(seed !== undefined ? { seed } : {}) }));
    }
    if (b.playerId === undefined) {
      if (b.seed !== undefined) throw new ServiceError('invalid_request', 'seed goes with playerId (an organiser entering a player); joining yourself takes no body.');
      return reply.code(201).send(await svc.joinLeague(caller, leagueId));
    }
    const playerId = playerIdField(b);
    const seed = seedField(b, false) as number | undefined;
    return reply.code(201).send(await svc.addEntrant(caller, leagueId, { playerId, ...(seed !== undefined ? { seed } : {}) }));
  });

  // Before the start the entry is removed (204); after it the entrant stays, withdrawn (200).
  app.delete<L>('/leagues/:leagueId/entrants/me', async (request, reply) => {
    const caller = requireCaller(request);
    const entrant = await svc.withdrawFromLeague(caller, pathId(request.params.leagueId, 'league'));
    return entrant === null ? reply.code(204).send() : reply.send(entrant);
  });

  app.patch<LP>('/leagues/:leagueId/entrants/:playerId', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const playerId = pathId(request.params.playerId, 'player');
    const b = body(request);
    onlyFields(b, ['seed', 'status', 'reason']);
    const input: { seed?: number | null; status?: 'withdrawn' | 'disqualified'; reason?: string } = {};
    const seed = seedField(b, true);
    if (seed !== undefined) input.seed = seed;
    if (b.status !== undefined) {
      const status = oneOf(typeof b.status === 'string' ? b.status : '', ['withdrawn', 'disqualified'] as const, 'status');
      if (status !== undefined) input.status = status;
    }
    const reason = string(b, 'reason');
    if (reason !== undefined) input.reason = reason;
    if (Object.keys(input).length === 0) throw new ServiceError('invalid_request', 'Give seed, status or reason.');
    return svc.updateEntrant(caller, leagueId, playerId, input);
  });

  // A stand-in: Herald's AI plays the entrant's open and later games; the results count for the entrant.
  app.put<LP>('/leagues/:leagueId/entrants/:playerId/stand-in', async (request) => {
    const caller = requireCaller(request);
    const b = body(request);
    onlyFields(b, ['ai', 'reason']);
    return svc.setStandIn(caller, pathId(request.params.leagueId, 'league'), pathId(request.params.playerId, 'player'), { ai: b.ai, ...(b.reason !== undefined ? { reason: b.reason } : {}) });
  });

  app.delete<LP>('/leagues/:leagueId/entrants/:playerId/stand-in', async (request) => {
    const caller = requireCaller(request);
    return svc.removeStandIn(caller, pathId(request.params.leagueId, 'league'), pathId(request.params.playerId, 'player'));
  });

  app.delete<LP>('/leagues/:leagueId/entrants/:playerId', async (request, reply) => {
    const caller = requireCaller(request);
    await svc.removeEntrant(caller, pathId(request.params.leagueId, 'league'), pathId(request.params.playerId, 'player'));
    return reply.code(204).send();
  });

  // ─── Start, rounds, pairings ──────────────────────────────────────────────

  app.post<L>('/leagues/:leagueId/start', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    noFields(request);
    return svc.startLeague(caller, leagueId);
  });

  app.get<L>('/leagues/:leagueId/rounds', async (request) => ({
    rounds: await svc.listRounds(request.caller, pathId(request.params.leagueId, 'league')),
  }));

  app.post<L>('/leagues/:leagueId/rounds', async (request, reply) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    noFields(request);
    const round = await svc.generateRound(caller, leagueId);
    return reply.code(201).header('location', `/leagues/${leagueId}/rounds/${round.number}`).send(round);
  });

  app.get<LR>('/leagues/:leagueId/rounds/:round', async (request) =>
    svc.getRound(request.caller, pathId(request.params.leagueId, 'league'), roundNumber(request.params.round)),
  );

  app.patch<LR>('/leagues/:leagueId/rounds/:round/pairings', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const round = roundNumber(request.params.round);
    const b = body(request);
    onlyFields(b, ['edits']);
    return svc.editPairings(caller, leagueId, round, pairingEdits(b.edits));
  });

  app.post<LR>('/leagues/:leagueId/rounds/:round/publish', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const round = roundNumber(request.params.round);
    noFields(request);
    return svc.publishRound(caller, leagueId, round);
  });

  app.delete<LR>('/leagues/:leagueId/rounds/:round', async (request, reply) => {
    await svc.deleteDraftRound(requireCaller(request), pathId(request.params.leagueId, 'league'), roundNumber(request.params.round));
    return reply.code(204).send();
  });

  // ─── Results ──────────────────────────────────────────────────────────────

  app.post<LPair>('/leagues/:leagueId/pairings/:pairingId/report', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const pairingId = pathId(request.params.pairingId, 'pairing');
    const b = body(request);
    onlyFields(b, ['result']);
    return svc.reportResult(caller, leagueId, pairingId, { result: reportableResult(b.result) });
  });

  app.post<LPair>('/leagues/:leagueId/pairings/:pairingId/confirm', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const pairingId = pathId(request.params.pairingId, 'pairing');
    noFields(request);
    return svc.confirmResult(caller, leagueId, pairingId);
  });

  app.put<LPair>('/leagues/:leagueId/pairings/:pairingId/result', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const pairingId = pathId(request.params.pairingId, 'pairing');
    const b = body(request);
    onlyFields(b, ['result', 'reason']);
    if (!('result' in b)) throw new ServiceError('invalid_request', 'result is required (null clears the result).');
    return svc.setResult(caller, leagueId, pairingId, { result: pairingResult(b.result), reason: requiredString(b, 'reason') });
  });

  app.get<L>('/leagues/:leagueId/results/changes', async (request) => {
    const caller = requireCaller(request);
    const leagueId = pathId(request.params.leagueId, 'league');
    const pairingId = str(query(request), 'pairingId');
    if (pairingId !== undefined && !UUID.test(pairingId)) throw new ServiceError('invalid_request', 'pairingId must be a pairing id (a UUID).');
    return { changes: await svc.listResultChanges(caller, leagueId, pairingId === undefined ? {} : { pairingId }) };
  });

  app.get<L>('/leagues/:leagueId/standings', async (request, reply) => sendStandings(svc, request, reply));
}
