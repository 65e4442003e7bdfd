/**
 * Error answers that are not the API's JSON — a proxy's HTML page on a 403 or a 502, a gateway's
 * long plain-text complaint — reach the user as one readable line on both wires: the page's title,
 * never its markup, over real HTTP from the mock model server and a scratch server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalHttp, listenLocal } from '../testing/local-http';
import { type MockServer, startMockServer } from '../testing/mock-server';
import { AnthropicProvider } from './anthropic';
import type { Endpoint } from './endpoint';
import { InvalidResponseError, type ModelError, ServerError } from './errors';
import { OpenAIProvider } from './openai';
import type { ModelRequest, Provider } from './types';

type Wire = 'anthropic' | 'openai';
const WIRES: Wire[] = ['anthropic', 'openai'];
const VARIABLE: Record<Wire, string> = { anthropic: 'ANTHROPIC_BASE_URL', openai: 'OPENAI_BASE_URL' };

const request: ModelRequest = {
  model: 'claude-page-test',
  system: [],
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 16,
};

function providerFor(wire: Wire, root: string): Provider {
  const baseUrl = wire === 'anthropic' ? root : `${root}/v1`;
  const endpoint: Endpoint = { api: wire, baseUrl, baseUrlSource: VARIABLE[wire], keyVariables: ['KEY'] };
  const options = { apiKey: 'sk-page-test', baseURL: baseUrl, endpoint };
  return wire === 'anthropic' ? new AnthropicProvider(options) : new OpenAIProvider(options);
}

async function failure(provider: Provider): Promise<ModelError> {
  try {
    for await (const _event of provider.stream(request)) {
      // The answer is an error; nothing streams.
    }
  } catch (error) {
    return error as ModelError;
  }
  throw new Error('expected the request to fail');
}

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

describe('a web page where the API should answer with an error', () => {
  it.each(WIRES)(
    '%s: a 403 page is the proxy answering, not a refused key, and is not retried',
    async (wire) => {
      server.reset([{ fault: { type: 'html_page', status: 403, title: 'Access denied | Corp Firewall' } }]);
      const error = await failure(providerFor(wire, server.url));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.retryable).toBe(false);
      const base = wire === 'anthropic' ? server.url : `${server.url}/v1`;
      expect(error.message).toBe(
        `The server at ${base} answered with a web page ("Access denied | Corp Firewall") instead of the ` +
          `API's answer. Check ${VARIABLE[wire]}: it should be the API's address, not a web page or a proxy's login.`,
      );
    },
  );

  it.each(WIRES)('%s: a 502 page is retried as a server error and quoted by its title', async (wire) => {
    server.reset([{ fault: { type: 'html_page', status: 502, title: '502 Bad Gateway' } }]);
    const error = await failure(providerFor(wire, server.url));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.retryable).toBe(true);
    expect(error.describe()).toMatch(
      /^The server at \S+ answered with a web page: "502 Bad Gateway" \(HTTP 502\) \[request req_mock_\w+\]$/,
    );
  });
});

describe('a long plain-text error from a gateway', () => {
  let gateway: LocalHttp;
  const complaint = `upstream connect error or disconnect/reset before headers.\n${'reset reason: overflow '.repeat(40)}`;
  beforeAll(async () => {
    gateway = await listenLocal((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain' }).end(complaint);
    });
  });
  afterAll(async () => {
    await gateway.close();
  });

  it.each(WIRES)('%s: is flattened to one line and cut', async (wire) => {
    const error = await failure(providerFor(wire, gateway.base));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).not.toContain('\n');
    expect(error.message.startsWith('upstream connect error or disconnect/reset before headers. reset')).toBe(
      true,
    );
    expect(error.message).toHaveLength(300);
    expect(error.message.endsWith('…')).toBe(true);
  });
});
