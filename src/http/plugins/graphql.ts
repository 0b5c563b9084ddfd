// GraphQL at /graphql (Mercurius), with GraphiQL at /graphiql in development.
// The first schema only reads games; the service issue extends it.
import type { FastifyInstance } from 'fastify';
import mercurius, { type IResolvers } from 'mercurius';
import type { Game } from '../../generated/prisma/client.ts';

export const schema = /* GraphQL */ `
  "Herald server information."
  type ServerInfo {
    name: String!
    version: String!
  }

  enum GameStatus {
    setup
    active
    finished
    abandoned
  }

  type Game {
    id: ID!
    "Rules module, e.g. richard-iii."
    gameType: String!
    scenario: String!
    status: GameStatus!
    "Bumped on every state change."
    version: Int!
    "ISO 8601 timestamps."
    createdAt: String!
    updatedAt: String!
  }

  type Query {
    server: ServerInfo!
    "Games, most recently updated first."
    games(first: Int = 20): [Game!]!
    game(id: ID!): Game
  }
`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function gameView(g: Game) {
  return { ...g, createdAt: g.createdAt.toISOString(), updatedAt: g.updatedAt.toISOString() };
}

export interface GraphqlOptions {
  graphiql: boolean;
  version: string;
}

export default async function graphql(app: FastifyInstance, opts: GraphqlOptions): Promise<void> {
  const resolvers: IResolvers = {
    Query: {
      server: () => ({ name: 'herald', version: opts.version }),
      games: async (_root, args: { first?: number | null }) => {
        const take = Math.max(0, Math.min(args.first ?? 20, 100));
        const games = await app.store.prisma.game.findMany({ orderBy: { updatedAt: 'desc' }, take });
        return games.map(gameView);
      },
      game: async (_root, args: { id: string }) => {
        if (!UUID.test(args.id)) return null;
        const g = await app.store.prisma.game.findUnique({ where: { id: args.id } });
        return g ? gameView(g) : null;
      },
    },
  };
  await app.register(mercurius, { schema, resolvers, graphiql: opts.graphiql, path: '/graphql' });
}
