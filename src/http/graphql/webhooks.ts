// GraphQL resolvers for webhook endpoints: thin adapters over the same service functions as REST
// (src/http/routes/webhooks.ts). The delivery log is Query.webhookDeliveries.
import type { GameServiceApi } from '../../service/api.ts';
import type { HeraldContext } from './context.ts';

type Ctx = HeraldContext;
type Resolver = (root: unknown, args: never, ctx: Ctx) => unknown;

function opt<T>(v: T | null | undefined): T | undefined {
  return v === null ? undefined : v;
}

/** Fields present in the input only when given (null as absent), as the REST body would have them. */
function given(args: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (args[n] !== undefined && args[n] !== null) out[n] = args[n];
  return out;
}

export function webhookQueries(service: GameServiceApi): Record<string, Resolver> {
  return {
    webhooks: async (_root: unknown, _args: unknown, ctx: Ctx) => (await service.listWebhooks(await ctx.auth.required())).webhooks,
    webhook: async (_root: unknown, args: { id: string }, ctx: Ctx) => service.getWebhook(await ctx.auth.required(), args.id),
    webhookDeliveries: async (_root: unknown, args: { id: string; first?: number | null }, ctx: Ctx) => {
      const first = opt(args.first);
      return (await service.listWebhookDeliveries(await ctx.auth.required(), args.id, first !== undefined ? { limit: first } : {})).deliveries;
    },
  } as Record<string, Resolver>;
}

export function webhookMutations(service: GameServiceApi): Record<string, Resolver> {
  return {
    createWebhook: async (_root: unknown, args: { url: string; events: string[]; format?: string | null }, ctx: Ctx) =>
      service.createWebhook(await ctx.auth.required(), given(args, ['url', 'events', 'format'])),
    updateWebhook: async (_root: unknown, args: { id: string; url?: string | null; events?: string[] | null; enabled?: boolean | null }, ctx: Ctx) =>
      service.updateWebhook(await ctx.auth.required(), args.id, given(args, ['url', 'events', 'enabled'])),
    deleteWebhook: async (_root: unknown, args: { id: string }, ctx: Ctx) => {
      await service.deleteWebhook(await ctx.auth.required(), args.id);
      return true;
    },
    rotateWebhookSecret: async (_root: unknown, args: { id: string }, ctx: Ctx) => service.rotateWebhookSecret(await ctx.auth.required(), args.id),
    redeliverWebhookMessage: async (_root: unknown, args: { id: string; messageId: string }, ctx: Ctx) =>
      (await service.redeliverWebhookMessage(await ctx.auth.required(), args.id, args.messageId)).queued,
    redeliverWebhookMessages: async (_root: unknown, args: { id: string; since: string; until?: string | null }, ctx: Ctx) =>
      (await service.redeliverWebhookRange(await ctx.auth.required(), args.id, given(args, ['since', 'until']))).queued,
    testWebhook: async (_root: unknown, args: { id: string }, ctx: Ctx) => (await service.testWebhook(await ctx.auth.required(), args.id)).messageId,
  } as Record<string, Resolver>;
}
