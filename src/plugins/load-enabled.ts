/**
 * The plugins a session runs with: every installed plugin its settings enable, plus the
 * `--plugin-dir` folders of this run. Nothing is installed here — a plugin enabled but not
 * installed is one line saying which command installs it (a project must never get code onto the
 * machine by naming it). Each plugin that cannot load is one line and is skipped; the rest load.
 */
import { resolve } from 'node:path';
import type { SettingsSource } from '../config/settings-merge';
import { enabledPlugins } from './enabled-plugins';
import { loadPluginFolder, type PluginLoad } from './load-plugin';
import { installedPluginRefusal, marketplacePolicy } from './marketplace-policy';
import { PluginStoreError, parsePluginId, readInstalled, readMarketplaces } from './store';
import type { LoadedPlugin, PluginLoadResult } from './types';

type Env = Readonly<Record<string, string | undefined>>;

export type EnabledPluginsInput = {
  cwd: string;
  env: Env;
  settingsSources: readonly SettingsSource[];
  trusted: boolean;
  /** `--plugin-dir` values (relative to `cwd`). */
  pluginDirs?: readonly string[];
  /** `--plugin-dir-no-mcp`: the `--plugin-dir` plugins' MCP servers are left out. */
  pluginDirsWithoutMcp?: boolean;
  /** `--bare`: no installed plugins (`--plugin-dir` still loads: it was asked for by name). */
  bare?: boolean;
};

export async function loadEnabledPlugins(input: EnabledPluginsInput): Promise<PluginLoadResult> {
  const problems: string[] = [];
  const loads: Promise<PluginLoad>[] = (input.pluginDirs ?? []).map((dir) =>
    loadPluginFolder({
      root: resolve(input.cwd, dir),
      origin: { kind: 'session-dir' },
      ...(input.pluginDirsWithoutMcp ? { withoutMcp: true } : {}),
    }),
  );
  if (!input.bare) loads.push(...(await installedLoads(input, problems)));
  const plugins: LoadedPlugin[] = [];
  for (const load of await Promise.all(loads)) {
    if (!load.ok) {
      problems.push(load.problem);
      continue;
    }
    problems.push(...load.problems);
    // `--plugin-dir` comes first, so a plugin being developed wins over its installed copy.
    const clash = plugins.find((plugin) => plugin.pluginName === load.plugin.pluginName);
    if (clash) {
      problems.push(
        `plugin "${load.plugin.id}" (${load.plugin.root}) has the same name as "${clash.id}" (${clash.root}); only the first is loaded`,
      );
      continue;
    }
    plugins.push(load.plugin);
  }
  return { plugins, problems };
}

async function installedLoads(
  input: EnabledPluginsInput,
  problems: string[],
): Promise<Promise<PluginLoad>[]> {
  const { enabled, problems: settingsProblems } = enabledPlugins(input.settingsSources, input.trusted);
  problems.push(...settingsProblems);
  if (enabled.size === 0) return [];
  let installed: Awaited<ReturnType<typeof readInstalled>>['plugins'];
  try {
    installed = (await readInstalled(input.env)).plugins;
  } catch (error) {
    if (!(error instanceof PluginStoreError)) throw error;
    problems.push(`${error.message}; no installed plugin is loaded`);
    return [];
  }
  const policy = marketplacePolicy(input.settingsSources);
  problems.push(...policy.problems);
  const known =
    policy.blocked.length > 0 || policy.allowed ? await knownMarketplaces(input.env, problems) : {};
  const loads: Promise<PluginLoad>[] = [];
  for (const [id, where] of [...enabled].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const record = installed[id];
    const refused = record && installedPluginRefusal(policy, record.marketplace, known);
    if (refused) {
      problems.push(`plugin "${id}" is not loaded: ${refused}`);
      continue;
    }
    if (!record) {
      const parsed = parsePluginId(id);
      problems.push(
        parsed
          ? `plugin "${id}" is enabled in ${where} but not installed; run \`yoke plugin install ${id}\` to install it`
          : `${where}: "enabledPlugins.${id}": expected "name@marketplace"; ignored`,
      );
      continue;
    }
    loads.push(
      loadPluginFolder({
        root: record.installPath,
        id,
        nameHint: record.name,
        origin: record.marketplace
          ? { kind: 'marketplace', marketplace: record.marketplace }
          : { kind: 'direct', source: record.source },
      }),
    );
  }
  return loads;
}

/** The added marketplaces; unreadable, none (so an allow list refuses what it cannot trace). */
async function knownMarketplaces(env: Env, problems: string[]) {
  try {
    return (await readMarketplaces(env)).marketplaces;
  } catch (error) {
    if (!(error instanceof PluginStoreError)) throw error;
    problems.push(error.message);
    return {};
  }
}
