// Central error and not-found handlers: every REST error is problem+json.
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problem, type Problem } from '../problem.ts';
import { knownProblem } from '../service-errors.ts';
import { CLIENT_ABORT_DETAIL, isClientAbort, isDatabaseUnavailable } from '../../errors.ts';

export const UNAVAILABLE_DETAIL = 'The database is unreachable right now; retry shortly.';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export function toProblem(err: FastifyError | Error): Problem {
  // ServiceError (the service's rejections) and HttpProblem (the routes' own).
  const known = knownProblem(err);
  if (known) return known;
  const fe = err as FastifyError;
  if (fe.validation) return problem(400, 'invalid_request', fe.message);
  // Nobody reads this answer, but it is logged and counted as the client's doing, not as the database being down.
  if (isClientAbort(err)) return problem(400, 'invalid_request', CLIENT_ABORT_DETAIL);
  // Postgres down or restarting: a temporary condition, not a server bug.
  if (isDatabaseUnavailable(err)) return problem(503, 'unavailable', UNAVAILABLE_DETAIL);
  const status = typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 600 ? fe.statusCode : 500;
  if (status >= 500) return problem(status, 'internal_error', 'The server failed to handle the request; see its log.');
  // Fastify's own client errors (bad JSON, body too large, wrong media type...): one stable
  // code for clients to act on; the status and the detail say which it was.
  return problem(status, 'invalid_request', fe.message);
}

/**
 * Fastify's `clientErrorHandler` option: a request Node's parser refuses before Fastify sees it
 * (headers over Node's 16 kB limit, a malformed request line or Content-Length, a client too
 * slow to send its headers) is answered with a problem document too, as Fastify's default
 * does with a body of its own shape (`{"error", "message", "statusCode"}`), then the connection
 * is closed (what was read of the request cannot be trusted).
 */
export function clientErrors(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] = err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
    ? [408, 'request_timeout', 'The request was not received in time.']
    : err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'invalid_request', 'The request\'s headers are larger than the server accepts (16 kB in all).']
      : [400, 'invalid_request', 'The request is not valid HTTP.'];
  this.log.trace({ err }, 'client error');
  if (socket.writable) {
    const p = problem(status, code, detail);
    const body = JSON.stringify(p);
    socket.write(`HTTP/1.1 ${status} ${p.title}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * Fastify's `frameworkErrors` option: errors raised before routing (a URL that
 * is not valid percent-encoding, FST_ERR_BAD_URL…) as problem documents too.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const body = toProblem(err);
  void reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

/** The problem for `err`, logged as the app logs every failed request (Retry-After set for `unavailable`). */
export function logProblem(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): Problem {
  const body = toProblem(err);
  if (body.code === 'unavailable') {
    request.log.warn({ error: err.message }, 'request failed: database unavailable');
    reply.header('retry-after', '1');
  } else if (body.status >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ code: body.code, detail: body.detail }, 'request rejected');
  return body;
}

async function errors(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((err: FastifyError | Error, request, reply) => {
    const body = logProblem(err, request, reply);
    return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body = problem(404, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(404).type(PROBLEM_CONTENT_TYPE).send(body);
  });
}

export default fp(errors, { name: 'herald-errors' });
