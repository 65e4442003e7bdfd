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

/** A server's `elicitation/create` question, as Yoke passes it to whoever may answer it. */
export type McpElicitation = {
  server: string;
  message: string;
  mode: 'form' | 'url';
  requestedSchema?: Record<string, unknown>;
  url?: string;
  elicitationId?: string;
};

/** The answer; on `accept` the client fills fields the answer leaves out from the schema's defaults. */
export type McpElicitationAnswer = {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
};

/** Who answers a server's question; with no one to ask, a session declines. */
export type McpElicitationHandler = (
  question: McpElicitation,
  signal: AbortSignal,
) => Promise<McpElicitationAnswer>;
