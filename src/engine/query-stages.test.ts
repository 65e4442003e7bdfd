/**
 * The loop's recoveries that edit history before retrying: the collapse drain before the reactive
 * compact on prompt-too-long, and stripping media the API refused.
 */
import { describe, expect, it } from 'vitest';
import { MediaError, PromptTooLongError } from '../model/errors';
import type { ImageBlock } from '../model/types';
import { createToolResultMessage, createUserMessage, type Message } from '../session/messages';
import { ContextCollapse } from './context/collapse';
import { conversation } from './context/context-test-support';
import { callTool, MODEL, messagesOf, requestsOf, runQuery, text, transitionsOf } from './query-test-support';
import type { CollapseDrain } from './query-types';
import { createAssistantMessage } from './stream-assembler';

const tooLong = () => new PromptTooLongError('prompt is too long: 300 tokens > 200 maximum', 300, 200);

/** A drain over a real ContextCollapse that has nothing staged (its marks are never reached). */
function drainOf(collapse: ContextCollapse, calls: string[]): CollapseDrain {
  return async ({ messages }) => {
    calls.push('drain');
    const drained = collapse.drain(messages);
    return drained.event
      ? { messages: drained.messages, events: [drained.event], folded: drained.folded }
      : undefined;
  };
}

const unreachable = { stageTokens: Number.MAX_SAFE_INTEGER, commitTokens: Number.MAX_SAFE_INTEGER };

describe('query: collapse drain on prompt-too-long', () => {
  it('drains the collapses and retries before any reactive compaction', async () => {
    const calls: string[] = [];
    const collapse = new ContextCollapse({ ...unreachable, keepRecentRounds: 10, minRounds: 5 });
    const { events, terminal, provider } = await runQuery([tooLong(), text('Answer after the drain.')], {
      messages: conversation(8),
      collapseDrain: drainOf(collapse, calls),
      reactiveCompact: async () => {
        calls.push('compact');
        return undefined;
      },
    });
    expect(calls).toEqual(['drain']);
    expect(transitionsOf(events)).toEqual(['collapse_drain_retry']);
    const retried = JSON.stringify(requestsOf(provider)[1]!.messages);
    expect(retried).toContain('[Earlier tool activity, summarized]');
    // The drain keeps the newest two rounds as they were, and folds the six before them.
    expect(retried).toContain('t6.ts');
    expect(retried).toContain('line one of 7');
    expect(retried).not.toContain('line one of 5\\nxxx');
    expect(terminal.reason).toBe('completed');
    const notice = messagesOf(events).find((m) => m.type === 'system');
    expect(notice?.type === 'system' && notice.content).toBe('Collapsed 6 old tool rounds into summaries.');
  });

  it('falls back to the reactive compaction when the drained request is still too long', async () => {
    const calls: string[] = [];
    const summary = createUserMessage('Summary of earlier work.');
    const collapse = new ContextCollapse({ ...unreachable, keepRecentRounds: 10, minRounds: 5 });
    const { events, terminal } = await runQuery([tooLong(), tooLong(), text('Answer.')], {
      messages: conversation(8),
      collapseDrain: drainOf(collapse, calls),
      reactiveCompact: async () => {
        calls.push('compact');
        return { messages: [summary] };
      },
    });
    expect(calls).toEqual(['drain', 'compact']);
    expect(transitionsOf(events)).toEqual(['collapse_drain_retry', 'reactive_compact_retry']);
    expect(terminal.reason).toBe('completed');
  });

  it('goes straight to the reactive compaction when there is nothing to fold', async () => {
    const calls: string[] = [];
    const collapse = new ContextCollapse({ ...unreachable, keepRecentRounds: 10, minRounds: 5 });
    const { events } = await runQuery([tooLong(), text('Answer.')], {
      collapseDrain: drainOf(collapse, calls),
      reactiveCompact: async ({ messages }) => {
        calls.push('compact');
        return { messages: [...messages] };
      },
    });
    expect(calls).toEqual(['drain', 'compact']);
    expect(transitionsOf(events)).toEqual(['reactive_compact_retry']);
  });
});

const png = (bytes: number): ImageBlock => ({
  type: 'image',
  source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(Math.ceil((bytes * 4) / 3)) },
});

/** A history where the model read an image that was fine, then another one. */
function imageHistory(second: ImageBlock): Message[] {
  return [
    createUserMessage('Compare the two screenshots.'),
    createAssistantMessage(
      [{ type: 'tool_use', id: 'toolu_a', name: 'Echo', input: { file_path: '/s/a.png' } }],
      {
        id: 'msg_a',
        model: MODEL,
      },
    ),
    createToolResultMessage({ type: 'tool_result', tool_use_id: 'toolu_a', content: [png(1_000)] }),
    createAssistantMessage(
      [{ type: 'tool_use', id: 'toolu_b', name: 'Echo', input: { file_path: '/s/b.png' } }],
      {
        id: 'msg_b',
        model: MODEL,
      },
    ),
    createToolResultMessage({ type: 'tool_result', tool_use_id: 'toolu_b', content: [second] }),
  ];
}

describe('query: media errors', () => {
  const tooLarge = () =>
    new MediaError(
      'messages.4.content.0.content.0.image.source.base64: image exceeds 5 MB maximum: 6000000 bytes > 5242880 bytes',
    );

  it('replaces the refused image with a note and retries once', async () => {
    const { events, terminal, provider } = await runQuery(
      [tooLarge(), text('Only the first one is readable.')],
      {
        messages: imageHistory(png(6_000_000)),
      },
    );
    expect(transitionsOf(events)).toEqual(['media_strip_retry']);
    const [first, retried] = requestsOf(provider).map((r) => JSON.stringify(r.messages));
    expect(first!.match(/"type":"image"/g)).toHaveLength(2);
    // The image the API had already accepted stays; the new one is a note naming where it came from.
    expect(retried!.match(/"type":"image"/g)).toHaveLength(1);
    expect(retried).toContain(
      '[An image from Echo(/s/b.png) was removed: the model API could not use it (image exceeds 5 MB maximum: 6000000 bytes > 5242880 bytes).',
    );
    const notice = messagesOf(events).find((m) => m.type === 'system');
    expect(notice).toMatchObject({ subtype: 'warning', level: 'warning' });
    expect(notice?.type === 'system' && notice.content).toMatch(
      /^Removed 1 image the model API could not use/,
    );
    expect(terminal.reason).toBe('completed');
  });

  it('ends with image_error when the retry is refused too', async () => {
    const { events, terminal, provider } = await runQuery(
      [tooLarge(), new MediaError('Could not process image')],
      {
        messages: imageHistory(png(6_000_000)),
      },
    );
    expect(requestsOf(provider)).toHaveLength(2);
    expect(transitionsOf(events)).toEqual(['media_strip_retry']);
    expect(terminal).toMatchObject({ reason: 'image_error', message: 'Could not process image' });
  });

  it('retries again after a later tool round brings a new image', async () => {
    const { events, terminal } = await runQuery(
      [tooLarge(), callTool('toolu_c'), new MediaError('Could not process image'), text('Done.')],
      { messages: imageHistory(png(6_000_000)) },
    );
    expect(transitionsOf(events)).toEqual(['media_strip_retry', 'next_turn', 'media_strip_retry']);
    expect(terminal.reason).toBe('completed');
  });
});
