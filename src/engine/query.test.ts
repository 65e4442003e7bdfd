import { describe, expect, it } from 'vitest';
import { PromptTooLongError } from '../model/errors';
import type { ToolResultBlock } from '../model/types';
import { createSystemMessage, createUserMessage } from '../session/messages';
import { FakeProvider } from '../testing/fake-provider';
import { collect, deferred, makeContext } from '../tools/test-support';
import { toApiMessages } from './api-messages';
import { query } from './query';
import {
  assistantTexts,
  baseParams,
  callTool,
  EventProvider,
  echoTool,
  eventsFor,
  messagesOf,
  requestsOf,
  runQuery,
  text,
  toolResultsIn,
  toolUseIdsIn,
  transitionsOf,
} from './query-test-support';
import type { QueryEvent } from './query-types';

describe('query: normal turns', () => {
  it('completes a text-only answer and yields stream events, the message and usage', async () => {
    const { events, terminal } = await runQuery([text('Hello there.')]);
    expect(terminal.reason).toBe('completed');
    expect(terminal.turnCount).toBe(0);
    expect(events.some((e) => e.type === 'stream_event' && e.event.type === 'text_delta')).toBe(true);
    expect(assistantTexts(messagesOf(events))).toEqual(['Hello there.']);
    const usage = events.find((e) => e.type === 'model_usage');
    expect(usage?.type === 'model_usage' && usage.usage.outputTokens).toBeGreaterThan(0);
    expect(assistantTexts(terminal.messages)).toEqual(['Hello there.']);
    expect(terminal.messages[0]?.type).toBe('user');
  });

  it('runs a tool and sends its result with the same id in the next request', async () => {
    const { events, terminal, provider } = await runQuery([
      callTool('toolu_a', { text: 'ping' }),
      text('Got it.'),
    ]);
    expect(terminal).toMatchObject({ reason: 'completed', turnCount: 1 });
    expect(transitionsOf(events)).toEqual(['next_turn']);
    const second = requestsOf(provider)[1]!;
    const last = second.messages.at(-1)!;
    expect(last.role).toBe('user');
    const result = (last.content as ToolResultBlock[])[0]!;
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_a', content: 'echo: ping' });
    expect(second.messages.at(-2)?.content).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'Echo', input: { text: 'ping' } },
    ]);
    expect(second.tools?.map((t) => t.name)).toEqual(['Echo']);
    expect(toolUseIdsIn(terminal.messages)).toEqual(['toolu_a']);
  });

  it('yields a read tool result before the response has finished streaming', async () => {
    const gate = deferred();
    const [start, ...rest] = eventsFor({
      content: [
        { type: 'tool_use', id: 'toolu_early', name: 'Echo', input: { text: 'fast' } },
        { type: 'text', text: 'And some more words after the call.' },
      ],
    });
    const firstBlockEnd = rest.findIndex((e) => e.type === 'block_stop') + 1;
    const provider = new EventProvider([
      [start!, ...rest.slice(0, firstBlockEnd), () => gate.promise, ...rest.slice(firstBlockEnd)],
      eventsFor(text('Done.'), 'msg_2'),
    ]);
    const seen: QueryEvent[] = [];
    for await (const event of query(baseParams(provider))) {
      seen.push(event);
      if (event.type === 'message' && toolResultsIn([event.message]).length > 0) gate.resolve();
    }
    const resultAt = seen.findIndex((e) => e.type === 'message' && toolResultsIn([e.message]).length > 0);
    const stopAt = seen.findIndex((e) => e.type === 'stream_event' && e.event.type === 'message_stop');
    expect(resultAt).toBeGreaterThan(-1);
    expect(resultAt).toBeLessThan(stopAt);
    // The tool_use message reaches the consumer before its result.
    const useAt = seen.findIndex(
      (e) => e.type === 'message' && e.message.type === 'assistant' && toolUseIdsIn([e.message]).length > 0,
    );
    expect(useAt).toBeLessThan(resultAt);
  });

  it('ends with max_turns once maxTurns model calls have requested tools', async () => {
    const { terminal, provider } = await runQuery(() => callTool('toolu_loop'), { maxTurns: 2 });
    expect(terminal.reason).toBe('max_turns');
    expect(terminal.turnCount).toBe(2);
    expect(terminal.message).toMatch(/maximum number of turns \(2\)/);
    expect(requestsOf(provider)).toHaveLength(2);
  });

  it('ends with blocking_limit before calling the model when the request is too large', async () => {
    const provider = new FakeProvider([text('never')]);
    const { events, terminal } = await runQuery(provider, { blockingLimitTokens: 50 });
    expect(terminal.reason).toBe('blocking_limit');
    expect(terminal.message).toMatch(/too long/);
    expect(provider.requests).toHaveLength(0);
    expect(messagesOf(events).some((m) => m.type === 'assistant' && m.apiError)).toBe(true);
  });

  it('uses the context window minus max output as the default blocking limit', async () => {
    const huge = createUserMessage('word '.repeat(900_000));
    const { terminal } = await runQuery([text('never')], { messages: [huge] });
    expect(terminal.reason).toBe('blocking_limit');
  });
});

