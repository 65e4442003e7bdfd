/**
 * The settings a session runs with: the settings files and the folder's trust, read together,
 * then what an untrusted project may not set taken out — its hooks, env and baseUrl where someone
 * could trust the folder, and its WebFetch hosts (an allow by host) anywhere — with one warning
 * line for each thing the project asked for and did not get.
 */
import type { Settings } from '../config/settings-schema';
import type { CliOptions } from './cli-options';
import { requestedPermissionMode } from './session-permissions';
import {
  type Env,
  loadSessionSettings,
  refuseLostRestrictions,
  requireFlagSettings,
  type SessionSettings,
} from './session-settings';
import {
  appliedSettings,
  gatedProjectKeys,
  ignoredProjectSettings,
  type SessionTrust,
  sessionTrust,
} from './session-trust';

export type AppliedSessionSettings = {
  settings: SessionSettings;
  trust: SessionTrust;
  /** The merged settings less the gated project keys. */
  applied: Settings;
  /** The process environment with the applied settings' `env`. */
  sessionEnv: Env;
  trustWarnings: string[];
};

export async function applySessionSettings(
  options: CliOptions,
  env: Env,
  cwd: string,
): Promise<AppliedSessionSettings> {
  const interactive = !options.print;
  const [settings, trust] = await Promise.all([
    loadSessionSettings(options, env, cwd),
    sessionTrust(options, cwd, env),
  ]);
  requireFlagSettings(options, settings.loaded, cwd);
  refuseLostRestrictions(options, settings.loaded);
  const trustWarnings = [
    ...trust.problems,
    ...ignoredProjectSettings({
      sources: settings.loaded.sources,
      trusted: trust.trusted,
      interactive,
      explicitMode: requestedPermissionMode(options) !== undefined,
      cwd,
    }),
  ];
  const { merged: applied, env: sessionEnv } = appliedSettings(
    settings,
    env,
    gatedProjectKeys(trust.trusted, interactive),
  );
  return { settings, trust, applied, sessionEnv, trustWarnings };
}
