/**
 * A ReplEngine that plays given SDK messages per turn, for the REPL's tests. A turn may wait on a
 * permission prompt (through `ask`) or for its abort signal, as the real engine's turns do.
 */
import type { SDKMessage, SDKResultMessage } from '../../engine/sdk-messages';
import type { UserContentBlock } from '../../model/types';
import type { PermissionMode } from '../../permissions/types';
import { failedTurnResult } from '../../sdk/session-frames';
import type { Message } from '../../session/messages';
import type { ReplEngine } from './repl-engine';

export type ScriptedTurn = (signal: AbortSignal) => AsyncGenerator<SDKMessage, void>;

export class ScriptedEngine implements ReplEngine {
  permissionMode: PermissionMode = 'default';
  currentModel = 'claude-test';
  readonly sessionId = 'session-1';
  totalCostUsd = 0;
  currentCwd = '/project';
  readonly prompts: string[] = [];
  /** What each turn was sent, as given (a string, or blocks with attachments). */
  readonly contents: unknown[] = [];
  /** Prompts sent during a turn, as given (a string, or blocks with attachments). */
  readonly enqueued: (string | UserContentBlock[])[] = [];
  compactions: (string | undefined)[] = [];
  closed = false;

  constructor(
    private readonly turns: ScriptedTurn[],
    /** The conversation before the first turn (a resumed one). */
    readonly messages: readonly Message[] = [],
  ) {}

  async *submitMessage(
    prompt: unknown,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<SDKMessage, void> {
    this.prompts.push(String(prompt));
    this.contents.push(prompt);
    const turn = this.turns.shift();
    if (turn) yield* turn(options.signal ?? new AbortController().signal);
  }
  enqueuePrompt(content: string | UserContentBlock[]): void {
    this.enqueued.push(content);
  }
  takeQueuedPrompts() {
    return this.enqueued.splice(0).map((content) => ({ content }));
  }
  setPermissionMode(mode: PermissionMode): void {
    this.permissionMode = mode;
  }
  setModel(model: string): void {
    this.currentModel = model;
  }
  moveCwd(dir: string): void {
    this.currentCwd = dir;
  }
  async compact(instructions?: string): Promise<unknown> {
    this.compactions.push(instructions);
    return [];
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const envelope = { uuid: 'u', session_id: 'session-1' };

export function assistantFrame(content: Record<string, unknown>[]): SDKMessage {
  return {
    ...envelope,
    type: 'assistant',
    parent_tool_use_id: null,
    timestamp: '',
    message: {
      id: 'msg',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: content as never,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 1000,
        output_tokens: 50,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
      context_management: null,
    },
  };
}

export function toolResultFrame(
  toolUseId: string,
  text: string,
  isError = false,
  data?: unknown,
): SDKMessage {
  return {
    ...envelope,
    type: 'user',
    parent_tool_use_id: null,
    timestamp: '',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: isError }],
    },
    ...(data === undefined ? {} : { tool_use_result: data }),
  } as SDKMessage;
}

/** The engine's word that a call starts running now (a tool_progress frame at 0 seconds). */
export function toolStartFrame(toolUseId: string, toolName = 'Bash'): SDKMessage {
  return {
    ...envelope,
    type: 'tool_progress',
    tool_use_id: toolUseId,
    tool_name: toolName,
    parent_tool_use_id: null,
    elapsed_time_seconds: 0,
  };
}

export function streamFrame(event: Record<string, unknown>): SDKMessage {
  return { ...envelope, type: 'stream_event', parent_tool_use_id: null, event };
}

export function resultFrame(terminal: 'completed' | 'aborted_streaming' = 'completed'): SDKMessage {
  // The protocol's own result frame, turned into a success.
  const { errors: _errors, ...base } = failedTurnResult(
    'session-1',
    '',
    Date.now(),
  ) as unknown as SDKResultMessage & {
    errors?: string[];
  };
  return {
    ...base,
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    terminal_reason: terminal,
    result: '',
    usage: { ...base.usage, input_tokens: 1, output_tokens: 50 },
  };
}
