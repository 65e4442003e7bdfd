/**
 * A `settings.local.json` is the user's own file: it applies without trust (issue 11 §5, as in
 * Claude Code), because Claude Code and Yoke keep it out of version control. One the repository
 * tracks came with the repository instead — anyone could have committed it, with allow rules,
 * `bypassPermissions` or hooks — so it is treated as what it is: project settings, gated by trust.
 * Whether git tracks it is asked with git's code-running configuration switched off (a planted
 * `core.fsmonitor` would otherwise run on `ls-files`).
 */
import type { LoadedSettings } from '../config/load-settings';
import { NEUTRAL_GIT_CONFIG, runGit, withGitConfig } from '../permissions/git-neutral-env';
import type { Env } from './session-settings';

/** Which of `paths` the repository around `cwd` tracks (none outside a repository). */
async function trackedPaths(paths: readonly string[], cwd: string, env: Env): Promise<Set<string>> {
  const result = await runGit(['ls-files', '-z', '--full-name', '--error-unmatch', '--', ...paths], {
    cwd,
    env: { ...withGitConfig(env, NEUTRAL_GIT_CONFIG), GIT_OPTIONAL_LOCKS: '0' } as NodeJS.ProcessEnv,
    timeoutMs: 5_000,
    maxBuffer: 64 * 1024,
  });
  // --error-unmatch fails the whole call when any path is untracked: ask per path then.
  if (result.code === 0) return new Set(paths);
  if (paths.length === 1) return new Set();
  const each = await Promise.all(
    paths.map(async (path) => ((await trackedPaths([path], cwd, env)).size ? path : '')),
  );
  return new Set(each.filter(Boolean));
}

/**
 * The settings with every git-tracked local settings file (and its rules) turned into project
 * settings, and one line per such file saying so. Without a local settings file, git is not run.
 */
export async function withCommittedLocalSettings(
  loaded: LoadedSettings,
  cwd: string,
  env: Env,
): Promise<{ loaded: LoadedSettings; warnings: string[] }> {
  const local = loaded.sources.flatMap((s) => (s.source === 'localSettings' && s.path ? [s.path] : []));
  if (local.length === 0) return { loaded, warnings: [] };
  const tracked = await trackedPaths(local, cwd, env);
  if (tracked.size === 0) return { loaded, warnings: [] };
  const committed = (source: string, path: string | undefined) =>
    source === 'localSettings' && path !== undefined && tracked.has(path);
  const warnings = [...tracked].map(
    (path) =>
      `${path} is tracked by git, so it came with the repository rather than from you: it is treated as project settings (its allow rules, acceptEdits and hooks need a trusted folder)`,
  );
  return {
    loaded: {
      ...loaded,
      sources: loaded.sources.map((s) =>
        committed(s.source, s.path) ? { ...s, source: 'projectSettings' } : s,
      ),
      rules: loaded.rules.map((r) => (committed(r.source, r.path) ? { ...r, source: 'projectSettings' } : r)),
    },
    warnings,
  };
}
