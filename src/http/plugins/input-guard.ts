// The one place where client input is checked for strings PostgreSQL cannot
// store (U+0000, lone UTF-16 surrogates; see ../storable.ts), for every route:
// headers, path parameters and the query string as soon as the request is
// routed (before authentication reads X-Act-As or ?access_token=), the parsed
// body before the handler. Such a request is refused with 400 invalid_request
// (a problem document; a GraphQL error at /graphql, whose own error handler
// formats it) and changes nothing.
//
// Every REST body is a JSON object: one that is JSON null, an array, a string
// or a number is refused (400 invalid_request) before any handler. A null body
// used to read as {} (PATCH /leagues/:id with null answered 200), the others
// reached the service as they came.
//
// Headers that carry one value (Authorization, X-Act-As, Idempotency-Key,
// Last-Event-ID, Content-Type) sent twice are refused (400 invalid_request):
// Node keeps the first Authorization and Content-Type and joins the others with
// ", ", so which key, player or retry a request meant was a guess.
//
// A body must be valid UTF-8 (JSON: RFC 8259; a charset parameter changes nothing): Fastify's
// and Mercurius's parsers decoded bad bytes to U+FFFD and the request went on, so Latin-1 "Zoë"
// was stored as "Zo\uFFFD" (a player's name, an application/graphql key label). Now 400
// invalid_request, checked on the bytes as they arrive (preParsing). A body with a
// Content-Encoding other than identity (gzip, deflate…) is 415 invalid_request with
// Accept-Encoding: identity: Herald does not decompress bodies, and the compressed bytes were
// read as JSON ("not valid JSON"), or a plain body under a lying header was taken as it came.
//
// A POST sent chunked with zero bytes and no Content-Type (Node's http.request can send a POST
// without a body so) is a request without a body, as one with Content-Length: 0 is: Fastify took
// the chunks for a body of no media type and answered 415. A body without a Content-Type that
// has bytes, and one of a media type no parser reads, are still 415 (emptyOrUnsupported).
//
// A JSON body with a "__proto__" key, or a "constructor" holding a "prototype", is refused by
// Fastify's parser (secure-json-parse) as it should be, but its answer said the body was not
// valid JSON. It is still refused (400 invalid_request), saying why: Fastify's parser is kept
// and parses every body; its error is reworded when the text is valid JSON (looked at only then).
//
// At /graphql it also checks the request's shape (query a string, variables an
// object: ../graphql/input.ts). String literals inside a GraphQL document are
// checked by a validation rule (the document is not parsed here).
import { Transform, type Readable } from 'node:stream';
import fp from 'fastify-plugin';
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ServiceError } from '../../service/api.ts';
import { findUnstorable, type Unstorable } from '../storable.ts';
import { checkGraphqlRequest } from '../graphql/input.ts';
import { HttpProblem } from '../problem.ts';

export const GRAPHQL_PATH = '/graphql';

function refuse(bad: Unstorable): never {
  throw new ServiceError('invalid_request', `${bad.path} ${bad.reason}, which cannot be stored.`);
}

/** Headers a request may carry once (lower case). */
const SINGLE_HEADERS = new Set(['authorization', 'x-act-as', 'idempotency-key', 'last-event-id', 'content-type']);

function checkDuplicates(request: FastifyRequest): void {
  const raw = request.raw.rawHeaders;
  let seen: Set<string> | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    seen ??= new Set();
    if (seen.has(name)) throw new ServiceError('invalid_request', `The ${raw[i]} header is sent more than once: give it once.`, { header: name });
    seen.add(name);
  }
}

const NOT_UTF8 = 'The body is not valid UTF-8: JSON and GraphQL are UTF-8, whatever charset the Content-Type names.';

/** The body stream, failing (400 invalid_request) at the first bytes that are not UTF-8; the bytes pass unchanged. */
function utf8Checked(payload: Readable): Readable {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const check = (chunk?: Buffer): Error | null => {
    try {
      decoder.decode(chunk, { stream: chunk !== undefined });
      return null;
    } catch {
      return new ServiceError('invalid_request', NOT_UTF8);
    }
  };
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(check(chunk), chunk);
    },
    flush(callback) {
      callback(check());
    },
  });
  payload.on('error', (err) => checked.destroy(err));
  return payload.pipe(checked);
}

