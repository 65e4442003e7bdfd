/**
 * `yoke plugin install|list|enable|disable|remove` and `yoke plugin marketplace add|list|remove`,
 * parsed by commander. Each command reads the settings in effect in the current folder (and its
 * trust), so `extraKnownMarketplaces` and `enabledPlugins` mean here what a session here would
 * take them to mean. The work itself is src/plugins/; this file parses and prints.
 */
import { Command, CommanderError, Option } from 'commander';
import { projectTrust } from '../../config/project-trust';
import {
  enabledPlugins,
  PLUGIN_SCOPES,
  type PluginScope,
  scopeSettingsFile,
  writeEnabled,
} from '../../plugins/enabled-plugins';
import { installPlugin, type PluginContext, removePlugin, resolveInstalledId } from '../../plugins/install';
import { loadPluginFolder } from '../../plugins/load-plugin';
import { marketplacePolicy } from '../../plugins/marketplace-policy';
import { describeMarketplaceSource, sourceFromArgument } from '../../plugins/marketplace-source';
import {
  addMarketplace,
  readCatalogue,
  removeMarketplace,
  settingsMarketplaces,
  updateMarketplace,
} from '../../plugins/marketplaces';
import { pluginServerName } from '../../plugins/session-plugins';
import { readInstalled, readMarketplaces } from '../../plugins/store';
import type { LoadedPlugin } from '../../plugins/types';
import { CliUsageError } from '../errors';
import { loadSessionSettings } from '../session-settings';

type Env = Record<string, string | undefined>;

export type PluginCommandContext = { cwd: string; env: Env; print: (line: string) => void };

export const PLUGIN_USAGE = [
  'usage: yoke plugin install [-s user|project|local] <name@marketplace | git-url | path>',
  '       yoke plugin list',
  '       yoke plugin enable|disable [-s user|project|local] <plugin>',
  '       yoke plugin remove <plugin>',
  '       yoke plugin marketplace add <owner/repo | git-url | path>',
  '       yoke plugin marketplace list',
  '       yoke plugin marketplace update [name]',
  '       yoke plugin marketplace remove <name>',
].join('\n');

async function pluginContext(context: PluginCommandContext): Promise<PluginContext> {
  const [settings, trust] = await Promise.all([
    loadSessionSettings({}, context.env, context.cwd),
    projectTrust(context.cwd, context.env),
  ]);
  return {
    env: context.env,
    cwd: context.cwd,
    settingsSources: settings.loaded.sources,
    trusted: trust.trusted,
  };
}

const scopeOption = () =>
  new Option('-s, --scope <scope>', 'which settings file records it').choices(PLUGIN_SCOPES).default('user');

/** What a plugin brings, in one line. */
export function describeContributions(plugin: LoadedPlugin): string {
  const count = (n: number, what: string) => (n > 0 ? [`${n} ${what}${n === 1 ? '' : 's'}`] : []);
  const parts = [
    ...count(plugin.commandDirs.length + plugin.commandFiles.length, 'command source'),
    ...count(plugin.skillDirs.length + plugin.skillFolders.length, 'skill folder'),
    ...count(plugin.agentDirs.length + plugin.agentFiles.length, 'agent source'),
    ...(plugin.hooks ? [`hooks (${Object.keys(plugin.hooks).join(', ')})`] : []),
    ...(plugin.mcpServers.size > 0
      ? [
          `MCP servers (${[...plugin.mcpServers.keys()].map((s) => pluginServerName(plugin.pluginName, s)).join(', ')})`,
        ]
      : []),
  ];
  return parts.length > 0
    ? parts.join(', ')
    : 'nothing (no commands, skills, agents, hooks or MCP servers found)';
}

