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
