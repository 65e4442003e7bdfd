import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioInput } from './scenario';
import { type MockServer, startMockServer } from './server';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tool = (name: string, deferred = false) => ({
  name,
  description: `${name} tool`,
  input_schema: { type: 'object', properties: {} },
  ...(deferred ? { defer_loading: true } : {}),
});
const search = { type: 'tool_use', id: 't1', name: 'ToolSearch', input: { query: 'select:mcp__gh__issue' } };
const loadedHistory = (name: string) => [
  { role: 'user', content: 'open an issue' },
  { role: 'assistant', content: [search] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'tool_reference', tool_name: name }] },
    ],
  },
];

async function send(scenario: ScenarioInput, body: Record<string, unknown>) {
  server = await startMockServer({ scenario });
  const response = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify({ model: 'claude-test', max_tokens: 100, ...body }),
  });
  return {
    status: response.status,
    json: (await response.json()) as { error?: { type: string; message: string } },
  };
}

const callIssue = [
  { reply: { content: [{ type: 'tool_use', name: 'mcp__gh__issue', input: {} }] } },
] as ScenarioInput;

describe('mock server: deferred tools on the Anthropic wire', () => {
  it('plays a call to a deferred tool once a tool_reference has loaded it', async () => {
    const { status } = await send(callIssue, {
      tools: [tool('ToolSearch'), tool('mcp__gh__issue', true)],
      messages: loadedHistory('mcp__gh__issue'),
    });
    expect(status).toBe(200);
  });

  it('refuses a scripted call to a deferred tool no reference loaded: the model could not see it', async () => {
    const { status, json } = await send(callIssue, {
      tools: [tool('ToolSearch'), tool('mcp__gh__issue', true)],
      messages: [{ role: 'user', content: 'open an issue' }],
    });
    expect(status).toBe(400);
    expect(json.error?.message).toMatch(
      /the reply calls mcp__gh__issue, a deferred tool \(defer_loading\) that no tool_reference/,
    );
  });

  it('refuses a tool_reference to a tool not offered with defer_loading, naming where it is', async () => {
    const { status, json } = await send(callIssue, {
      tools: [tool('ToolSearch'), tool('mcp__gh__issue')],
      messages: loadedHistory('mcp__gh__issue'),
    });
    expect(status).toBe(400);
    expect(json.error).toEqual({
      type: 'invalid_request_error',
      message:
        'messages.2.content.0.content.0: tool_reference names "mcp__gh__issue", which the request does not offer with defer_loading: true (mock server)',
    });
    expect(server?.requests[0]?.turnIndex).toBeUndefined();
  });

  it('refuses a request whose every tool is deferred', async () => {
    const { status, json } = await send(callIssue, {
      tools: [tool('mcp__gh__issue', true)],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(status).toBe(400);
    expect(json.error?.message).toMatch(/^tools: at least one tool must be sent without defer_loading/);
  });

  it('matches lastToolResultContains on the name a reference loads', async () => {
    const { status } = await send(
      [
        {
          match: { lastToolResultContains: 'tool_reference:mcp__gh__issue' },
          reply: { content: [{ type: 'text', text: 'ok' }] },
        },
      ],
      {
        tools: [tool('ToolSearch'), tool('mcp__gh__issue', true)],
        messages: loadedHistory('mcp__gh__issue'),
      },
    );
    expect(status).toBe(200);
  });
});
