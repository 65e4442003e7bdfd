import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAST_ANTHROPIC_MODEL } from '../../../model/models';
import { selectModel } from '../../../model/select';
import { startMockServer } from '../../../testing/mock-server';
import type { ToolUseContext } from '../../context';
import { SessionServices } from '../../session-services';
import { ToolError } from '../../tool';
import { callTool, makeTestContext, resultText } from '../shared/test-context';
import {
  CONTENT_BUDGET_CHARS,
  createWebFetchTool,
  type WebFetchDependencies,
  type WebFetchOutput,
} from './index';
import { PageCache } from './page-cache';
import type { SummarizeRequest } from './summarize';

const ARTICLE = `<!doctype html><html><head><title>T</title><style>.x{color:red}</style></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<script>window.tracking = "SCRIPT-NOISE";</script>
<h1>Install guide</h1><p>Run <code>npm install yoke</code> to install.</p>
<ul><li>fast</li><li>careful</li></ul></body></html>`;

const LONG_TEXT = 'a'.repeat(CONTENT_BUDGET_CHARS) + 'TAIL';

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/article': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
  '/moved': (_req, res) => res.writeHead(301, { location: '/article' }).end(),
  '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
  '/elsewhere': (_req, res) => res.writeHead(302, { location: `http://localhost:${port}/article` }).end(),
  '/data.json': (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"1.2.3"}'),
  '/gzip': (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
      .end(gzipSync('zipped words')),
  '/image.png': (_req, res) =>
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71, 0])),
  '/big': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(5000)),
  '/long': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(LONG_TEXT),
  '/missing': (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('nope'),
  // Never answers: exercises the time cap and interruption.
  '/hang': () => {},
};

let server: Server;
let port: number;
let base: string;
let hits: string[];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    (routes[req.url ?? ''] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits = [];
});

/** A summarizer that records what it was given and echoes the content back. */
function fakeSummarizer() {
  const calls: SummarizeRequest[] = [];
  const summarize = async (request: SummarizeRequest) => {
    calls.push(request);
    return `ANSWER for "${request.prompt}": ${request.content}`;
  };
  return { calls, summarize };
}

/** A session whose settings allow the test server's host, as `webFetch.allowedHosts` would. */
function context(extraEnv: Record<string, string> = {}, overrides: Partial<ToolUseContext> = {}) {
  const env = { PATH: process.env.PATH, ...extraEnv };
  const services = new SessionServices({ env, settings: { webFetchAllowedHosts: [`127.0.0.1:${port}`] } });
  return makeTestContext({ env, services, ...overrides });
}

async function fetchWith(deps: WebFetchDependencies, input: Record<string, unknown>, ctx = context()) {
  const tool = createWebFetchTool(deps);
  const result = await callTool<WebFetchOutput>(tool, { prompt: 'Summarize', ...input }, ctx);
  return { data: result.data, text: resultText(tool, result) };
}

