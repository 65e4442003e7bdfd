/**
 * `reload_plugins` and `reload_skills` (the SDK's `reloadPlugins()` / `reloadSkills()`, the
 * REPL's `/reload-plugins`): the plugins, command and skill files and agent files are read again,
 * as at start, and the session takes the new set whole — at once when no turn runs, else at the
 * start of the next turn, so a turn never sees its commands, agents, hooks or servers change
 * under it. Taking it means: the commands, skills and agents swapped; the plugins' hooks swapped
 * in the live hook settings (the settings' own and the SDK host's callbacks stay); the plugins'
 * MCP servers reconciled (mcp/manager.ts), in a manager made then if the session had none; and
 * what `system/init` lists brought up to date. It does not start the session again: the
 * SessionStart hooks it brings run at the session's next start (plugins/session-start-notice.ts).
 */
import type { HooksSettings } from '../config/settings-schema';
import type { PluginServerChanges } from '../mcp/manager';
import type { McpManagerSlot } from '../mcp/manager-slot';
import type { SessionPlugins } from '../plugins/session-plugins';
import { newSessionStartHooks, sessionStartNotice } from '../plugins/session-start-notice';
import type { SdkPluginInfo, SessionReloader } from '../sdk/types';
import type { LiveHooks } from '../skills/skill-hooks';
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
  /**
   * The hooks the session's runner reads at each event, and how to give a session that started
   * without hooks a runner (the first plugin hooks may come with a reload).
   */
  hooks: { live: LiveHooks; ensureRunner(): Promise<void> };
  /** The session's MCP manager, made by the first reload that brings servers to a session without. */
  mcp: McpManagerSlot;
  /** Whether the session has started (its SessionStart hooks have run). */
  sessionStarted(): boolean;
  /** The arrays `system/init` lists the agents and plugins from, changed in place. */
  init: { agents: string[]; plugins: SdkPluginInfo[]; hostPlugins: readonly SdkPluginInfo[] };
};

export function sessionReload(input: SessionReloadInput): SessionReloader {
  let plugins = input.plugins;
  let addedDirs: readonly string[] = [];
  const report = (problems: readonly string[]) => {
    for (const problem of problems) input.log.warn(problem);
  };
  /** At once when idle (awaited, so the answer tells how it went), else at the next turn's start. */
  const change = async (apply: () => Promise<void>, idle: () => boolean) => {
    if (idle()) return apply();
    input.commands.atNextTurn(() => {
      apply().catch((error: Error) => input.log.warn(`reload: ${error.message}`));
    });
  };

  return {
    beforeTurn: () => input.commands.applyStaged(),

    async skills({ idle }) {
      const fresh = await input.commands.reread(plugins.plugins);
      report(fresh.problems);
      await change(async () => fresh.apply(), idle);
      return { skills: fresh.skills };
    },

    async plugins({ idle, addPluginDirs }) {
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
      // `--bare` starts no plugin server (mcp/config-sources.ts): a reload neither.
      const servers = options.bare ? [] : reloaded.mcpServers;
      const problems = [...reloaded.problems, ...agents.warnings, ...commands.problems];
      report(problems);
      // Read now: a reload held for the next turn is taken after the session has started.
      const unrun = newSessionStartHooks(plugins, reloaded);
      if (unrun.length > 0 && (!idle() || input.sessionStarted())) input.log.warn(sessionStartNotice(unrun));
      // Before anything is swapped: the runner must exist when the first plugin hook does (or an
      // agent of a new plugin that brings hooks of its own).
      if (reloaded.hooks || agents.hasScopedHooks) await input.hooks.ensureRunner();
      await change(async () => {
        plugins = reloaded;
        addedDirs = dirs;
        commands.apply();
        input.agents.registry.replaceWith(agents.registry);
        input.init.agents.splice(0, Infinity, ...agents.names());
        input.init.plugins.splice(0, Infinity, ...input.init.hostPlugins, ...reloaded.initPlugins);
        input.hooks.live.replacePluginHooks(reloaded.hooks);
        // A session without a manager needs one only when servers come; removing none needs none.
        const manager = servers.length > 0 ? await input.mcp.ensure() : input.mcp.manager;
        if (manager) describeServerChanges(await manager.replacePluginServers(servers), input.log);
      }, idle);
      return {
        commands: commands.commands,
        agents: agents.summaries(),
        plugins: reloaded.initPlugins,
        error_count: problems.length,
      };
    },
  };
}

function describeServerChanges(changes: PluginServerChanges, log: SessionLog): void {
  const parts = [
    changes.added.length > 0 ? `started ${changes.added.join(', ')}` : '',
    changes.reconnected.length > 0
      ? `restarted ${changes.reconnected.join(', ')} (configuration changed)`
      : '',
    changes.removed.length > 0 ? `stopped ${changes.removed.join(', ')}` : '',
  ].filter(Boolean);
  if (parts.length > 0) log.debug(`reload: plugin MCP servers: ${parts.join('; ')}.`);
}
