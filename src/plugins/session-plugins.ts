/**
 * What the enabled plugins give one session, in the shapes its parts take: hooks merged into the
 * settings' hooks (a plugin is something the user installed, so its hooks run like the user's own,
 * under the same `disableAllHooks` and managed-only policy), MCP servers named
 * `plugin_<plugin>_<server>` for the MCP configuration, the `system/init.plugins` list, and the
 * plugins themselves (their command, skill and agent folders) for the loaders of those.
 */

import type { SettingsSource } from '../config/settings-merge';
import type { HooksSettings } from '../config/settings-schema';
import type { ConfiguredServer } from '../mcp/config-sources';
import type { EnabledPluginsInput } from './load-enabled';
import type { LoadedPlugin } from './types';

export type SessionPlugins = {
  plugins: LoadedPlugin[];
  /** One line per plugin skipped or entry ignored. */
  problems: string[];
  /** Every plugin's hooks, concatenated per event; undefined when none (or hooks are off by policy). */
  hooks: HooksSettings | undefined;
  mcpServers: ConfiguredServer[];
  /** `system/init.plugins`. */
  initPlugins: { name: string; path: string; version?: string }[];
};

export const NO_PLUGINS: SessionPlugins = {
  plugins: [],
  problems: [],
  hooks: undefined,
  mcpServers: [],
  initPlugins: [],
};

/** The MCP server name a plugin's server gets (Claude Code's: its tools are `mcp__plugin_<plugin>_<server>__<tool>`). */
export const pluginServerName = (pluginName: string, server: string): string =>
  `plugin_${pluginName}_${server}`;

export async function sessionPlugins(
  input: EnabledPluginsInput & { strictMcpConfig?: boolean },
): Promise<SessionPlugins> {
  if (!mentionsPlugins(input)) return NO_PLUGINS;
  // The loader (manifests, the store, git) loads only for a session that has plugins.
  const { loadEnabledPlugins } = await import('./load-enabled');
  const { plugins, problems } = await loadEnabledPlugins(input);
  const hooksAllowed = pluginHooksAllowed(input.settingsSources);
  const hooks: HooksSettings = {};
  const mcpServers: ConfiguredServer[] = [];
  for (const plugin of plugins) {
    if (plugin.hooks && hooksAllowed) {
      for (const [event, groups] of Object.entries(plugin.hooks))
        hooks[event] = [...(hooks[event] ?? []), ...groups];
    }
    // `--strict-mcp-config` means exactly the servers of `--mcp-config`.
    if (input.strictMcpConfig) continue;
    for (const [server, config] of plugin.mcpServers) {
      mcpServers.push({ name: pluginServerName(plugin.pluginName, server), config, source: 'plugin' });
    }
  }
  return {
    plugins,
    problems,
    hooks: Object.keys(hooks).length > 0 ? hooks : undefined,
    mcpServers,
    initPlugins: plugins.map((plugin) => ({
      name: plugin.pluginName,
      path: plugin.root,
      ...(plugin.version !== undefined ? { version: plugin.version } : {}),
    })),
  };
}

/** The settings' hooks followed by the plugins' (settings hooks keep their place and order). */
export function withPluginHooks(
  settingsHooks: HooksSettings | undefined,
  plugins: SessionPlugins,
): HooksSettings | undefined {
  if (!plugins.hooks) return settingsHooks;
  const merged: HooksSettings = { ...(settingsHooks ?? {}) };
  for (const [event, groups] of Object.entries(plugins.hooks))
    merged[event] = [...(merged[event] ?? []), ...groups];
  return merged;
}

/** Nothing to read unless a flag or a settings file names plugins: most sessions skip it all. */
function mentionsPlugins(input: EnabledPluginsInput): boolean {
  if ((input.pluginDirs ?? []).length > 0) return true;
  return !input.bare && input.settingsSources.some((source) => 'enabledPlugins' in source.settings);
}

/**
 * `disableAllHooks` anywhere, or a managed policy that allows only its own hooks, turns plugin
 * hooks off too — as it does the user's.
 */
function pluginHooksAllowed(sources: readonly SettingsSource[]): boolean {
  return !sources.some(
    ({ source, settings }) =>
      settings.disableAllHooks === true ||
      (source === 'policySettings' && settings.allowManagedHooksOnly === true),
  );
}
