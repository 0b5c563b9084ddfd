// Pages a person opens in a browser (src/http/pages/): server-rendered HTML
// from the same service calls as the API, errors as HTML for browsers and as
// problem+json for programs (pages/respond.ts).
import type { FastifyInstance } from 'fastify';
import { pathId } from '../league-input.ts';
import { leaguePage } from '../pages/league.ts';
import { sendPage } from '../pages/layout.ts';
import { pageErrorHandler } from '../pages/respond.ts';

type L = { Params: { leagueId: string } };

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
}
