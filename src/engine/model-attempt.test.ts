import { describe, expect, it } from 'vitest';
import { noopHooks } from '../hooks/types';
import { allowAll } from '../permissions/types';
import type { Message } from '../session/messages';
import { StreamingToolExecutor } from '../tools/streaming-executor';
import { collect, deferred, makeContext } from '../tools/test-support';
import type { AttemptEnd } from './attempt-end';
import { ModelAttempt } from './model-attempt';
import {
  callTool,
  EventProvider,
  type EventStep,
  echoTool,
  eventsFor,
  MODEL,
  text,
  toolResultsIn,
  untilAborted,
} from './query-test-support';
import type { QueryEvent } from './query-types';

function attemptFor(
  steps: EventStep[],
  options: { signal?: AbortSignal; echo?: ReturnType<typeof echoTool> } = {},
) {
  const signal = options.signal ?? new AbortController().signal;
  const context = makeContext([options.echo ?? echoTool()], { abortSignal: signal });
  return new ModelAttempt({
    provider: new EventProvider([steps]),
    request: { model: MODEL, system: [], messages: [], maxTokens: 1000 },
    signal,
    createExecutor: () => new StreamingToolExecutor({ context, canUseTool: allowAll, hooks: noopHooks }),
  });
}

async function runToEnd(attempt: ModelAttempt): Promise<{ events: QueryEvent[]; end: AttemptEnd }> {
  const { events, returned } = await collect(attempt.run());
  return { events, end: returned };
}

const messagesIn = (events: readonly QueryEvent[]): Message[] =>
  events.flatMap((event) => (event.type === 'message' ? [event.message] : []));

describe('ModelAttempt endings', () => {
  it('ends an answer without tool calls as `answer`, whose finish releases the withheld blocks once', async () => {
    const { events, end } = await runToEnd(attemptFor(eventsFor(text('Hello there.'))));
    // Withheld: the response might still be dropped by a max_tokens recovery.
    expect(messagesIn(events)).toEqual([]);
    if (end.type !== 'answer') throw new Error(`expected an answer, got ${end.type}`);
    expect(end).toMatchObject({ text: 'Hello there.', stop: { reason: 'end_turn' } });
    const { events: released, returned } = await collect(toAsync(end.finishAnswer()));
    expect(messagesIn(released)).toEqual(returned);
    expect(returned).toHaveLength(1);
    expect(() => end.finishAnswer()).toThrow('already finished');
  });

  it('ends a response with tool calls as `tool_use`, whose finish returns the turn in order', async () => {
    const { end } = await runToEnd(attemptFor(eventsFor(callTool('toolu_1'))));
    if (end.type !== 'tool_use') throw new Error(`expected tool_use, got ${end.type}`);
    const { returned: turn } = await collect(end.finishToolTurn());
    expect(turn.messages.map((m) => m.type)).toEqual(['assistant', 'user']);
    expect(toolResultsIn(turn.messages)).toMatchObject([
      { tool_use_id: 'toolu_1', content: 'echo: toolu_1' },
    ]);
    expect(turn.preventContinuation).toBeUndefined();
    expect(() => end.finishToolTurn()).toThrow('already finished');
  });

  it('ends a failed call as `failed`, whose finish answers the tool_use already shown', async () => {
    const gate = deferred();
    const held = echoTool(async () => {
      await gate.promise;
      return { data: 'too late' };
    });
    const steps: EventStep[] = [...eventsFor(callTool('toolu_shown')).slice(0, -1)];
    steps.push(async () => {
      throw new Error('the connection dropped');
    });
    const { events, end } = await runToEnd(attemptFor(steps, { echo: held }));
    expect(messagesIn(events).map((m) => m.type)).toEqual(['assistant']);
    if (end.type !== 'failed') throw new Error(`expected failed, got ${end.type}`);
    expect(String(end.error)).toContain('the connection dropped');
    const { events: answered } = await collect(end.finishError());
    gate.resolve();
    expect(toolResultsIn(messagesIn(answered))).toMatchObject([
      { tool_use_id: 'toolu_shown', is_error: true, content: expect.stringContaining('discarded') },
    ]);
  });

  it('ends an interrupted call as `aborted`, whose finish keeps what streamed', async () => {
    const controller = new AbortController();
    const events = eventsFor(text('Half of a sentence'));
    const cut = events.findIndex((event) => event.type === 'text_delta') + 1;
    const attempt = attemptFor(
      [
        ...events.slice(0, cut),
        async () => controller.abort(),
        untilAborted(controller.signal),
        ...events.slice(cut),
      ],
      { signal: controller.signal },
    );
    const { end } = await runToEnd(attempt);
    if (end.type !== 'aborted') throw new Error(`expected aborted, got ${end.type}`);
    const { events: finishing, returned: history } = await collect(end.finishAbort());
    expect(finishing[0]).toMatchObject({ type: 'model_usage', model: MODEL });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ type: 'assistant', aborted: true });
  });
});

describe('ModelAttempt: stream_reset', () => {
  it('drops a result the discarded executor had already handed over when the reset came', async () => {
    const gate = deferred();
    const held = echoTool(async (input) => {
      await gate.promise;
      return { data: `echo: ${input.text}` };
    });
    const stale = eventsFor(callTool('toolu_stale'), 'msg_stale');
    const cut = stale.findIndex((e) => e.type === 'block_stop') + 1;
    const attempt = attemptFor(
      [
        ...stale.slice(0, cut),
        { type: 'stream_reset', attempt: 1, reason: 'connection reset' },
        ...eventsFor(text('Fresh answer.'), 'msg_fresh'),
      ],
      { echo: held },
    );
    const run = attempt.run();
    const seen: QueryEvent[] = [];
    let step = await run.next();
    while (!step.done) {
      seen.push(step.value);
      const event = step.value;
      if (event.type === 'stream_event' && event.event.type === 'stream_reset') {
        // The consumer holds the reset event while the stale call finishes: its result is on its
        // way through the merged stream before the attempt acts on the reset.
        gate.resolve();
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      step = await run.next();
    }
    expect(step.value.type).toBe('answer');
    // One result for the stale tool_use (the reset's "discarded" answer), never a second one.
    const results = toolResultsIn(messagesIn(seen));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_stale', is_error: true });
  });
});

async function* toAsync<T, R>(generator: Generator<T, R>): AsyncGenerator<T, R> {
  return yield* generator;
}
