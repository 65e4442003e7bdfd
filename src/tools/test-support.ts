/**
 * Shared fixtures for the tool runtime's tests: a real context on a temporary session folder,
 * deferred promises to sequence concurrent calls without sleeping, and message builders.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noopHooks } from '../hooks/types';
import { emptyUsage, type ToolResultBlock, type ToolUseBlock } from '../model/types';
import { allowAll, emptyPermissionContext } from '../permissions/types';
import type { AssistantMessage, UserMessage } from '../session/messages';
import { switchableModes } from './builtin/shared/test-context';
import { initialAppState, type ToolNotification, type ToolUseContext } from './context';
import { ReadFileState } from './read-file-state';
import { runToolUse } from './run-tool-use';
import { SessionServices } from './session-services';
import type { AnyTool } from './tool';
import type { ToolEvent } from './tool-events';

export type Deferred<T> = {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export function makeContext(
  tools: readonly AnyTool[],
  overrides: Partial<ToolUseContext> = {},
): ToolUseContext & { notifications: ToolNotification[] } {
  const notifications: ToolNotification[] = [];
  let appState = initialAppState();
  // Not created up front: only a persisted result makes the folder, so most tests leave nothing.
  const sessionDir = join(tmpdir(), 'yoke-tools-test', randomUUID());
  const modes = switchableModes(emptyPermissionContext());
  return {
    cwd: sessionDir,
    projectRoot: sessionDir,
    abortSignal: new AbortController().signal,
    tools,
    readFileState: new ReadFileState(),
    getAppState: () => appState,
    setAppState: (update) => {
      appState = update(appState);
    },
    sessionId: 'session-test',
    sessionDir,
    model: 'test-model',
    getPermissionContext: modes.get,
    switchPermissionMode: modes.switch,
    hooks: noopHooks,
    messages: [],
    notify: (notification) => notifications.push(notification),
    env: {},
    services: new SessionServices({ env: {} }),
    notifications,
    ...overrides,
  };
}

export function toolUse(name: string, input: Record<string, unknown>, id = `toolu_${name}`): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

export function assistantWith(blocks: ToolUseBlock[]): AssistantMessage {
  return {
    type: 'assistant',
    uuid: 'assistant-1',
    timestamp: new Date(0).toISOString(),
    message: {
      id: 'msg_1',
      model: 'test-model',
      role: 'assistant',
      content: blocks,
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: emptyUsage(),
    },
  };
}

/** The tool_result blocks among events, in the order they were yielded. */
export function toolResults(events: readonly ToolEvent[]): ToolResultBlock[] {
  return events.flatMap((event) => {
    if (event.type !== 'message' || event.message.type !== 'user') return [];
    const content = (event.message as UserMessage).message.content;
    if (typeof content === 'string') return [];
    return content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
  });
}

/** A result's content as one string, for assertions. */
export function contentText(block: ToolResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  return block.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** Runs one tool call through the whole runner with every call allowed; its tool_result block. */
export async function runAllowed(context: ToolUseContext, block: ToolUseBlock): Promise<ToolResultBlock> {
  const { events } = await collect(
    runToolUse({
      block,
      assistantMessage: assistantWith([block]),
      context,
      canUseTool: allowAll,
      hooks: noopHooks,
      signal: context.abortSignal,
    }),
  );
  const [result] = toolResults(events);
  if (!result) throw new Error(`the call to ${block.name} produced no tool_result`);
  return result;
}

export async function collect<T, R>(generator: AsyncGenerator<T, R>): Promise<{ events: T[]; returned: R }> {
  const events: T[] = [];
  let step = await generator.next();
  while (!step.done) {
    events.push(step.value);
    step = await generator.next();
  }
  return { events, returned: step.value };
}
