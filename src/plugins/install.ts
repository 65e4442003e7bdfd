/**
 * `yoke plugin install` and `remove`. A plugin is fetched into a staging folder (cloned, or
 * copied from a marketplace folder or a local path), checked by loading it exactly as a session
 * would, and only then moved into `$YOKE_HOME/plugins/cache/<marketplace>/<name>/`, recorded in
 * `installed.json` and enabled. A plugin that does not load is not installed, and nothing is left
 * behind. Removing deletes its files, its record and its `enabledPlugins` entry.
 */
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import type { SettingsSource } from '../config/settings-merge';
import { isWithin } from '../lib/path-within';
import { filesMentioning, type PluginScope, scopeSettingsFile, writeEnabled } from './enabled-plugins';
import { completeManifest } from './entry-components';
import { cloneRepository, gitUrlProblem, looksLikeGitUrl } from './git-clone';
import { loadPluginFolder } from './load-plugin';
import type { MarketplaceEntry } from './marketplace-manifest';
import { installedPluginRefusal, marketplacePolicy, policyRefusal } from './marketplace-policy';
import { addMarketplace, claudeCodeMarketplace, readCatalogue, settingsMarketplaces } from './marketplaces';
import { realPathOrUndefined } from './real-path';
import {
  cacheDir,
  DIRECT_MARKETPLACE,
  type InstalledPlugin,
  type KnownMarketplace,
  parsePluginId,
  pluginId,
  readInstalled,
  readMarketplaces,
  writeInstalled,
} from './store';
import type { LoadedPlugin } from './types';

type Env = Readonly<Record<string, string | undefined>>;

export class PluginInstallError extends Error {}

/** What install and remove need to know of where they run. */
export type PluginContext = {
  env: Env;
  cwd: string;
  /** The settings in effect in `cwd` (for `extraKnownMarketplaces` and `enabledPlugins`). */
  settingsSources: readonly SettingsSource[];
  trusted: boolean;
};

export type Installed = {
  id: string;
  plugin: LoadedPlugin;
  record: InstalledPlugin;
  problems: string[];
  settingsFile: string;
};

/** What `install <spec>` fetches. */
type Fetch =
  | { kind: 'marketplace'; marketplace: string; entry: MarketplaceEntry; record: KnownMarketplace }
  | { kind: 'git'; url: string }
  | { kind: 'path'; path: string };

