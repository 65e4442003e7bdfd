/**
 * Acceptance: the unmodified Agent SDK drives the built Yoke CLI (via
 * `pathToClaudeCodeExecutable`) against the mock model server. Each query spawns one process.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createSdkMcpServer,
  type Options,
  query,
  type SDKAPIRetryMessage,
  type SDKMessage,
  type SDKResultMessage,
  type SDKUserMessage,
  tool,
} from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';

const MCP_FIXTURE = join(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Harness = { options: Options; project: string; stderr: () => string };

async function harness(scenario: ScenarioInput, extra: Partial<Options> = {}): Promise<Harness> {
  server = await startMockServer({ scenario });
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  const env = sdkEnv(server.url, home);
  let stderr = '';
  return {
    project,
    stderr: () => stderr,
    options: {
      pathToClaudeCodeExecutable: YOKE_BIN,
      cwd: project,
      env,
      stderr: (text) => {
        stderr += text;
      },
      ...extra,
    },
  };
}

/** Runs a query to its end; a throw (the SDK's reaction to an error result) is returned, not raised. */
async function collect(q: AsyncIterable<SDKMessage>): Promise<{ messages: SDKMessage[]; error?: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (const message of q) messages.push(message);
    return { messages };
  } catch (error) {
    return { messages, error: error as Error };
  }
}

const results = (messages: SDKMessage[]) =>
  messages.filter((m): m is SDKResultMessage => m.type === 'result');

function toolResults(messages: SDKMessage[]): { content: unknown; is_error?: boolean }[] {
  return messages.flatMap((m) => {
    if (m.type !== 'user' || typeof m.message.content === 'string') return [];
    return m.message.content.filter((b) => b.type === 'tool_result') as {
      content: unknown;
      is_error?: boolean;
    }[];
  });
}

function assistantText(messages: SDKMessage[]): string {
  return messages
    .flatMap((m) => (m.type === 'assistant' ? m.message.content : []))
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
}

const text = (value: string) => ({ reply: { content: [{ type: 'text' as const, text: value }] } });

const writeThenReport: ScenarioInput = [
  {
    match: { lastUserTextContains: 'write' },
    reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo original > out.txt' } }] },
  },
  { match: { lastToolResultContains: '' }, ...text('All done.') },
];

