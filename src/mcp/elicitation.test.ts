/**
 * A server that asks the user a question mid-call (`elicitation/create`) over streamable HTTP:
 * with no one to ask the session declines; a handler set later (the SDK host, known only after
 * the servers started) gets the question with the server's name and schema, and an accepted
 * answer that leaves fields out reaches the server with the schema's defaults filled in.
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonBody, type LocalHttp, listenLocal } from '../testing/local-http';
import { connectionOptionsFromEnv, McpManager } from './manager';
import type { McpElicitation } from './mcp-types';

let http: LocalHttp;
let url: string;

const SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'Ada' },
    age: { type: 'integer' as const, default: 36 },
  },
};

beforeEach(async () => {
  // One session (the server must remember the client's capabilities from its initialize).
  const server = new McpServer({ name: 'asker', version: '1.0.0' });
  server.registerTool('ask', { description: 'Asks the user who they are.' }, async () => {
    const answer = await server.server.elicitInput({ message: 'Who are you?', requestedSchema: SCHEMA });
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID });
  await server.connect(transport);
  http = await listenLocal(async (req, res) => {
    await transport.handleRequest(req, res, req.method === 'POST' ? await jsonBody(req) : undefined);
  });
  url = `${http.base}/mcp`;
});
afterEach(() => http.close());

async function ask(manager: McpManager): Promise<unknown> {
  const result = await manager.connection('asker')?.callTool('ask', {}, new AbortController().signal);
  const text = String((result?.content?.[0] as { text?: string } | undefined)?.text);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(text);
  }
}

describe('MCP elicitation', () => {
  it('declines without a handler; a handler set later answers, and defaults fill what it left out', async () => {
    const manager = new McpManager(
      [{ name: 'asker', source: 'dynamic', config: { type: 'http', url, headers: {} } }],
      connectionOptionsFromEnv({}, process.cwd()),
    );
    manager.start();
    await manager.whenSettled();
    try {
      expect(manager.statuses()[0]?.status).toBe('connected');
      expect(await ask(manager)).toEqual({ action: 'decline' });

      const asked: McpElicitation[] = [];
      manager.setElicitationHandler(async (question) => {
        asked.push(question);
        return { action: 'accept', content: { name: 'Grace' } };
      });
      expect(await ask(manager)).toEqual({ action: 'accept', content: { name: 'Grace', age: 36 } });
      expect(asked).toEqual([
        { server: 'asker', message: 'Who are you?', mode: 'form', requestedSchema: SCHEMA },
      ]);
    } finally {
      await manager.close();
    }
  });
});
