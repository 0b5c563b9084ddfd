// The service's one error type (see api.ts): a stable code, an HTTP status, a
// sentence and extensions. It is an HttpProblem so REST routes let it throw.
import { HttpProblem } from '../http/problem.ts';

export const ERROR_CODES = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_your_turn: 403,
  not_found: 404,
  version_conflict: 409,
  game_over: 409,
  /** A lifecycle step that the game's status does not allow (join a started game, abort after the first action...). */
  invalid_state: 409,
  illegal_action: 422,
  /** Game options the scenario does not declare, or of another type, or out of range (extensions.option names it). */
  invalid_options: 422,
  /** An imported game record that does not replay through the engine. */
  invalid_record: 422,
  /** Used by the rate-limit plugin (DELIVERY). */
  rate_limited: 429,
  /** The database is unreachable (down, restarting): retry shortly. */
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

const RESERVED = new Set(['type', 'title', 'status', 'detail', 'code']);

export class ServiceError extends HttpProblem {
  declare readonly code: ErrorCode;
  constructor(code: ErrorCode, detail: string, extensions: Record<string, unknown> = {}) {
    // Extensions never override the problem's own members (a `status` extension once turned a 409 into a 500).
    const safe = Object.fromEntries(Object.entries(extensions).filter(([k]) => !RESERVED.has(k)));
    super(ERROR_CODES[code], code, detail, safe);
    this.name = 'ServiceError';
  }
  get detail(): string {
    return this.message;
  }
  /** Alias of `extensions` (e.g. `{ legalActions }`, `{ currentVersion }`). */
  get extra(): Record<string, unknown> {
    return this.extensions;
  }
}