describe('query: the spending budget (--max-budget-usd)', () => {
  it('ends with budget_exhausted after a tool turn when the budget check says so', async () => {
    const { terminal, provider } = await runQuery([callTool('toolu_b'), text('unused')], {
      isBudgetExhausted: () => true,
    });
    expect(terminal).toMatchObject({ reason: 'budget_exhausted', turnCount: 1 });
    expect(requestsOf(provider)).toHaveLength(1);
  });

  /** A pipeline that compacts before the second call; the summary call is what spends the budget. */
  const compactingRun = (budget: number) => {
    const boundary = createSystemMessage('compact_boundary', 'Conversation compacted');
    const summary = createUserMessage('Summary of the work so far.', { isMeta: true });
    let spent = 0;
    const run = runQuery([callTool('toolu_s'), text('Answer after the compaction.')], {
      contextPipeline: async ({ messages, state }) => {
        if (state.turnCount === 0) return { messages };
        spent += 1;
        return { messages: [boundary, summary], events: [boundary, summary], madeSideCall: true };
      },
      isBudgetExhausted: () => spent >= budget,
    });
    return { run, boundary, summary };
  };

  it('makes no further model call once a compaction in the pipeline spent the budget', async () => {
    const { run, boundary, summary } = compactingRun(1);
    const { events, terminal, provider } = await run;
    expect(terminal).toMatchObject({
      reason: 'budget_exhausted',
      turnCount: 1,
      message: 'The budget for this task is spent.',
    });
    expect(requestsOf(provider)).toHaveLength(1);
    // The compacted history is the one the session continues from.
    expect(terminal.messages).toEqual([boundary, summary]);
    expect(messagesOf(events).slice(-2)).toEqual([boundary, summary]);
  });

  it('goes on after a compaction that left budget', async () => {
    const { run } = compactingRun(2);
    const { terminal, provider } = await run;
    expect(terminal.reason).toBe('completed');
    expect(requestsOf(provider)).toHaveLength(2);
    expect(assistantTexts(terminal.messages)).toEqual(['Answer after the compaction.']);
  });

  it('makes no retry once a reactive compaction spent the budget', async () => {
    let spent = false;
    const summary = createUserMessage('Summary of the work so far.', { isMeta: true });
    const { events, terminal, provider } = await runQuery(
      [new PromptTooLongError('prompt is too long', 300, 200), text('never')],
      {
        reactiveCompact: async () => {
          spent = true;
          return { messages: [summary] };
        },
        isBudgetExhausted: () => spent,
      },
    );
    expect(terminal).toMatchObject({ reason: 'budget_exhausted', messages: [summary] });
    expect(requestsOf(provider)).toHaveLength(1);
    expect(transitionsOf(events)).toEqual([]);
  });
});

describe('query: context pipeline and input', () => {
  it('sends what the context pipeline returns and yields its events', async () => {
    const notice = createSystemMessage('compact_boundary', 'Compacted.');
    const replaced = createUserMessage('Compacted history.');
    const seenStates: number[] = [];
    const { events, terminal, provider } = await runQuery([callTool('toolu_p'), text('Done.')], {
      contextPipeline: async ({ messages, state }) => {
        seenStates.push(state.turnCount);
        return state.turnCount === 0 ? { messages: [replaced], events: [notice] } : { messages };
      },
    });
    expect(seenStates).toEqual([0, 1]);
    expect(messagesOf(events)[0]).toBe(notice);
    expect(requestsOf(provider)[0]!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Compacted history.' }] },
    ]);
    expect(terminal.messages[0]).toBe(replaced);
    expect(terminal.reason).toBe('completed');
  });

  it("leaves the caller's message array untouched", async () => {
    const messages = [createUserMessage('Hi.')];
    const { terminal } = await runQuery([callTool('toolu_c'), text('Done.')], { messages });
    expect(messages).toHaveLength(1);
    expect(terminal.messages.length).toBeGreaterThan(1);
  });

  it('lets input in before the pipeline, the build and the send of every pass', async () => {
    const steps: string[] = [];
    const provider = new FakeProvider([callTool('toolu_i'), text('Done.')]);
    const stream = provider.stream.bind(provider);
    provider.stream = (request, signal) => {
      steps.push('request');
      return stream(request, signal);
    };
    const { terminal } = await runQuery(provider, {
      letInputIn: async () => {
        steps.push('pause');
      },
      contextPipeline: async ({ messages }) => {
        steps.push('pipeline');
        return { messages };
      },
    });
    expect(terminal.reason).toBe('completed');
    const pass = ['pause', 'pipeline', 'pause', 'pause', 'request'];
    expect(steps).toEqual([...pass, ...pass]);
  });

  it('makes no model call when the turn is interrupted while input is let in', async () => {
    const controller = new AbortController();
    const provider = new FakeProvider([text('never')]);
    let pauses = 0;
    const { terminal } = await runQuery(provider, {
      toolUseContext: makeContext([echoTool()], { abortSignal: controller.signal }),
      // Esc arrives during the last pause before the request is sent.
      letInputIn: async () => {
        if (++pauses === 3) controller.abort();
      },
    });
    expect(terminal.reason).toBe('aborted_streaming');
    expect(provider.requests).toHaveLength(0);
  });

  it('does not call the model when the turn was interrupted before it began', async () => {
    const controller = new AbortController();
    controller.abort();
    const provider = new FakeProvider([text('never')]);
    const { terminal } = await runQuery(provider, {
      toolUseContext: makeContext([echoTool()], { abortSignal: controller.signal }),
    });
    expect(terminal.reason).toBe('aborted_streaming');
    expect(provider.requests).toHaveLength(0);
  });
});