describe('the Agent SDK drives Yoke', () => {
  it('(a) answers a one-turn query with assistant text and a success result', async () => {
    const h = await harness([text('Hello from Yoke.')]);
    const { messages, error } = await collect(query({ prompt: 'Say hello', options: h.options }));
    expect(error, h.stderr()).toBeUndefined();
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(assistantText(messages)).toBe('Hello from Yoke.');
    const [result] = results(messages);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, result: 'Hello from Yoke.' });
    expect(init).toMatchObject({
      cwd: h.project,
      session_id: result?.session_id,
      permissionMode: 'default',
      tools: expect.arrayContaining(['Bash', 'Read', 'Edit']),
    });
  });

  it('(b) runs a tool with the input canUseTool rewrote', async () => {
    const asked: unknown[] = [];
    const h = await harness(writeThenReport, {
      canUseTool: async (name, input) => {
        asked.push({ name, input });
        return { behavior: 'allow', updatedInput: { ...input, command: 'echo rewritten > out.txt' } };
      },
    });
    const { messages, error } = await collect(query({ prompt: 'write a file', options: h.options }));
    expect(error, h.stderr()).toBeUndefined();
    expect(asked).toEqual([{ name: 'Bash', input: { command: 'echo original > out.txt' } }]);
    expect(await readFile(join(h.project, 'out.txt'), 'utf8')).toBe('rewritten\n');
    expect(results(messages)[0]).toMatchObject({ subtype: 'success', permission_denials: [] });
  });

  it('(b) reports a canUseTool deny to the model and in permission_denials', async () => {
    const h = await harness(writeThenReport, {
      canUseTool: async () => ({ behavior: 'deny', message: 'not today' }),
    });
    const { messages, error } = await collect(query({ prompt: 'write a file', options: h.options }));
    expect(error, h.stderr()).toBeUndefined();
    const [denied] = toolResults(messages);
    expect(denied).toMatchObject({ is_error: true });
    expect(JSON.stringify(denied?.content)).toContain('not today');
    const [result] = results(messages);
    expect(result?.permission_denials).toHaveLength(1);
    expect(result?.permission_denials[0]).toMatchObject({ tool_name: 'Bash' });
  });

  it('(c) lets a PreToolUse hook callback deny a call, and allow one', async () => {
    const seen: string[] = [];
    const hookFor = (decision: 'allow' | 'deny') => ({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            async (input: { hook_event_name: string }) => {
              seen.push(input.hook_event_name);
              return {
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse' as const,
                  permissionDecision: decision,
                  permissionDecisionReason: `hook says ${decision === 'deny' ? 'no' : 'yes'}`,
                },
              };
            },
          ],
        },
      ],
    });
    const denied = await harness(writeThenReport, { hooks: hookFor('deny') });
    const first = await collect(query({ prompt: 'write a file', options: denied.options }));
    expect(first.error, denied.stderr()).toBeUndefined();
    expect(JSON.stringify(toolResults(first.messages)[0]?.content)).toContain('hook says no');
    await server?.close();

    // An allowing hook settles the call without asking canUseTool (which would deny it).
    const allowed = await harness(writeThenReport, {
      hooks: hookFor('allow'),
      canUseTool: async () => ({ behavior: 'deny', message: 'canUseTool was asked' }),
    });
    const second = await collect(query({ prompt: 'write a file', options: allowed.options }));
    expect(second.error, allowed.stderr()).toBeUndefined();
    expect(
      toolResults(second.messages)[0]?.is_error,
      JSON.stringify(toolResults(second.messages)),
    ).toBeFalsy();
    expect(await readFile(join(allowed.project, 'out.txt'), 'utf8')).toBe('original\n');
    expect(seen).toEqual(['PreToolUse', 'PreToolUse']);
  });

  it('(d) interrupts a slow stream: error_during_execution, then the SDK throws', async () => {
    const slow = 'This is a deliberately slow answer that streams in many small pieces over time.';
    const h = await harness({ chunkDelayMs: 150, turns: [text(slow)] }, { includePartialMessages: true });
    let finish: () => void = () => {};
    const hold = new Promise<void>((resolve) => {
      finish = resolve;
    });
    async function* prompt(): AsyncGenerator<SDKUserMessage> {
      yield {
        type: 'user',
        message: { role: 'user', content: 'say something slow' },
        parent_tool_use_id: null,
      };
      await hold;
    }
    const q = query({ prompt: prompt(), options: h.options });
    const messages: SDKMessage[] = [];
    let receipt: unknown;
    let thrown: Error | undefined;
    try {
      for await (const message of q) {
        messages.push(message);
        if (message.type === 'stream_event' && message.event.type === 'content_block_delta' && !receipt) {
          receipt = await q.interrupt();
        }
        if (message.type === 'result') finish();
      }
    } catch (error) {
      thrown = error as Error;
    }
    expect(receipt).toEqual({ still_queued: [] });
    const [result] = results(messages);
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(result && 'errors' in result ? result.errors.length : 0).toBeGreaterThan(0);
    expect(thrown?.message).toMatch(/error result/);
    expect(assistantText(messages).length).toBeLessThan(slow.length);
  });

  it('(e) calls a tool of an in-process SDK MCP server', async () => {
    const calls: unknown[] = [];
    const calc = createSdkMcpServer({
      name: 'calc',
      tools: [
        tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
          calls.push({ a, b });
          return { content: [{ type: 'text', text: String(a + b) }] };
        }),
      ],
    });
    const h = await harness(
      [
        {
          match: { hasTool: 'mcp__calc__add', lastUserTextContains: 'add' },
          reply: { content: [{ type: 'tool_use', name: 'mcp__calc__add', input: { a: 40, b: 2 } }] },
        },
        { match: { lastToolResultContains: '42' }, ...text('The sum is 42.') },
      ],
      {
        mcpServers: { calc },
        canUseTool: async (_name, input) => ({ behavior: 'allow', updatedInput: input }),
      },
    );
    const { messages, error } = await collect(query({ prompt: 'add 40 and 2', options: h.options }));
    expect(error, h.stderr()).toBeUndefined();
    expect(calls).toEqual([{ a: 40, b: 2 }]);
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
    expect(init && 'tools' in init ? init.tools : []).toContain('mcp__calc__add');
    expect(init && 'mcp_servers' in init ? init.mcp_servers : []).toEqual([
      { name: 'calc', status: 'connected', source: 'sdk' },
    ]);
    expect(results(messages)[0]).toMatchObject({ subtype: 'success', result: 'The sum is 42.' });
  });

  it('(e2) connects a stdio server from mcpServers, reports it in mcpServerStatus(), and toggles it', async () => {
    const h = await harness(
      [
        {
          match: { hasTool: 'mcp__fx__echo', lastUserTextContains: 'echo' },
          reply: { content: [{ type: 'tool_use', name: 'mcp__fx__echo', input: { text: 'hi' } }] },
        },
        { match: { lastToolResultContains: 'echo: hi' }, ...text('It echoed.') },
      ],
      {
        mcpServers: { fx: { type: 'stdio', command: process.execPath, args: [MCP_FIXTURE] } },
        allowedTools: ['mcp__fx__echo'],
      },
    );
    let q: ReturnType<typeof query> | undefined;
    const seen: string[][] = [];
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      // The server connects beside the session; the prompt goes once the host sees it connected.
      for (;;) {
        const statuses = (await q?.mcpServerStatus()) ?? [];
        seen.push(statuses.map((s) => `${s.name}:${s.status}`));
        if (statuses.some((s) => s.name === 'fx' && s.status === 'connected')) break;
      }
      yield {
        type: 'user',
        message: { role: 'user', content: 'echo hi' },
        parent_tool_use_id: null,
        session_id: '',
      };
      await finished;
    }
    q = query({ prompt: prompts(), options: h.options });
    const messages: SDKMessage[] = [];
    for await (const message of q) {
      messages.push(message);
      if (message.type !== 'result') continue;
      const fx = (await q.mcpServerStatus()).find((s) => s.name === 'fx');
      expect(fx).toMatchObject({ status: 'connected', scope: 'dynamic' });
      expect(fx?.tools?.map((t) => t.name)).toContain('echo');
      await q.toggleMcpServer('fx', false);
      expect((await q.mcpServerStatus()).find((s) => s.name === 'fx')?.status).toBe('disabled');
      finish();
    }
    expect(seen.at(-1)).toEqual(['fx:connected']);
    expect(toolResults(messages)[0]?.content).toBe('echo: hi');
    expect(results(messages)[0]).toMatchObject({ subtype: 'success', result: 'It echoed.' });
  });

  it('(f) returns structured output for outputFormat json_schema', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const h = await harness(
      [
        { reply: { content: [{ type: 'tool_use', name: 'StructuredOutput', input: { answer: 42 } }] } },
        { match: { lastToolResultContains: 'Structured output' }, ...text('Done.') },
      ],
      { outputFormat: { type: 'json_schema', schema } },
    );
    const { messages, error } = await collect(query({ prompt: 'What is the answer?', options: h.options }));
    expect(error, h.stderr()).toBeUndefined();
    const [result] = results(messages);
    expect(result).toMatchObject({ subtype: 'success', structured_output: { answer: 42 } });
  });

  it('(g) stops at maxTurns with error_max_turns, then the SDK throws', async () => {
    const h = await harness(
      [
        {
          repeat: 'forever',
          reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }] },
        },
      ],
      { maxTurns: 1 },
    );
    const { messages, error } = await collect(query({ prompt: 'keep listing', options: h.options }));
    const [result] = results(messages);
    expect(result).toMatchObject({ subtype: 'error_max_turns', is_error: true });
    expect(result && 'errors' in result ? result.errors : []).toEqual([
      'Reached maximum number of turns (1)',
    ]);
    expect(error?.message).toMatch(/error result/);
  });

  it('(h) answers two prompts of one streaming session with two results', async () => {
    const h = await harness([
      { match: { lastUserTextContains: 'first' }, ...text('One.') },
      { match: { lastUserTextContains: 'second' }, ...text('Two.') },
    ]);
    let firstDone: () => void = () => {};
    const waitFirst = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'first turn' }, parent_tool_use_id: null };
      await waitFirst;
      yield { type: 'user', message: { role: 'user', content: 'second turn' }, parent_tool_use_id: null };
    }
    const messages: SDKMessage[] = [];
    for await (const message of query({ prompt: prompts(), options: h.options })) {
      messages.push(message);
      if (message.type === 'result') firstDone();
    }
    expect(results(messages).map((r) => (r.subtype === 'success' ? r.result : r.subtype))).toEqual([
      'One.',
      'Two.',
    ]);
    expect(messages.filter((m) => m.type === 'system' && m.subtype === 'init')).toHaveLength(2);
  });

  it('(i) passes a retry on to the host as its system/api_retry message, and says it on stderr', async () => {
    const h = await harness([{ fault: { type: 'overloaded' } }, text('After the retry.')]);
    const { messages, error } = await collect(query({ prompt: 'hello', options: h.options }));
    expect(error, h.stderr()).toBeUndefined();
    const retries = messages.filter(
      (m): m is SDKAPIRetryMessage => m.type === 'system' && m.subtype === 'api_retry',
    );
    expect(retries).toEqual([
      {
        type: 'system',
        subtype: 'api_retry',
        attempt: 1,
        max_retries: 3,
        retry_delay_ms: expect.any(Number),
        error_status: 529,
        error: 'overloaded',
        uuid: expect.any(String),
        session_id: expect.any(String),
      },
    ]);
    expect(results(messages)[0]).toMatchObject({ subtype: 'success', result: 'After the retry.' });
    expect(h.stderr()).toMatch(/yoke: warning: API request failed: Overloaded \(HTTP 529\).*retry 1 of 3/);
  });
});
