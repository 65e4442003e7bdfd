/**
 * Loads every settings source, lowest precedence first: user < project < local < `--settings` <
 * managed policy (the files, then `--managed-settings`). Within user, project and local the `.claude/` file loads before the `.yoke/`
 * one, so Yoke's file wins a conflict. All files are read in parallel.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { RuleSource } from '../lib/permission-vocabulary';
import { type Env, managedSettingsPath, type SettingsFileSource, settingsFilePaths } from './paths';
import {
  type ParsedSettings,
  parseSettingsText,
  readSettingsFile,
  type SettingsError,
} from './settings-file';
import { collectRules, mergeSettings, type SettingsRule, type SettingsSource } from './settings-merge';
import { settingsNotices } from './settings-notices';
import type { Settings } from './settings-schema';

export type LoadSettingsOptions = {
  cwd: string;
  env: Env;
  /** `--settings`: a file path (relative to cwd) or an inline JSON object. */
  cliSettings?: string;
  /** `--setting-sources`: which of user/project/local load; CLI and policy always load. */
  settingSources?: readonly SettingsFileSource[];
  /** `--managed-settings`: policy settings as JSON from the host (the SDK's `managedSettings`). */
  managedSettings?: string;
};

export type LoadedSettings = {
  merged: Settings;
  /** The sources that loaded, lowest precedence first; one entry per file. */
  sources: SettingsSource[];
  /** One entry per problem, each naming its file; loading went on without the bad parts. */
  errors: SettingsError[];
  /** Values that loaded in a corrected form, one line each naming the file. */
  warnings: string[];
  /** Every permission rule tagged with its source, in the order of `sources`. */
  rules: SettingsRule[];
};

const FILE_SOURCES: readonly { name: SettingsFileSource; source: RuleSource }[] = [
  { name: 'user', source: 'userSettings' },
  { name: 'project', source: 'projectSettings' },
  { name: 'local', source: 'localSettings' },
];

type Pending = { source: RuleSource; path?: string; read: Promise<ParsedSettings> };

export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const { cwd, env } = options;
  const enabled = new Set(options.settingSources ?? FILE_SOURCES.map((s) => s.name));
  const pending: Pending[] = [];
  for (const { name, source } of FILE_SOURCES) {
    if (!enabled.has(name)) continue;
    for (const path of settingsFilePaths(name, cwd, env)) {
      pending.push({ source, path, read: readSettingsFile(path) });
    }
  }
  if (options.cliSettings !== undefined) pending.push(cliSource(options.cliSettings, cwd));
  pending.push(...(await policySources(env)));
  if (options.managedSettings !== undefined) {
    const read = Promise.resolve(parseSettingsText(options.managedSettings, MANAGED_FLAG));
    pending.push({ source: 'policySettings', read });
  }

  const sources: SettingsSource[] = [];
  const errors: SettingsError[] = [];
  const warnings: string[] = [];
  const results = await Promise.all(pending.map((p) => p.read));
  results.forEach((result, i) => {
    const { source, path } = pending[i] as Pending;
    errors.push(...(result.errors ?? []).map((error) => ({ ...error, source })));
    warnings.push(...(result.warnings ?? []));
    if (!result.settings) return;
    sources.push(
      path === undefined
        ? { source, settings: result.settings }
        : { source, path, settings: result.settings },
    );
  });
  const notices = settingsNotices(
    sources.map((s) => ({ label: settingsSourceLabel(s), settings: s.settings, source: s.source })),
  );
  warnings.push(...notices.warnings);
  errors.push(...notices.errors);
  return {
    merged: mergeSettings(sources),
    sources,
    errors,
    warnings,
    rules: collectRules(sources),
  };
}

const MANAGED_FLAG = '--managed-settings';

/** How messages name a source: its file, or the flag that carried it inline. */
export function settingsSourceLabel(source: SettingsSource): string {
  return source.path ?? (source.source === 'policySettings' ? MANAGED_FLAG : '--settings');
}

/** Inline JSON when it looks like an object, otherwise a path; a named file must exist. */
function cliSource(value: string, cwd: string): Pending {
  if (value.trim().startsWith('{')) {
    return { source: 'flagSettings', read: Promise.resolve(parseSettingsText(value, '--settings')) };
  }
  const path = resolve(cwd, value);
  const read = readSettingsFile(path).then((result): ParsedSettings => {
    if (result.settings || result.errors) return result;
    return { errors: [{ file: path, message: `Settings file given with --settings not found: ${path}` }] };
  });
  return { source: 'flagSettings', path, read };
}

/** `managed-settings.json`, then the `managed-settings.d/*.json` drop-ins in name order. */
async function policySources(env: Env): Promise<Pending[]> {
  const main = managedSettingsPath(env);
  const dropInDir = join(dirname(main), 'managed-settings.d');
  let dropIns: string[] = [];
  // No drop-in folder is the normal case; existsSync spares the failed readdir.
  if (existsSync(dropInDir)) {
    try {
      dropIns = (await readdir(dropInDir)).filter((name) => name.endsWith('.json')).sort();
    } catch {
      // Unreadable: the main policy file still applies.
    }
  }
  return [main, ...dropIns.map((name) => join(dropInDir, name))].map((path) => ({
    source: 'policySettings',
    path,
    read: readSettingsFile(path),
  }));
}
