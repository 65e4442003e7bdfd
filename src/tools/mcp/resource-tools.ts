/**
 * ListMcpResourcesTool and ReadMcpResourceTool (compat-surface §1.8; legacy names
 * ListMcpResources, ReadMcpResource): what the session's MCP servers offer as resources, and
 * one resource's contents. Offered only while a connected server has resources. Both reach the
 * server, which may be across the network, so they count as MCP calls for permissions (`isMcp`):
 * a rule allows them, as for any MCP tool.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from '../../lib/zod';
import type { McpResourceEntry } from '../../mcp/server-connection';
import type { ToolUseContext } from '../context';
import { buildTool, ToolError } from '../tool';

const listInput = z.strictObject({
  server: z.optional(z.string()).check(z.describe('Only this server’s resources (all servers when omitted)')),
});
const readInput = z.strictObject({
  server: z.string().check(z.describe('The MCP server that has the resource')),
  uri: z.string().check(z.describe('The resource URI, as ListMcpResourcesTool gave it')),
});

type ListOutput = Array<McpResourceEntry & { server: string }>;
type ReadOutput = {
  contents: Array<{ uri: string; mimeType?: string; text?: string; blobSavedTo?: string }>;
};

function servers(context: ToolUseContext) {
  const mcp = context.services.mcp;
  if (!mcp) throw new ToolError('No MCP servers are configured in this session.');
  return mcp;
}

function serverNamed(context: ToolUseContext, name: string) {
  const candidates = servers(context).resourceServers();
  const found = candidates.find((c) => c.name === name);
  if (found) return found;
  const known = candidates.map((c) => c.name);
  throw new ToolError(
    `No connected MCP server named "${name}" offers resources${known.length > 0 ? `; these do: ${known.join(', ')}` : ''}.`,
  );
}

export const listMcpResourcesTool = buildTool<z.infer<typeof listInput>, ListOutput>({
  name: 'ListMcpResourcesTool',
  aliases: ['ListMcpResources'],
  inputSchema: listInput,
  tier: 'read',
  isMcp: true,
  prompt:
    'Lists the resources (files, records, documents) that the connected MCP servers offer, with their URIs. Read one with ReadMcpResourceTool.',
  description: (input) => (input.server ? `List resources of ${input.server}` : 'List MCP resources'),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  mapResultToContent: (out) => (out.length === 0 ? 'No resources.' : JSON.stringify(out, null, 2)),
  async call(input, context) {
    const targets = input.server ? [serverNamed(context, input.server)] : servers(context).resourceServers();
    const lists = await Promise.all(
      targets.map(async (c) =>
        (await c.listResources(context.abortSignal)).map((r) => ({ ...r, server: c.name })),
      ),
    );
    return { data: lists.flat() };
  },
});

export const readMcpResourceTool = buildTool<z.infer<typeof readInput>, ReadOutput>({
  name: 'ReadMcpResourceTool',
  aliases: ['ReadMcpResource'],
  inputSchema: readInput,
  tier: 'read',
  isMcp: true,
  prompt:
    'Reads one resource of an MCP server by its URI. Binary contents are saved to a file whose path is returned.',
  description: (input) => `Read ${input.uri} from ${input.server}`,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  mapResultToContent: (out) =>
    out.contents
      .map((c) =>
        c.text !== undefined
          ? `[${c.uri}]\n${c.text}`
          : `[${c.uri}] binary (${c.mimeType ?? 'unknown type'}) saved to ${c.blobSavedTo}`,
      )
      .join('\n\n'),
  async call(input, context) {
    const connection = serverNamed(context, input.server);
    let contents: Awaited<ReturnType<typeof connection.readResource>>;
    try {
      contents = await connection.readResource(input.uri, context.abortSignal);
    } catch (error) {
      throw new ToolError(`Reading ${input.uri} from ${input.server} failed: ${(error as Error).message}`);
    }
    const out: ReadOutput['contents'] = [];
    for (const [index, item] of contents.entries()) {
      const base = { uri: item.uri, ...(item.mimeType ? { mimeType: item.mimeType } : {}) };
      if ('text' in item && typeof item.text === 'string') {
        out.push({ ...base, text: item.text });
      } else if ('blob' in item && typeof item.blob === 'string') {
        // A blob is not text the model can read; it gets the file and can open it with Read.
        const dir = join(context.sessionDir, 'mcp-resources');
        await mkdir(dir, { recursive: true });
        const path = join(dir, `${input.server}-${Date.now()}-${index}`);
        await writeFile(path, Buffer.from(item.blob, 'base64'));
        out.push({ ...base, blobSavedTo: path });
      }
    }
    return { data: { contents: out } };
  },
});
