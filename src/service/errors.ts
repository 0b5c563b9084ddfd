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
  /** League settings out of range or inconsistent (extensions.setting names the one). */
  'invalid_settings',
  /** Registration is not open, or the league is full (extensions.reason). */
  'registration_closed',
  /** A round is still open (draft or published and not complete): the next one cannot be generated yet. */
  'round_in_progress',
  /** The round is published: its pairings can no longer be edited, and it cannot be deleted. */
  'round_published',
  /** The board already has a final result (a correction is setResult, by an organiser). */
  'result_recorded',
  /** A pairing or pairing edit that breaks the league's rules: a withdrawn player, a player twice, not an entrant. */
  'invalid_pairing',
  /** No pairing of the remaining players satisfies the rules (e.g. every possible opponent already met). */
  'no_pairing',
  /** A time control out of range or malformed (extensions.field, extensions.problems list each problem). */
  'invalid_time_control',
  /** Vacation refused by the allowance: none left this year, or a planned end beyond it (extensions.reason). */
  'vacation_not_allowed',
  /**
   * A move after its seat's deadline: the game was ended by timeout in the same request (under
   * onTimeout claim only when no claim is needed: a seat never moved, or both ran out at once).
   */
  'deadline_passed',
  /**
   * A claim of a win on time that is not open (extensions.reason): the game's control does not
   * say onTimeout claim (`policy`), nobody is out of time (`time_left`), or the caller's seat is
   * the one out of time (`own_time`).
   */
  'not_claimable',
  /** An AI level this game type cannot be played at (only random, where its module cannot sample states): extensions.levels lists the ones it can. */
  'ai_level_unavailable',
  /**
   * A stored game of a game type this server cannot play now (Black & White without a valid
   * data file: README "Black & White's data"): its view, actions, log, pictures and rematch
   * need the rules; extensions.gameType and missing (why) say what the operator must fix.
   */
  'game_type_unavailable',
  /** A per-owner cap is reached (e.g. webhook endpoints; extensions.limit): delete something first. */
  'limit_reached',
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
