/**
 * Resuming a tool call's SSE stream (SEP-1699), through a session's connection on a real port:
 * the server primes the call's stream with an event id and `retry: 2500`, then closes it before
 * answering; Yoke reconnects with a GET carrying Last-Event-ID exactly 2500 ms later (fake timers
 * stand in for the wait, so the test states the delay without timing anything), and the answer
 * sent on that stream completes the call. The conformance suite's sse-retry scenario measures the
 * same with a wall clock, which is why it is not part of npm test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectionOptionsFromEnv, McpManager } from './manager';

const RETRY_MS = 2500;
let http: ReturnType<typeof createServer>;
let url: string;
/** The id of the call whose stream was closed unanswered. */
let pendingCall: number | undefined;

async function readJson(req: IncomingMessage): Promise<{ id?: number; method?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const reply = (res: ServerResponse, id: number | undefined, result: unknown) =>
  res
    .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'resumable' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result }));

beforeEach(async () => {
  pendingCall = undefined;
  http = createServer(async (req, res) => {
    if (req.method === 'GET') {
      // Only a resumption gets a stream: the standalone one is not offered.
      if (pendingCall === undefined || !req.headers['last-event-id']) return res.writeHead(405).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'resumable' });
      const answer = {
        jsonrpc: '2.0',
        id: pendingCall,
        result: { content: [{ type: 'text', text: 'resumed' }] },
      };
      return res.end(`event: message\nid: call-2\ndata: ${JSON.stringify(answer)}\n\n`);
    }
    const message = await readJson(req);
    if (message.method === 'initialize')
      return reply(res, message.id, {
        protocolVersion: '2025-06-18',
        serverInfo: { name: 'resumable', version: '1.0.0' },
        capabilities: { tools: {} },
      });
    if (message.method === 'tools/list')
      return reply(res, message.id, { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] });
    if (message.method === 'tools/call') {
      pendingCall = message.id;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'resumable' });
      return res.end(`id: call-1\nretry: ${RETRY_MS}\ndata: \n\n`);
    }
    res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe('a tool call whose stream the server closes before answering', () => {
  it("reconnects after exactly the server's retry delay, with Last-Event-ID, and gets the answer", async () => {
    const manager = new McpManager(
      [{ name: 'resumable', config: { type: 'http', url, headers: {} }, source: 'user' }],
      connectionOptionsFromEnv({}, process.cwd()),
    );
    manager.start();
    await manager.whenSettled();
    expect(manager.statuses()[0]?.status).toBe('connected');

    // Each resumption, seen when the client sends it (not when it arrives).
    const realFetch = globalThis.fetch;
    const resumptions: string[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const lastEventId = new Headers(init?.headers).get('last-event-id');
      if (init?.method === 'GET' && lastEventId) resumptions.push(lastEventId);
      return realFetch(input, init);
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const delays: number[] = [];
    const fakeSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((handler: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return fakeSetTimeout(handler, ms);
    }) as typeof setTimeout);

    const call = manager.connection('resumable')?.callTool('slow', {}, new AbortController().signal);
    // The closed stream is read and the reconnection scheduled in the event loop's own time.
    while (!delays.includes(RETRY_MS)) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(RETRY_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(resumptions).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(resumptions).toEqual(['call-1']);
    vi.useRealTimers();
    await expect(call).resolves.toMatchObject({ content: [{ type: 'text', text: 'resumed' }] });
    await manager.close();
  });
});
