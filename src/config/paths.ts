/**
 * Where configuration lives. Yoke reads its own folders and, for compatibility, Claude Code's;
 * every location can be moved by an environment variable so tests never touch the real home.
 */
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../model/types';

export type { Env };

/** `$YOKE_HOME`, else `~/.yoke`. */
export function yokeHome(env: Env): string {
  return nonEmpty(env.YOKE_HOME) ?? join(homeDir(env), '.yoke');
}

/** `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeHome(env: Env): string {
  return nonEmpty(env.CLAUDE_CONFIG_DIR) ?? join(homeDir(env), '.claude');
}

export const PROJECT_YOKE_DIR = '.yoke';
export const PROJECT_CLAUDE_DIR = '.claude';

/** The managed policy file; `YOKE_MANAGED_SETTINGS` moves it (tests, unusual installs). */
export function managedSettingsPath(env: Env): string {
  return nonEmpty(env.YOKE_MANAGED_SETTINGS) ?? '/etc/yoke/managed-settings.json';
}

export type SettingsFileSource = 'user' | 'project' | 'local';

/**
 * The settings files of one source, lowest precedence first: the Claude Code file, then Yoke's,
 * so that Yoke's own file wins where both set the same key.
 */
export function settingsFilePaths(source: SettingsFileSource, cwd: string, env: Env): string[] {
  switch (source) {
    case 'user':
      return [join(claudeHome(env), 'settings.json'), join(yokeHome(env), 'settings.json')];
    case 'project':
      return [join(cwd, PROJECT_CLAUDE_DIR, 'settings.json'), join(cwd, PROJECT_YOKE_DIR, 'settings.json')];
    case 'local':
      return [
        join(cwd, PROJECT_CLAUDE_DIR, 'settings.local.json'),
        join(cwd, PROJECT_YOKE_DIR, 'settings.local.json'),
      ];
  }
}

/** Yoke's own file of a scope, where Yoke writes (the last of `settingsFilePaths`: it wins). */
export function yokeSettingsFile(source: SettingsFileSource, cwd: string, env: Env): string {
  return settingsFilePaths(source, cwd, env).at(-1) as string;
}

/**
 * `HOME` from the given env first, so a test's env fully decides where `~` is. An empty or relative
 * `HOME` (as `env HOME= yoke` or a service manager leaves it) is not a home: it made the project
 * folder the home folder (which trust refuses) and `~/.yoke` a folder in the project. The user's
 * entry in the password database is the fallback (`os.homedir()` returns an empty HOME as is);
 * without one, an error says what to set.
 */
export function homeDir(env: Env, accountHome: () => string | undefined = passwordDatabaseHome): string {
  const home = nonEmpty(env.HOME);
  if (home !== undefined && isAbsolute(home)) return home;
  const fallback = accountHome();
  if (fallback !== undefined && isAbsolute(fallback)) return fallback;
  throw new Error(
    `Yoke cannot tell your home folder: HOME is ${home === undefined ? 'empty' : `"${home}", not an absolute path`} and your account has no home folder. Set HOME to it.`,
  );
}

function passwordDatabaseHome(): string | undefined {
  try {
    return nonEmpty(userInfo().homedir);
  } catch {
    // No entry for this uid (a container run as an arbitrary user).
    return undefined;
  }
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value !== '' ? value : undefined;
}
