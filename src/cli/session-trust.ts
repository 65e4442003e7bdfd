/**
 * What folder trust means for one session (issue 11 §5): whether the folder is trusted (`--trust`
 * for this run, else the recorded trust), one warning line for whatever the project settings
 * asked for and did not get, and which hooks run. The permission side of the gate — allow rules,
 * `acceptEdits`, `bypassPermissions`/`auto` — lives in permissions/permission-context.ts; this
 * file only reports it, with the same predicates, so the two never disagree.
 */
import { relative } from 'node:path';
import { type ProjectTrust, projectTrust } from '../config/project-trust';
import type { SettingsSource } from '../config/settings-merge';
import { settingsModeApplies, settingsRuleApplies } from '../permissions/permission-context';
import type { Env } from './session-settings';

export type SessionTrust = ProjectTrust & { forRunOnly: boolean };

/** `--trust` trusts this run and records nothing; otherwise the recorded trust decides. */
export async function sessionTrust(
  options: { trust: boolean },
  cwd: string,
  env: Env,
): Promise<SessionTrust> {
  if (options.trust) return { trusted: true, problems: [], forRunOnly: true };
  return { ...(await projectTrust(cwd, env)), forRunOnly: false };
}

/**
 * Project hooks and MCP servers start only in a trusted folder when someone could be asked to
 * trust it (the interactive UI). Headless runs start them either way: nobody is there to ask,
 * and Claude Code connects project MCP servers headless too.
 */
export const projectHooksRun = (trusted: boolean, interactive: boolean): boolean => trusted || !interactive;

/** The sources with one key of the project settings removed (hooks that must not run, …). */
export function withoutProjectKey(
  sources: readonly SettingsSource[],
  key: 'hooks' | 'env' | 'webFetch',
): SettingsSource[] {
  return sources.map((source) => {
    if (source.source !== 'projectSettings' || source.settings[key] === undefined) return source;
    const { [key]: _dropped, ...settings } = source.settings;
    return { ...source, settings };
  });
}

/** The sources with project hooks removed, for a session where they must not run. */
export const withoutProjectHooks = (sources: readonly SettingsSource[]) =>
  withoutProjectKey(sources, 'hooks');

/**
 * What of a project file's `env` and `webFetch.allowedHosts` a session takes. `env` reaches every
 * command and hook (`BASH_ENV`, `PATH=bin:…`, `GIT_PAGER`, `ANTHROPIC_BASE_URL`): it runs code as
 * hooks do, so it applies where project hooks run. Allowed hosts widen what WebFetch reaches, an
 * allow like an allow rule: only in a trusted folder.
 */
export const projectEnvApplies = projectHooksRun;
export const projectAllowedHostsApply = (trusted: boolean): boolean => trusted;

const shown = (path: string | undefined, cwd: string) =>
  path ? relative(cwd, path) || path : 'project settings';

/**
 * One line for each kind of thing the project settings asked for and were refused; empty when
 * nothing was. `explicitMode`: a mode flag was given, so no settings mode would have applied.
 */
export function ignoredProjectSettings(input: {
  sources: readonly SettingsSource[];
  trusted: boolean;
  interactive: boolean;
  explicitMode: boolean;
  cwd: string;
}): string[] {
  const { sources, trusted, cwd } = input;
  const parts: string[] = [];
  const allowIgnored: string[] = [];
  const dirsIgnored: string[] = [];
  let modeIgnored: { mode: string; path?: string } | undefined;
  let neverMode: { mode: string; path?: string } | undefined;
  const hooksIgnored: string[] = [];
  const envIgnored: string[] = [];
  const hostsIgnored: string[] = [];
  for (const { source, path, settings } of sources) {
    const permissions = settings.permissions;
    if (source === 'projectSettings') {
      if (!settingsRuleApplies(source, 'allow', trusted) && permissions?.allow?.length)
        allowIgnored.push(`${permissions.allow.join(', ')} in ${shown(path, cwd)}`);
      if (!settingsRuleApplies(source, 'allow', trusted) && permissions?.additionalDirectories?.length)
        dirsIgnored.push(`${permissions.additionalDirectories.join(', ')} in ${shown(path, cwd)}`);
      if (settings.hooks && !projectHooksRun(trusted, input.interactive)) hooksIgnored.push(shown(path, cwd));
      if (settings.env && !projectEnvApplies(trusted, input.interactive)) envIgnored.push(shown(path, cwd));
      if (settings.webFetch?.allowedHosts?.length && !projectAllowedHostsApply(trusted))
        hostsIgnored.push(shown(path, cwd));
    }
    const mode = permissions?.defaultMode;
    if (!mode || input.explicitMode) continue;
    // A later (higher) source's applicable mode overrides an earlier refused one: no notice then.
    if (settingsModeApplies(source, mode, trusted)) {
      modeIgnored = undefined;
      neverMode = undefined;
    } else if (mode === 'acceptEdits') modeIgnored = { mode, ...(path ? { path } : {}) };
    else neverMode = { mode, ...(path ? { path } : {}) };
  }
  if (allowIgnored.length > 0) parts.push(`allow rules (${allowIgnored.join('; ')})`);
  if (dirsIgnored.length > 0) parts.push(`additionalDirectories (${dirsIgnored.join('; ')})`);
  if (modeIgnored) parts.push(`defaultMode acceptEdits (in ${shown(modeIgnored.path, cwd)})`);
  if (hooksIgnored.length > 0) parts.push(`hooks (in ${hooksIgnored.join(', ')})`);
  if (envIgnored.length > 0) parts.push(`env (in ${envIgnored.join(', ')})`);
  if (hostsIgnored.length > 0) parts.push(`webFetch.allowedHosts (in ${hostsIgnored.join(', ')})`);
  const lines: string[] = [];
  if (parts.length > 0) {
    lines.push(
      `this folder is not trusted, so its project settings' ${parts.join(' and ')} are ignored; run "yoke trust" to trust ${cwd}, or pass --trust for this run`,
    );
  }
  if (neverMode) {
    lines.push(
      `defaultMode ${neverMode.mode} in ${shown(neverMode.path, cwd)} is ignored: project settings never choose ${neverMode.mode}; pass --permission-mode ${neverMode.mode} to choose it yourself`,
    );
  }
  return lines;
}
