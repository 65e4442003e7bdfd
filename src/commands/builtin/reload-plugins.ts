/**
 * /reload-plugins: the plugins, their commands, skills, agents, hooks and MCP servers read again
 * and rewired in this session (cli/session-reload.ts, the same code as the SDK's
 * `reload_plugins`). A terminal-only command, as in Claude Code: headless hosts have the control
 * request.
 */
import type { LocalCommand, PluginReload } from '../types';

export const reloadPluginsCommand: LocalCommand = {
  kind: 'local',
  name: 'reload-plugins',
  description: 'Read plugins again: their commands, skills, agents, hooks and MCP servers',
  async run(_args, host) {
    if (!host.reloadPlugins) return { kind: 'text', text: 'This session cannot reload plugins.' };
    return { kind: 'text', text: describeReload(await host.reloadPlugins()) };
  },
};

export function describeReload(reload: PluginReload): string {
  const plugins =
    reload.plugins.length === 0
      ? 'no plugins'
      : `${count(reload.plugins.length, 'plugin')}: ${reload.plugins
          .map((p) => (p.version ? `${p.name} ${p.version}` : p.name))
          .join(', ')}`;
  const lines = [
    `Reloaded ${plugins} · ${count(reload.commands, 'command')} · ${count(reload.agents, 'agent')}.`,
  ];
  if (reload.mcpServers.length > 0)
    lines.push(
      `Plugin MCP servers: ${reload.mcpServers
        .map((s) => `${s.name} ${s.status}${s.error ? ` (${s.error})` : ''}`)
        .join(', ')}.`,
    );
  if (reload.problems > 0)
    lines.push(`${count(reload.problems, 'problem')} (said above): what it names was skipped.`);
  return lines.join('\n');
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
