// GraphQL errors carry the same stable codes as REST problem documents, in
// extensions.code, with the same extra members (legalActions, currentVersion…).
// Anything unexpected becomes a generic internal_error: its message and stack
// go to the log, never to the client.
import { GraphQLError } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
import type { ExecutionResult } from 'graphql';
import { knownProblem } from '../service-errors.ts';
import { CLIENT_ABORT_DETAIL, isClientAbort, isDatabaseUnavailable } from '../../errors.ts';

const UNAVAILABLE_MESSAGE = 'The database is unreachable right now; retry shortly.';

export const INTERNAL_MESSAGE = 'The server failed to handle the request; see its log.';

export function internalError(): GraphQLError {
  return new GraphQLError(INTERNAL_MESSAGE, { extensions: { code: 'internal_error' } });
}

/** A resolver-side error as the client should see it (message + extensions), or null when it is a bug. */
function publicExtensions(err: unknown): { message: string; extensions: Record<string, unknown> } | null {
  // ServiceError (the service's one error type) or HttpProblem: the REST problem's code,
  // status and extensions (the status also answers a request refused before execution).
  const known = knownProblem(err);
  if (known) {
    const { type: _type, title: _title, detail, code, status, ...extensions } = known;
    return { message: detail, extensions: { ...extensions, code, status } };
  }
  if (err instanceof GraphQLError && typeof err.extensions?.code === 'string' && err.originalError === undefined) {
    return { message: err.message, extensions: err.extensions };
  }
  // The client hung up mid-body (its ECONNRESET is not the database's): a client error, as over REST.
  if (isClientAbort(err)) return { message: CLIENT_ABORT_DETAIL, extensions: { code: 'invalid_request', status: 400 } };
  // Postgres down or restarting: the same `unavailable` code as REST's 503.
  if (isDatabaseUnavailable(err)) return { message: UNAVAILABLE_MESSAGE, extensions: { code: 'unavailable', status: 503 } };
  return null;
}

/**
 * An error raised outside graphql-js's execution (subscription set-up and
 * streams, which Mercurius sends without the errorFormatter) as the client may see it.
 */
export function publicError(err: unknown, log: FastifyBaseLogger): GraphQLError {
  const pub = publicExtensions(err);
  if (pub) return new GraphQLError(pub.message, { extensions: pub.extensions });
  log.error({ err }, 'graphql subscription failed');
  return internalError();
}

/**
 * Rewrites one error of an execution result. Errors raised by resolvers arrive
 * wrapped (GraphQLError with originalError, path, locations); validation and
 * parse errors arrive bare.
 */
export function formatError(error: GraphQLError, log: FastifyBaseLogger): GraphQLError {
  const original = error.originalError;
  if (original === undefined || original === null) {
    // Parse and validation errors: keep our own codes (limits), label the others.
    if (typeof error.extensions?.code === 'string') return error;
    return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code: 'invalid_request' } });
  }
  const pub = publicExtensions(original);
  if (pub) return new GraphQLError(pub.message, { nodes: error.nodes, path: error.path, extensions: pub.extensions });
  // graphql-js wraps coercion failures of arguments/variables with an originalError
  // that is a plain GraphQLError without a code: a client mistake.
  if (original instanceof GraphQLError) {
    return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { code: 'invalid_request' } });
  }
  // Fastify's own client errors (malformed JSON body, wrong content type…).
  const status = (original as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new GraphQLError(original.message, { extensions: { code: 'invalid_request' } });
  }
  log.error({ err: original, path: error.path }, 'graphql resolver failed');
  return new GraphQLError(INTERNAL_MESSAGE, { nodes: error.nodes, path: error.path, extensions: { code: 'internal_error' } });
}

/**
 * HTTP status. Execution errors (they have a path) keep 200, as GraphQL over
 * HTTP expects; a request refused before execution gets its error's status
 * (400 for invalid documents, 401 for a bad key…).
 */
function statusFor(errors: readonly GraphQLError[], hasData: boolean): number {
  if (hasData || errors.some((e) => e.path !== undefined)) return 200;
  const codes = errors.map((e) => e.extensions?.code);
  if (codes.some((c) => c === 'internal_error')) return 500;
  const status = errors[0]?.extensions?.status;
  if (errors.length === 1 && typeof status === 'number') return status;
  return 400;
}

interface FormatterContext {
  reply?: { log: FastifyBaseLogger };
  app: { log: FastifyBaseLogger };
}

/** Mercurius errorFormatter: same shape as its default, with our mapping. */
export function errorFormatter(execution: ExecutionResult & { statusCode?: number }, ctx: FormatterContext) {
  const log = ctx.reply?.log ?? ctx.app.log;
  const flat: GraphQLError[] = [];
  for (const error of execution.errors ?? []) {
    // Mercurius bundles validation errors into one error whose originalError.errors lists them.
    const bundled = (error.originalError as { errors?: unknown } | undefined)?.errors;
    if (Array.isArray(bundled)) {
      for (const e of bundled) flat.push(e instanceof GraphQLError ? formatError(e, log) : new GraphQLError(String((e as Error).message ?? e), { extensions: { code: 'invalid_request' } }));
    } else {
      flat.push(formatError(error, log));
    }
  }
  const data = execution.data ?? null;
  return {
    statusCode: statusFor(flat, data !== null),
    response: { data, errors: flat.map((e) => e.toJSON()) },
  };
}

/**
 * The client refusals in what Mercurius logs when a subscription's start is refused: it logs
 * graphql-js's `errors` array at error level on the app's logger
 * (lib/subscription-connection.js, `this.fastify.log.error(subIter.errors)`), with no hook or
 * option to change that. When every error of such an array is a typed client error (4xx status
 * in extensions: forbidden, not_found, invalid_request…), their codes and messages; null for
 * anything else, which keeps its level (an internal_error or unavailable among them: a fault).
 */
export function subscriptionRefusals(arg: unknown): Array<{ code: string; status: number; message: string }> | null {
  if (!Array.isArray(arg) || arg.length === 0) return null;
  const out: Array<{ code: string; status: number; message: string }> = [];
  for (const e of arg) {
    if (!(e instanceof GraphQLError)) return null;
    const { code, status } = e.extensions ?? {};
    if (typeof code !== 'string' || typeof status !== 'number' || status < 400 || status >= 500) return null;
    out.push({ code, status, message: e.message });
  }
  return out;
}
