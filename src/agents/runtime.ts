/**
 * What a session gives its workers besides the parent's tool context: the provider and the
 * permission decision, the pool before an agent's filters, the facts of the system prompt, the
 * known agent definitions, where sidechain transcripts go and how hooks are scoped to an agent.
 * The composition root makes one per session (`attachAgentRuntime`); runAgent finds it from the
 * parent's `services`.
 */
import type { EnvironmentFacts } from '../engine/system-prompt';
import type { AgentHookScope, HookRunner } from '../hooks/types';
import type { Provider } from '../model/types';
import type { CanUseToolFn, ToolPermissionContext } from '../permissions/types';
import type { SessionServices } from '../tools/session-services';
import type { AnyTool } from '../tools/tool';
import type { BackgroundAgentLauncher } from './background-launch';
import type { AgentRegistry } from './registry';
import type { AgentClock, AgentDefinition } from './types';
import type { WorkerContextSettings } from './worker-context';
import type { WorktreeSettings } from './worktree/worktree-settings';

export type AgentRuntime = {
  provider: Provider;
  fallback?: { provider: Provider; model: string };
  canUseTool: CanUseToolFn;
  /** The session's pool for a permission context, before the agent's own filters. */
  toolsFor(permissionContext: ToolPermissionContext): readonly AnyTool[];
  /** The facts of the session's system prompt (cwd and model are the worker's own). */
  environment: EnvironmentFacts;
  /** Memory files (CLAUDE.md, AGENTS.md) as the session loaded them; `omitClaudeMd` drops them. */
  memory: readonly { path: string; content: string }[];
  /**
   * The context stages the session's settings switch on (auto-compact and its threshold, snip,
   * collapse); a worker runs them as the main loop does. Their defaults when absent.
   */
  context?: WorkerContextSettings;
  /** The `worktree` settings for `isolation: worktree` (base ref, sparse paths, linked folders). */
  worktree?: WorktreeSettings;
  definitions: AgentRegistry;
  /** A model name as the worker's request should carry it: aliases resolved, `inherit` the parent's. */
  resolveModel(requested: string | undefined, parentModel: string): string;
  /** Where a worker's sidechain transcript goes; undefined when the session keeps none. */
  sidechainPaths?(agentId: string): { transcript: string; meta: string };
  /**
   * The session's hooks for one worker: its id and type in every input, Stop run as SubagentStop,
   * and the definition's own hooks added; it follows the session's hooks as they change
   * (agents/worker-hooks.ts). Without it the parent's runner is used unchanged.
   */
  hooksFor?(scope: AgentHookScope, definition: AgentDefinition): HookRunner;
  /** Starts `run_in_background` workers (src/agents/background/); absent, such calls are refused. */
  background?: BackgroundAgentLauncher;
  /** `--max-budget-usd`: the session's total (children included) may not pass it. */
  maxBudgetUsd?: number;
  /** The REPL's pause for typed input between a worker's steps, as the main loop has it. */
  letInputIn?: () => Promise<void>;
  clock: AgentClock;
};

// Keyed by the session's services object, so a runtime lives and dies with its session and two
// sessions in one process never see each other's (like a field on SessionServices, which sits
// below this layer and cannot name the type).
const runtimes = new WeakMap<SessionServices, AgentRuntime>();

export function attachAgentRuntime(services: SessionServices, runtime: AgentRuntime): void {
  runtimes.set(services, runtime);
}

export function agentRuntimeOf(services: SessionServices): AgentRuntime | undefined {
  return runtimes.get(services);
}
