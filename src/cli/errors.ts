/**
 * Exit codes of the herald command-line client, which scripts may rely on, and
 * the errors that carry them. Every failure ends in one of these codes; the
 * --help epilog and the README list them.
 */
export const EXIT = {
  ok: 0,
  /** Bad command line: unknown command or option, missing or malformed argument. */
  usage: 1,
  /** The server refused the request (4xx): its problem's title, detail and code are printed. */
  refused: 2,
  /** The server could not be reached, did not answer within the timeout, or failed (5xx, or a 2xx that is not Herald's). */
  unreachable: 3,
  /** Nothing to do: not your turn (also a 403 not_your_turn), or the game is over. */
  nothingToDo: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An RFC 9457 problem as Herald sends it (application/problem+json). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  [k: string]: unknown;
}

export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly problem: Problem | null;

  constructor(message: string, exitCode: ExitCode, problem: Problem | null = null) {
    super(message);
    this.exitCode = exitCode;
    this.problem = problem;
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}

/**
 * A local file that cannot be read or written (missing folder, no permission, a directory):
 * exit 1 with one line naming the file and the system's error, never blamed on the server.
 */
export function fileError(verb: 'read' | 'write', file: string, err: unknown): CliError {
  // Node's message already names the code and the system call: "EISDIR: illegal operation on a directory, read".
  const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return usageError(`cannot ${verb} ${file}: ${why}`);
}

/** Codes that mean "not now" rather than "no": scripts that poll treat them differently. */
const NOTHING_TO_DO_CODES = new Set(['not_your_turn']);

/** The error for an HTTP answer that is not 2xx. */
export function httpError(status: number, problem: Problem | null, what: string): CliError {
  if (status >= 500) {
    const detail = problem ? `${problem.title ?? ''}${problem.detail ? `: ${problem.detail}` : ''}` : `HTTP ${status}`;
    return new CliError(`${what}: the server failed (${detail})`, EXIT.unreachable, problem);
  }
  // A 4xx is a refusal whatever its body (a proxy's page, or JSON that is no problem document).
  if (problem === null) return new CliError(`${what}: refused (HTTP ${status}; the answer is not a problem document)`, EXIT.refused);
  const code = problem.code ? ` [${problem.code}]` : '';
  const message = `${problem.title ?? `HTTP ${status}`} (${status})${code}${problem.detail ? `: ${problem.detail}` : ''}`;
  const exit = problem.code && NOTHING_TO_DO_CODES.has(problem.code) ? EXIT.nothingToDo : EXIT.refused;
  return new CliError(message, exit, problem);
}
