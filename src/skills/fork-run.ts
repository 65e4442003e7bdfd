/**
 * One session's forked skills (`context: fork`): the expanded skill becomes a subagent's task
 * (agents/fork-skill.ts), and the session remembers which workers are forks so that a fork's
 * worker cannot fork again (a skill that forks from inside its own fork would nest agents without
 * end). The worker's messages go out as progress of the call that started it, the way an Agent
 * call's do, so stream-json nests them under that call.
 */

import { runSkillInFork } from '../agents/fork-skill';
import { newAgentId } from '../agents/run-agent';
import type { UserContentBlock } from '../model/types';
import type { ToolUseContext } from '../tools/context';
import type { ForkedSkillLaunch } from '../tools/skill-port';
import type { ToolProgress } from '../tools/tool';
import type { CommandExpansion } from './session-skills';

export class ForkedSkills {
  /** Agent ids of the workers running a forked skill now. */
  private readonly workers = new Set<string>();

  /** Throws, with a line for the model, when `context` is a forked skill's own worker. */
  refuseNested(skill: string, context: ToolUseContext): void {
    if (context.agentId === undefined || !this.workers.has(context.agentId)) return;
    throw new Error(
      `The skill "${skill}" runs in a forked agent (context: fork), and this agent is itself a forked skill's worker, which cannot fork again. Do the work here with your own tools, or say in your report that "${skill}" is needed.`,
    );
  }

  async run(
    expansion: CommandExpansion,
    context: ToolUseContext,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ForkedSkillLaunch> {
    const { spec } = expansion;
    this.refuseNested(spec.name, context);
    const agentId = newAgentId();
    const agentType = spec.agent?.trim() || 'general-purpose';
    // The call the worker's frames nest under: the Skill call's, or for a command the user typed
    // (no tool call runs it) an id of its own, which its task frames and messages share.
    const toolUseId = context.toolUseId ?? `command_${agentId}`;
    this.workers.add(agentId);
    try {
      const { output, text } = await runSkillInFork({
        skillName: spec.name,
        content: workerTask(expansion),
        agentType,
        parent: context,
        signal: context.abortSignal,
        ...(spec.model ? { model: spec.model } : {}),
        ...(spec.effort ? { effort: spec.effort } : {}),
        allowRules: expansion.allowRules,
        agentId,
        ...(onProgress ? { report: { toolUseId, description: spec.name, onProgress } } : {}),
      });
      const { status: _status, ...details } = output;
      return {
        kind: 'forked',
        commandName: spec.name,
        agentId,
        agentType: output.agentType,
        text,
        details,
        isError: output.endReason !== 'completed',
      };
    } finally {
      this.workers.delete(agentId);
    }
  }
}

/** The worker's first message: the skill's expanded body (without the command line), then its attached files. */
function workerTask(expansion: CommandExpansion): UserContentBlock[] {
  const notes = expansion.problems.map((text): UserContentBlock => ({ type: 'text', text }));
  return [...expansion.blocks.slice(1), ...expansion.attachments.flat(), ...notes];
}
