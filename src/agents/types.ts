/**
 * The vocabulary of subagents: what an agent is (`AgentDefinition`), what limits a run
 * (`AgentBudget`), and what a run hands back (`AgentRunResult`). The Agent tool, background
 * agents, worktree isolation and coordinator mode all speak it.
 */
import type { HooksSettings } from '../config/settings-schema';
import type { TerminalReason } from '../engine/query-types';
import type { EffortLevel } from '../model/effort';
import type { Usage } from '../model/types';
import type { PermissionMode } from '../permissions/types';
import type { Message } from '../session/messages';
import type { ToolTier } from '../tools/tool';

/** Where a definition came from; decides precedence and what it may widen (see trust.ts). */
export type AgentSource = 'built-in' | 'plugin' | 'user' | 'project' | 'cli' | 'sdk';

/** An MCP server an agent needs: a name the session knows, or its own configuration. */
export type AgentMcpServer = string | { name: string; config: Record<string, unknown> };

export type AgentDefinition = {
  /** The `subagent_type` the model names (frontmatter `name`). */
  agentType: string;
  /** When to delegate to it: shown to the model in the Agent tool's description. */
  description: string;
  /** The worker's own system prompt (the file's Markdown body). */
  systemPrompt: string;
  source: AgentSource;
  /** The file it was read from, for messages. */
  filePath?: string;
  /** For a plugin's agent: the plugin's name. */
  pluginName?: string;
  /** Allow-list of tool names (or `mcp__server` prefixes); absent means every tool the tier allows. */
  tools?: readonly string[];
  /** Deny-list of tool names; `mcp__server`, `mcp__server__*` and `mcp__*` remove MCP tools. */
  disallowedTools?: readonly string[];
  /** An alias (`haiku`, `sonnet`, `opus`), a model id, or `inherit` (the parent's). */
  model?: string;
  /** The worker's effort, unless the call names one or `--effort` pins the session's. */
  effort?: EffortLevel;
  /** The worker's permission mode; a parent in bypassPermissions keeps its own. */
  permissionMode?: PermissionMode;
  /** The highest tool tier the worker is offered: `read` agents never see write or exec tools. */
  maxTier: ToolTier;
  budget?: AgentBudget;
  mcpServers?: readonly AgentMcpServer[];
  /** Hooks scoped to this agent's runs; a `Stop` hook here runs as SubagentStop. */
  hooks?: HooksSettings;
  skills?: readonly string[];
  /** The first user turn when the agent runs the main session (`--agent`). */
  initialPrompt?: string;
  memory?: 'user' | 'project' | 'local';
  /** Always run in the background. */
  background?: boolean;
  isolation?: 'worktree';
  color?: string;
  /** Leaves CLAUDE.md / AGENTS.md out of the worker's prompt. */
  omitClaudeMd?: boolean;
};

/**
 * Limits on one run. Each stops a runaway worker with a readable reason; the call's budget
 * narrows the definition's (the smaller limit wins).
 */
export type AgentBudget = {
  /** Model round trips. */
  maxTurns?: number;
  /** Tokens the worker's model calls may process in total (input, cache and output). */
  maxTokens?: number;
  /** Wall time from start to end, on the run's clock. */
  maxDurationMs?: number;
};

/** The clock budgets and durations run on: the real one, or a test's. */
export type AgentClock = {
  now(): number;
  /** Calls `fn` after `ms`; returns how to cancel. */
  setTimer(fn: () => void, ms: number): () => void;
};

export const systemClock: AgentClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/** Which limit ended a run early. */
export type AgentBudgetStop = 'max_turns' | 'max_tokens' | 'max_duration';

/** Why a run ended: the loop's own reason, or the budget that stopped it. */
export type AgentEndReason = TerminalReason | AgentBudgetStop;

export type AgentRunResult = {
  agentId: string;
  agentType: string;
  /** The worker's final text blocks, joined. */
  finalText: string;
  /** The worker's whole conversation (for SendMessage continuations and transcripts). */
  messages: Message[];
  usage: Usage;
  /** input + cache + output tokens over all the worker's model calls. */
  totalTokens: number;
  toolUses: number;
  durationMs: number;
  costUsd: number;
  /** The model the worker ran on. */
  model: string;
  endReason: AgentEndReason;
  /** A readable line when the run did not complete normally. */
  endMessage?: string;
  /** The sidechain transcript, when the session keeps transcripts. */
  transcriptPath?: string;
};
