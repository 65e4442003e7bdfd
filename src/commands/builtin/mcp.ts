/**
 * /mcp: the session's MCP servers with their status. The REPL opens its live view (reconnect a
 * server, sign in to one that needs it); the text is for hosts without one.
 */
import { serverStatusText } from '../../mcp/status-text';
import type { LocalCommand } from '../types';

export const mcpCommand: LocalCommand = {
  name: 'mcp',
  description: 'The MCP servers and their status; sign in to one that needs it, reconnect one',
  async run(_args, host) {
    const servers = host.mcpServers?.() ?? [];
    const text =
      servers.length === 0
        ? 'No MCP servers in this session (`yoke mcp add` configures one; a project .mcp.json brings its own).'
        : [
            `MCP servers (${servers.filter((s) => s.status === 'connected').length} of ${servers.length} connected):`,
            ...servers.map((s) => `  ${s.name} (${s.source}, ${s.transport}): ${serverStatusText(s)}`),
          ].join('\n');
    return { kind: 'view', view: 'mcp', text };
  },
};