function buildProgram(context: PluginCommandContext, done: (code: number) => void): Command {
  const { print } = context;
  const warn = (line: string) => print(`warning: ${line}`);
  const program = new Command('yoke plugin')
    .exitOverride()
    .showHelpAfterError(false)
    .configureOutput({ writeOut: (text) => print(text.trimEnd()), writeErr: () => {} });

  program
    .command('install')
    .description('install a plugin and enable it')
    .argument('<plugin>', 'name@marketplace, a git URL, or a plugin folder')
    .addOption(scopeOption())
    .action(async (spec: string, options: { scope: PluginScope }) => {
      const result = await installPlugin(spec, await pluginContext(context), options.scope);
      for (const line of result.problems) warn(line);
      const version = result.record.version ? ` ${result.record.version}` : '';
      print(
        `Installed ${result.id}${version} into ${result.record.installPath}; enabled in ${result.settingsFile}.`,
      );
      print(`It contributes: ${describeContributions(result.plugin)}.`);
      done(0);
    });

  program
    .command('list')
    .description('list installed plugins and whether they are enabled here')
    .action(async () => {
      const plugin = await pluginContext(context);
      const installed = (await readInstalled(context.env)).plugins;
      const { enabled, problems } = enabledPlugins(plugin.settingsSources, plugin.trusted);
      for (const line of problems) warn(line);
      const ids = Object.keys(installed).sort();
      if (ids.length === 0)
        print(
          'No plugins installed. Install one with `yoke plugin install <name@marketplace | git-url | path>`.',
        );
      for (const id of ids) {
        const record = installed[id];
        if (!record) continue;
        const load = await loadPluginFolder({
          root: record.installPath,
          id,
          nameHint: record.name,
          origin: { kind: 'direct', source: record.source },
        });
        const state = enabled.has(id) ? 'enabled' : 'disabled';
        const version = record.version ? ` ${record.version}` : '';
        print(`${id}${version}: ${state}, from ${record.source}`);
        print(`  ${load.ok ? describeContributions(load.plugin) : `broken: ${load.problem}`}`);
      }
      for (const [id, where] of enabled) {
        if (!installed[id])
          print(`${id}: enabled in ${where} but not installed (\`yoke plugin install ${id}\`)`);
      }
      done(0);
    });

  for (const verb of ['enable', 'disable'] as const) {
    program
      .command(verb)
      .description(`${verb} an installed plugin`)
      .argument('<plugin>', 'name@marketplace, or the name when it is unique')
      .addOption(scopeOption())
      .action(async (spec: string, options: { scope: PluginScope }) => {
        const id = resolveInstalledId(spec, (await readInstalled(context.env)).plugins);
        const file = scopeSettingsFile(options.scope, context.cwd, context.env);
        await writeEnabled(file, id, verb === 'enable');
        print(`${verb === 'enable' ? 'Enabled' : 'Disabled'} ${id} in ${file}.`);
        done(0);
      });
  }

  program
    .command('remove')
    .alias('uninstall')
    .description('uninstall a plugin: its files, its record and its enabledPlugins entry')
    .argument('<plugin>', 'name@marketplace, or the name when it is unique')
    .action(async (spec: string) => {
      const removed = await removePlugin(spec, await pluginContext(context));
      print(`Removed ${removed.id} (${removed.record.installPath}).`);
      for (const file of removed.stillEnabledIn) {
        warn(
          `${file} still names ${removed.id} in enabledPlugins; sessions will say it is not installed until that entry goes`,
        );
      }
      done(0);
    });

  const marketplace = program.command('marketplace').description('manage plugin marketplaces');
  marketplace
    .command('add')
    .description('add a marketplace: GitHub owner/repo, a git URL, or a folder or marketplace.json')
    .argument('<source>')
    .action(async (arg: string) => {
      const source = sourceFromArgument(arg, context.cwd);
      if (typeof source === 'string') throw new CliUsageError(source);
      const added = await addMarketplace(
        source,
        context.env,
        marketplacePolicy((await pluginContext(context)).settingsSources),
      );
      for (const line of added.problems) warn(line);
      print(
        `Added marketplace "${added.name}" (${describeMarketplaceSource(source)}) with ${added.plugins} plugin${added.plugins === 1 ? '' : 's'}.`,
      );
      print(`Install from it with \`yoke plugin install <plugin>@${added.name}\`.`);
      done(0);
    });
  marketplace
    .command('list')
    .description('list known marketplaces and their plugins')
    .action(async () => {
      const plugin = await pluginContext(context);
      const added = (await readMarketplaces(context.env)).marketplaces;
      const declared = settingsMarketplaces(plugin.settingsSources, plugin.trusted);
      for (const line of declared.problems) warn(line);
      const names = Object.keys(added).sort();
      if (names.length === 0 && declared.declared.length === 0)
        print('No marketplaces. Add one with `yoke plugin marketplace add <source>`.');
      for (const name of names) {
        const record = added[name];
        if (!record) continue;
        const read = await readCatalogue(record);
        const offered = read.ok
          ? read.manifest.plugins.map((entry) => entry.name).join(', ') || '(no plugins)'
          : `unreadable: ${read.problem}`;
        print(`${name}: ${describeMarketplaceSource(record.source)}`);
        print(`  ${offered}`);
      }
      for (const entry of declared.declared) {
        if (added[entry.name]) continue;
        print(
          `${entry.name}: ${describeMarketplaceSource(entry.source)} (declared in ${entry.declaredIn}; fetched on first install)`,
        );
      }
      done(0);
    });
  marketplace
    .command('update')
    .description('fetch git marketplaces again (all of them without a name)')
    .argument('[name]')
    .action(async (name: string | undefined) => {
      const policy = marketplacePolicy((await pluginContext(context)).settingsSources);
      const names = name ? [name] : Object.keys((await readMarketplaces(context.env)).marketplaces).sort();
      for (const each of names) {
        const updated = await updateMarketplace(each, context.env, policy);
        if (!updated) {
          print(`Marketplace "${each}" is read in place; nothing to fetch.`);
          continue;
        }
        for (const line of updated.problems) warn(line);
        print(`Updated marketplace "${each}": ${updated.plugins} plugin${updated.plugins === 1 ? '' : 's'}.`);
      }
      done(0);
    });
  marketplace
    .command('remove')
    .alias('rm')
    .description('forget a marketplace (plugins installed from it stay installed)')
    .argument('<name>')
    .action(async (name: string) => {
      const record = await removeMarketplace(name, context.env);
      print(`Removed marketplace "${name}" (${describeMarketplaceSource(record.source)}).`);
      done(0);
    });
  return program;
}

export async function runPluginCommand(
  args: readonly string[],
  context: PluginCommandContext,
): Promise<number> {
  let code = 0;
  const program = buildProgram(context, (exit) => {
    code = exit;
  });
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      throw new CliUsageError(`${error.message.replace(/^error: /, '')}\n${PLUGIN_USAGE}`);
    }
    throw error;
  }
  return code;
}
