/**
 * One tool call from tool_use block to tool_result (seed 001 "runToolUse"): lookup, input checks,
 * PreToolUse hook, permissions, the call itself, PostToolUse hook, result mapping and persistence.
 * Every path ends in exactly one tool_result message; nothing here throws to the loop.
 *
 * The permission decision is not made here: the runner gathers its facts (the hook's verdict,
 * the tool's own check, the read-only and destructive verdicts, the call's context), asks
 * `canUseTool` once, and applies the answer.
 */

import type { HookRunner, PreToolUseOutcome, ToolHookInput } from '../hooks/types';
import type { ToolResultContent, ToolUseBlock } from '../model/types';
import type {
  CanUseToolFn,
  CanUseToolRequest,
  PermissionCallContext,
  PermissionDecision,
  SpeculativeClassification,
} from '../permissions/types';
import type { AssistantMessage, Message } from '../session/messages';
import { callWithProgress } from './call-with-progress';
import type { ToolUseContext } from './context';
import { TOOL_SEARCH_TOOL_NAME } from './deferral/plan';
import { findToolByName } from './registry';
import { persistLargeResult, resultText } from './result-persistence';
import type { AnyTool, ToolInput, ToolResult } from './tool';
import type { ToolEvent } from './tool-events';
import { checkToolInput, describeMalformedInput } from './tool-input';
import { abortText, appendText, errorText, toolResultMessage } from './tool-result-message';

export type RunToolUseParams = {
  block: ToolUseBlock;
  assistantMessage: AssistantMessage;
  context: ToolUseContext;
  canUseTool: CanUseToolFn;
  hooks: HookRunner;
  /** The raw input text when the streamed tool_use input was not valid JSON. */
  malformedInput?: string;
  /** This call's own signal; the tool sees it as `context.abortSignal`. */
  signal: AbortSignal;
};

export type RunToolUseOutcome = {
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
  preventContinuation?: { stopReason: string };
};

/** What the pipeline settled on, before it becomes the tool_result message. */
type Settled = RunToolUseOutcome & {
  content: ToolResultContent;
  isError: boolean;
  toolUseResult: unknown;
  /** Hook texts to append after the result (after persistence, so they are never hidden in a file). */
  notes: string[];
  newMessages?: Message[];
};

const failed = (text: string, notes: string[] = [], extra: RunToolUseOutcome = {}): Settled => ({
  content: text,
  isError: true,
  toolUseResult: text,
  notes,
  ...extra,
});

type DenyDecision = Extract<PermissionDecision, { behavior: 'deny' }>;

export async function* runToolUse(params: RunToolUseParams): AsyncGenerator<ToolEvent, RunToolUseOutcome> {
  const settled = yield* settle(params);
  const content = appendText(settled.content, settled.notes);
  yield {
    type: 'message',
    message: toolResultMessage(params.block.id, content, settled.isError, settled.toolUseResult),
  };
  for (const message of settled.newMessages ?? []) yield { type: 'message', message };
  const outcome: RunToolUseOutcome = {};
  if (settled.contextModifier) outcome.contextModifier = settled.contextModifier;
  if (settled.preventContinuation) outcome.preventContinuation = settled.preventContinuation;
  return outcome;
}

function unknownToolText(name: string, tools: readonly AnyTool[]): string {
  const available = tools.map((tool) => tool.name).join(', ') || '(none)';
  return `Error: no tool named "${name}" is available. Available tools: ${available}.`;
}

/** The model called a tool it knew by name only: its input was written without the schema. */
function notLoadedText(name: string): string {
  return (
    `Error: ${name} is a deferred tool whose schema you have not loaded, so the call did not run. ` +
    `Load it with ${TOOL_SEARCH_TOOL_NAME} (query "select:${name}"), then call it again as its schema says.`
  );
}

