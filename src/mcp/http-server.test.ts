// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config's `${VAR}` header is part of what is tested.
/**
 * A streamable HTTP MCP server written here with the SDK, on a real port: the client connects,
 * sends the configured headers (with `${VAR}` expanded), calls a tool, and reports a server that
 * answers 401 as needs-auth rather than as a generic failure.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectionOptionsFromEnv, McpManager } from './manager';

let http: Server;
let url: string;
const seenAuth: (string | undefined)[] = [];

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

beforeEach(async () => {
  seenAuth.length = 0;
  http = createServer(async (req, res) => {
    seenAuth.push(req.headers.authorization);
    if (req.headers.authorization !== 'Bearer s3cret') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    // Stateless: one server and transport per request, as the SDK's examples do.
    const server = new McpServer({ name: 'http-fixture', version: '1.0.0' });
    server.registerTool(
      'shout',
      {
        description: 'Upper-cases its text.',
        inputSchema: { text: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ text }) => ({
        content: [{ type: 'text', text: text.toUpperCase() }],
        structuredContent: { loud: text.toUpperCase() },
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.method === 'POST' ? await body(req) : undefined);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterEach(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

function manager(headers: Record<string, string>, env: Record<string, string> = {}): McpManager {
  return new McpManager(
    [{ name: 'remote', source: 'dynamic', config: { type: 'http', url, headers } }],
    connectionOptionsFromEnv(env, process.cwd()),
  );
}

describe('streamable HTTP servers', () => {
  it('connects with the configured headers (variables expanded) and calls a tool', async () => {
    const m = manager({ Authorization: 'Bearer ${API_TOKEN}' }, { API_TOKEN: 's3cret' });
    m.start();
    await m.whenSettled();
    try {
      expect(m.statuses()[0]).toMatchObject({ status: 'connected', transport: 'http' });
      const [shout] = m.tools();
      expect([shout?.name, shout?.tier]).toEqual(['mcp__remote__shout', 'read']);
      const result = await m
        .connection('remote')
        ?.callTool('shout', { text: 'hi' }, new AbortController().signal);
      expect(result).toMatchObject({
        content: [{ type: 'text', text: 'HI' }],
        structuredContent: { loud: 'HI' },
      });
      expect(seenAuth.every((auth) => auth === 'Bearer s3cret')).toBe(true);
    } finally {
      await m.close();
    }
  });

  it('reports a server that answers 401 as needs-auth, with what to do', async () => {
    const m = manager({});
    m.start();
    await m.whenSettled();
    expect(m.statuses()[0]).toMatchObject({
      status: 'needs-auth',
      error: expect.stringContaining('the server asks for authorization (HTTP 401)'),
    });
    await m.close();
  });
});
