// The HTTP face of the service's errors: each ServiceError code's status, and
// the problem document of any error a route or resolver may let through. The
// service itself knows only codes (src/service/errors.ts).
import { ServiceError, type ErrorCode } from '../service/api.ts';
import { HttpProblem, problem, type Problem } from './problem.ts';

/** A Record over every code: adding a code to ERROR_CODES fails to typecheck until it has a status here. */
export const SERVICE_ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_your_turn: 403,
  not_found: 404,
  version_conflict: 409,
  game_over: 409,
  invalid_state: 409,
  illegal_action: 422,
  invalid_options: 422,
  invalid_record: 422,
  invalid_settings: 422,
  registration_closed: 409,
  round_in_progress: 409,
  round_published: 409,
  result_recorded: 409,
  invalid_pairing: 422,
  no_pairing: 422,
  invalid_time_control: 422,
  vacation_not_allowed: 422,
  deadline_passed: 409,
  not_claimable: 409,
  ai_level_unavailable: 422,
  game_type_unavailable: 409,
  limit_reached: 409,
  rate_limited: 429,
  unavailable: 503,
};

/** The problem document of a ServiceError or HttpProblem; null for anything else (a bug, or a framework error). */
export function knownProblem(err: unknown): Problem | null {
  if (err instanceof ServiceError) return problem(SERVICE_ERROR_STATUS[err.code], err.code, err.message, err.extensions);
  if (err instanceof HttpProblem) return err.toProblem();
  return null;
}
