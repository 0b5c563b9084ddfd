// The one place where client input is checked for strings PostgreSQL cannot
// store (U+0000, lone UTF-16 surrogates; see ../storable.ts), for every route:
// headers, path parameters and the query string as soon as the request is
// routed (before authentication reads X-Act-As or ?access_token=), the parsed
// body before the handler. Such a request is refused with 400 invalid_request
// (a problem document; a GraphQL error at /graphql, whose own error handler
// formats it) and changes nothing.
//
// At /graphql it also checks the request's shape (query a string, variables an
// object: ../graphql/input.ts). String literals inside a GraphQL document are
// checked by a validation rule (the document is not parsed here).
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../service/api.ts';
import { findUnstorable, type Unstorable } from '../storable.ts';
import { checkGraphqlRequest } from '../graphql/input.ts';

export const GRAPHQL_PATH = '/graphql';

function refuse(bad: Unstorable): never {
  throw new ServiceError('invalid_request', `${bad.path} ${bad.reason}, which cannot be stored.`);
}

function checkHeaders(request: FastifyRequest): void {
  // One walk over all of them for the clean case (nearly every request); the header is named only when one is bad.
  if (findUnstorable(request.headers, 'headers') === null) return;
  for (const [name, value] of Object.entries(request.headers)) {
    const bad = findUnstorable(value, `header ${name}`);
    if (bad) refuse(bad);
  }
}

async function inputGuard(app: FastifyInstance): Promise<void> {
  // Callback hooks, not async ones (they run on every request, and a promise each costs): an
  // error goes to done().
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      checkHeaders(request);
      const bad = findUnstorable(request.params, 'path') ?? findUnstorable(request.query, 'query');
      if (bad) refuse(bad);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });

  app.addHook('preValidation', (request, _reply, done) => {
    try {
      if (request.routeOptions.url === GRAPHQL_PATH) {
        // The query string was checked on request; GET variables are JSON inside it.
        checkGraphqlRequest(request.method, request.body, (request.query ?? {}) as Record<string, unknown>);
      }
      const bad = findUnstorable(request.body, 'body');
      if (bad) refuse(bad);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
}

export default fp(inputGuard, { name: 'herald-input-guard', dependencies: ['herald-errors'] });
