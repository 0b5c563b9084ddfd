// Webhook endpoints of the caller (service/webhooks.ts): register, read, change, delete, rotate
// the secret, the delivery log, redelivery and a test ping. Thin adapters over the service.
import type { FastifyInstance } from 'fastify';
import { body, int, query } from './query.ts';

type P = { Params: { webhookId: string } };
type M = { Params: { webhookId: string; messageId: string } };

export default async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  app.post('/webhooks', async (request, reply) => reply.code(201).send(await svc.createWebhook(request.caller, body(request))));
  app.get('/webhooks', async (request) => svc.listWebhooks(request.caller));
  app.get<P>('/webhooks/:webhookId', async (request) => svc.getWebhook(request.caller, request.params.webhookId));
  app.patch<P>('/webhooks/:webhookId', async (request) => svc.updateWebhook(request.caller, request.params.webhookId, body(request)));
  app.delete<P>('/webhooks/:webhookId', async (request, reply) => {
    await svc.deleteWebhook(request.caller, request.params.webhookId);
    return reply.code(204).send();
  });
  app.post<P>('/webhooks/:webhookId/rotate-secret', async (request) => svc.rotateWebhookSecret(request.caller, request.params.webhookId));
  app.get<P>('/webhooks/:webhookId/deliveries', async (request) => {
    const limit = int(query(request), 'limit');
    return svc.listWebhookDeliveries(request.caller, request.params.webhookId, limit !== undefined ? { limit } : {});
  });
  app.post<M>('/webhooks/:webhookId/deliveries/:messageId/redeliver', async (request, reply) =>
    reply.code(202).send(await svc.redeliverWebhookMessage(request.caller, request.params.webhookId, request.params.messageId)),
  );
  app.post<P>('/webhooks/:webhookId/redeliver', async (request, reply) => reply.code(202).send(await svc.redeliverWebhookRange(request.caller, request.params.webhookId, body(request))));
  app.post<P>('/webhooks/:webhookId/test', async (request, reply) => reply.code(202).send(await svc.testWebhook(request.caller, request.params.webhookId)));
}
