// Query and mutation resolvers: thin adapters over the game service (the same
// functions REST uses). They translate arguments, call the service, and shape
// the answer; rules, access checks and the write path live in the service.
import { negotiateLanguage } from '../../i18n/index.ts';
import { valueFromASTUntyped, type ValueNode } from 'graphql';
import type { IResolvers } from 'mercurius';
import type { Json } from '../../bus/bus.ts';
import {
  ServiceError,
  type CreateGameInput,
  type GameFilter,
  type GameRecord,
  type GameServiceApi,
  type GameStatus,
  type GameSummary,
  type OptionDeclaration,
  type SubmitActionResult,
  type Visibility,
} from '../../service/api.ts';
import type { HeraldContext } from './context.ts';
import { gameDataIndex } from '../game-data.ts';
import { ratingQueries, ratingTypes } from './ratings.ts';
import { webhookMutations, webhookQueries } from './webhooks.ts';

/** The JSON scalar: any JSON value in and out (literals are converted as written). */
export const jsonScalar = {
  serialize: (value: unknown) => value,
  parseValue: (value: unknown) => value,
  parseLiteral: (ast: ValueNode, variables?: Record<string, unknown> | null) => valueFromASTUntyped(ast, variables ?? undefined),
};

export const MAX_PAGE_SIZE = 100;

/** Optional GraphQL arguments arrive as null when given as null: the service wants undefined. */
function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

function jsonObject(value: unknown, what: string): Record<string, Json> | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ServiceError('invalid_request', `${what} must be a JSON object`);
  return value as Record<string, Json>;
}

type Ctx = HeraldContext;

