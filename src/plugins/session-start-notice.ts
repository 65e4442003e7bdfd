/**
 * A plugin reload does not start the session again. SessionStart fires when a session starts
 * (its `source` is startup, resume, clear or compact: compat-surface §2), and nothing in Claude
 * Code's hook or SDK reference makes a reload a start. So the SessionStart hooks that a reload
 * brings (a new plugin's, or a changed one's) do not run in a session that has started already:
 * they run at the next start. Before the first turn the session has not started, and they run
 * with the rest. The reload says so in one line, since a plugin author would otherwise wait for
 * context that never comes.
 */
import { isDeepStrictEqual } from 'node:util';
import type { SessionPlugins } from './session-plugins';

/** The plugins whose SessionStart hooks `after` has and `before` did not have in that form. */
export function newSessionStartHooks(before: SessionPlugins, after: SessionPlugins): string[] {
  // Hooks turned off by policy: nothing would run at any start either.
  if (!after.hooks?.SessionStart) return [];
  const had = new Map(before.plugins.map((p) => [p.pluginName, p.hooks?.SessionStart]));
  return after.plugins
    .filter((p) => (p.hooks?.SessionStart?.length ?? 0) > 0)
    .filter((p) => !isDeepStrictEqual(had.get(p.pluginName), p.hooks?.SessionStart))
    .map((p) => p.pluginName);
}

/** The one line a reload says about them. */
export function sessionStartNotice(plugins: readonly string[]): string {
  const names = plugins.map((name) => `"${name}"`).join(', ');
  const whose = plugins.length === 1 ? `plugin ${names}` : `plugins ${names}`;
  return `reload: the SessionStart hooks of ${whose} did not run: a reload does not start the session again; they run when a session starts (a new session, a resume, or /clear in the REPL).`;
}
