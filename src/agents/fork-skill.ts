/**
 * Skills with `context: fork` run as a subagent instead of inline: the skill's text (arguments
 * already filled in by the caller) becomes the worker's task, the skill's `agent` names the
 * definition (general-purpose by default), and the caller gets the worker's report. The Skill
 * tool calls this; the worker runs like any other (fresh context, budgets, hooks, sidechain).
 */
import type { QueryEvent } from '../engine/query-types';
import type { ToolUseContext } from '../tools/context';
import { runAgent } from './run-agent';
import { agentRuntimeOf } from './runtime';
import type { AgentRunResult } from './types';

export type ForkedSkillRequest = {
  skillName: string;
  /** The skill's instructions with its arguments substituted. */
  content: string;
  /** The skill's `agent` field; general-purpose when absent. */
  agentType?: string;
  parent: ToolUseContext;
  signal: AbortSignal;
  /** The skill's `model`, when it names one. */
  model?: string;
  onEvent?: (event: QueryEvent) => void;
};

export class ForkedSkillError extends Error {
  override name = 'ForkedSkillError';
}

export async function runSkillInFork(request: ForkedSkillRequest): Promise<AgentRunResult> {
  const runtime = agentRuntimeOf(request.parent.services);
  if (!runtime)
    throw new ForkedSkillError(
      `The skill "${request.skillName}" runs as an agent, and agents are not available in this session.`,
    );
  const agentType = request.agentType ?? 'general-purpose';
  const definition = runtime.definitions.get(agentType);
  if (!definition)
    throw new ForkedSkillError(
      `The skill "${request.skillName}" names the agent "${agentType}", which does not exist. Known agents: ${runtime.definitions.names().join(', ')}.`,
    );
  return runAgent({
    definition,
    prompt: request.content,
    parent: request.parent,
    signal: request.signal,
    ...(request.model ? { model: request.model } : {}),
    ...(request.parent.toolUseId ? { parentToolUseId: request.parent.toolUseId } : {}),
    ...(request.onEvent ? { onEvent: request.onEvent } : {}),
  });
}
