// The service's one error type (see api.ts): a stable code, a sentence and
// extensions. It knows nothing of HTTP: src/http/service-errors.ts maps each
// code to a status (REST problem+json, GraphQL extensions.status).

/** Every code a ServiceError may carry. Clients act on these; the HTTP layer gives each a status. */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_your_turn',
  'not_found',
  'version_conflict',
  'game_over',
  /** A lifecycle step that the game's status does not allow (join a started game, abort after the first action...). */
  'invalid_state',
  'illegal_action',
  /** Game options the scenario does not declare, or of another type, or out of range (extensions.option names it). */
  'invalid_options',
  /** An imported game record that does not replay through the engine. */
  'invalid_record',
  /** Used by the rate-limit plugin (DELIVERY). */
  'rate_limited',
  /** The database is unreachable (down, restarting): retry shortly. */
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ServiceError extends Error {
  readonly code: ErrorCode;
  /** Facts the client can act on (e.g. `{ legalActions }`, `{ currentVersion }`). */
  readonly extensions: Record<string, unknown>;
  constructor(code: ErrorCode, detail: string, extensions: Record<string, unknown> = {}) {
    super(detail);
    this.name = 'ServiceError';
    this.code = code;
    this.extensions = extensions;
  }
  get detail(): string {
    return this.message;
  }
  /** Alias of `extensions`. */
  get extra(): Record<string, unknown> {
    return this.extensions;
  }
}
