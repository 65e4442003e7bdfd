/**
 * The MCP servers an agent definition brings inline (`mcpServers: [{name: {command, …}}]`):
 * connected for the worker alone when it starts, offered to it beside the session's tools, and
 * closed when it ends. Servers it names (strings) are the session's own and already in its pool.
 * The MCP modules load only for an agent that has inline servers.
 */
import type { Env } from '../model/types';
import type { AnyTool } from '../tools/tool';
import type { AgentDefinition } from './types';

export type AgentMcp = {
  tools: AnyTool[];
  /** Servers that could not be configured or connected, one line each. */
  problems: string[];
  close(): Promise<void>;
};

export async function connectAgentMcp(
  definition: Pick<AgentDefinition, 'agentType' | 'mcpServers'>,
  env: Env,
  cwd: string,
): Promise<AgentMcp | undefined> {
  const inline = (definition.mcpServers ?? []).filter((entry) => typeof entry !== 'string');
  if (inline.length === 0) return undefined;
  const [{ parseServerConfig }, { McpManager, connectionOptionsFromEnv }, { mcpServerTools }] =
    await Promise.all([
      import('../mcp/server-config'),
      import('../mcp/manager'),
      import('../tools/mcp/server-tools'),
    ]);
  const problems: string[] = [];
  const servers = inline.flatMap((entry) => {
    const parsed = parseServerConfig(entry.name, entry.config);
    if (!parsed.ok) {
      problems.push(`agent ${definition.agentType}: ${parsed.problem}`);
      return [];
    }
    return [{ name: entry.name, config: parsed.config, source: 'dynamic' as const }];
  });
  if (servers.length === 0) return { tools: [], problems, close: async () => {} };
  const manager = new McpManager(servers, connectionOptionsFromEnv(env, cwd));
  manager.start();
  await manager.whenSettled();
  for (const status of manager.statuses()) {
    if (status.status !== 'connected')
      problems.push(
        `agent ${definition.agentType}: MCP server "${status.name}" is ${status.status}${status.error ? `: ${status.error}` : ''}`,
      );
  }
  return { tools: mcpServerTools(manager), problems, close: () => manager.close() };
}

/** The servers a definition names or brings: their tools pass its allow-list. */
export function mcpServerEntries(definition: Pick<AgentDefinition, 'mcpServers'>): string[] {
  return (definition.mcpServers ?? []).map(
    (entry) => `mcp__${typeof entry === 'string' ? entry : entry.name}`,
  );
}
