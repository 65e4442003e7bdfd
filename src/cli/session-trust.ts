/**
 * What folder trust means for one session (issue 11 §5): whether the folder is trusted (`--trust`
 * for this run, else the recorded trust), one warning line for whatever the project settings
 * asked for and did not get, and which hooks run. The permission side of the gate — allow rules,
 * `acceptEdits`, `bypassPermissions`/`auto` — lives in permissions/permission-context.ts; this
 * file only reports it, with the same predicates, so the two never disagree.
 */
import { relative } from 'node:path';
import { type ProjectTrust, projectTrust } from '../config/project-trust';
import { mergeSettings, type SettingsSource } from '../config/settings-merge';
import type { Settings } from '../config/settings-schema';
import { settingsModeApplies, settingsRuleApplies } from '../permissions/permission-context';
import type { Env, SessionSettings } from './session-settings';

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
 * Project settings that run code or decide where the session's credentials go — hooks (and MCP
 * servers), `env` (`BASH_ENV`, `LD_PRELOAD`, `NODE_OPTIONS` run code in every command; a base URL
 * variable sends the API key elsewhere), `baseUrl`, and `agent` (the repository's own system
 * prompt, and an `initialPrompt` the REPL sends without the user typing) — apply only in a trusted folder when
 * someone could be asked to trust it (the interactive UI). Headless runs apply them either way:
 * nobody is there to ask, and Claude Code connects project MCP servers headless too.
 */
export const projectCodeRuns = (trusted: boolean, interactive: boolean): boolean => trusted || !interactive;

/** `webFetch.allowedHosts` widens what WebFetch may reach, as an allow rule does: trusted folders only. */
export const projectAllowedHostsApply = (trusted: boolean): boolean => trusted;

/** The keys of project settings that `projectCodeRuns` gates. */
export const CODE_KEYS = ['hooks', 'env', 'baseUrl', 'agent'] as const;

/** The keys of project settings a session may have to leave out until the folder is trusted. */
export type GatedKey = (typeof CODE_KEYS)[number] | 'webFetch';

/** The project's settings the session may not apply, given the folder's trust. */
export function gatedProjectKeys(trusted: boolean, interactive: boolean): GatedKey[] {
  return [
    ...(projectCodeRuns(trusted, interactive) ? [] : CODE_KEYS),
    ...(projectAllowedHostsApply(trusted) ? [] : (['webFetch'] as const)),
  ];
}

/** The sources with these keys of the project settings removed, for a session where they must wait. */
export function withoutProjectKeys(
  sources: readonly SettingsSource[],
  keys: readonly GatedKey[],
): SettingsSource[] {
  return sources.map((source) => {
    if (source.source !== 'projectSettings' || !keys.some((key) => key in source.settings)) return source;
    const settings = { ...source.settings };
    for (const key of keys) delete settings[key];
    return { ...source, settings };
  });
}

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
  let localMode: { mode: string; path?: string } | undefined;
  const codeIgnored: Map<string, string[]> = new Map();
  const hostsIgnored: string[] = [];
  for (const { source, path, settings } of sources) {
    const permissions = settings.permissions;
    if (source === 'projectSettings') {
      if (!settingsRuleApplies(source, 'allow', trusted) && permissions?.allow?.length)
        allowIgnored.push(`${permissions.allow.join(', ')} in ${shown(path, cwd)}`);
      if (!settingsRuleApplies(source, 'allow', trusted) && permissions?.additionalDirectories?.length)
        dirsIgnored.push(`${permissions.additionalDirectories.join(', ')} in ${shown(path, cwd)}`);
      if (!projectCodeRuns(trusted, input.interactive)) {
        for (const key of CODE_KEYS) {
          if (settings[key] === undefined) continue;
          codeIgnored.set(key, [...(codeIgnored.get(key) ?? []), shown(path, cwd)]);
        }
      }
      if (settings.webFetch?.allowedHosts?.length && !projectAllowedHostsApply(trusted))
        hostsIgnored.push(shown(path, cwd));
    }
    const mode = permissions?.defaultMode;
    if (!mode || input.explicitMode) continue;
    // A later (higher) source's applicable mode overrides an earlier refused one: no notice then.
    if (settingsModeApplies(source, mode, trusted)) {
      modeIgnored = undefined;
      neverMode = undefined;
      localMode = undefined;
    } else if (source === 'localSettings') localMode = { mode, ...(path ? { path } : {}) };
    else if (mode === 'acceptEdits') modeIgnored = { mode, ...(path ? { path } : {}) };
    else neverMode = { mode, ...(path ? { path } : {}) };
  }
  if (allowIgnored.length > 0) parts.push(`allow rules (${allowIgnored.join('; ')})`);
  if (dirsIgnored.length > 0) parts.push(`additionalDirectories (${dirsIgnored.join('; ')})`);
  if (modeIgnored) parts.push(`defaultMode acceptEdits (in ${shown(modeIgnored.path, cwd)})`);
  for (const [key, files] of codeIgnored) parts.push(`${key} (in ${files.join(', ')})`);
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
  if (localMode) {
    lines.push(
      `defaultMode ${localMode.mode} in ${shown(localMode.path, cwd)} is ignored until this folder is trusted: a local settings file can come with the folder (an archive, a script it ran); run "yoke trust" to trust ${cwd}, or pass --permission-mode ${localMode.mode}`,
    );
  }
  return lines;
}

/**
 * The settings and environment a session applies: everything loaded, less the gated keys of the
 * project's settings (`gatedProjectKeys`), with the environment rebuilt without them.
 */
export function appliedSettings(
  settings: SessionSettings,
  env: Env,
  gated: readonly GatedKey[],
): { merged: Settings; env: Env } {
  const merged = settings.loaded.merged;
  if (gated.length === 0) return { merged, env: settings.env };
  const applied = mergeSettings(withoutProjectKeys(settings.loaded.sources, gated));
  return { merged: applied, env: { ...env, ...(applied.env ?? {}) } };
}
