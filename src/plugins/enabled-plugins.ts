/**
 * `enabledPlugins` as Claude Code users write it: `{"formatter@team-tools": true}` (a list of
 * versions also means on). Sources merge like every setting — a later (higher) source's `false`
 * turns off what a lower one turned on. A project's settings enable plugins only in a trusted
 * folder: a cloned repository must not switch on code of its choosing. `yoke plugin enable` and
 * `disable` write the key into Yoke's settings file of the chosen scope.
 */
import { join } from 'node:path';
import { editSettingsFile } from '../config/edit-settings';
import { PROJECT_YOKE_DIR, yokeHome } from '../config/paths';
import type { SettingsSource } from '../config/settings-merge';
import { isJsonObject } from '../lib/json-object';

type Env = Readonly<Record<string, string | undefined>>;

export type EnabledPlugins = {
  /** id → the settings file that has the last say. */
  enabled: Map<string, string>;
  /** One line for ignored entries (an untrusted project's). */
  problems: string[];
};

export function enabledPlugins(sources: readonly SettingsSource[], trusted: boolean): EnabledPlugins {
  const state = new Map<string, { on: boolean; where: string }>();
  const ignored: string[] = [];
  for (const { source, path, settings } of sources) {
    const entries = (settings as Record<string, unknown>).enabledPlugins;
    if (!isJsonObject(entries)) continue;
    const where = path ?? source;
    if (source === 'projectSettings' && !trusted) {
      const on = Object.entries(entries).filter(([, value]) => isOn(value));
      if (on.length > 0) ignored.push(`${on.map(([id]) => id).join(', ')} (in ${where})`);
      continue;
    }
    for (const [id, value] of Object.entries(entries)) state.set(id, { on: isOn(value), where });
  }
  const enabled = new Map([...state].filter(([, s]) => s.on).map(([id, s]) => [id, s.where]));
  const problems =
    ignored.length > 0
      ? [
          `this folder is not trusted, so the plugins its project settings enable are not loaded: ${ignored.join('; ')}; run "yoke trust" to load them`,
        ]
      : [];
  return { enabled, problems };
}

const isOn = (value: unknown) => value === true || (Array.isArray(value) && value.length > 0);

export const PLUGIN_SCOPES = ['user', 'project', 'local'] as const;
export type PluginScope = (typeof PLUGIN_SCOPES)[number];

/** Yoke's settings file of a scope: where `enable`, `disable` and `install` write. */
export function scopeSettingsFile(scope: PluginScope, cwd: string, env: Env): string {
  if (scope === 'user') return join(yokeHome(env), 'settings.json');
  return join(cwd, PROJECT_YOKE_DIR, scope === 'project' ? 'settings.json' : 'settings.local.json');
}

/** Sets `enabledPlugins[id]`, or removes it when `value` is undefined; the rest of the file is kept. */
export async function writeEnabled(file: string, id: string, value: boolean | undefined): Promise<void> {
  await editSettingsFile(file, (json) => {
    const entries = isJsonObject(json.enabledPlugins) ? { ...json.enabledPlugins } : {};
    if (value === undefined) delete entries[id];
    else entries[id] = value;
    if (Object.keys(entries).length > 0) json.enabledPlugins = entries;
    else delete json.enabledPlugins;
    return json;
  });
}

/** The settings files (among `sources`) that still set `id`, for `remove` to mention. */
export function filesMentioning(sources: readonly SettingsSource[], id: string): string[] {
  return sources.flatMap(({ path, settings }) => {
    const entries = (settings as Record<string, unknown>).enabledPlugins;
    return path && isJsonObject(entries) && id in entries ? [path] : [];
  });
}
