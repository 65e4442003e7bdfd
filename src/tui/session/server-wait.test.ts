import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '../../engine/sdk-messages';
import { SERVER_WAIT_SHOWN_AFTER_MS, ServerWait } from './server-wait';

const streamEvent = { type: 'stream_event', parent_tool_use_id: null, event: { type: 'message_start' } };
const toolResults = (parent: string | null) => ({
  type: 'user',
  parent_tool_use_id: parent,
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
});
const msg = (value: object) => value as unknown as SDKMessage;
const LATER = SERVER_WAIT_SHOWN_AFTER_MS;

describe('ServerWait', () => {
  it("says nothing of a short wait, then names the turn's start until the first stream event", () => {
    const wait = new ServerWait();
    wait.started(1_000);
    expect(wait.waitingSince(1_000 + LATER - 1)).toBeUndefined();
    expect(wait.waitingSince(1_000 + LATER)).toBe(1_000);
    wait.observe(msg(streamEvent), 9_000);
    expect(wait.waitingSince(60_000)).toBeUndefined();
  });

  it("waits again from a tool round's results; a subagent's results and a finished turn do not count", () => {
    const wait = new ServerWait();
    wait.started(0);
    wait.observe(msg({ type: 'assistant', parent_tool_use_id: null, message: { content: [] } }), 100);
    wait.observe(msg(toolResults('toolu_agent')), 200);
    expect(wait.waitingSince(100_000)).toBeUndefined();
    wait.observe(msg(toolResults(null)), 300);
    expect(wait.waitingSince(300 + LATER)).toBe(300);
    wait.ended();
    expect(wait.waitingSince(100_000)).toBeUndefined();
  });
});
