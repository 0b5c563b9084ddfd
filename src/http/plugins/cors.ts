// CORS (@fastify/cors), so a web client on another origin can call the API from a browser.
// Any origin by default, never with credentials: the API authenticates by `Authorization:
// Bearer` (and ?access_token= on SSE), not by cookie, so an origin gains nothing it could not
// do from a script of its own; CORS_ORIGINS narrows it to a list, or turns it off (config.ts).
//
// Registered before the rate limits and authentication: its onRequest hook sets the headers
// on every answer that follows, errors (problem+json, 429, 401) and SSE streams included, and
// answers a preflight (OPTIONS with Origin and Access-Control-Request-Method) itself with 204.
//
// Browsers apply no CORS to WebSockets (GraphQL subscriptions at /graphql): unless CORS_ORIGINS is
// '*', an upgrade whose Origin is neither listed nor the server's own is refused here with 403.
import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem } from '../problem.ts';

/** The request headers clients send (a browser asks before sending any that is not safelisted). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-None-Match',
  'Last-Event-ID',
  'X-Act-As',
  'Accept-Language',
  'Cache-Control',
];

/** The response headers a page's script may read beyond the safelisted ones (Content-Type, Cache-Control...). */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Idempotent-Replayed',
  'X-Game-Version',
  'Content-Disposition',
];

export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** How long a browser may reuse a preflight's answer, in seconds (browsers cap it: Chromium at 2 h). */
export const CORS_MAX_AGE = 86_400;

export interface CorsOptions {
  /** '*', a list of origins (as browsers send Origin), or null: no CORS. */
  origins: '*' | string[] | null;
}

/** Access-Control-Expose-Headers as every answer carries it. */
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');

/**
 * Whether a WebSocket upgrade may go on: browsers send Origin with every WebSocket and apply no
 * CORS to it, so the server checks it as CORS would: any origin with '*'; else only a listed
 * origin or the server's own (a page it serves: Origin's host is the request's Host). Without
 * Origin the client is not a browser, and is let through.
 */
export function webSocketOriginAllowed(origins: CorsOptions['origins'], origin: string | undefined, host: string): boolean {
  if (origin === undefined || origins === '*') return true;
  if (origins !== null && origins.includes(origin)) return true;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false; // "null" (a sandboxed page, a file) or not an origin
  }
}

async function corsPlugin(app: FastifyInstance, opts: CorsOptions): Promise<void> {
  if (opts.origins !== '*') {
    // A WebSocket from another origin is refused at the upgrade (403), before rate limits and authentication.
    app.addHook('onRequest', async (request) => {
      const upgrade = request.headers.upgrade;
      if (typeof upgrade !== 'string' || upgrade.toLowerCase() !== 'websocket') return;
      const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
      if (!webSocketOriginAllowed(opts.origins, origin, request.host)) {
        throw new HttpProblem(403, 'origin_not_allowed', `WebSocket connections from ${origin} are not allowed here (CORS_ORIGINS).`);
      }
    });
  }
  if (opts.origins === null) return;
  const settings = {
    origin: opts.origins,
    credentials: false,
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE,
  };
  // Only a preflight (Origin and Access-Control-Request-Method) is answered by the plugin; any
  // other OPTIONS stays what it was without CORS, a 404 problem document (the plugin would
  // answer it 204, or with a plain-text 400 in its strict mode).
  const preflightOnly = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (request.headers.origin === undefined || request.headers['access-control-request-method'] === undefined) {
      reply.callNotFound();
      return false;
    }
    return true;
  };
  if (opts.origins !== '*') {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method === 'OPTIONS' && !preflightOnly(request, reply)) return;
      done();
    });
    await app.register(cors, settings);
  } else {
    // Any origin (the default): every answer but a preflight gets the same two headers, set here
    // from constants. The plugin's own hook, which rebuilds its options and joins the exposed
    // headers on every request, runs only where it is needed: it is registered in a scope of its
    // own, with the route that receives preflights (OPTIONS *), so it answers those and nothing else.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.method === 'OPTIONS') {
        if (preflightOnly(request, reply)) done();
        return;
      }
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', EXPOSED);
      done();
    });
    await app.register(async (preflights) => {
      await preflights.register(cors, settings);
    });
  }
  if (opts.origins !== '*') {
    // The answer depends on Origin: caches must keep one per origin. Routes that set their own
    // Vary (Accept, Accept-Language) replace the plugin's, so Origin is added back last.
    app.addHook('onSend', async (_request, reply) => {
      const vary = reply.getHeader('vary');
      const list = typeof vary === 'string' ? vary : Array.isArray(vary) ? vary.join(', ') : '';
      if (!/(^|,)\s*(origin|\*)\s*(,|$)/i.test(list)) reply.header('vary', list === '' ? 'Origin' : `${list}, Origin`);
    });
  }
}

export default fp(corsPlugin, { name: 'herald-cors' });
