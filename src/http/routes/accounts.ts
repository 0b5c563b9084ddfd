// Players, keys and operator routes: POST /players (self-signup, or a player
// owned by an application), /me, /me/keys, /me/vacation, and /admin/* for the operator.
import type { FastifyInstance } from 'fastify';
import { requireAdmin, requireCaller } from '../plugins/auth.ts';
import { body, onlyFields } from './query.ts';
import type { CreatePlayerInput } from '../../service/api.ts';

export default async function accountRoutes(app: FastifyInstance): Promise<void> {
  const svc = app.gameService;

  app.post('/players', async (request, reply) => {
    const result = await svc.createPlayer(request.caller, body<CreatePlayerInput>(request) as CreatePlayerInput);
    return reply.code(result.created ? 201 : 200).send(result);
  });

  app.get('/me', async (request) => ({ player: await svc.getPlayer(requireCaller(request)) }));

  app.get('/me/keys', async (request) => ({ keys: await svc.listKeys(requireCaller(request)) }));

  app.post('/me/keys', async (request, reply) => {
    const b = body(request);
    onlyFields(b, ['label']);
    return reply.code(201).send(await svc.createKey(requireCaller(request), b.label as string | undefined));
  });

  app.delete<{ Params: { keyId: string } }>('/me/keys/:keyId', async (request, reply) => {
    await svc.revokeKey(requireCaller(request), request.params.keyId);
    return reply.code(204).send();
  });

  app.get('/me/vacation', async (request) => svc.getVacation(requireCaller(request)));

  app.post('/me/vacation', async (request, reply) => {
    const caller = requireCaller(request);
    const b = body(request);
    onlyFields(b, ['until']);
    return reply.code(201).send(await svc.startVacation(caller, { until: b.until }));
  });

  app.delete('/me/vacation', async (request) => svc.endVacation(requireCaller(request)));

  app.post('/admin/apps', async (request, reply) => {
    const caller = requireAdmin(request);
    return reply.code(201).send(await svc.createApp(caller, body<{ name: string }>(request)));
  });

  app.delete<{ Params: { keyId: string } }>('/admin/keys/:keyId', async (request, reply) => {
    await svc.revokeKey(requireAdmin(request), request.params.keyId);
    return reply.code(204).send();
  });
}
