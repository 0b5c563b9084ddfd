// Authentication for REST (and anything else reading request.caller):
// `Authorization: Bearer <key>` → the key's player; with an application key,
// `X-Act-As: <playerId>` → a player that application created; the operator
// token (HERALD_ADMIN_TOKEN) → an admin caller. No header: request.caller is
// null (anonymous reads of public games, self-signup). A key that is present
// but unknown or revoked is refused at once (401), even on public routes, so a
// client with a broken key finds out.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError, type Caller } from '../../service/api.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export const ADMIN_CALLER: Caller = Object.freeze({ playerId: '', keyId: 'admin', kind: 'admin' });

/** The caller, or 401 unauthorized. */
export function requireCaller(request: FastifyRequest): Caller {
  if (!request.caller) throw new ServiceError('unauthorized', 'This needs an API key (Authorization: Bearer <key>).');
  return request.caller;
}

/** The operator, or 401/403. */
export function requireAdmin(request: FastifyRequest): Caller {
  const caller = requireCaller(request);
  if (caller.kind !== 'admin') throw new ServiceError('forbidden', 'This needs the operator token (HERALD_ADMIN_TOKEN).');
  return caller;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function auth(app: FastifyInstance): Promise<void> {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    const authorization = header(request, 'authorization');
    if (authorization === undefined) return;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new ServiceError('unauthorized', 'Authorization must be "Bearer <key>".');
    const raw = m[1]!;
    const actAs = header(request, 'x-act-as')?.trim();
    if (app.gameService.isAdminToken(raw)) {
      if (actAs) throw new ServiceError('invalid_request', 'X-Act-As is for application keys, not the operator token.');
      request.caller = ADMIN_CALLER;
      return;
    }
    request.caller = await app.gameService.authenticate(raw, actAs);
  });
}

export default fp(auth, { name: 'herald-auth', dependencies: ['herald-game-service', 'herald-errors'] });
