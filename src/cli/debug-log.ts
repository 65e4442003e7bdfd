/**
 * The CLI's logger. stdout belongs to the output format (protocol lines only in stream-json), so
 * everything here goes to stderr, or to `--debug-file` when given. Debug lines appear only with
 * `--debug` / `--debug-file`; warnings and errors always reach stderr as one line each.
 */
import { appendFileSync } from 'node:fs';
import { errorLine } from './errors';
import { stderr as processStderr } from './std-streams';

export type DebugLogOptions = {
  debug: boolean;
  debugFile?: string;
  /** Where lines for the user go; process.stderr by default. */
  stderr?: { write(text: string): unknown };
};

export type DebugLog = {
  readonly enabled: boolean;
  debug(message: string): void;
  warn(message: string): void;
  /** One line for the error; its stack only in debug mode. */
  error(error: unknown): void;
};

export function createDebugLog(options: DebugLogOptions): DebugLog {
  // process.stderr is created on first write (std-streams.ts): a start may never print a line.
  const stderr = options.stderr ?? processStderr;
  const enabled = options.debug || options.debugFile !== undefined;
  const toDebugTarget = (line: string) => {
    const stamped = `${new Date().toISOString()} ${line}\n`;
    if (options.debugFile === undefined) {
      stderr.write(stamped);
      return;
    }
    try {
      appendFileSync(options.debugFile, stamped);
    } catch (error) {
      stderr.write(`yoke: cannot write the debug file ${options.debugFile}: ${errorLine(error)}\n`);
    }
  };
  return {
    enabled,
    debug(message) {
      if (enabled) toDebugTarget(`[debug] ${message}`);
    },
    warn(message) {
      stderr.write(`yoke: warning: ${message}\n`);
      if (options.debugFile !== undefined) toDebugTarget(`[warn] ${message}`);
    },
    error(error) {
      stderr.write(`yoke: ${errorLine(error)}\n`);
      if (!enabled) return;
      const stack = error instanceof Error ? error.stack : undefined;
      if (stack) toDebugTarget(`[error] ${stack}`);
    },
  };
}
