/**
 * Test support: plays the SDK host's side of `mcp_message` for a real in-process MCP server, the
 * way the Agent SDK does — requests go to the server and their reply comes back as
 * `mcp_response`; notifications are delivered and acknowledged at once.
 */

import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ControlChannel } from './control-channel';

export type TestPeer = { channel: ControlChannel; methods: string[]; server: McpServer };

export async function startTestPeer(serverName = 'calc'): Promise<TestPeer> {
  const server = new McpServer({ name: 'calc-server', version: '1.2.3' });
  server.registerTool(
    'add',
    {
      description: 'Add two numbers',
      inputSchema: { a: z.number(), b: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool('fail', { description: 'Always fails' }, async () => ({
    content: [{ type: 'text', text: 'it broke' }],
    isError: true,
  }));
  const [hostSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const waiting = new Map<string | number, (reply: JSONRPCMessage) => void>();
  hostSide.onmessage = (message) => {
    if ('id' in message && message.id !== undefined && !('method' in message))
      waiting.get(message.id)?.(message);
  };
  await hostSide.start();

  const methods: string[] = [];
  const channel: ControlChannel = new ControlChannel((outgoing) => {
    if (outgoing.type !== 'control_request') return;
    const { request, request_id } = outgoing;
    const answer = (response: Record<string, unknown>) =>
      queueMicrotask(() => channel.handleResponse({ subtype: 'success', request_id, response }));
    if (request.server_name !== serverName) {
      queueMicrotask(() =>
        channel.handleResponse({
          subtype: 'error',
          request_id,
          error: `SDK MCP server not found: ${String(request.server_name)}`,
        }),
      );
      return;
    }
    const message = request.message as JSONRPCMessage;
    if ('method' in message) methods.push(message.method);
    if ('method' in message && 'id' in message && message.id !== undefined) {
      waiting.set(message.id, (reply) => answer({ mcp_response: reply }));
    } else {
      answer({ mcp_response: { jsonrpc: '2.0', result: {}, id: 0 } });
    }
    void hostSide.send(message);
  });
  return { channel, methods, server };
}
