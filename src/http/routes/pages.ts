// Pages a person opens in a browser (src/http/pages/): server-rendered HTML
// from the same service calls as the API, errors as HTML for browsers and as
// problem+json for programs (pages/respond.ts).
import type { FastifyInstance } from 'fastify';
import { pathId } from '../league-input.ts';
import { leaguePage } from '../pages/league.ts';
import { playPage, watchPage } from '../pages/game.ts';
import { language, type IdParams } from './query.ts';
import { ServiceError } from '../../service/api.ts';
import { sendPage } from '../pages/layout.ts';
import { pageErrorHandler } from '../pages/respond.ts';

type L = { Params: { leagueId: string } };
type G = { Params: IdParams };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function pageRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  app.get<L>('/leagues/:leagueId/page', { errorHandler: pageErrorHandler }, async (request, reply) => {
    const caller = request.caller;
    const id = pathId(request.params.leagueId, 'league');
    // getLeague first: an unknown id is one not_found, before the other reads.
    const league = await svc.getLeague(caller, id);
    const [standings, rounds, entrants] = await Promise.all([
      svc.getStandings(caller, id),
      svc.listRounds(caller, id),
      league.status === 'registration' ? svc.listEntrants(caller, id) : Promise.resolve(null),
    ]);
    const gameTitle = svc.listGameTypes().find((g) => g.id === league.gameType)?.title ?? null;
    // Organisers' drafts are theirs to see in the API; the public page shows the published rounds.
    const page = leaguePage({ league, gameTitle, standings, rounds: rounds.filter((r) => r.status !== 'draft'), entrants });
    return sendPage(reply.header('vary', 'Accept'), page);
  });

  // The spectator page: read as an anonymous spectator whatever the request
  // carries, so the page (and its picture and log) never shows a seat's view.
  app.get<G>('/watch/:gameId', { errorHandler: pageErrorHandler }, async (request, reply) => {
    const id = request.params.gameId;
    const lang = language(request);
    const game = await svc.getGame(null, id);
    const log = await svc.getLog(null, id, { lang });
    const gameTitle = svc.listGameTypes().find((g) => g.id === game.gameType)?.title ?? null;
    return sendPage(reply.header('vary', 'Accept, Accept-Language').header('cache-control', 'no-cache'), watchPage({ game, gameTitle, log, pictures: svc.hasBoardPictures(game.gameType) }));
  });

  // A player's page: a shell; the key stays in the browser (URL fragment) and
  // the script reads everything with it. The server cannot know whose page it
  // is, so it answers the same shell for any well-formed id (a private game is
  // not revealed to whoever guesses its id); the script says what the API says.
  app.get<G>('/play/:gameId', { errorHandler: pageErrorHandler }, async (request, reply) => {
    const id = request.params.gameId;
    if (!UUID.test(id)) throw new ServiceError('not_found', `No game ${id}.`);
    return sendPage(reply.header('vary', 'Accept, Accept-Language').header('cache-control', 'no-cache'), playPage(id, language(request)));
  });
}
