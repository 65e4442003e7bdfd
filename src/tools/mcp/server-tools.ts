/**
 * The tools of a session's connected MCP servers as Yoke tools. Built once per tool list: a
 * server's `descriptors` array is replaced whenever it lists again (reconnect, `list_changed`),
 * so the cache keyed on it never serves a stale tool, and a pool read at every turn costs a lookup.
 */
import type { McpManager } from '../../mcp/manager';
import type { McpToolDescriptor } from '../../mcp/mcp-types';
import type { McpServerConnection } from '../../mcp/server-connection';
import type { AnyTool } from '../tool';
import { createMcpTool } from './tool-adapter';

const built = new WeakMap<readonly McpToolDescriptor[], AnyTool[]>();

function serverTools(connection: McpServerConnection): AnyTool[] {
  const descriptors = connection.descriptors;
  let tools = built.get(descriptors);
  if (!tools) {
    tools = descriptors.map((descriptor) =>
      createMcpTool(
        connection.name,
        descriptor,
        (args, { signal }) => connection.callTool(descriptor.name, args, signal),
        { alwaysLoad: connection.server.config.alwaysLoad === true },
      ),
    );
    built.set(descriptors, tools);
  }
  return tools;
}

export function mcpServerTools(manager: McpManager): AnyTool[] {
  return manager.connectedServers().flatMap(serverTools);
}
