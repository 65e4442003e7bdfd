/**
 * The plugins and agent definitions a session loads from disk: the enabled plugins (their hooks
 * join the settings' hooks, their servers the MCP config, their agent folders the agent loader),
 * and the agent files, loaded while servers connect and the model is chosen.
 */
import type { SettingsSource } from '../config/settings-merge';
import type { HooksSettings } from '../config/settings-schema';
import type { SessionPlugins } from '../plugins/session-plugins';
import type { Env } from './session-settings';
import { projectCodeRuns } from './session-trust';
import type { SessionSetupOptions } from './session-types';

type SessionAgents = import('../agents/session-agents').SessionAgents;

export type ExtensionsInput = {
  options: SessionSetupOptions;
  cwd: string;
  env: Env;
  settingsSources: readonly SettingsSource[];
  trusted: boolean;
};

/** Enabled plugins and `--plugin-dir`, with the settings' hooks merged with theirs. */
export async function loadPluginsForSession(
  { options, cwd, env, settingsSources, trusted }: ExtensionsInput,
  settingsHooks: HooksSettings | undefined,
): Promise<{ plugins: SessionPlugins; hookSettings: HooksSettings | undefined }> {
  const { sessionPlugins, withPluginHooks } = await import('../plugins/session-plugins');
  const plugins = await sessionPlugins({
    cwd,
    env,
    settingsSources,
    trusted,
    pluginDirs: options.pluginDirs,
    pluginDirsWithoutMcp: options.pluginDirNoMcp,
    bare: options.bare,
    strictMcpConfig: options.strictMcpConfig,
  });
  return { plugins, hookSettings: withPluginHooks(settingsHooks, plugins) };
}

/** Starts reading the agent definitions (files, `--agents`, the SDK's, the plugins'); awaited later. */
export function startAgentsLoad(
  { options, cwd, env, trusted }: ExtensionsInput,
  plugins: SessionPlugins,
): Promise<SessionAgents> {
  return import('../agents/session-agents').then(({ loadSessionAgents }) =>
    loadSessionAgents({
      cwd,
      env,
      trusted,
      projectCodeRuns: projectCodeRuns(trusted, !options.print),
      ...(options.agents ? { agents: options.agents } : {}),
      ...(options.settingSources ? { settingSources: options.settingSources } : {}),
      bare: options.bare,
      plugins: plugins.plugins,
    }),
  );
}
