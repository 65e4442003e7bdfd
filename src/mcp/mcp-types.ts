/**
 * The MCP facts every layer shares: a tool as `tools/list` describes it, a `tools/call` result,
 * and how a server's tool is named to the model. Kept below tools/ so the client (mcp/) and the
 * tool adapter (tools/mcp/) agree without mcp/ importing upward.
 */

/** A tool as `tools/list` describes it. */
export type McpToolDescriptor = {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: { title?: string; readOnlyHint?: boolean; destructiveHint?: boolean };
};

/** A `tools/call` result; content items Yoke cannot show the model become text notes. */
export type McpCallToolResult = {
  content?: Array<Record<string, unknown>>;
  structuredContent?: unknown;
  isError?: boolean;
};

/** API tool names allow `[a-zA-Z0-9_-]`; anything else a server uses becomes `_`. */
export function mcpToolName(serverName: string, toolName: string): string {
  const clean = (part: string) => part.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `mcp__${clean(serverName)}__${clean(toolName)}`;
}
