/**
 * Which REPL a terminal gets: the full UI (Ink), or the line mode where the terminal cannot be
 * assumed to understand escape sequences. Each is loaded only when chosen, so the line mode never
 * loads Ink.
 */
import type { CliOptions } from '../cli/cli-options';
import type { DebugLog } from '../cli/debug-log';
import type { Env } from '../cli/session-setup';
import { loadInk } from './ink-runtime';

/** TERM=dumb, or no TERM at all. */
export function isLineModeTerminal(env: Readonly<Record<string, string | undefined>>): boolean {
  const term = env.TERM?.trim() ?? '';
  return term === '' || term === 'dumb';
}

export async function startInteractive(
  options: CliOptions,
  context: { env: Env; cwd: string; log: DebugLog },
): Promise<number> {
  if (isLineModeTerminal(context.env)) {
    const { runLineRepl } = await import('./line-mode/run-line-repl');
    return runLineRepl(options, context);
  }
  // Loading Ink starts its layout engine's WebAssembly compiling in the background: begun before
  // the REPL's own modules initialise, it is ready by the time the first frame needs it.
  const ink = loadInk(context.env);
  ink.catch(() => {}); // runRepl awaits it and reports the failure
  const { runRepl } = await import('./run-repl');
  return runRepl(options, context, ink);
}
