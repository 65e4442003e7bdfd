/**
 * Loads the app bundle (`dist/app.js`) for the entry, through the V8 code cache
 * (lib/cached-script.ts). The entry saves the cache once the app reports its first reply to the
 * user, so it holds exactly the functions a start needs.
 */
import { type CachedScript, runCachedScript } from '../lib/cached-script';

/** What the app bundle exports (src/cli/run.ts). */
export type AppExports = typeof import('./run');

export function loadApp(
  appPath: string,
  buildId: string,
  env: Readonly<Record<string, string | undefined>>,
): CachedScript<AppExports> {
  return runCachedScript<AppExports>(appPath, { name: 'app', id: buildId }, env);
}
