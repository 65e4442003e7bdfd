/**
 * Settings as a session uses them: the merged file settings, their problems as one line each,
 * and the environment tools and providers see (process env plus the settings' `env`). The
 * settings tools read reach them through the session's services (tools/session-services.ts).
 */
import { resolve } from 'node:path';
import type { LoadedSettings } from '../config/load-settings';
import type { ContextManagementConfig } from '../engine/context/pipeline';
import type { RuleSource } from '../lib/permission-vocabulary';
import type { Env } from '../model/types';
import { type CliOptions, SETTING_SOURCES, type SettingSource } from './cli-options';
import { withCommittedLocalSettings } from './committed-local-settings';
import { CliUsageError } from './errors';

export type { Env };

export type SessionSettings = {
  loaded: LoadedSettings;
  env: Env;
  warnings: string[];
};

export async function loadSessionSettings(
  options: Pick<CliOptions, 'settings' | 'settingSources' | 'managedSettings'>,
  env: Env,
  cwd: string,
): Promise<SessionSettings> {
  const { loadSettings } = await import('../config/load-settings');
  const files = await loadSettings({
    cwd,
    env,
    cliSettings: options.settings,
    settingSources: options.settingSources,
    managedSettings: options.managedSettings,
  });
  const local = await withCommittedLocalSettings(files, cwd, env);
  const loaded = local.loaded;
  // Each error already names its file, place and what was dropped or kept.
  const warnings = [...loaded.errors.map((e) => e.message), ...loaded.warnings, ...local.warnings];
  const merged = loaded.merged;
  const sessionEnv: Env = { ...env, ...(merged.env ?? {}) };
  return { loaded, env: sessionEnv, warnings };
}

/**
 * `--settings` is what the user asked for by hand: a file that is missing or not valid JSON stops
 * the run (running without it would drop the deny rules it holds). A broken settings file found
 * on disk stops it too when what was dropped may restrict (`refuseLostRestrictions`).
 */
export function requireFlagSettings(
  options: Pick<CliOptions, 'settings'>,
  loaded: LoadedSettings,
  cwd: string,
): void {
  const given = options.settings;
  if (given === undefined || loaded.sources.some((source) => source.source === 'flagSettings')) return;
  // Inline JSON is labelled with the flag, a file with its path (as load-settings.ts reads it).
  const files = new Set(['--settings', resolve(cwd, given)]);
  const problem = loaded.errors.find((error) => files.has(error.file));
  const reason = problem?.message.replace(/; file ignored$/, '') ?? 'it could not be read';
  throw new CliUsageError(`--settings ${given}: ${reason}. Nothing was run.`);
}

/** How a settings source is named to `--setting-sources`. */
const SOURCE_NAMES: Partial<Record<RuleSource, SettingSource>> = {
  userSettings: 'user',
  projectSettings: 'project',
  localSettings: 'local',
};

/**
 * A settings file whose deny rules, ask rules, hooks or other restrictions could not be read
 * stops the session (Claude Code skips such a file with a warning, so its deny rules silently
 * stop applying): one line naming the file, the place and the problem, and how to go on — fix
 * it, or leave its source out with `--setting-sources`. Managed policy cannot be left out.
 */
export function refuseLostRestrictions(
  options: Pick<CliOptions, 'settingSources'>,
  loaded: LoadedSettings,
): void {
  const error = loaded.errors.find((e) => e.lostRestrictions !== undefined);
  if (!error) return;
  const problem = error.message.replace(/; (file ignored|dropped .*)$/, '');
  const name = error.source && SOURCE_NAMES[error.source];
  const enabled = options.settingSources ?? SETTING_SOURCES;
  const way = name
    ? `fix the file, or leave the ${name} settings out with --setting-sources=${enabled.filter((s) => s !== name).join(',')}`
    : 'fix the file (managed policy cannot be left out)';
  throw new CliUsageError(
    `${problem}; its ${error.lostRestrictions} cannot be read, so nothing was run without them: ${way}.`,
  );
}

/** Auto-compact is on unless `--no-auto-compact` or a setting turns it off. */
export function autoCompactEnabled(
  options: Pick<CliOptions, 'autoCompact'>,
  loaded: LoadedSettings,
): boolean {
  const merged = loaded.merged;
  if (!options.autoCompact) return false;
  return merged.autoCompact !== false && merged.autoCompactEnabled !== false;
}

/** The context stages settings switch on (`context.snip`, `context.collapse`); both off by default. */
export function contextStages(loaded: LoadedSettings): Pick<ContextManagementConfig, 'snip' | 'collapse'> {
  const context = loaded.merged.context;
  return {
    ...(context?.snip === true ? { snip: true } : {}),
    ...(context?.collapse === true ? { collapse: true } : {}),
  };
}
