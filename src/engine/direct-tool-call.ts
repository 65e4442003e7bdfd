/**
 * One tool call that no model asked for: `yoke mcp serve` runs its clients' calls through the
 * same pipeline as the model's (input checks, PreToolUse hooks, the permission decision, the
 * result budget), as if the call were the only block of an assistant message.
 */
import { randomUUID } from 'node:crypto';
import type { HookRunner } from '../hooks/types';
import { emptyUsage, type ToolResultContent } from '../model/types';
import type { CanUseToolFn } from '../permissions/types';
import type { AssistantMessage } from '../session/messages';
import type { ToolUseContext } from '../tools/context';
import { runToolUse } from '../tools/run-tool-use';
import { toolResultBlockOf } from '../tools/tool-result-message';

export type DirectToolResult = {
  content: ToolResultContent;
  isError: boolean;
  /** Set when the permission pipeline refused the call (it did not run): the refusal's message. */
  denied?: string;
};

export async function callToolDirect(params: {
  context: ToolUseContext;
  canUseTool: CanUseToolFn;
  hooks: HookRunner;
  name: string;
  input: Record<string, unknown>;
  /** The call's id, when the caller already named it to a hook. */
  id?: string;
}): Promise<DirectToolResult> {
  const block = {
    type: 'tool_use' as const,
    id: params.id ?? `toolu_direct_${randomUUID()}`,
    name: params.name,
    input: params.input,
  };
  const assistantMessage: AssistantMessage = {
    type: 'assistant',
    uuid: randomUUID(),
    timestamp: new Date().toISOString(),
    message: {
      id: `msg_direct_${randomUUID()}`,
      model: params.context.model,
      role: 'assistant',
      content: [block],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: emptyUsage(),
    },
  };
  const run = runToolUse({
    block,
    assistantMessage,
    context: params.context,
    canUseTool: params.canUseTool,
    hooks: params.hooks,
    signal: params.context.abortSignal,
  });
  let denied: string | undefined;
  for await (const event of run) {
    if (event.type === 'permission_denied') denied = event.decision.message;
    if (event.type !== 'message' || event.message.type !== 'user') continue;
    const result = toolResultBlockOf(event.message);
    if (result) {
      const settled = { content: result.content ?? '', isError: result.is_error === true };
      return denied === undefined ? settled : { ...settled, denied };
    }
  }
  return { content: `The ${params.name} call produced no result.`, isError: true };
}
