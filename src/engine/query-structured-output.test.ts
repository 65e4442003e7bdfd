import { describe, expect, it } from 'vitest';
import type { UserMessage } from '../session/messages';
import { makeContext } from '../tools/test-support';
import {
  callTool,
  echoTool,
  messagesOf,
  requestsOf,
  runQuery,
  text,
  transitionsOf,
} from './query-test-support';
import type { QueryEvent, Transition } from './query-types';
import { createStructuredOutputTool, type StructuredOutputCapture } from './structured-output';

const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };

function withStructuredOutput() {
  const capture: StructuredOutputCapture = { value: undefined, provided: false };
  const tools = [echoTool(), createStructuredOutputTool(schema, capture)];
  return { capture, overrides: { toolUseContext: makeContext(tools), structuredOutput: capture } };
}

const provide = (answer: unknown) => ({
  content: [
    {
      type: 'tool_use' as const,
      id: `toolu_so_${String(answer)}`,
      name: 'StructuredOutput',
      input: { answer },
    },
  ],
});

const transitionDetails = (events: readonly QueryEvent[]): Transition[] =>
  events.flatMap((event) => (event.type === 'transition' ? [event.transition] : []));

const NUDGE = 'You have not called the StructuredOutput tool yet';

describe('query: structured output (--json-schema)', () => {
  it('completes at once when the model calls StructuredOutput', async () => {
    const { capture, overrides } = withStructuredOutput();
    const { events, terminal } = await runQuery([provide(42), text('Done.')], overrides);
    expect(terminal.reason).toBe('completed');
    expect(capture).toEqual({ value: { answer: 42 }, provided: true });
    expect(transitionsOf(events)).toEqual(['next_turn']);
  });

  it('reminds a model that answered in text, as a transition, and completes once it calls the tool', async () => {
    const { capture, overrides } = withStructuredOutput();
    const { events, terminal, provider } = await runQuery(
      [text('The answer is 42.'), provide(42), text('Done.')],
      overrides,
    );
    expect(terminal.reason).toBe('completed');
    expect(capture.value).toEqual({ answer: 42 });
    expect(transitionDetails(events)).toEqual([
      { reason: 'structured_output_nudge', detail: '1/2' },
      { reason: 'next_turn' },
    ]);
    // The reminder is history like any message the loop adds: yielded, kept, and sent.
    const nudge = messagesOf(events).find(
      (m): m is UserMessage => m.type === 'user' && JSON.stringify(m.message.content).includes(NUDGE),
    );
    expect(nudge?.isMeta).toBe(true);
    expect(terminal.messages).toContain(nudge);
    expect(JSON.stringify(requestsOf(provider)[1]?.messages.at(-1))).toContain(NUDGE);
  });

  it('sends invalid output back as an error without a reminder, and completes with the fixed one', async () => {
    const { capture, overrides } = withStructuredOutput();
    const { events, terminal } = await runQuery(
      [provide('forty-two'), provide(42), text('Done.')],
      overrides,
    );
    expect(terminal.reason).toBe('completed');
    expect(capture.value).toEqual({ answer: 42 });
    expect(transitionsOf(events)).toEqual(['next_turn', 'next_turn']);
  });

  it('ends with structured_output_retry_exhausted after two reminders', async () => {
    const { capture, overrides } = withStructuredOutput();
    const { events, terminal, provider } = await runQuery(
      [text('no'), text('still no'), text('never')],
      overrides,
    );
    expect(transitionDetails(events)).toEqual([
      { reason: 'structured_output_nudge', detail: '1/2' },
      { reason: 'structured_output_nudge', detail: '2/2' },
    ]);
    expect(terminal).toMatchObject({
      reason: 'structured_output_retry_exhausted',
      message: 'The model did not provide structured output matching the schema.',
    });
    expect(requestsOf(provider)).toHaveLength(3);
    expect(capture.provided).toBe(false);
  });

  it('counts tool turns across a reminder against maxTurns', async () => {
    const { overrides } = withStructuredOutput();
    const { terminal, provider } = await runQuery([callTool('toolu_a'), text('Done.'), callTool('toolu_b')], {
      ...overrides,
      maxTurns: 2,
    });
    expect(terminal).toMatchObject({ reason: 'max_turns', turnCount: 2 });
    expect(requestsOf(provider)).toHaveLength(3);
  });

  it('never reminds without --json-schema', async () => {
    const { events, terminal } = await runQuery([text('Plain answer.')]);
    expect(terminal.reason).toBe('completed');
    expect(transitionsOf(events)).toEqual([]);
  });
});
