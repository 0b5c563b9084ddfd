// GraphQL resolvers for player profiles, rating history and leaderboards: thin adapters over
// the same service functions as REST (src/http/routes/players.ts). The profile is flattened
// (PlayerProfile.id, .name … instead of REST's `player` object), as GraphQL types usually are.
import type { IResolvers } from 'mercurius';
import { ServiceError, type GameServiceApi, type GameSummary, type PlayerProfile } from '../../service/api.ts';
import type { HeraldContext } from './context.ts';
import { toEnum } from './leagues.ts';

type Ctx = HeraldContext;

/** Optional GraphQL arguments arrive as null when given as null: the service wants undefined. */
function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

function page(first: number | null | undefined, after: string | null | undefined): { cursor?: string; limit?: number } {
  const cursor = opt(after);
  const limit = opt(first);
  return { ...(cursor !== undefined ? { cursor } : {}), ...(limit !== undefined ? { limit } : {}) };
}

function flatProfile(p: PlayerProfile) {
  return {
    ...p.player,
    ratings: p.ratings,
    leagues: p.leagues.map((l) => ({
      leagueId: l.league.id,
      name: l.league.name,
      gameType: l.league.gameType,
      format: toEnum(l.league.format),
      leagueStatus: l.league.status,
      status: l.status,
      organiser: l.organiser,
    })),
    recentResults: p.recentResults,
  };
}

/** Query fields (merged into Query by resolvers.ts). */
export function ratingQueries(service: GameServiceApi): Record<string, (root: unknown, args: never, ctx: Ctx) => unknown> {
  return {
    player: async (_root: unknown, args: { id: string }, ctx: Ctx) => {
      try {
        return flatProfile(await service.getPlayerProfile(await ctx.auth.optional(), args.id));
      } catch (err) {
        // Nullable precisely for "no such player", as Query.game is for games.
        if (err instanceof ServiceError && err.code === 'not_found') return null;
        throw err;
      }
    },
    leaderboard: async (_root: unknown, args: { gameType: string; includeProvisional?: boolean | null; first?: number | null; after?: string | null }) => {
      const p = await service.getLeaderboard(args.gameType, { ...page(args.first, args.after), includeProvisional: args.includeProvisional ?? false });
      return { nodes: p.items, nextCursor: p.nextCursor };
    },
    ratingHistory: async (_root: unknown, args: { playerId: string; gameType: string; first?: number | null; after?: string | null }, ctx: Ctx) => {
      const p = await service.getRatingHistory(await ctx.auth.optional(), args.playerId, args.gameType, page(args.first, args.after));
      return { nodes: p.items, nextCursor: p.nextCursor };
    },
  } as Record<string, (root: unknown, args: never, ctx: Ctx) => unknown>;
}

/** Field resolvers of the types above, and the Game fields ratings brought. */
export const ratingTypes: IResolvers = {
  LeagueBoard: {
    leagueId: (b: NonNullable<GameSummary['league']>) => b.id,
  },
};
