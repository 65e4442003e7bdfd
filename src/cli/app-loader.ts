/**
 * Loads the app bundle (`dist/app.js`) for the entry, through the V8 code cache
 * (lib/cached-script.ts). The entry saves the cache once the app reports its first reply to the
 * user, so it holds the functions a start needs — which differ between a `-p` run, a session
 * the Agent SDK drives over stream-json, the REPL and the other commands. Each of those ways of starting
 * keeps its own cache, so whichever comes first does not decide for the others.
 */
import { holdBundleCachesForStartup, scheduleCodeCacheSave } from '../lib/bundle-cache-timing';
import { runCachedScript } from '../lib/cached-script';
import { beforeV8FlagsChange } from '../lib/v8-flags';
import { MOCK_SERVER_COMMAND, SUBCOMMANDS } from './subcommand-names';

/** What the app bundle exports (src/cli/run.ts). */
export type AppExports = typeof import('./run');

export type StartKind = 'print' | 'stream-json' | 'repl' | 'other';

const HELP_OR_VERSION = new Set(['-h', '--help', '-v', '-V', '--version']);

/**
 * A cheap look at argv, before any parsing: which kind of start this is. A REPL's cache is its
 * own: were it shared with the subcommands', the first command after an install (`yoke trust`,
 * `yoke mcp add`) would decide what every later launch finds compiled.
 */
export function startKind(argv: readonly string[]): StartKind {
  if (
    argv.some(
      (a, i) =>
        a === '--input-format=stream-json' || (a === '--input-format' && argv[i + 1] === 'stream-json'),
    )
  )
    return 'stream-json';
  if (argv.some((a) => a === '-p' || a === '--print')) return 'print';
  const first = argv[0];
  if (first === MOCK_SERVER_COMMAND || (SUBCOMMANDS as readonly string[]).includes(first ?? ''))
    return 'other';
  return argv.some((a) => HELP_OR_VERSION.has(a)) ? 'other' : 'repl';
}

/**
 * Loads and runs the app; resolves to the exit code. A `-p` run or an SDK session saves its
 * cache once the first reply is out (what it compiled by then is its start), and so do the lazy
 * bundles it loaded by then (the engine's); a REPL saves its cache with its bundles'; the other
 * commands are short, and save theirs as the process exits.
 */
export function startApp(
  appPath: string,
  buildId: string,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const kind = startKind(argv);
  // The build cannot warm a REPL (it needs a terminal): its first launch uses the other commands'.
  const identity = { name: `app-${kind}`, id: buildId, ...(kind === 'repl' ? { standIn: 'app-other' } : {}) };
  const app = runCachedScript<AppExports>(appPath, identity, env);
  if (kind === 'other') process.once('exit', () => app.saveCodeCache());
  const releaseBundleCaches =
    kind === 'print' || kind === 'stream-json' ? holdBundleCachesForStartup() : () => {};
  // A run switches V8 flags before its first connection (lib/v8-flags.ts); a cache saved after
  // that would not fit the next start, so it is saved then, with what the start compiled so far.
  beforeV8FlagsChange(() => app.saveCodeCache());
  let startupOver = false;
  return app.exports.run([...argv], {
    codeCache: app.codeCache,
    // The REPL's cache is saved with its bundles' (lib/bundle-cache-timing.ts): once typing and
    // streaming have run, not at an exit after hours, when V8 has dropped the launch's bytecode.
    replStarting: () => scheduleCodeCacheSave(() => app.saveCodeCache()),
    startupComplete: () => {
      if (startupOver) return;
      startupOver = true;
      setImmediate(() => {
        app.saveCodeCache();
        releaseBundleCaches();
      });
    },
  });
}
