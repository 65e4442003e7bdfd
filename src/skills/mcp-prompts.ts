/**
 * MCP servers' prompts as prompt commands, `/mcp__<server>__<prompt>` (compat-surface §6): read
 * from the servers connected now, since servers connect beside the session and come and go. The
 * prompt's text is the server's: it is sent as it comes, never substituted or run (expand.ts).
 */
import type { McpManager } from '../mcp/manager';
import { mcpToolName } from '../mcp/mcp-types';
import type { McpPromptFetch, PromptCommandSpec } from './types';

type PromptServers = Pick<McpManager, 'connectedServers' | 'connection'>;

export function mcpPromptSpecs(manager: PromptServers): PromptCommandSpec[] {
  return manager.connectedServers().flatMap((server) =>
    server.promptInfo.map((prompt): PromptCommandSpec => {
      const names = prompt.arguments.map((a) => a.name);
      const hint = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
      return {
        name: mcpToolName(server.name, prompt.name),
        description: prompt.description ?? `The ${prompt.name} prompt of the ${server.name} MCP server`,
        hasUserSpecifiedDescription: prompt.description !== undefined,
        ...(hint ? { argumentHint: hint } : {}),
        argumentNames: names,
        allowedTools: [],
        disableModelInvocation: false,
        userInvocable: true,
        context: 'inline',
        paths: [],
        source: 'mcp',
        loadedFrom: 'mcp',
        body: { kind: 'mcp', server: server.name, prompt: prompt.name, argumentNames: names },
      };
    }),
  );
}

export function mcpPromptFetch(manager: PromptServers): McpPromptFetch {
  return async (server, prompt, args, signal) => {
    const connection = manager.connection(server);
    if (!connection || connection.status !== 'connected')
      throw new Error(
        `The MCP server "${server}" is not connected, so its prompt ${prompt} cannot be fetched.`,
      );
    return connection.getPrompt(prompt, args, signal);
  };
}
