import { ModelError } from '../model/errors';
import { stderr } from './std-streams';

/** A bad flag, value or combination: one line for the user, exit code 1, never a stack. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/** The one line an error is reported with (model errors include status and request id). */
export function errorLine(error: unknown): string {
  return error instanceof ModelError
    ? error.describe()
    : error instanceof Error
      ? error.message
      : String(error);
}

/**
 * Prints one actionable line for an error that ends the CLI, and returns the exit code.
 * Stack traces only with --debug.
 */
export function reportCliError(error: unknown, debug: boolean): number {
  stderr.write(`yoke: ${errorLine(error)}\n`);
  if (debug && !(error instanceof CliUsageError) && error instanceof Error && error.stack) {
    stderr.write(`${error.stack}\n`);
  }
  return 1;
}
