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

/** The caller the headers name: null (no Authorization), a Caller, or a promise when the key must be looked up. */
function callerOf(app: FastifyInstance, request: FastifyRequest): Caller | null | Promise<Caller> {
  const authorization = header(request, 'authorization');
  if (authorization === undefined) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) throw new ServiceError('unauthorized', 'Authorization must be "Bearer <key>".');
  const raw = m[1]!;
  const actAs = header(request, 'x-act-as')?.trim();
  if (app.gameService.isAdminToken(raw)) {
    if (actAs) throw new ServiceError('invalid_request', 'X-Act-As is for application keys, not the operator token.');
    return ADMIN_CALLER;
  }
  return app.gameService.cachedCaller(raw, actAs) ?? app.gameService.authenticate(raw, actAs);
}

async function auth(app: FastifyInstance): Promise<void> {
  app.decorateRequest('caller', null);
  // A callback hook, not an async one: it runs on every request, and most keys are answered from the
  // key cache without waiting, so no promise is made for them. done() outside the try: the hooks after
  // this one run inside it, and their errors are theirs.
  app.addHook('onRequest', (request, _reply, done) => {
    let found: Caller | null | Promise<Caller>;
    try {
      found = callerOf(app, request);
    } catch (err) {
      return done(err as Error);
    }
    if (!(found instanceof Promise)) {
      request.caller = found;
      return done();
    }
    found.then(
      (caller) => {
        request.caller = caller;
        done();
      },
      (err: Error) => done(err),
    );
  });
}

export default fp(auth, { name: 'herald-auth', dependencies: ['herald-game-service', 'herald-errors'] });
