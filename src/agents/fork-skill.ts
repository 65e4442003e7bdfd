/**
 * Skills with `context: fork` run as a subagent instead of inline: the skill's text (arguments,
 * `!` commands and `@file`s already expanded by the caller) becomes the worker's task, the skill's
 * `agent` names the definition (general-purpose by default), its `model` overrides the
 * definition's, and its `allowed-tools` (when its author may widen) are allow rules on top of the
 * session's for the worker alone. The caller gets the worker's report with the metadata the Agent
 * tool returns. The worker runs like any other (fresh context, budgets, hooks, sidechain).
 */
import type { QueryEvent } from '../engine/query-types';
import type { EffortLevel } from '../model/effort';
import type { UserContentBlock } from '../model/types';
import type { PermissionRule } from '../permissions/types';
import type { ToolUseContext } from '../tools/context';
import { withAllowRules } from '../tools/with-allow-rules';
import { type AgentToolOutput, agentResultText, agentToolOutput } from './agent-tool/result';
import { type ReportedTask, runAsTask } from './foreground-task';
import { newAgentId, runAgent } from './run-agent';
import { agentRuntimeOf } from './runtime';

export type ForkedSkillRequest = {
  skillName: string;
  /** The skill's instructions with its arguments substituted, and its attached files. */
  content: string | UserContentBlock[];
  /** The skill's `agent` field; general-purpose when absent. */
  agentType?: string;
  parent: ToolUseContext;
  signal: AbortSignal;
  /** The skill's `model`, when it names one. */
  model?: string;
  /** The skill's `effort`: its worker's, over the agent definition's. */
  effort?: EffortLevel;
  /** The skill's allowed-tools as allow rules: granted to the worker, on top of the session's rules. */
  allowRules?: readonly PermissionRule[];
  /** A fixed id for the worker, so the caller knows it before the run starts (no fork inside a fork). */
  agentId?: string;
  /** Reports the worker as a task under this call: its start, its messages and its end. */
  report?: Pick<ReportedTask, 'toolUseId' | 'description' | 'onProgress'>;
};

export type ForkedSkillOutcome = {
  /** What the Agent tool would return for the same run. */
  output: AgentToolOutput;
  /** The worker's report and one line of what it used, for the model or the user. */
  text: string;
};

export class ForkedSkillError extends Error {
  override name = 'ForkedSkillError';
}

export async function runSkillInFork(request: ForkedSkillRequest): Promise<ForkedSkillOutcome> {
  const runtime = agentRuntimeOf(request.parent.services);
  if (!runtime)
    throw new ForkedSkillError(
      `The skill "${request.skillName}" runs as an agent (context: fork), and agents are not available in this session.`,
    );
  const agentType = request.agentType?.trim() || 'general-purpose';
  const definition = runtime.definitions.get(agentType);
  if (!definition)
    throw new ForkedSkillError(
      `The skill "${request.skillName}" names the agent "${agentType}", which does not exist. Known agents: ${runtime.definitions.names().join(', ')}.`,
    );
  const agentId = request.agentId ?? newAgentId();
  const prompt = typeof request.content === 'string' ? request.content : textOf(request.content);
  const parentToolUseId = request.report?.toolUseId ?? request.parent.toolUseId;
  const runWorker = (onEvent?: (event: QueryEvent) => void) =>
    runAgent({
      definition,
      agentId,
      prompt: request.content,
      parent: withAllowRules(request.parent, request.allowRules ?? []),
      signal: request.signal,
      ...(request.model ? { model: request.model } : {}),
      ...(request.effort ? { effort: request.effort } : {}),
      ...(parentToolUseId ? { parentToolUseId } : {}),
      ...(onEvent ? { onEvent } : {}),
    });
  const result = request.report
    ? await runAsTask({ ...request.report, agentId, agentType: definition.agentType, prompt }, runWorker)
    : await runWorker();
  const output = agentToolOutput(result, prompt);
  return { output, text: agentResultText(output) };
}

function textOf(blocks: readonly UserContentBlock[]): string {
  return blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
}
