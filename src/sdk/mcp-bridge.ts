/**
 * In-process MCP servers that live in the SDK host (`createSdkMcpServer`). Yoke talks to each
 * through the MCP SDK's `Client` over a transport whose `send()` is an `mcp_message` control
 * request; the host answers requests with the server's reply in `mcp_response` (agent-sdk-protocol §8).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpTool, type McpCallToolResult, type McpToolDescriptor } from '../tools/mcp/tool-adapter';
import type { AnyTool } from '../tools/tool';
import type { ControlChannel } from './control-channel';
import type { JsonObject } from './ndjson';

/** JSON-RPC "internal error": the bridge itself failed, not the server. */
const INTERNAL_ERROR = -32603;

export class ControlMcpTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(
    readonly serverName: string,
    private readonly channel: ControlChannel,
  ) {}

  async start(): Promise<void> {}

  /**
   * Resolves once the message is on its way, not when it is answered: the Client matches replies
   * by id through `onmessage`, and keeping its many awaits off the round trip keeps it simple.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error(`The connection to MCP server ${this.serverName} is closed.`);
    const id = 'method' in message && 'id' in message ? message.id : undefined;
    const request = { subtype: 'mcp_message', server_name: this.serverName, message: message as JsonObject };
    this.channel.request(request).then(
      (payload) => {
        // Notifications and responses are only acknowledged; requests carry the server's reply.
        if (id === undefined || id === null || this.closed) return;
        const reply = payload.mcp_response;
        if (reply && typeof reply === 'object') this.deliver(reply as JSONRPCMessage);
        else this.deliver(bridgeError(id, 'The host sent no mcp_response.'));
      },
      (error: Error) => {
        if (this.closed) return;
        if (id === undefined || id === null) this.onerror?.(error);
        else this.deliver(bridgeError(id, error.message));
      },
    );
  }

  /** A message the server originated (a notification or its own request), relayed by the host. */
  deliver(message: JSONRPCMessage): void {
    if (!this.closed) this.onmessage?.(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

function bridgeError(id: string | number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message } };
}

export type SdkMcpConnection = {
  name: string;
  status: 'connected' | 'failed';
  error?: string;
  tools: AnyTool[];
  /** The tools as the server listed them, for `mcp_status`. */
  descriptors: McpToolDescriptor[];
  transport: ControlMcpTransport;
  serverInfo?: { name: string; version: string };
  close(): Promise<void>;
};

/** The longest a timer can wait; an SDK tool call is otherwise unbounded, as in the host SDK. */
const UNBOUNDED_MS = 2 ** 31 - 1;

/**
 * Handshakes with one host server (initialize, notifications/initialized, tools/list) and wraps
 * its tools. A server that fails is reported as `failed` with no tools instead of failing the
 * whole session: the model can still work without it.
 */
export async function connectSdkMcpServer(
  channel: ControlChannel,
  name: string,
  options: { callTimeoutMs?: number } = {},
): Promise<SdkMcpConnection> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const transport = new ControlMcpTransport(name, channel);
  const client = new Client({ name: 'yoke', version: YOKE_VERSION }, { capabilities: {} });
  const close = () => client.close();
  try {
    await client.connect(transport);
    const listed = await client.listTools();
    const timeout = options.callTimeoutMs ?? UNBOUNDED_MS;
    const descriptors = listed.tools as McpToolDescriptor[];
    const tools = descriptors.map((tool) =>
      createMcpTool(name, tool, async (args, { signal }) => {
        const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
          signal,
          timeout,
        });
        return result as McpCallToolResult;
      }),
    );
    const info = client.getServerVersion();
    const connection: SdkMcpConnection = { name, status: 'connected', tools, descriptors, transport, close };
    if (info) connection.serverInfo = { name: info.name, version: info.version };
    return connection;
  } catch (error) {
    await transport.close();
    return {
      name,
      status: 'failed',
      error: (error as Error).message,
      tools: [],
      descriptors: [],
      transport,
      close,
    };
  }
}
