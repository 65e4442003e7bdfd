/**
 * `yoke mcp serve [flags]`: Yoke's built-in tools as an MCP server over stdio. Each call goes
 * through a headless session's pipeline — its settings, permission rules and mode (`--allowedTools`,
 * `--permission-mode` and the rest work as with `-p`), PreToolUse hooks — so what the client may
 * do is exactly what a `-p` run here may do: a call that would need approval is refused with the
 * reason. The served session starts no MCP servers of its own.
 */
import type { ToolResultContent } from '../../model/types';
import type { AnyTool } from '../../tools/tool';
import { parseCliArgs } from '../parse-args';
import { createSessionEngine, type Env } from '../session-setup';

type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

function toMcpContent(content: ToolResultContent): McpContent[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((block): McpContent => {
    if (block.type === 'image' && block.source.type === 'base64') {
      return { type: 'image', data: block.source.data, mimeType: block.source.media_type };
    }
    return { type: 'text', text: block.type === 'text' ? block.text : `[${block.type} omitted]` };
  });
}

function describeTool(tool: AnyTool) {
  return {
    name: tool.name,
    description: tool.prompt(),
    inputSchema: tool.inputJsonSchema,
    annotations: {
      readOnlyHint: tool.tier === 'read',
      destructiveHint: tool.tier !== 'read',
    },
  };
}

export async function runMcpServe(
  args: readonly string[],
  context: { cwd: string; env: Env; warn: (line: string) => void },
): Promise<number> {
  const { options } = parseCliArgs([
    '-p',
    'mcp serve',
    '--no-session-persistence',
    '--strict-mcp-config',
    ...args,
  ]);
  const setup = await createSessionEngine(options, context.env, context.cwd, {
    warn: context.warn,
    debug: () => {},
  });
  for (const warning of setup.warnings) context.warn(warning);
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new Server({ name: 'yoke', version: YOKE_VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
    tools: setup.tools.map(describeTool),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const result = await setup.engine.callTool(
      request.params.name,
      request.params.arguments ?? {},
      extra.signal,
    );
    return { content: toMcpContent(result.content), isError: result.isError };
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await setup.engine.close();
  return 0;
}