export function queryResolvers(service: GameServiceApi, info: { version: string }): IResolvers {
  const game = (summary: GameSummary) => summary; // Game's own fields resolve from the summary
  return {
    ...ratingTypes,
    JSON: jsonScalar as never,
    Game: {
      seed: (g: GameSummary) => g.seed ?? null,
      myRoles: async (g: GameSummary, _args: unknown, ctx: Ctx) => {
        const caller = await ctx.auth.optional();
        return caller ? g.seats.filter((s) => s.player?.id === caller.playerId).map((s) => s.role) : [];
      },
    },
    GameOption: {
      // The declaration's fields that do not apply to its type are absent: null in GraphQL.
      min: (o: OptionDeclaration) => (o.type === 'integer' ? o.min : null),
      max: (o: OptionDeclaration) => (o.type === 'integer' ? o.max : null),
      values: (o: OptionDeclaration) => (o.type === 'string' ? o.values : null),
    },
    GameType: {
      // The URLs REST's GET /game-types/{id}/data serves (http/game-data.ts).
      data: (t: { id: string; playable: boolean }) => (t.playable ? gameDataIndex(service.getGameData(t.id)) : null),
    },
    ActionResult: {
      replayed: (r: SubmitActionResult) => r.replayed ?? false,
    },
    Query: {
      server: () => ({ name: 'herald', version: info.version }),
      gameTypes: () => service.listGameTypes(),
      me: async (_root, _args, ctx: Ctx) => service.getPlayer(await ctx.auth.required()),
      myKeys: async (_root, _args, ctx: Ctx) => service.listKeys(await ctx.auth.required()),
      myVacation: async (_root, _args, ctx: Ctx) => service.getVacation(await ctx.auth.required()),
      game: async (_root, args: { id: string }, ctx: Ctx) => {
        const caller = await ctx.auth.optional();
        try {
          return game(await service.getGame(caller, args.id));
        } catch (err) {
          // The field is nullable precisely for "no such game (that you may see)".
          if (err instanceof ServiceError && err.code === 'not_found') return null;
          throw err;
        }
      },
      games: async (
        _root,
        args: { filter?: { status?: GameStatus | null; gameType?: string | null; playerId?: string | null; myTurn?: boolean | null } | null; first?: number | null; after?: string | null },
        ctx: Ctx,
      ) => {
        const first = args.first ?? 20;
        if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
          throw new ServiceError('invalid_request', `first must be from 1 to ${MAX_PAGE_SIZE}`);
        }
        const f = args.filter ?? {};
        const filter: GameFilter = {};
        if (f.status != null) filter.status = f.status;
        if (f.gameType != null) filter.gameType = f.gameType;
        if (f.playerId != null) filter.playerId = f.playerId;
        if (f.myTurn != null) filter.myTurn = f.myTurn;
        const caller = filter.myTurn ? await ctx.auth.required() : await ctx.auth.optional();
        const page = await service.listGames(caller, filter, { cursor: opt(args.after), limit: first });
        return { nodes: page.items.map(game), nextCursor: page.nextCursor };
      },
      myGames: async (_root, _args, ctx: Ctx) => service.playerGames((await ctx.auth.required()).playerId),
      view: async (_root, args: { gameId: string; role?: string | null; version?: number | null }, ctx: Ctx) =>
        service.getView(await ctx.auth.optional(), args.gameId, { role: opt(args.role), version: opt(args.version) }),
      boardPicture: async (_root, args: { gameId: string; role?: string | null; version?: number | null; format?: string | null; lang?: string | null }, ctx: Ctx) => {
        const pic = await service.getBoardPicture(await ctx.auth.optional(), args.gameId, {
          format: args.format ?? 'svg',
          ...(args.role != null ? { role: args.role } : {}),
          ...(args.version != null ? { version: args.version } : {}),
          ...(args.lang != null ? { lang: args.lang } : {}),
        });
        const { body, ...rest } = pic;
        return { ...rest, body: typeof body === 'string' ? body : body.toString('base64') };
      },
      legalActions: async (_root, args: { gameId: string; role?: string | null; lang?: string | null; tree?: boolean | null }, ctx: Ctx) =>
        service.getLegalActions(await ctx.auth.required(), args.gameId, {
          role: opt(args.role), lang: negotiateLanguage({ lang: args.lang ?? null, acceptLanguage: ctx.acceptLanguage ?? null }),
          ...(args.tree ? { group: 'tree' as const } : {}),
        }).then((r) => ({ ...r, tree: r.tree ?? null })),
      log: async (_root, args: { gameId: string; role?: string | null; lang?: string | null }, ctx: Ctx) =>
        service.getLog(await ctx.auth.optional(), args.gameId, {
          role: opt(args.role), lang: negotiateLanguage({ lang: args.lang ?? null, acceptLanguage: ctx.acceptLanguage ?? null }),
        }),
      export: async (_root, args: { gameId: string }, ctx: Ctx) => service.exportGame(await ctx.auth.required(), args.gameId),
      ...ratingQueries(service),
      ...webhookQueries(service),
    },
    Mutation: {
      ...webhookMutations(service),
      createPlayer: async (_root, args: { name: string; isBot?: boolean | null; externalId?: string | null }, ctx: Ctx) =>
        service.createPlayer(await ctx.auth.optional(), { name: args.name, isBot: opt(args.isBot), externalId: opt(args.externalId) }).then((r) => ({
          player: r.player,
          created: r.created,
          key: r.key ?? null,
        })),
      startVacation: async (_root, args: { until?: string | null }, ctx: Ctx) => service.startVacation(await ctx.auth.required(), { until: args.until }),
      endVacation: async (_root, _args, ctx: Ctx) => service.endVacation(await ctx.auth.required()),
      createKey: async (_root, args: { label?: string | null }, ctx: Ctx) => service.createKey(await ctx.auth.required(), opt(args.label)),
      revokeKey: async (_root, args: { id: string }, ctx: Ctx) => {
        await service.revokeKey(await ctx.auth.required(), args.id);
        return true;
      },
      createGame: async (
        _root,
        args: {
          input: {
            gameType: string;
            scenario: string;
            options?: unknown;
            seed?: string | null;
            visibility?: Visibility | null;
            roles?: string[] | null;
            ai?: unknown;
            autoStart?: boolean | null;
            rated?: boolean | null;
            timeControl?: unknown;
          };
        },
        ctx: Ctx,
      ) => {
        const caller = await ctx.auth.required();
        const i = args.input;
        return service.createGame(caller, {
          gameType: i.gameType,
          scenario: i.scenario,
          options: jsonObject(i.options, 'options'),
          seed: opt(i.seed),
          visibility: opt(i.visibility),
          roles: opt(i.roles),
          ai: (i.ai ?? null) as CreateGameInput['ai'],
          autoStart: opt(i.autoStart),
          rated: opt(i.rated),
          timeControl: (i.timeControl ?? null) as CreateGameInput['timeControl'],
        });
      },
      joinGame: async (_root, args: { gameId: string; role?: string | null }, ctx: Ctx) =>
        service.join(await ctx.auth.required(), args.gameId, { role: opt(args.role) }),
      joinByInvite: async (_root, args: { gameId: string; code: string }, ctx: Ctx) =>
        service.join(await ctx.auth.required(), args.gameId, { inviteCode: args.code }),
      leaveGame: async (_root, args: { gameId: string; role?: string | null }, ctx: Ctx) =>
        service.leave(await ctx.auth.required(), args.gameId, { role: opt(args.role) }),
      createInvite: async (_root, args: { gameId: string; role: string }, ctx: Ctx) =>
        service.createInvite(await ctx.auth.required(), args.gameId, { role: args.role }),
      startGame: async (_root, args: { gameId: string }, ctx: Ctx) => service.start(await ctx.auth.required(), args.gameId),
      resign: async (_root, args: { gameId: string; role?: string | null }, ctx: Ctx) =>
        service.resign(await ctx.auth.required(), args.gameId, { role: opt(args.role) }),
      rematch: async (_root, args: { gameId: string }, ctx: Ctx) => service.rematch(await ctx.auth.required(), args.gameId),
      claimTimeout: async (_root, args: { gameId: string; role?: string | null }, ctx: Ctx) =>
        service.claimTimeout(await ctx.auth.required(), args.gameId, { role: opt(args.role) }),
      abort: async (_root, args: { gameId: string }, ctx: Ctx) => service.abort(await ctx.auth.required(), args.gameId),
      submitAction: async (
        _root,
        args: { gameId: string; role?: string | null; action?: Json | null; actionId?: string | null; expectedVersion?: number | null; idempotencyKey?: string | null },
        ctx: Ctx,
      ) =>
        service.submitAction(await ctx.auth.required(), args.gameId, {
          role: opt(args.role),
          action: opt(args.action),
          actionId: opt(args.actionId),
          expectedVersion: opt(args.expectedVersion),
          idempotencyKey: opt(args.idempotencyKey),
        }),
      importGame: async (_root, args: { record: unknown; visibility?: Visibility | null }, ctx: Ctx) => {
        const caller = await ctx.auth.required();
        if (args.record === null || typeof args.record !== 'object' || Array.isArray(args.record)) {
          throw new ServiceError('invalid_request', 'record must be a game record (a JSON object)');
        }
        return service.importGame(caller, { record: args.record as GameRecord, visibility: opt(args.visibility) });
      },
    },
  };
}
