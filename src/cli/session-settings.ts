/**
 * Settings as a session uses them: the merged file settings, their problems as one line each,
 * and the environment tools and providers see (process env plus the settings' `env`, and the
 * settings that tools read through the environment).
 */
import type { LoadedSettings } from '../config/load-settings';
import { mergeSettings } from '../config/settings-merge';
import type { Env } from '../model/types';
import type { CliOptions } from './cli-options';
import { projectAllowedHostsApply, projectEnvApplies, withoutProjectKey } from './session-trust';

export type { Env };

export type SessionSettings = {
  loaded: LoadedSettings;
  env: Env;
  warnings: string[];
};

/** Whether the folder is trusted and the session interactive: what project settings may add. */
export type SettingsTrust = { trusted: boolean; interactive: boolean };

export async function loadSessionSettings(
  options: Pick<CliOptions, 'settings' | 'settingSources' | 'managedSettings'>,
  env: Env,
  cwd: string,
  trust: Promise<SettingsTrust> | SettingsTrust,
): Promise<SessionSettings> {
  const { loadSettings } = await import('../config/load-settings');
  const loaded = await loadSettings({
    cwd,
    env,
    cliSettings: options.settings,
    settingSources: options.settingSources,
    managedSettings: options.managedSettings,
  });
  if (loaded.fatal) throw new Error(loaded.fatal);
  // Each error already names its file, place and what was dropped or kept.
  const warnings = [...loaded.errors.map((e) => e.message), ...loaded.warnings];
  const merged = loaded.merged;
  const { trusted, interactive } = await trust;
  // An untrusted project's `env` and allowed hosts are left out (session-trust.ts says which apply).
  let sources = loaded.sources;
  if (!projectEnvApplies(trusted, interactive)) sources = withoutProjectKey(sources, 'env');
  if (!projectAllowedHostsApply(trusted)) sources = withoutProjectKey(sources, 'webFetch');
  const applied = sources === loaded.sources ? merged : mergeSettings(sources);
  const sessionEnv: Env = { ...env, ...(applied.env ?? {}) };
  const allowedHosts = applied.webFetch?.allowedHosts;
  if (allowedHosts && allowedHosts.length > 0) {
    const existing = sessionEnv.YOKE_WEBFETCH_ALLOW_HOSTS;
    sessionEnv.YOKE_WEBFETCH_ALLOW_HOSTS = [existing, ...allowedHosts].filter(Boolean).join(',');
  }
  if (merged.bashOutputMaxChars !== undefined && sessionEnv.BASH_MAX_OUTPUT_LENGTH === undefined) {
    sessionEnv.BASH_MAX_OUTPUT_LENGTH = String(merged.bashOutputMaxChars);
  }
  return { loaded, env: sessionEnv, warnings };
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
