/**
 * Turns one MCP tool into a Yoke tool named `mcp__<server>__<tool>`. Used for in-process SDK
 * servers and for real MCP servers alike: the caller supplies how to run `tools/call`, the adapter
 * owns naming, schema pass-through, tiers and result mapping.
 */
import * as z from '../../lib/zod';
import { type McpCallToolResult, type McpToolDescriptor, mcpToolName } from '../../mcp/mcp-types';
import type { ImageBlock, JsonSchemaObject, TextBlock } from '../../model/types';
import { type AnyTool, buildTool, ToolError } from '../tool';

export { type McpCallToolResult, type McpToolDescriptor, mcpToolName };

export type McpToolCaller = (
  args: Record<string, unknown>,
  options: { signal: AbortSignal; toolUseId?: string },
) => Promise<McpCallToolResult>;

// The server validates its own input; Yoke only insists on an object so a bad call is still a call.
const permissiveInput = z.record(z.string(), z.unknown());

export type McpToolOptions = {
  /** The server's `alwaysLoad`: its tools are never deferred behind ToolSearch. */
  alwaysLoad?: boolean;
};

export function createMcpTool(
  serverName: string,
  tool: McpToolDescriptor,
  callTool: McpToolCaller,
  options: McpToolOptions = {},
): AnyTool {
  const readOnly = tool.annotations?.readOnlyHint === true;
  const name = mcpToolName(serverName, tool.name);
  return buildTool<Record<string, unknown>, McpCallToolResult>({
    name,
    tier: readOnly ? 'read' : 'exec',
    isMcp: true,
    // Deferred behind ToolSearch when the pool's schemas are large, unless the server says otherwise.
    deferral: options.alwaysLoad === true ? 'never' : 'when-over-budget',
    inputSchema: permissiveInput,
    inputJsonSchema: toInputJsonSchema(tool.inputSchema),
    prompt: tool.description ?? `The ${tool.name} tool of the ${serverName} MCP server.`,
    description: () => `${serverName}: ${tool.annotations?.title ?? tool.name}`,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isDestructive: () => tool.annotations?.destructiveHint === true,
    // MCP has `notifications/cancelled`, so an interrupt can stop a running call.
    interruptBehavior: () => 'cancel',
    toAutoClassifierInput: (input) => `${name} ${JSON.stringify(input)}`,
    async call(input, context) {
      let result: McpCallToolResult;
      try {
        result = await callTool(input, { signal: context.abortSignal });
      } catch (error) {
        if (context.abortSignal.aborted) throw error;
        throw new ToolError(`${name} failed: ${(error as Error).message}`);
      }
      return { data: result, content: toToolResultContent(result), isError: result.isError === true };
    },
  });
}

function toInputJsonSchema(schema: Record<string, unknown> | undefined): JsonSchemaObject {
  if (schema?.type !== 'object') return { type: 'object', properties: {} };
  const { $schema: _dropped, ...rest } = schema;
  return rest as JsonSchemaObject;
}

/** MCP content → what the model sees. Text and images pass through; other kinds are described. */
export function toToolResultContent(result: McpCallToolResult): string | Array<TextBlock | ImageBlock> {
  const blocks: Array<TextBlock | ImageBlock> = [];
  for (const item of result.content ?? []) {
    const block = toBlock(item);
    if (block) blocks.push(block);
  }
  if (blocks.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  if (blocks.every((block) => block.type === 'text')) {
    return blocks.map((block) => (block as TextBlock).text).join('\n');
  }
  return blocks;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function imageBlock(data: unknown, mediaType: string, what: string): TextBlock | ImageBlock {
  if (!IMAGE_TYPES.has(mediaType) || typeof data !== 'string') {
    return { type: 'text', text: `[${what} of unsupported type ${mediaType || 'unknown'} omitted]` };
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType as 'image/png', data } };
}

function toBlock(item: Record<string, unknown>): TextBlock | ImageBlock | undefined {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: String(item.text ?? '') };
    case 'image':
      return imageBlock(item.data, String(item.mimeType ?? ''), 'image');
    case 'resource': {
      // An embedded resource: its text is shown under its URI; an image blob is shown as the image.
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? '');
      if (typeof resource.text === 'string')
        return { type: 'text', text: `[resource ${uri}]\n${resource.text}` };
      const mediaType = String(resource.mimeType ?? '');
      if (IMAGE_TYPES.has(mediaType)) return imageBlock(resource.blob, mediaType, `resource ${uri}`);
      return { type: 'text', text: `[binary resource ${uri} (${mediaType || 'unknown type'}) omitted]` };
    }
    case 'resource_link':
      return { type: 'text', text: `[resource ${String(item.name ?? '')}: ${String(item.uri ?? '')}]` };
    default:
      return { type: 'text', text: `[${String(item.type)} content omitted]` };
  }
}
