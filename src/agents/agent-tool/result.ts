/**
 * What the parent gets back from a foreground worker: the `completed` output of the reference's
 * Agent tool (`tool_use_result` on the wire) and, for the model, the worker's report followed by
 * one line of what the run used.
 */
import type { StructuredOutputCapture } from '../../engine/structured-output';
import { groupDigits } from '../../lib/group-digits';
import type { Usage } from '../../model/types';
import type { AgentRunResult } from '../types';
import { worktreeFields, worktreeLine } from '../worktree/agent-isolation';
import type { WorktreeOutcome } from '../worktree/worktrees';

export type AgentToolOutput = {
  status: 'completed';
  agentId: string;
  agentType: string;
  content: { type: 'text'; text: string }[];
  totalToolUseCount: number;
  totalDurationMs: number;
  totalTokens: number;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
  prompt: string;
  resolvedModel: string;
  /** Yoke's own: what the run cost in USD, and why it ended when that was not a normal finish. */
  costUsd: number;
  endReason: string;
  endMessage?: string;
  /** `isolation: worktree`: where the agent's work was kept (absent when its worktree was removed). */
  worktreePath?: string;
  worktreeBranch?: string;
  /** What happened to the agent's worktree, in one line for the model. */
  worktreeNote?: string;
  /** `report_schema`: the report the agent returned, validated against the schema. */
  structuredReport?: Record<string, unknown>;
  /** `report_schema` was given and the agent ended without a valid report. */
  reportMissing?: boolean;
};

/** What an Agent call adds to a run's result: its worktree's end and its structured report. */
export type AgentCallExtras = {
  worktree?: WorktreeOutcome;
  report?: StructuredOutputCapture;
};

const wireUsage = (usage: Usage): AgentToolOutput['usage'] => ({
  input_tokens: usage.inputTokens,
  output_tokens: usage.outputTokens,
  cache_creation_input_tokens: usage.cacheCreationInputTokens,
  cache_read_input_tokens: usage.cacheReadInputTokens,
});

export function agentToolOutput(
  result: AgentRunResult,
  prompt: string,
  extras: AgentCallExtras = {},
): AgentToolOutput {
  const { worktree, report } = extras;
  const reportFields = !report
    ? {}
    : report.provided
      ? { structuredReport: report.value as Record<string, unknown> }
      : { reportMissing: true };
  return {
    ...worktreeFields(worktree),
    ...(worktree ? { worktreeNote: worktreeLine(worktree) } : {}),
    ...reportFields,
    status: 'completed',
    agentId: result.agentId,
    agentType: result.agentType,
    content: result.finalText === '' ? [] : [{ type: 'text', text: result.finalText }],
    totalToolUseCount: result.toolUses,
    totalDurationMs: result.durationMs,
    totalTokens: result.totalTokens,
    usage: wireUsage(result.usage),
    prompt,
    resolvedModel: result.model,
    costUsd: result.costUsd,
    endReason: result.endReason,
    ...(result.endMessage ? { endMessage: result.endMessage } : {}),
  };
}

/** One line: `agent a1b2… (Explore) · 3 tool uses · 12,345 tokens · 4.2 s · $0.0123`. */
export function usageLine(output: AgentToolOutput): string {
  const uses = output.totalToolUseCount === 1 ? '1 tool use' : `${output.totalToolUseCount} tool uses`;
  const seconds = (output.totalDurationMs / 1000).toFixed(1);
  return `[agent ${output.agentId} (${output.agentType}) · ${uses} · ${groupDigits(output.totalTokens)} tokens · ${seconds} s · $${output.costUsd.toFixed(4)}]`;
}

export function agentResultText(output: AgentToolOutput): string {
  const report = output.structuredReport
    ? JSON.stringify(output.structuredReport, null, 2)
    : output.content.map((block) => block.text).join('\n');
  const parts = [report === '' ? '(The agent ended without a final report.)' : report];
  if (output.reportMissing)
    parts.unshift('The agent did not return a report matching report_schema; its last text follows.');
  if (output.endMessage) parts.push(`The agent stopped early: ${output.endMessage}`);
  if (output.worktreeNote) parts.push(output.worktreeNote);
  parts.push(usageLine(output));
  return parts.join('\n\n');
}