async function* settle(params: RunToolUseParams): AsyncGenerator<ToolEvent, Settled> {
  const { block, context, hooks, signal } = params;
  const tool = findToolByName(context.tools, block.name);
  if (!tool) return failed(unknownToolText(block.name, context.tools));
  if (context.services.deferredTools.awaitsLoading(context.tools, tool.name))
    return failed(notLoadedText(tool.name));
  if (params.malformedInput !== undefined)
    return failed(describeMalformedInput(tool.name, params.malformedInput));

  // Before the call starts, a user interrupt stops any tool; only a running `block` tool finishes.
  const beforeCall = AbortSignal.any([signal, context.abortSignal]);
  if (beforeCall.aborted) return failed(abortText(beforeCall));

  const checked = await checkToolInput(tool, block.input, context);
  if (!checked.ok) return failed(checked.message);
  let input = checked.input;
  // Hooks see, and judge paths against, the directory and mode this call runs in.
  const hookInput = (): ToolHookInput => ({
    toolName: tool.name,
    toolInput: input,
    toolUseId: block.id,
    access: tool.access,
    cwd: context.cwd,
    permissionMode: context.getPermissionContext().mode,
    ...(context.effort ? { effort: context.effort.level } : {}),
  });

  const notes: string[] = [];
  let preventContinuation: { stopReason: string } | undefined;
  let decision: PermissionDecision;
  // The auto-mode classifier's side call may start now, so its wait overlaps the PreToolUse
  // hooks' instead of following it (seed 001, step 4b).
  const speculative = params.canUseTool.startSpeculativeClassification?.({
    tool,
    input,
    context: permissionCallContext(context),
    signal: beforeCall,
  });
  try {
    const pre = await hooks.preToolUse(hookInput(), beforeCall);
    notifyAll(context, pre.systemMessages);
    notes.push(...(pre.additionalContext ?? []));
    preventContinuation = pre.preventContinuation;
    // `continue: false` stops the turn here: the call the hook saw never runs.
    if (preventContinuation) {
      const text = `The call did not run: a PreToolUse hook stopped the turn. ${preventContinuation.stopReason}`;
      return failed(text, notes, { preventContinuation });
    }
    if (pre.updatedInput) {
      const rechecked = await checkToolInput(tool, pre.updatedInput, context);
      if (!rechecked.ok) return failed(rechecked.message, notes, { preventContinuation });
      input = rechecked.input;
    }
    // A classification of the input before a hook rewrote it says nothing about the new one.
    const classification = pre.updatedInput ? undefined : speculative;
    decision = await params.canUseTool(
      await permissionFacts(params, tool, input, pre, classification, beforeCall),
    );
  } catch (error) {
    if (beforeCall.aborted) return failed(abortText(beforeCall), notes, { preventContinuation });
    return failed(errorText(error), notes, { preventContinuation });
  } finally {
    // Whatever was decided (or thrown), a classification still running is no longer wanted.
    speculative?.cancel();
  }

  if (decision.behavior !== 'allow') {
    const denial: DenyDecision =
      decision.behavior === 'deny' ? decision : { behavior: 'deny', message: decision.message };
    if (decision.decisionReason) denial.decisionReason = decision.decisionReason;
    yield {
      type: 'permission_denied',
      toolName: tool.name,
      toolUseId: block.id,
      toolInput: input,
      decision: denial,
    };
    if (denial.interrupt) preventContinuation ??= { stopReason: denial.message };
    return failed(denial.message, notes, { preventContinuation });
  }
  // Whoever allowed the call may have rewritten its input (the tool, a person, a hook): check it again.
  if (decision.updatedInput) {
    const rechecked = await checkToolInput(tool, decision.updatedInput, context);
    if (!rechecked.ok) return failed(rechecked.message, notes, { preventContinuation });
    input = rechecked.input;
  }
  if (beforeCall.aborted) return failed(abortText(beforeCall), notes, { preventContinuation });

  const callContext: ToolUseContext = { ...context, abortSignal: signal, toolUseId: block.id };
  yield { type: 'tool_started', toolUseId: block.id, toolName: tool.name };
  const calling = callWithProgress<ToolResult<unknown>>(
    (onProgress) => tool.call(input, callContext, (p) => onProgress({ ...p, toolUseId: block.id })),
    signal,
  );
  let step = await calling.next();
  while (!step.done) {
    yield { type: 'tool_progress', progress: step.value, toolName: tool.name };
    step = await calling.next();
  }
  const outcome = step.value;
  if (!outcome.ok) {
    if (outcome.aborted) return failed(abortText(signal), notes, { preventContinuation });
    const text = errorText(outcome.error);
    const post = await postHook(context, () =>
      hooks.postToolUseFailure({ ...hookInput(), error: text }, context.abortSignal),
    );
    return failed(text, [...notes, ...post.notes], { preventContinuation: preventContinuation ?? post.stop });
  }

  const result = outcome.value;
  const post = await postHook(context, () =>
    hooks.postToolUse({ ...hookInput(), toolResponse: result.data }, context.abortSignal),
  );
  let content: ToolResultContent;
  try {
    content = result.content ?? tool.mapResultToContent(result.data);
  } catch (error) {
    return failed(errorText(error), [...notes, ...post.notes], { preventContinuation });
  }
  const settledResult: Settled = {
    content: await persistOrTruncate(content, tool, block.id, context),
    isError: result.isError === true,
    toolUseResult: result.data,
    notes: [...notes, ...post.notes],
  };
  if (result.newMessages?.length) settledResult.newMessages = result.newMessages;
  if (result.contextModifier) settledResult.contextModifier = result.contextModifier;
  const stop = preventContinuation ?? post.stop;
  if (stop) settledResult.preventContinuation = stop;
  return settledResult;
}