describe('query: task budget', () => {
  const spend = (outputTokens: number, value: string) => ({
    content: [{ type: 'text' as const, text: value }],
    usage: { outputTokens },
  });

  it('nudges an early stop once and believes the model when it stops again', async () => {
    const { events, terminal, provider } = await runQuery([spend(100, 'Done.'), spend(100, 'Really done.')], {
      taskBudget: { total: 10_000 },
    });
    expect(transitionsOf(events)).toEqual(['token_budget_continuation']);
    expect(terminal.reason).toBe('completed');
    const nudge = requestsOf(provider)[1]!.messages.at(-1);
    expect(JSON.stringify(nudge)).toContain('100 of 10000 output tokens');
  });

  it('nudges again after the model did more tool work, and stops once the budget is spent', async () => {
    const { events, terminal } = await runQuery(
      [spend(100, 'Done.'), callTool('toolu_t'), spend(100, 'Done again.'), spend(9_000, 'Last.')],
      { taskBudget: { total: 10_000 } },
    );
    expect(transitionsOf(events)).toEqual([
      'token_budget_continuation',
      'next_turn',
      'token_budget_continuation',
    ]);
    expect(terminal.reason).toBe('completed');
  });

  it('does not nudge when the budget is already spent', async () => {
    const { events, terminal } = await runQuery([spend(9_500, 'Done.')], { taskBudget: { total: 10_000 } });
    expect(transitionsOf(events)).toEqual([]);
    expect(terminal.reason).toBe('completed');
  });
});

describe('query: interrupts', () => {
  it('on an interrupt while streaming keeps the partial text and answers every tool_use', async () => {
    const controller = new AbortController();
    const toolStarted = deferred();
    const slow = echoTool(
      async (_input, ctx) => {
        toolStarted.resolve();
        await new Promise((resolve) => ctx.abortSignal.addEventListener('abort', resolve, { once: true }));
        return { data: 'late' };
      },
      { interruptBehavior: () => 'cancel' },
    );
    const events = eventsFor({
      content: [
        { type: 'tool_use', id: 'toolu_run', name: 'Echo', input: { text: 'a' } },
        { type: 'text', text: 'Half of a sentence that never ends' },
      ],
    });
    const cut = events.findIndex((e) => e.type === 'text_delta') + 1;
    const provider = new EventProvider([
      [
        ...events.slice(0, cut),
        async () => {
          await toolStarted.promise;
          controller.abort();
        },
        ...events.slice(cut),
      ],
    ]);
    const { events: seen, returned: terminal } = await collect(
      query(
        baseParams(provider, { toolUseContext: makeContext([slow], { abortSignal: controller.signal }) }),
      ),
    );
    expect(terminal.reason).toBe('aborted_streaming');
    const aborted = messagesOf(seen).find((m) => m.type === 'assistant' && m.aborted);
    expect(aborted && assistantTexts([aborted])[0]).toMatch(/^Half of/);
    expect(toolResultsIn(terminal.messages).map((r) => r.tool_use_id)).toEqual(['toolu_run']);
    expect(JSON.stringify(terminal.messages.at(-1))).toContain('[Request interrupted by user]');
    // The history is sendable: one assistant turn, then the user turn answering its tool_use.
    const api = toApiMessages(terminal.messages);
    expect(api.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect((api[2]!.content as ToolResultBlock[])[0]?.tool_use_id).toBe('toolu_run');
  });

  it('on an interrupt during tool execution lets results settle and ends with aborted_tools', async () => {
    const controller = new AbortController();
    const aborting = echoTool(async () => {
      controller.abort();
      return { data: 'finished anyway' };
    });
    const { events, terminal, provider } = await runQuery([callTool('toolu_x'), text('unused')], {
      toolUseContext: makeContext([aborting], { abortSignal: controller.signal }),
    });
    expect(terminal).toMatchObject({ reason: 'aborted_tools', turnCount: 1 });
    expect(requestsOf(provider)).toHaveLength(1);
    expect(toolResultsIn(messagesOf(events)).map((r) => r.tool_use_id)).toEqual(['toolu_x']);
    expect(JSON.stringify(terminal.messages.at(-1))).toContain('interrupted by user');
  });
});
