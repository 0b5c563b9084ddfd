/**
 * A start-up failure the user can fix (bad configuration, unreachable database,
 * failed migration). main.ts prints its message as one line, without a stack.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return errorMessage(err.errors[0]);
  if (err instanceof Error) return err.message || err.name || String((err as { code?: unknown }).code ?? 'error');
  return String(err);
}

/**
 * The request stream's own failure when the client hangs up while its body is read
 * (node:_http_server: "aborted", code ECONNRESET). Its code is one a database connection's
 * reset shares, so it is told apart first: it is the client's doing, not the database's.
 */
export function isClientAbort(err: unknown): boolean {
  return err instanceof Error && err.message === 'aborted' && (err as { code?: unknown }).code === 'ECONNRESET';
}

export const CLIENT_ABORT_DETAIL = 'The client closed the connection before its request body was read.';

// Errors that mean "the database cannot be reached right now" (down, restarting,
// connection dropped, pool timeout), as Prisma, its pg adapter and pg report them.
// Requests failing this way get 503 `unavailable` (retry later), not 500.
const UNAVAILABLE_CODES = new Set([
  'P1001', // can't reach database server
  'P1002', // database server timed out
  'P1008', // operation timed out
  'P1017', // server has closed the connection
  'P2024', // timed out fetching a connection from the pool
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  '57014', // query_canceled (statement_timeout)
]);
const UNAVAILABLE_MESSAGE =
  /can't reach database server|server has closed the connection|connection terminated|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode)|timeout exceeded when trying to connect|timed out fetching a new connection|connect ECONNREFUSED|too many clients already|query read timeout/i;

export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; meta?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.meta, depth + 1);
}
