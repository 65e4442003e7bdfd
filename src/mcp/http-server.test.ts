// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config's `${VAR}` header is part of what is tested.
/**
 * Streamable HTTP and legacy SSE MCP servers written here with the SDK, on real ports: the client connects,
 * sends the configured headers (with `${VAR}` expanded), calls a tool, and reports a server that
 * answers 401 as needs-auth rather than as a generic failure.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mcpServerTools } from '../tools/mcp/server-tools';
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
      const [shout] = mcpServerTools(m);
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

describe('legacy SSE servers', () => {
  it('connects over SSE (GET stream, POST messages) with the configured headers and calls a tool', async () => {
    const sessions = new Map<string, SSEServerTransport>();
    const sse = createServer(async (req, res) => {
      if (req.headers.authorization !== 'Bearer s3cret') return res.writeHead(401).end();
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        const server = new McpServer({ name: 'sse-fixture', version: '1.0.0' });
        server.registerTool('ping', { description: 'Answers pong.' }, async () => ({
          content: [{ type: 'text', text: 'pong' }],
        }));
        await server.connect(transport);
        return;
      }
      const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && transport) return transport.handlePostMessage(req, res, await body(req));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', resolve));
    const sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/sse`;
    const m = new McpManager(
      [
        {
          name: 'legacy',
          source: 'dynamic',
          config: { type: 'sse', url: sseUrl, headers: { Authorization: 'Bearer s3cret' } },
        },
      ],
      connectionOptionsFromEnv({}, process.cwd()),
    );
    m.start();
    await m.whenSettled();
    try {
      expect(m.statuses()[0]).toMatchObject({ status: 'connected', transport: 'sse' });
      const result = await m.connection('legacy')?.callTool('ping', {}, new AbortController().signal);
      expect(result?.content).toEqual([{ type: 'text', text: 'pong' }]);
    } finally {
      await m.close();
      sse.closeAllConnections();
      await new Promise((resolve) => sse.close(resolve));
    }
  });
});
