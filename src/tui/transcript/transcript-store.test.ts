import { describe, expect, it, vi } from 'vitest';
import { apiErrorMessage } from '../../engine/recovery';
import { toSdkAssistant } from '../../engine/sdk-convert';
import type { SDKMessage } from '../../engine/sdk-messages';
import { type AssistantContentBlock, emptyUsage } from '../../model/types';
import { failedTurnResult } from '../../sdk/session-frames';
import { createToolResultMessage, createUserMessage, type Message } from '../../session/messages';
import { assistantFrame, streamFrame, toolResultFrame, toolStartFrame } from '../session/scripted-engine';
import type { ToolItem } from './items';
import { TranscriptStore } from './transcript-store';

/** A text block of a streaming answer, begun and given `text`. */
function streamText(store: TranscriptStore, text: string): void {
  store.apply(
    streamFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  );
  store.apply(streamFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }));
}

describe('TranscriptStore', () => {
  it('moves settled markdown blocks of a streaming answer to the scrollback as they complete', () => {
    const store = new TranscriptStore();
    streamText(store, 'First para.\n\nSec');
    // The settled block keeps its blank line: it renders as the rows the streaming block showed.
    expect(store.getSnapshot().committed.map((i) => i.kind === 'assistant' && i.text)).toEqual([
      'First para.\n\n',
    ]);
    expect(store.getSnapshot().draft).toMatchObject({ text: 'Sec', continued: true });
    store.apply(assistantFrame([{ type: 'text', text: 'First para.\n\nSecond.' }]));
    const texts = store.getSnapshot().committed.map((i) => (i.kind === 'assistant' ? i.text : i.kind));
    expect(texts).toEqual(['First para.\n\n', 'Second.']);
    expect(store.getSnapshot().draft).toBeUndefined();
  });

  it('keeps a running tool live and commits it, in order, when its result arrives', () => {
    const store = new TranscriptStore();
    store.apply(assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }]));
    store.notice('info', 'after the tool');
    expect(store.getSnapshot().committed).toHaveLength(0);
    expect(store.getSnapshot().live.map((i) => i.kind)).toEqual(['tool', 'notice']);
    store.apply(toolResultFrame('t1', 'a\nb'));
    expect(store.getSnapshot().committed.map((i) => i.kind)).toEqual(['tool', 'notice']);
    expect(store.getSnapshot().live).toHaveLength(0);
  });

  it('shows a call queued behind another as waiting, and starts its clock when the engine starts it', () => {
    let clock = 1_000;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const store = new TranscriptStore();
    // The first call's start can arrive before its assistant frame (the executor runs it at once).
    store.apply(toolStartFrame('t1'));
    store.apply(
      assistantFrame([
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } },
        { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'make test' } },
      ]),
    );
    const outcomes = () => store.getSnapshot().live.map((item) => item.kind === 'tool' && item.outcome);
    expect(outcomes()).toEqual([{ status: 'running', startedAt: 1_000 }, { status: 'waiting' }]);
    clock = 31_000;
    store.apply(toolResultFrame('t1', 'built'));
    expect(outcomes()).toEqual([{ status: 'waiting' }]);
    clock = 32_000;
    store.apply(toolStartFrame('t2'));
    expect(outcomes()).toEqual([{ status: 'running', startedAt: 32_000 }]);
    // A later frame of the same call does not restart its clock.
    clock = 40_000;
    store.apply(toolStartFrame('t2'));
    expect(outcomes()).toEqual([{ status: 'running', startedAt: 32_000 }]);
    now.mockRestore();
  });

  it('a call whose permission question is answered waits until the engine starts it', () => {
    const store = new TranscriptStore();
    store.apply(assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }]));
    const outcome = () => (store.getSnapshot().live[0] as ToolItem).outcome.status;
    store.permissionAsked('t1');
    expect(outcome()).toBe('awaiting-permission');
    store.permissionAnswered('t1');
    expect(outcome()).toBe('waiting');
    store.apply(toolStartFrame('t1'));
    expect(outcome()).toBe('running');
  });

  it("shows a running tool's latest output line from its tool_progress frames", () => {
    const store = new TranscriptStore();
    store.apply(assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'make' } }]));
    const line = (output_line: string, parent: string | null = null) =>
      store.apply({
        type: 'tool_progress',
        tool_use_id: 't1',
        tool_name: 'Bash',
        parent_tool_use_id: parent,
        elapsed_time_seconds: 4,
        output_line,
        uuid: 'u',
        session_id: 's',
      });
    line('compiling 1/3');
    line('compiling 2/3');
    // A worker's tool with the same id is not this one.
    line('not mine', 'toolu_agent');
    expect(store.getSnapshot().live[0]).toMatchObject({ kind: 'tool', progress: 'compiling 2/3' });
  });

  it('lets the items the view printed go, keeping the latest todo list', () => {
    const store = new TranscriptStore();
    const todos = [{ content: 'write the parser', status: 'in_progress' }];
    store.apply(assistantFrame([{ type: 'tool_use', id: 't1', name: 'TodoWrite', input: { todos } }]));
    store.apply(toolResultFrame('t1', 'ok'));
    store.apply(assistantFrame([{ type: 'tool_use', id: 't2', name: 'Read', input: { file_path: 'a.ts' } }]));
    store.apply(toolResultFrame('t2', 'x'.repeat(100_000)));
    const printed = store.getSnapshot().committed.length;
    expect(printed).toBe(2);
    store.releasePrinted(printed);
    store.user('next prompt');
    const { committed, lastTodoCall } = store.getSnapshot();
    // The list keeps its length (Ink's <Static> counts it); the printed entries hold nothing.
    expect(committed).toHaveLength(3);
    expect(JSON.stringify(committed.slice(0, 2))).not.toContain('xxxx');
    expect(committed[2]).toMatchObject({ kind: 'user', text: 'next prompt' });
    expect(lastTodoCall?.input).toEqual({ todos });
  });

  it("prints the latest prompt's cut tool calls again for Ctrl+O, after they were let go; an earlier prompt's stay printed", () => {
    const store = new TranscriptStore();
    const bash = (id: string, command: string, output: string) => {
      store.apply(assistantFrame([{ type: 'tool_use', id, name: 'Bash', input: { command } }]));
      store.apply(toolResultFrame(id, output));
    };
    store.user('first prompt');
    bash('t1', 'seq 1 40 # earlier prompt', 'many\nlines');
    store.user('second prompt');
    bash('t2', 'seq 1 40', Array.from({ length: 40 }, (_, i) => String(i + 1)).join('\n'));
    bash('t3', 'true', 'short');
    store.releasePrinted(store.getSnapshot().committed.length);
    const before = store.getSnapshot().committed.length;
    const cut = (item: { input: Record<string, unknown> }) => item.input.command !== 'true';
    expect(store.reprintTools(cut)).toBe(1);
    const again = store.getSnapshot().committed.slice(before);
    expect(again).toEqual([expect.objectContaining({ kind: 'tool', input: { command: 'seq 1 40' } })]);
    expect(JSON.stringify(again)).toContain('\\n40');
    // A new id: the view prints it as a new entry.
    expect(again[0]?.id).not.toBe('t2');
    store.clear();
    expect(store.reprintTools(cut)).toBe(0);
  });

  it('keeps what an interrupted answer had streamed', () => {
    const store = new TranscriptStore();
    streamText(store, 'half an ans');
    store.turnEnded();
    const texts = store.getSnapshot().committed.map((i) => (i.kind === 'assistant' ? i.text : i.kind));
    expect(texts).toEqual(['half an ans']);
  });

  it("says a failed turn's error once, as the turn's end, not also as an answer", () => {
    const store = new TranscriptStore();
    const text = 'Cannot reach the Anthropic API: no such host. Check your network connection.';
    store.apply(toSdkAssistant(apiErrorMessage(text, 'claude-test'), 'session-1'));
    store.apply(failedTurnResult('session-1', text, Date.now()) as unknown as SDKMessage);
    const shown = store.getSnapshot().committed.map((item) => ('text' in item ? [item.kind, item.text] : []));
    expect(shown).toEqual([['turn-end', text]]);
  });

  it('marks tools still running when the turn ends as interrupted', () => {
    const store = new TranscriptStore();
    store.apply(
      assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'sleep 9' } }]),
    );
    store.turnEnded();
    const [tool] = store.getSnapshot().committed;
    expect(tool?.kind === 'tool' && tool.outcome).toEqual({ status: 'error', text: 'Interrupted' });
  });

  it('shows a resumed conversation as it was: prompts, answers, tool calls with results, no meta messages', () => {
    const store = new TranscriptStore();
    const assistant = (content: AssistantContentBlock[]): Message => ({
      type: 'assistant',
      uuid: `a-${content.length}`,
      timestamp: '',
      message: {
        id: 'm',
        model: 'claude-test',
        role: 'assistant',
        content,
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: emptyUsage(),
      },
    });
    store.showPast([
      createUserMessage('<system-reminder>for the model</system-reminder>', { isMeta: true }),
      createUserMessage('list the files'),
      assistant([
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
      ]),
      createToolResultMessage(
        { type: 'tool_result', tool_use_id: 't1', content: 'a.ts' },
        { stdout: 'a.ts' },
      ),
      assistant([{ type: 'text', text: 'One file.' }]),
      createUserMessage('and then?'),
      assistant([{ type: 'tool_use', id: 't2', name: 'Read', input: { file_path: '/p/a.ts' } }]),
    ]);
    const { committed, live } = store.getSnapshot();
    expect(live).toHaveLength(0);
    expect(
      committed.map((i) =>
        i.kind === 'tool'
          ? `${i.name}:${i.outcome.status}`
          : i.kind === 'user' || i.kind === 'assistant'
            ? `${i.kind}:${i.text}`
            : i.kind,
      ),
    ).toEqual([
      'user:list the files',
      'assistant:Looking.',
      'Bash:done',
      'assistant:One file.',
      'user:and then?',
      // The conversation ended before this call had a result.
      'Read:error',
    ]);
  });

  it('shows a command that printed "Permission denied" as failed, and a refusal as denied', () => {
    const store = new TranscriptStore();
    store.apply(assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat x' } }]));
    const output = { stdout: 'cat: x: Permission denied', stderr: '', interrupted: false };
    store.apply(toolResultFrame('t1', 'cat: x: Permission denied\nExit code 1', true, output));
    store.apply(assistantFrame([{ type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'rm x' } }]));
    store.apply(
      toolResultFrame(
        't2',
        'The user denied this Bash call.',
        true,
        'Error: The user denied this Bash call.',
      ),
    );
    const outcomes = store
      .getSnapshot()
      .committed.map((i) => (i.kind === 'tool' ? i.outcome.status : i.kind));
    expect(outcomes).toEqual(['error', 'denied']);
  });
});
