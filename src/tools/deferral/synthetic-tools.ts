/**
 * Test and bench support: MCP-like tools in the numbers real setups reach (several servers,
 * dozens of tools each), built by the real MCP adapter so they carry the facts an MCP tool
 * carries (`isMcp`, deferrable). Their descriptions and schemas are about the size of a typical
 * server's, so token figures made with them mean something.
 */
import { createMcpTool, type McpToolDescriptor } from '../mcp/tool-adapter';
import type { AnyTool } from '../tool';

const ACTIONS = ['create', 'get', 'list', 'update', 'delete', 'search', 'archive', 'export'];
const OBJECTS = [
  'issue',
  'comment',
  'label',
  'milestone',
  'branch',
  'release',
  'webhook',
  'member',
  'project',
  'channel',
  'message',
  'file',
  'record',
  'invoice',
  'report',
  'dashboard',
  'alert',
  'schedule',
  'ticket',
  'document',
];

/** The `n`-th tool a synthetic server offers: `<action>_<object>` with a realistic schema. */
export function syntheticDescriptor(server: string, n: number): McpToolDescriptor {
  const action = ACTIONS[n % ACTIONS.length] as string;
  const object = OBJECTS[Math.floor(n / ACTIONS.length) % OBJECTS.length] as string;
  const round = Math.floor(n / (ACTIONS.length * OBJECTS.length));
  const name = round === 0 ? `${action}_${object}` : `${action}_${object}_${round + 1}`;
  return {
    name,
    description:
      `${action[0]?.toUpperCase()}${action.slice(1)} a ${object} in the ${server} workspace. ` +
      `Returns the ${object} as JSON with its id, title, state, owner and timestamps. ` +
      'Fails with a clear message when the caller lacks access or the target does not exist.',
    inputSchema: {
      type: 'object',
      properties: {
        workspace: { type: 'string', description: `The ${server} workspace or organization slug.` },
        id: { type: 'string', description: `The ${object} id; required for everything but create and list.` },
        title: { type: 'string', description: `A short title for the ${object}.` },
        body: { type: 'string', description: 'Markdown text of the body.' },
        labels: { type: 'array', items: { type: 'string' }, description: 'Labels to set.' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Page size for list and search.' },
      },
      required: ['workspace'],
    },
    annotations: { readOnlyHint: action === 'get' || action === 'list' || action === 'search' },
  };
}

/** `count` synthetic tools of one server; each call answers with its own name and input. */
export function syntheticMcpServerTools(server: string, count: number): AnyTool[] {
  return Array.from({ length: count }, (_, n) => {
    const descriptor = syntheticDescriptor(server, n);
    return createMcpTool(server, descriptor, async (args) => ({
      content: [{ type: 'text', text: `${server}/${descriptor.name} ran with ${JSON.stringify(args)}` }],
    }));
  });
}
