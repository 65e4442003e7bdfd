import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../model/types';
import { type AssistantMessage, createUserMessage } from '../session/messages';
import type { QueryEvent } from './query-types';
import { subagentProgress } from './subagent-progress';
import { TurnConverter } from './turn-converter';

const assistant = (id: string, text: string): AssistantMessage => ({
  type: 'assistant',
  uuid: `uuid-${id}`,
  timestamp: new Date(0).toISOString(),
  message: {
    id,
    model: 'm',
    role: 'assistant',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: emptyUsage(),
  },
});

const progress = (
  event: QueryEvent,
  data: Record<string, unknown> = subagentProgress('a0123456789abcdef', 'Explore', event),
): QueryEvent => ({
  type: 'tool_progress',
  toolName: 'Agent',
  progress: { toolUseId: 'toolu_agent', data },
});

describe('TurnConverter and subagents', () => {
  it("nests a worker's messages under the Agent call, with its id, and keeps them out of the parent's answer", () => {
    const converter = new TurnConverter('session', false);
    const frames = [
      ...converter.convert(progress({ type: 'message', message: createUserMessage('Find the config') })),
      ...converter.convert(progress({ type: 'message', message: assistant('msg_w', 'Worker answer.') })),
      ...converter.convert({ type: 'message', message: assistant('msg_p', 'Parent answer.') }),
    ];
    expect(frames.map((f) => [f.type, 'parent_tool_use_id' in f ? f.parent_tool_use_id : undefined])).toEqual(
      [
        ['user', 'toolu_agent'],
        ['assistant', 'toolu_agent'],
        ['assistant', null],
      ],
    );
    expect(frames.slice(0, 2).map((f) => ('agent_id' in f ? f.agent_id : undefined))).toEqual([
      'a0123456789abcdef',
      'a0123456789abcdef',
    ]);
    expect(frames[2]).not.toHaveProperty('agent_id');
    expect(converter.lastAssistantText).toBe('Parent answer.');
    expect(converter.responses).toBe(1);
  });

  it("shows neither a worker's token stream nor other tools' progress", () => {
    const converter = new TurnConverter('session', true);
    const stream: QueryEvent = {
      type: 'stream_event',
      model: 'm',
      event: { type: 'message_start', messageId: 'msg_w', model: 'm', usage: emptyUsage() },
    };
    expect([...converter.convert(progress(stream))]).toEqual([]);
    expect([...converter.convert(progress(stream, { lines: 3 }))]).toEqual([]);
  });

  it("turns a running command's latest line into a tool_progress frame, with partial messages on only", () => {
    const line: QueryEvent = {
      type: 'tool_progress',
      toolName: 'Bash',
      progress: {
        toolUseId: 'toolu_sh',
        data: { type: 'output_line', toolName: 'Bash', line: 'step 3', elapsedSeconds: 3.2 },
      },
    };
    expect([...new TurnConverter('session', false).convert(line)]).toEqual([]);
    expect([...new TurnConverter('session', true).convert(line)]).toEqual([
      {
        type: 'tool_progress',
        tool_use_id: 'toolu_sh',
        tool_name: 'Bash',
        parent_tool_use_id: null,
        elapsed_time_seconds: 3.2,
        output_line: 'step 3',
        uuid: expect.any(String),
        session_id: 'session',
      },
    ]);
  });

  it("turns a call's start into a tool_progress frame at 0 seconds, for the REPL only", () => {
    const start: QueryEvent = { type: 'tool_started', toolUseId: 'toolu_sh', toolName: 'Bash' };
    // -p and the SDK send Claude Code's frames: none for a start, partial messages or not.
    expect([...new TurnConverter('session', true).convert(start)]).toEqual([]);
    expect([...new TurnConverter('session', true, null, undefined, true).convert(start)]).toEqual([
      {
        type: 'tool_progress',
        tool_use_id: 'toolu_sh',
        tool_name: 'Bash',
        parent_tool_use_id: null,
        elapsed_time_seconds: 0,
        uuid: expect.any(String),
        session_id: 'session',
      },
    ]);
  });
});