/** The request carries a body (a length that is not 0, or chunks). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}

/** A body with a Content-Encoding other than identity: 415 (no body, no refusal). */
function checkContentEncoding(request: FastifyRequest, reply: FastifyReply): void {
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || ['', 'identity'].includes(encoding.trim().toLowerCase())) return;
  if (!hasBody(request)) return;
  reply.header('accept-encoding', 'identity');
  throw new HttpProblem(415, 'invalid_request', `Content-Encoding ${JSON.stringify(encoding.slice(0, 50))} is not supported: send the body uncompressed.`);
}

function checkHeaders(request: FastifyRequest): void {
  checkDuplicates(request);
  // One walk over all of them for the clean case (nearly every request); the header is named only when one is bad.
  if (findUnstorable(request.headers, 'headers') === null) return;
  for (const [name, value] of Object.entries(request.headers)) {
    const bad = findUnstorable(value, `header ${name}`);
    if (bad) refuse(bad);
  }
}

/**
 * The parser of every media type no other parser takes (Fastify's catch-all, '*'), which is also
 * what Fastify runs for a chunked body without a Content-Type. Fastify's own answer, 415, for all
 * of them, except a body without a Content-Type that turns out to have no bytes: no body
 * (undefined), as Content-Length: 0 would be. A request to no route goes on to its 404.
 */
function emptyOrUnsupported(request: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void): void {
  if (request.is404) return done(null, undefined);
  if (request.headers['content-type'] !== undefined) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE());
  let settled = false;
  const settle = (err: Error | null): void => {
    if (settled) return;
    settled = true;
    payload.off('data', onData);
    payload.off('end', onEnd);
    payload.off('error', settle);
    done(err, undefined);
  };
  // The first byte decides: there is a body, of no media type.
  const onData = (chunk: Buffer): void => {
    if (chunk.length > 0) settle(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE());
  };
  const onEnd = (): void => settle(null);
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', settle);
}

export const FORBIDDEN_KEYS = 'The body has a "__proto__" key, or a "constructor" key holding a "prototype": __proto__ and constructor.prototype keys are not allowed (they could change objects\' prototypes).';

/** Whether `text` is JSON (a body Fastify's parser refused may be, when it has a forbidden key). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fastify's own JSON parser, with its refusal of a body that is valid JSON but has a __proto__ or
 * constructor.prototype key (it swallows secure-json-parse's error, so the error handler cannot
 * tell) reworded to say so; a body that is not JSON keeps Fastify's "not valid JSON" answer.
 */
function jsonParser(app: FastifyInstance): (request: FastifyRequest, body: string, done: (err: Error | null, body?: unknown) => void) => void {
  const parse = app.getDefaultJsonParser(app.initialConfig.onProtoPoisoning ?? 'error', app.initialConfig.onConstructorPoisoning ?? 'error');
  return (request, body, done) => {
    parse(request, body, (err, value) => {
      if (err && (err as { code?: unknown }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && isJson(body)) return done(new ServiceError('invalid_request', FORBIDDEN_KEYS));
      done(err, value);
    });
  };
}

async function inputGuard(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('*', emptyOrUnsupported);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonParser(app));

  // Every body's bytes are checked to be UTF-8 as they arrive, before any parser decodes them
  // (Fastify's JSON parser, Mercurius's application/graphql one: lossily).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    done(null, hasBody(request) ? utf8Checked(payload) : payload);
  });

  // Callback hooks, not async ones (they run on every request, and a promise each costs): an
  // error goes to done().
  app.addHook('onRequest', (request, reply, done) => {
    try {
      checkContentEncoding(request, reply);
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
      } else if (request.body !== undefined && (request.body === null || typeof request.body !== 'object' || Array.isArray(request.body))) {
        const got = request.body === null ? 'null' : Array.isArray(request.body) ? 'an array' : `a ${typeof request.body}`;
        throw new ServiceError('invalid_request', `The body must be a JSON object, not ${got}.`);
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
