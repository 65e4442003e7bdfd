import { describe, expect, it } from 'vitest';
import { noopHooks } from '../hooks/types';
import { OverloadedError, ServerError } from '../model/errors';
import { withRetry } from '../model/retry';
import { FakeProvider } from '../testing/fake-provider';
import type { ToolNotification } from '../tools/context';
import type { QueryEngine } from './query-engine';
import { engine } from './query-engine-test-support';
import { callTool, text } from './query-test-support';
import type { SDKMessage, SDKResultMessage } from './sdk-messages';

async function turn(e: QueryEngine, prompt = 'hello'): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of e.submitMessage(prompt)) out.push(m);
  return out;
}

const resultOf = (messages: SDKMessage[]) => {
  const results = messages.filter((m): m is SDKResultMessage => m.type === 'result');
  expect(results).toHaveLength(1);
  return results[0] as SDKResultMessage;
};

describe('QueryEngine.submitMessage', () => {
  it('yields init, one assistant frame per block, tool results, and exactly one result', async () => {
    const { engine: e } = engine([
      {
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 't1', name: 'Echo', input: { text: 'x' } },
        ],
      },
      text('All done.'),
    ]);
    const messages = await turn(e);
    expect(messages[0]).toMatchObject({
      type: 'system',
      subtype: 'init',
      tools: ['Echo'],
      model: 'claude-opus-5-5',
    });
    const types = messages.map((m) => m.type);
    expect(types).toEqual(['system', 'assistant', 'assistant', 'user', 'assistant', 'result']);
    const toolResult = messages[3];
    expect(toolResult).toMatchObject({
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'echo: x' }] },
      tool_use_result: 'echo: x',
    });
    const result = resultOf(messages);
    expect(result).toMatchObject({ subtype: 'success', is_error: false, result: 'All done.', num_turns: 2 });
    expect(result.total_cost_usd).toBeGreaterThan(0);
    expect(result.modelUsage['claude-opus-5-5']?.inputTokens).toBeGreaterThan(0);
    expect(messages.every((m) => m.session_id === e.sessionId)).toBe(true);
  });

  it('keeps the conversation across turns', async () => {
    const { engine: e, provider } = engine([text('first answer'), text('second answer')]);
    await turn(e, 'one');
    const second = await turn(e, 'two');
    expect(resultOf(second)).toMatchObject({ result: 'second answer' });
    const lastRequest = provider.requests[1];
    expect(lastRequest?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(lastRequest?.messages)).toContain('first answer');
  });

  it('ends with error_max_turns and a readable error', async () => {
    const { engine: e } = engine([callTool('a'), callTool('b'), text('never')], { maxTurns: 2 });
    const result = resultOf(await turn(e));
    expect(result).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      errors: ['Reached maximum number of turns (2)'],
      terminal_reason: 'max_turns',
    });
  });

  it('stops with error_max_budget_usd once the budget is spent', async () => {
    const expensive = { usage: { inputTokens: 1_000_000, outputTokens: 0 } };
    const { engine: e } = engine(
      [
        { ...callTool('a'), ...expensive },
        { ...callTool('b'), ...expensive },
      ],
      {
        maxBudgetUsd: 1,
      },
    );
    const result = resultOf(await turn(e));
    expect(result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(result.total_cost_usd).toBeGreaterThanOrEqual(1);
  });

  it('returns structured output from a valid StructuredOutput call', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const { engine: e, provider } = engine(
      [
        { content: [{ type: 'tool_use', id: 's1', name: 'StructuredOutput', input: { answer: 42 } }] },
        text('Done.'),
      ],
      { jsonSchema: schema },
    );
    const result = resultOf(await turn(e));
    expect(result).toMatchObject({
      subtype: 'success',
      structured_output: { answer: 42 },
      result: '{"answer":42}',
    });
    const offered = provider.requests[0]?.tools?.find((t) => t.name === 'StructuredOutput');
    expect(offered?.input_schema).toMatchObject({ properties: { answer: { type: 'number' } } });
  });

  it('sends invalid structured output back to the model to fix', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const { engine: e, provider } = engine(
      [
        {
          content: [{ type: 'tool_use', id: 's1', name: 'StructuredOutput', input: { answer: 'forty-two' } }],
        },
        { content: [{ type: 'tool_use', id: 's2', name: 'StructuredOutput', input: { answer: 42 } }] },
        text('Done.'),
      ],
      { jsonSchema: schema },
    );
    const result = resultOf(await turn(e));
    expect(result).toMatchObject({ subtype: 'success', structured_output: { answer: 42 } });
    const secondRequest = JSON.stringify(provider.requests[1]?.messages);
    expect(secondRequest).toContain('"is_error":true');
    expect(secondRequest).toContain('answer');
  });

  it('reminds a model that answered in text and returns the output it then provides', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const { engine: e, provider } = engine(
      [
        text('The answer is 42.'),
        { content: [{ type: 'tool_use', id: 's1', name: 'StructuredOutput', input: { answer: 42 } }] },
        text('Done.'),
      ],
      { jsonSchema: schema },
    );
    const messages = await turn(e);
    expect(resultOf(messages)).toMatchObject({
      subtype: 'success',
      structured_output: { answer: 42 },
      terminal_reason: 'completed',
    });
    expect(provider.requests).toHaveLength(3);
    // The reminder is part of the conversation, marked synthetic like every message Yoke adds.
    const reminder = messages.find(
      (m) => m.type === 'user' && JSON.stringify(m.message.content).includes('StructuredOutput tool yet'),
    );
    expect(reminder).toMatchObject({ type: 'user', isSynthetic: true });
    expect(e.messages.some((m) => m.uuid === reminder?.uuid)).toBe(true);
  });

  it('fails with error_max_structured_output_retries when the model never provides it', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } } };
    const { engine: e, provider } = engine([text('no'), text('still no'), text('never')], {
      jsonSchema: schema,
    });
    const result = resultOf(await turn(e));
    expect(result).toMatchObject({
      subtype: 'error_max_structured_output_retries',
      is_error: true,
      errors: ['The model did not provide structured output matching the schema.'],
      terminal_reason: 'structured_output_retry_exhausted',
    });
    expect(provider.requests).toHaveLength(3);
  });

  it('turns an interrupt into an error_during_execution result', async () => {
    let e: QueryEngine | undefined;
    const provider = new FakeProvider(
      [
        {
          reply: { content: [{ type: 'text', text: 'a long answer that keeps going and going' }] },
          delayMs: 5,
        },
      ],
      {
        sleep: async () => {
          e?.interrupt();
        },
      },
    );
    ({ engine: e } = engine(provider));
    const messages = await turn(e);
    const result = resultOf(messages);
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(result.terminal_reason).toMatch(/^aborted_/);
    expect('errors' in result && result.errors.length).toBe(1);
  });

  it('counts the usage and cost of what streamed before an interrupt', async () => {
    let e: QueryEngine | undefined;
    let events = 0;
    const provider = new FakeProvider(
      [
        {
          reply: { content: [{ type: 'text', text: 'a long answer that keeps going and going and going' }] },
          delayMs: 1,
        },
      ],
      {
        // Before each event: the interrupt comes after message_start and a few text deltas.
        sleep: async () => {
          if (++events === 6) e?.interrupt();
        },
      },
    );
    ({ engine: e } = engine(provider));
    const messages = await turn(e);
    const result = resultOf(messages);
    expect(result.terminal_reason).toBe('aborted_streaming');
    const streamed = messages.find((m) => m.type === 'assistant');
    expect(JSON.stringify(streamed)).toContain('a long answer');
    expect(result.usage.input_tokens).toBeGreaterThan(0);
    expect(result.usage.output_tokens).toBeGreaterThan(0);
    expect(result.total_cost_usd).toBeGreaterThan(0);
    expect(e.totalCostUsd).toBe(result.total_cost_usd);
  });

  it('reports a blocked prompt from a UserPromptSubmit hook without calling the model', async () => {
    const { engine: e, provider } = engine([text('unused')], {
      hooks: { ...noopHooks, userPromptSubmit: async () => ({ blocked: { reason: 'no secrets please' } }) },
    });
    const messages = await turn(e);
    // As Claude Code reports it (compat-surface §9): a success with no turn, the reason beside it.
    expect(resultOf(messages)).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: '',
      num_turns: 0,
      terminal_reason: 'hook_stopped',
    });
    expect(messages).toContainEqual(
      expect.objectContaining({
        subtype: 'informational',
        tag: 'hook_stopped',
        content: 'no secrets please',
      }),
    );
    expect(provider.requests).toHaveLength(0);
  });

  it('records permission denials in the result', async () => {
    const { engine: e } = engine([callTool('a'), text('ok')], {
      canUseTool: async () => ({ behavior: 'deny', message: 'not today' }),
    });
    const result = resultOf(await turn(e));
    expect(result.permission_denials).toEqual([
      { tool_name: 'Echo', tool_use_id: 'a', tool_input: { text: 'a' } },
    ]);
  });

  it('fires SessionStart once, PostSampling per response, StopFailure on an API failure, and SessionEnd on close', async () => {
    const events: string[] = [];
    const hooks = {
      ...noopHooks,
      notify: async (event: string) => void events.push(event),
      sessionStart: async () => {
        events.push('SessionStart');
        return {};
      },
    };
    const { engine: e } = engine(
      [callTool('a'), text('ok'), new ServerError('upstream broke', { retryable: false })],
      {
        hooks,
      },
    );
    await turn(e);
    await turn(e, 'again');
    await e.close();
    expect(events).toEqual(['SessionStart', 'PostSampling', 'PostSampling', 'StopFailure', 'SessionEnd']);
  });
});