/** Where and under which rules the call runs, read from its own context now (not at turn start). */
function permissionCallContext(context: ToolUseContext): PermissionCallContext {
  return {
    cwd: context.cwd,
    projectRoot: context.projectRoot,
    permissionContext: context.getPermissionContext(),
    messages: context.messages,
    ...(context.agentId === undefined ? {} : { agentId: context.agentId }),
  };
}

/** Everything the permission decision weighs about this call, for the input that would run. */
async function permissionFacts(
  params: RunToolUseParams,
  tool: AnyTool,
  input: ToolInput,
  pre: PreToolUseOutcome,
  speculative: SpeculativeClassification | undefined,
  signal: AbortSignal,
): Promise<CanUseToolRequest> {
  const [toolPermission, isReadOnly] = await Promise.all([
    tool.checkPermissions(input, params.context),
    tool.isReadOnly(input),
  ]);
  const request: CanUseToolRequest = {
    tool,
    input,
    toolUseId: params.block.id,
    // The context this call got is the one it runs in: earlier calls' `cd` already applied.
    context: permissionCallContext(params.context),
    toolPermission,
    isReadOnly,
    isDestructive: tool.isDestructive(input),
    assistantMessage: params.assistantMessage,
    signal,
  };
  if (pre.permissionDecision) request.hookDecision = pre.permissionDecision;
  if (speculative) request.speculativeClassification = speculative;
  return request;
}

function notifyAll(context: ToolUseContext, messages: readonly string[] | undefined): void {
  for (const message of messages ?? []) context.notify({ level: 'info', message });
}

/** Runs a PostToolUse(Failure) hook; a failing hook is reported to the user, not to the model. */
async function postHook(
  context: ToolUseContext,
  run: () => ReturnType<HookRunner['postToolUse']>,
): Promise<{ notes: string[]; stop?: { stopReason: string } }> {
  try {
    const post = await run();
    notifyAll(context, post.systemMessages);
    const notes = [
      ...(post.additionalContext ?? []),
      ...(post.blockingErrors ?? []).map((error) => `PostToolUse hook error: ${error}`),
    ];
    return post.preventContinuation ? { notes, stop: post.preventContinuation } : { notes };
  } catch (error) {
    context.notify({ level: 'warning', message: `PostToolUse hook failed: ${errorText(error)}` });
    return { notes: [] };
  }
}

/** Saves an oversized result to disk; if even that fails, the model still gets a bounded result. */
async function persistOrTruncate(
  content: ToolResultContent,
  tool: AnyTool,
  toolUseId: string,
  context: ToolUseContext,
): Promise<ToolResultContent> {
  try {
    const persisted = await persistLargeResult({
      content,
      maxResultSizeChars: tool.maxResultSizeChars,
      sessionDir: context.sessionDir,
      toolUseId,
    });
    return persisted.content;
  } catch (error) {
    context.notify({ level: 'warning', message: `Could not save a large tool result: ${errorText(error)}` });
    const text = resultText(content);
    return `${text.slice(0, tool.maxResultSizeChars)}\n\n[Result truncated to ${tool.maxResultSizeChars} of ${text.length} characters.]`;
  }
}
