import { ModelError } from '../model/errors';

/**
 * Prints one actionable line for an error that ends the CLI, and returns the exit code.
 * Stack traces only with --debug.
 */
export function reportCliError(error: unknown, debug: boolean): number {
  const line =
    error instanceof ModelError ? error.describe() : error instanceof Error ? error.message : String(error);
  process.stderr.write(`yoke: ${line}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
}
