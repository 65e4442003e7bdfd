/**
 * Parses argv and runs the chosen command. Returns the process exit code; never throws.
 * Order: normalize argv (unknown flags → warnings) → commander → validated `CliOptions` →
 * feature checks → the headless run.
 */

import { CommanderError } from 'commander';
import { saveBundleCachesLate } from '../lib/bundle-cache-timing';
import type { CodeCacheState } from '../lib/cached-script';
import type { CliOptions } from './cli-options';
import { createDebugLog } from './debug-log';
import { reportCliError } from './errors';
import { parseCliArgs } from './parse-args';
import { buildProgram } from './program';
import { stderr } from './std-streams';
import { MOCK_SERVER_COMMAND } from './subcommand-names';
import { runSubcommand, SUBCOMMANDS, subcommandTypo } from './subcommands';
import { checkAvailableFeatures } from './unavailable';

async function runMockServer(argv: string[]): Promise<number> {
  const program = buildProgram({
    onRoot: () => {},
    onMockServer: async (opts) => {
      const { runMockServerCli } = await import('../testing/mock-server/cli');
      await runMockServerCli(opts);
    },
  });
  await program.parseAsync(argv, { from: 'user' });
  return 0;
}

/** What the entry offers the app. */
export type RunHooks = {
  /** How the entry compiled the app (lib/cached-script.ts), for `--debug`. */
  codeCache?: CodeCacheState;
  /** Called on every reply written to the user; the first one ends the start (later calls are no-ops). */
  startupComplete?: () => void;
  /** Called as the REPL starts, once its bundles save their caches late: the app's is saved with them. */
  replStarting?: () => void;
};

/** Without -p or stream-json, and without a terminal to talk to: say how to run headless. */
const NO_TERMINAL =
  'the interactive UI needs a terminal (stdin and stdout a TTY); use -p "<prompt>" for a headless run.';

export async function run(argv: string[], hooks: RunHooks = {}): Promise<number> {
  const debugRequested = argv.some((a) => a === '--debug' || a === '-d' || a.startsWith('--debug='));
  let options: CliOptions;
  try {
    if (argv[0] === MOCK_SERVER_COMMAND) return await runMockServer(argv);
    if ((SUBCOMMANDS as readonly string[]).includes(argv[0] ?? '')) {
      return await runSubcommand(argv, { cwd: process.cwd(), env: process.env });
    }
    const typo = subcommandTypo(argv);
    if (typo) throw typo;
    const parsed = parseCliArgs(argv);
    for (const warning of parsed.warnings) stderr.write(`yoke: warning: ${warning}\n`);
    options = parsed.options;
  } catch (error) {
    // Help and version are "errors" to commander; their output is already written.
    if (error instanceof CommanderError) return error.exitCode;
    return reportCliError(error, debugRequested);
  }

  const log = createDebugLog({ debug: options.debug, debugFile: options.debugFile });
  if (hooks.codeCache) log.debug(`code cache: ${hooks.codeCache}`);
  try {
    checkAvailableFeatures(options);
    if (!options.print) {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        stderr.write(`yoke: ${NO_TERMINAL}\n`);
        return 1;
      }
      const problem = await (await import('./interactive-precheck')).interactiveStartProblem(
        options,
        process.env,
        process.cwd(),
      );
      if (problem !== undefined) {
        stderr.write(`yoke: ${problem}\n`);
        return 1;
      }
      // The REPL's bundles keep what typing and streaming compiled (lib/bundle-cache-timing.ts).
      saveBundleCachesLate();
      hooks.replStarting?.();
      const { startInteractive } = await import('../tui/start');
      return await startInteractive(options, { env: process.env, cwd: process.cwd(), log });
    }
    const { runPrint } = await import('./print');
    return await runPrint(options, {
      env: process.env,
      cwd: process.cwd(),
      log,
      startupComplete: hooks.startupComplete,
    });
  } catch (error) {
    log.error(error);
    return 1;
  }
}