export async function installPlugin(
  spec: string,
  context: PluginContext,
  scope: PluginScope = 'user',
): Promise<Installed> {
  const fetch = await resolveSpec(spec, context);
  if (fetch.kind !== 'marketplace') {
    const refused = installedPluginRefusal(marketplacePolicy(context.settingsSources), undefined, {});
    if (refused) throw new PluginInstallError(refused);
  }
  // Read first: an unreadable store stops the install before anything is fetched.
  const list = await readInstalled(context.env);
  const marketplace = fetch.kind === 'marketplace' ? fetch.marketplace : DIRECT_MARKETPLACE;
  const home = join(cacheDir(context.env), marketplace);
  await mkdir(home, { recursive: true });
  const staging = await mkdtemp(join(home, '.staging-'));
  try {
    const { root, commit, source } = await fetchInto(fetch, staging, context.env);
    if (fetch.kind === 'marketplace') await completeManifest(root, fetch.entry);
    const load = await loadPluginFolder({
      root,
      origin:
        fetch.kind === 'marketplace' ? { kind: 'marketplace', marketplace } : { kind: 'direct', source },
      ...(fetch.kind === 'marketplace' ? { nameHint: fetch.entry.name } : {}),
    });
    if (!load.ok) throw new PluginInstallError(`not installed: ${load.problem}`);
    const name = fetch.kind === 'marketplace' ? fetch.entry.name : load.plugin.pluginName;
    const id = pluginId(name, marketplace);
    const dest = join(home, name);
    // A reinstall replaces the old files only once the new ones loaded.
    await rm(dest, { recursive: true, force: true });
    await rename(root, dest);
    // Loaded again where it now lives: every path in the result points into the cache.
    const final = await loadPluginFolder({ root: dest, origin: load.plugin.origin, id, nameHint: name });
    if (!final.ok) {
      await rm(dest, { recursive: true, force: true });
      throw new PluginInstallError(`not installed: ${final.problem}`);
    }
    const record: InstalledPlugin = {
      name,
      ...(fetch.kind === 'marketplace' ? { marketplace } : {}),
      source,
      installPath: dest,
      ...(final.plugin.version !== undefined ? { version: final.plugin.version } : {}),
      ...(commit ? { commit } : {}),
      installedAt: new Date().toISOString(),
    };
    list.plugins[id] = record;
    await writeInstalled(context.env, list);
    const settingsFile = scopeSettingsFile(scope, context.cwd, context.env);
    await writeEnabled(settingsFile, id, true);
    const plugin = final.plugin;
    return { id, plugin, record, problems: load.problems, settingsFile };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function resolveSpec(spec: string, context: PluginContext): Promise<Fetch> {
  const local = resolve(context.cwd, spec);
  if (!looksLikeGitUrl(spec) && (await realPathOrUndefined(local)) !== undefined)
    return { kind: 'path', path: local };
  if (looksLikeGitUrl(spec)) {
    const problem = gitUrlProblem(spec);
    if (problem) throw new PluginInstallError(problem);
    return { kind: 'git', url: spec };
  }
  const id = parsePluginId(spec);
  if (!id) {
    throw new PluginInstallError(
      `"${spec}" is not a plugin: give name@marketplace, a git URL or a plugin folder (no such folder: ${local})`,
    );
  }
  const record = await knownMarketplace(id.marketplace, context);
  const read = await readCatalogue(record);
  if (!read.ok) throw new PluginInstallError(read.problem);
  const entry = read.manifest.plugins.find((plugin) => plugin.name === id.name);
  if (!entry) {
    const offered = read.manifest.plugins.map((plugin) => plugin.name);
    throw new PluginInstallError(
      `marketplace "${id.marketplace}" has no plugin "${id.name}"${offered.length ? `; it offers ${offered.join(', ')}` : ''}`,
    );
  }
  return { kind: 'marketplace', marketplace: id.marketplace, entry, record };
}

/** An added marketplace, or one settings declare (fetched now: the user asked for this install). */
async function knownMarketplace(name: string, context: PluginContext): Promise<KnownMarketplace> {
  const policy = marketplacePolicy(context.settingsSources);
  const added = (await readMarketplaces(context.env)).marketplaces[name];
  if (added) {
    const refused = policyRefusal(policy, added.source);
    if (refused) throw new PluginInstallError(refused);
    return added;
  }
  const declared = settingsMarketplaces(context.settingsSources, context.trusted);
  const entry = declared.declared.find((marketplace) => marketplace.name === name);
  if (entry) return (await addMarketplace(entry.source, context.env, policy, name)).record;
  const claude = await claudeCodeMarketplace(name, context.env);
  if (claude) return (await addMarketplace(claude, context.env, policy, name)).record;
  const untrusted = declared.problems.find((line) => line.includes(name));
  throw new PluginInstallError(
    untrusted ?? `no marketplace named "${name}"; add it first with \`yoke plugin marketplace add <source>\``,
  );
}

/** Puts the plugin's files under `staging`; returns its root there. */
async function fetchInto(
  fetch: Fetch,
  staging: string,
  env: Env,
): Promise<{ root: string; commit?: string; source: string }> {
  const copy = async (from: string, label: string) => {
    const root = join(staging, 'plugin');
    // Git metadata is not part of the plugin; links are copied as links (their targets are checked on load).
    await cp(from, root, { recursive: true, filter: (path) => basename(path) !== '.git' });
    return { root, source: label };
  };
  if (fetch.kind === 'path') return copy(fetch.path, fetch.path);
  if (fetch.kind === 'git') {
    const root = join(staging, 'plugin');
    const { commit } = await cloneRepository({ url: fetch.url, dest: root, env });
    await rm(join(root, '.git'), { recursive: true, force: true });
    return { root, commit, source: fetch.url };
  }
  const { entry, record } = fetch;
  if (entry.source.kind === 'relative') {
    const base = (await realPathOrUndefined(record.installLocation)) ?? record.installLocation;
    const from = await realPathOrUndefined(resolve(base, entry.source.path));
    if (from === undefined || !isWithin(from, base)) {
      throw new PluginInstallError(
        `marketplace "${fetch.marketplace}": plugin "${entry.name}" is at "${entry.source.path}", which ${from === undefined ? 'does not exist' : 'leaves the marketplace'}`,
      );
    }
    return copy(from, `${fetch.marketplace}:${relative(base, from) || '.'}`);
  }
  const checkout = join(staging, 'repo');
  const { url, ref, sha, path } = entry.source;
  const { commit } = await cloneRepository({
    url,
    dest: checkout,
    env,
    ...(ref ? { ref } : {}),
    ...(sha ? { sha } : {}),
  });
  await rm(join(checkout, '.git'), { recursive: true, force: true });
  const root = path ? resolve(checkout, path) : checkout;
  if (!isWithin(root, checkout))
    throw new PluginInstallError(`plugin "${entry.name}": path "${path}" leaves its repository`);
  return { root, commit, source: path ? `${url} ${path}` : url };
}

export type Removed = { id: string; record: InstalledPlugin; stillEnabledIn: string[] };

/** Uninstalls by id, or by name when only one installed plugin has it. */
export async function removePlugin(spec: string, context: PluginContext): Promise<Removed> {
  const list = await readInstalled(context.env);
  const id = resolveInstalledId(spec, list.plugins);
  const record = list.plugins[id] as InstalledPlugin;
  // Only what Yoke put under its cache is deleted, whatever the record says.
  if (isWithin(record.installPath, cacheDir(context.env)))
    await rm(record.installPath, { recursive: true, force: true });
  delete list.plugins[id];
  await writeInstalled(context.env, list);
  const userFile = scopeSettingsFile('user', context.cwd, context.env);
  await writeEnabled(userFile, id, undefined);
  const stillEnabledIn = filesMentioning(context.settingsSources, id).filter((file) => file !== userFile);
  return { id, record, stillEnabledIn };
}

export function resolveInstalledId(spec: string, plugins: Record<string, InstalledPlugin>): string {
  if (plugins[spec]) return spec;
  const byName = Object.keys(plugins).filter((id) => plugins[id]?.name === spec);
  if (byName.length === 1) return byName[0] as string;
  if (byName.length > 1) {
    throw new PluginInstallError(
      `"${spec}" is installed from several places (${byName.join(', ')}); give the full id`,
    );
  }
  const ids = Object.keys(plugins);
  throw new PluginInstallError(
    `plugin "${spec}" is not installed${ids.length ? ` (installed: ${ids.join(', ')})` : ''}; see \`yoke plugin list\``,
  );
}
