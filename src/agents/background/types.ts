/**
 * The vocabulary of background agents: how a worker is started (`AgentLauncher`, implemented with
 * runAgent), how its run ends, and the snapshot of a task that TaskOutput, TaskStop, SendMessage,
 * `/tasks` and the `-p` wait read. This file imports types only from below `tools/`, because the
 * task registry is a member of SessionServices.
 */
import type { Message } from '../../session/messages';

/** pending: registered, not started; running; then one of the three ends. */
export type AgentTaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'killed';

export type AgentTaskEnd = Exclude<AgentTaskStatus, 'pending' | 'running'>;

/** A follow-up for a running worker; its loop reads it at its next turn boundary. */
export type AgentInboxPrompt = { kind: 'prompt'; content: string };

/**
 * Where a running worker's follow-ups wait (the worker's MessageQueue satisfies it): the worker's
 * loop drains it at each turn boundary; what its last turn left unread is taken back with
 * `takePrompts` and starts a continuation, so no message is lost.
 */
export type AgentInbox = {
  enqueue(item: AgentInboxPrompt): void;
  takePrompts(): { content: unknown }[];
};

export type AgentRunRequest = {
  /** The worker's new user message: the task, or a SendMessage follow-up. */
  prompt: string;
  /** The worker's own conversation so far when it continues; empty for a fresh start. */
  priorMessages: readonly Message[];
  /** Aborted by TaskStop, the `-p` wait's limit, or the end of the session. */
  signal: AbortSignal;
  /** Each message of the worker as it is produced (its output file and progress read them). */
  onMessage(message: Message): void;
};

export type AgentUsage = {
  totalTokens: number;
  toolUses: number;
  costUsd: number;
};

export type AgentRunOutcome = {
  /** `failed`: the worker's loop ended without an answer (a model error, a budget, a hook). */
  status: 'completed' | 'failed';
  /** The text of the worker's last assistant message. */
  finalText: string;
  /** Why a failed run failed, in one line. */
  error?: string;
  /** The worker's whole conversation after this run: a later SendMessage continues it. */
  messages: readonly Message[];
  usage: AgentUsage;
};

/** One run of a worker: where its follow-ups go while it runs, and how it ends. */
export type AgentRun = { inbox: AgentInbox; done: Promise<AgentRunOutcome> };

/** Starts one run of the worker (runAgent with the agent's definition bound in). */
export type AgentLauncher = (request: AgentRunRequest) => AgentRun;

/** A snapshot of one background agent, safe to hand out. */
export type AgentTaskInfo = {
  id: string;
  /** The name SendMessage, TaskOutput and TaskStop also accept (the Agent call's `name`). */
  name?: string;
  description: string;
  /** The task it was started with. */
  prompt: string;
  agentType: string;
  /** The Agent tool_use that launched it. */
  toolUseId: string;
  outputPath: string;
  status: AgentTaskStatus;
  startedAt: number;
  endedAt?: number;
  /** The latest 3–5 word progress summary while it runs. */
  progress?: string;
  /** The final text of its last finished run. */
  result?: string;
  error?: string;
  /** Over all its runs (a SendMessage continuation adds one). */
  usage: AgentUsage & { durationMs: number };
  runs: number;
};