describe('QueryEngine and a misbehaving model API', () => {
  it('reports the whole answer after a max_tokens continuation, not only its last part', async () => {
    // Already at the escalated limit, so the loop keeps the cut response and asks for the rest.
    const cut = {
      content: [{ type: 'text' as const, text: 'The first half, ' }],
      stopReason: 'max_tokens' as const,
    };
    const { engine: e } = engine([cut, text('and the second half.')], { maxOutputTokens: 64_000 });
    const result = resultOf(await turn(e));
    expect(result).toMatchObject({ subtype: 'success', result: 'The first half, and the second half.' });
  });

  it('emits a system/api_retry frame and tells the user on the notification sink', async () => {
    const failing = new ServerError('Internal server error', { status: 500, requestId: 'req_1' });
    const inner = new FakeProvider([failing, text('Recovered.')]);
    const provider = withRetry(inner, { clock: { random: () => 0.5, sleep: async () => {} } });
    const notices: ToolNotification[] = [];
    const { engine: e } = engine(provider, { onNotification: (n) => notices.push(n) });
    const messages = await turn(e);
    const retry = messages.find((m) => m.type === 'system' && m.subtype === 'api_retry');
    expect(retry).toEqual({
      type: 'system',
      subtype: 'api_retry',
      attempt: 1,
      max_retries: 8,
      retry_delay_ms: 250,
      error_status: 500,
      error: 'server_error',
      session_id: e.sessionId,
      uuid: expect.any(String),
    });
    expect(resultOf(messages).result).toBe('Recovered.');
    expect(notices[0]).toEqual({
      level: 'warning',
      message:
        'API request failed: Internal server error (HTTP 500) [request req_1]; retrying in 250 ms (retry 1 of 8)',
    });
    expect(notices[1]?.level).toBe('info');
    expect(notices[1]?.message).toContain('causes: ServerError: Internal server error');
  });

  it('announces the switch to the fallback model on the notification sink', async () => {
    const overloaded = new OverloadedError('Overloaded', undefined, { status: 529 });
    const notices: ToolNotification[] = [];
    const { engine: e } = engine([overloaded], {
      fallback: { provider: new FakeProvider([text('From the fallback.')]), model: 'claude-haiku-4-5' },
      onNotification: (n) => notices.push(n),
    });
    expect(resultOf(await turn(e)).result).toBe('From the fallback.');
    expect(notices).toEqual([
      {
        level: 'warning',
        message:
          'Switched to claude-haiku-4-5 because claude-opus-5-5 is overloaded (Overloaded (HTTP 529)).',
      },
    ]);
  });
});

describe('QueryEngine.submitQueuedNotices', () => {
  it('runs a turn that opens with the notices queued after the last one, and none without them', async () => {
    const { engine: e, provider } = engine([text('Started it.'), text('The agent found 3 files.')]);
    await turn(e, 'start the agent');
    const none: SDKMessage[] = [];
    for await (const m of e.submitQueuedNotices()) none.push(m);
    expect(none).toEqual([]);

    e.userToolContext(new AbortController().signal).notify({
      level: 'info',
      message: 'agent done',
      forModel: '<task-notification><status>completed</status></task-notification>',
    });
    expect(e.hasQueuedNotices()).toBe(true);
    const out: SDKMessage[] = [];
    for await (const m of e.submitQueuedNotices()) out.push(m);
    expect(resultOf(out)).toMatchObject({ subtype: 'success', result: 'The agent found 3 files.' });
    expect(e.hasQueuedNotices()).toBe(false);
    const sent = JSON.stringify(provider.requests[1]?.messages.at(-1));
    expect(sent).toContain('Automated notices');
    expect(sent).toContain('<task-notification><status>completed</status></task-notification>');
    // No user prompt was made up: the turn's only new user message is the notices.
    expect(provider.requests[1]?.messages).toHaveLength(3);
  });
});
