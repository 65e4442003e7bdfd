/**
 * `reload_plugins` and `reload_skills` (the SDK's `reloadPlugins()` / `reloadSkills()`): the
 * plugins, command and skill files and agent files are read again, as at start, and the session
 * takes the new set whole — at once when no turn runs, else at the start of the next turn, so a
 * turn never sees its commands or agents change under it. What a reload cannot change in a running
 * session (plugin hooks and MCP servers, which are wired at start) is said on stderr.
 */
import type { HooksSettings } from '../config/settings-schema';
import type { SessionPlugins } from '../plugins/session-plugins';
import type { SessionReloader } from '../sdk/types';
import type { SessionCommands } from './session-commands';
import { type ExtensionsInput, loadPluginsForSession, startAgentsLoad } from './session-extensions';
import type { SessionLog } from './session-types';

type SessionAgents = import('../agents/session-agents').SessionAgents;

export type SessionReloadInput = {
  extensions: ExtensionsInput;
  /** The settings' hooks, which the plugins' join. */
  settingsHooks: HooksSettings | undefined;
  commands: SessionCommands;
  agents: SessionAgents;
  plugins: SessionPlugins;
  log: SessionLog;
};

export function sessionReload(input: SessionReloadInput): SessionReloader {
  let plugins = input.plugins;
  let addedDirs: readonly string[] = [];
  const report = (problems: readonly string[]) => {
    for (const problem of problems) input.log.warn(problem);
  };
  const change = (apply: () => void, now: boolean) => (now ? apply() : input.commands.atNextTurn(apply));

  return {
    beforeTurn: () => input.commands.applyStaged(),

    async skills({ now }) {
      const fresh = await input.commands.reread(plugins.plugins);
      report(fresh.problems);
      change(fresh.apply, now);
      return { skills: fresh.skills };
    },

    async plugins({ now, addPluginDirs }) {
      const dirs = [...new Set([...addedDirs, ...addPluginDirs])];
      const { options } = input.extensions;
      const extensions = {
        ...input.extensions,
        options: { ...options, pluginDirs: [...options.pluginDirs, ...dirs] },
      };
      const reloaded = (await loadPluginsForSession(extensions, input.settingsHooks)).plugins;
      const [agents, commands] = await Promise.all([
        startAgentsLoad(extensions, reloaded),
        input.commands.reread(reloaded.plugins),
      ]);
      const problems = [...reloaded.problems, ...agents.warnings, ...commands.problems];
      report([...problems, ...notReloaded(plugins, reloaded)]);
      change(() => {
        plugins = reloaded;
        addedDirs = dirs;
        commands.apply();
        input.agents.registry.replaceWith(agents.registry);
      }, now);
      return {
        commands: commands.commands,
        agents: agents.summaries(),
        plugins: reloaded.initPlugins,
        error_count: problems.length,
      };
    },
  };
}

/** What changed on disk that only a new session picks up: plugin hooks and MCP servers. */
function notReloaded(before: SessionPlugins, after: SessionPlugins): string[] {
  const notes: string[] = [];
  if (JSON.stringify(before.hooks ?? {}) !== JSON.stringify(after.hooks ?? {}))
    notes.push('reload: the plugins’ hooks changed; they apply from the next session.');
  const names = (p: SessionPlugins) =>
    p.mcpServers
      .map((server) => server.name)
      .sort()
      .join(', ');
  if (names(before) !== names(after))
    notes.push(
      `reload: the plugins’ MCP servers changed (now: ${names(after) || 'none'}); they connect in the next session.`,
    );
  return notes;
}
