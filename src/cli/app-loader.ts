/**
 * Loads the app bundle (`dist/app.js`) for the entry, through the V8 code cache
 * (lib/cached-script.ts). The entry saves the cache once the app reports its first reply to the
 * user, so it holds the functions a start needs — which differ between a `-p` run, a session
 * the Agent SDK drives over stream-json, and the other commands. Each of those ways of starting
 * keeps its own cache, so whichever comes first does not decide for the others.
 */
import { holdBundleCachesForStartup } from '../lib/bundle-cache-timing';
import { runCachedScript } from '../lib/cached-script';
import { beforeV8FlagsChange } from '../lib/v8-flags';

/** What the app bundle exports (src/cli/run.ts). */
export type AppExports = typeof import('./run');

export type StartKind = 'print' | 'stream-json' | 'other';

/** A cheap look at argv, before any parsing: which kind of start this is. */
export function startKind(argv: readonly string[]): StartKind {
  if (
    argv.some(
      (a, i) =>
        a === '--input-format=stream-json' || (a === '--input-format' && argv[i + 1] === 'stream-json'),
    )
  )
    return 'stream-json';
  if (argv.some((a) => a === '-p' || a === '--print')) return 'print';
  return 'other';
}

/**
 * Loads and runs the app; resolves to the exit code. A `-p` run or an SDK session saves its
 * cache once the first reply is out (what it compiled by then is its start), and so do the lazy
 * bundles it loaded by then (the engine's); the other commands are short, and save theirs as the
 * process exits.
 */
export function startApp(
  appPath: string,
  buildId: string,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const kind = startKind(argv);
  const app = runCachedScript<AppExports>(appPath, { name: `app-${kind}`, id: buildId }, env);
  if (kind === 'other') process.once('exit', () => app.saveCodeCache());
  const releaseBundleCaches =
    kind === 'print' || kind === 'stream-json' ? holdBundleCachesForStartup() : () => {};
  // A run switches V8 flags before its first connection (lib/v8-flags.ts); a cache saved after
  // that would not fit the next start, so it is saved then, with what the start compiled so far.
  beforeV8FlagsChange(() => app.saveCodeCache());
  let startupOver = false;
  return app.exports.run([...argv], {
    codeCache: app.codeCache,
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