describe('WebFetch', () => {
  it('converts HTML to Markdown without scripts, styles or navigation, and answers the prompt', async () => {
    const { calls, summarize } = fakeSummarizer();
    const { data, text } = await fetchWith(
      { summarize },
      { url: `${base}/article`, prompt: 'How to install?' },
    );
    const content = calls[0]!.content;
    expect(content).toContain('# Install guide');
    expect(content).toContain('`npm install yoke`');
    expect(content).toContain('-   fast');
    expect(content).not.toMatch(/SCRIPT-NOISE|color:red|About/);
    expect(calls[0]!.prompt).toBe('How to install?');
    expect(text).toBe(data.result);
    expect(data).toMatchObject({
      code: 200,
      codeText: 'OK',
      url: `${base}/article`,
      bytes: Buffer.byteLength(ARTICLE),
    });
    expect(data.result).toMatch(/^ANSWER for "How to install\?"/);
  });

  it('passes JSON through and decodes gzip', async () => {
    const { calls, summarize } = fakeSummarizer();
    await fetchWith({ summarize }, { url: `${base}/data.json` });
    await fetchWith({ summarize }, { url: `${base}/gzip` });
    expect(calls.map((call) => call.content)).toEqual(['{"version":"1.2.3"}', 'zipped words']);
  });

  it('follows a same-host redirect', async () => {
    const { summarize } = fakeSummarizer();
    const { data } = await fetchWith({ summarize }, { url: `${base}/moved` });
    expect(data.url).toBe(`${base}/article`);
    expect(hits).toEqual(['/moved', '/article']);
  });

  it('reports a redirect to another host instead of following it', async () => {
    const { calls, summarize } = fakeSummarizer();
    const { data, text } = await fetchWith({ summarize }, { url: `${base}/elsewhere` });
    expect(data.code).toBe(302);
    expect(text).toContain(`http://localhost:${port}/article`);
    expect(text).toMatch(/call WebFetch again/);
    expect(calls).toHaveLength(0);
    expect(hits).toEqual(['/elsewhere']);
  });

  it('gives up after too many redirects', async () => {
    await expect(
      fetchWith({ summarize: fakeSummarizer().summarize, maxRedirects: 5 }, { url: `${base}/loop` }),
    ).rejects.toThrow(/Too many redirects/);
    expect(hits).toHaveLength(6);
  });

  it('refuses a page over the size cap', async () => {
    await expect(
      fetchWith({ summarize: fakeSummarizer().summarize, maxBytes: 1000 }, { url: `${base}/big` }),
    ).rejects.toThrow(/too large/);
  });

  it('times out on a server that never answers', async () => {
    await expect(
      fetchWith({ summarize: fakeSummarizer().summarize, timeoutMs: 200 }, { url: `${base}/hang` }),
    ).rejects.toThrow(/timed out/);
  });

  it('stops when the call is interrupted', async () => {
    const controller = new AbortController();
    const pending = fetchWith(
      { summarize: fakeSummarizer().summarize },
      { url: `${base}/hang` },
      context({}, { abortSignal: controller.signal }),
    );
    while (!hits.includes('/hang')) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toThrow(/interrupted/);
  });

  it('refuses a private address unless the host is allowed, and other schemes always', async () => {
    const notAllowed = makeTestContext({ env: { PATH: process.env.PATH } });
    const tool = createWebFetchTool({ summarize: fakeSummarizer().summarize });
    const call = callTool(tool, { url: `${base}/article`, prompt: 'x' }, notAllowed);
    await expect(call).rejects.toBeInstanceOf(ToolError);
    await expect(call).rejects.toThrow(/127\.0\.0\.1 is a loopback address.*webFetch\.allowedHosts setting/);
    await expect(callTool(tool, { url: 'ftp://example.com/file', prompt: 'x' }, context())).rejects.toThrow(
      /only fetches http and https/,
    );
    expect(hits).toHaveLength(0);
  });

  it('refuses binary content and reports HTTP errors', async () => {
    const { summarize } = fakeSummarizer();
    await expect(fetchWith({ summarize }, { url: `${base}/image.png` })).rejects.toThrow(
      /image\/png, not a web page/,
    );
    await expect(fetchWith({ summarize }, { url: `${base}/missing` })).rejects.toThrow(/HTTP 404 Not Found/);
  });

  it('caches a page for 15 minutes per URL', async () => {
    let now = 1_000_000;
    const { calls, summarize } = fakeSummarizer();
    const tool = createWebFetchTool({ summarize });
    const env = { PATH: process.env.PATH };
    const services = new SessionServices({
      env,
      settings: { webFetchAllowedHosts: [`127.0.0.1:${port}`] },
      webPages: new PageCache(() => now),
    });
    const ctx = makeTestContext({ env, services });
    await callTool(tool, { url: `${base}/article`, prompt: 'one' }, ctx);
    await callTool(tool, { url: `${base}/article`, prompt: 'two' }, ctx);
    expect(hits).toEqual(['/article']);
    expect(calls.map((call) => call.prompt)).toEqual(['one', 'two']);
    now += 15 * 60 * 1000;
    await callTool(tool, { url: `${base}/article`, prompt: 'three' }, ctx);
    expect(hits).toEqual(['/article', '/article']);
  });

  it('reads a long page in slices with offset', async () => {
    const { calls, summarize } = fakeSummarizer();
    const first = await fetchWith({ summarize }, { url: `${base}/long` });
    expect(calls[0]!.content).toHaveLength(CONTENT_BUDGET_CHARS);
    expect(first.text).toContain(`offset: ${CONTENT_BUDGET_CHARS}`);
    const rest = await fetchWith({ summarize }, { url: `${base}/long`, offset: CONTENT_BUDGET_CHARS });
    expect(calls[1]!.content).toBe('TAIL');
    expect(rest.text).not.toContain('offset:');
  });

  it("answers with the session's fast model through its side calls, and counts the cost", async () => {
    const mock = await startMockServer({
      scenario: [
        {
          reply: {
            content: [{ type: 'text', text: 'Install it with npm install yoke.' }],
            usage: { inputTokens: 2_000, outputTokens: 100 },
          },
        },
      ],
    });
    try {
      const selection = await selectModel({
        env: { ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: 'test-key' },
      });
      const services = new SessionServices({
        env: { PATH: process.env.PATH },
        settings: { webFetchAllowedHosts: [`127.0.0.1:${port}`] },
        sideCalls: { provider: selection.provider, fastModel: () => DEFAULT_FAST_ANTHROPIC_MODEL },
      });
      const costs = services.costs;
      const { data } = await fetchWith(
        {},
        { url: `${base}/article`, prompt: 'How do I install it?' },
        makeTestContext({ env: { PATH: process.env.PATH }, services }),
      );
      expect(data.result).toBe('Install it with npm install yoke.');
      expect(mock.requests).toHaveLength(1);
      const body = mock.requests[0]!.body as { model: string; messages: Array<{ content: unknown }> };
      expect(body.model).toBe(DEFAULT_FAST_ANTHROPIC_MODEL);
      const sent = JSON.stringify(body.messages);
      expect(sent).toContain('# Install guide');
      expect(sent).toContain('How do I install it?');
      // claude-haiku-5-5: $1 per million input tokens, $5 per million output tokens.
      expect(costs.total().costUsd).toBeCloseTo(0.002 + 0.0005, 10);
    } finally {
      await mock.close();
    }
  });

  it('returns the page text when no fast model is configured', async () => {
    const { data } = await fetchWith({}, { url: `${base}/data.json` });
    expect(data.result).toContain('No fast model is available');
    expect(data.result).toContain('{"version":"1.2.3"}');
  });
});
