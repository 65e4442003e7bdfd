/**
 * Everything a QueryEngine is built from (seed 000 §3.1's `QueryEngineConfig`).
 */

import type { HookRunner } from '../hooks/types';
import type { EffortChoice } from '../model/effort';
import type { Provider, ThinkingConfig } from '../model/types';
import type { CanUseToolFn, ToolPermissionContext } from '../permissions/types';
import type { Message } from '../session/messages';
import type { TranscriptSink } from '../session/transcript-writer';
import type { ToolNotification } from '../tools/context';
import type { SessionServices } from '../tools/session-services';
import type { AnyTool } from '../tools/tool';
import type { NestedMemoryConfig, SkillListingSource } from './context/attachments';
import type { ContextManagementConfig } from './context/pipeline';
import type { HookFrameQueue } from './hook-frames';
import type { InitExtras } from './init-message';
import type { ContextPipeline, ReactiveCompact } from './query-types';
import type { EnvironmentFacts } from './system-prompt';
import type { InputProcessor } from './user-input';

export type LiveToolPool = {
  /** The pool for the next request under this permission context, replacing `tools`. */
  tools(permissionContext: ToolPermissionContext): readonly AnyTool[];
  /** `system/init` facts as they stand now (merged over `initExtras`). */
  initExtras(): InitExtras;
  /**
   * Lines the model must read before the turn (servers pending, failed, not started). The engine
   * adds them as a meta message whenever they differ from what the model last read.
   */
  notices(): string[];
  /** Context a prompt brings along (its `@server:uri` mentions, read), as meta messages after it. */
  promptContext(prompt: string, signal: AbortSignal): Promise<string[]>;
};

export type QueryEngineConfig = {
  cwd: string;
  provider: Provider;
  model: string;
  fallback?: { provider: Provider; model: string };
  /**
   * What the session owns besides its conversation: shells, caches, model facts (prices for cost,
   * the window for compaction), costs, the settings tools read. The engine owns them from here:
   * `close()` disposes them. Fresh ones on `env` (the built-in model table alone) when absent.
   */
  services?: SessionServices;
  /** The assembled tool pool (built-ins, then MCP), as the model will see it. */
  tools: readonly AnyTool[];
  /**
   * The pool for a permission mode, when the session can switch modes (EnterPlanMode,
   * ExitPlanMode, the SDK's `set_permission_mode`): plan mode shows no write tools, so a switch
   * changes what the next request offers. Without it, `tools` serves every mode.
   */
  toolsForMode?: (permissionContext: ToolPermissionContext) => readonly AnyTool[];
  /**
   * What changes between turns from outside the engine (MCP servers connecting, dropping, listing
   * new tools). When given, each turn takes its pool, `system/init` facts and notices from here.
   */
  livePool?: LiveToolPool;
  canUseTool: CanUseToolFn;
  hooks?: HookRunner;
  permissionContext?: ToolPermissionContext;
  customSystemPrompt?: string;
  appendSystemPrompt?: string;
  memory?: readonly { path: string; content: string }[];
  /**
   * Loads the memory files of project subfolders when a tool first touches them, once per session
   * (the files of `memory` count as loaded already); they reach the model as a meta message.
   */
  nestedMemory?: NestedMemoryConfig;
  /** The skills the model may run, told before the first call and whenever more become visible. */
  skillListing?: SkillListingSource;
  maxTurns?: number;
  /** Stop-hook blocks one turn honours before it ends anyway (settings `stopHookBlockCap`). */
  stopHookBlockCap?: number;
  maxBudgetUsd?: number;
  taskBudget?: { total: number };
  jsonSchema?: Record<string, unknown>;
  thinking?: ThinkingConfig;
  /** The session's effort (`--effort`, the `--agent`'s, `effortLevel`); absent: the model's default. */
  effort?: EffortChoice;
  maxOutputTokens?: number;
  sessionId?: string;
  /**
   * Where session files go (persisted results, shell output). Without it they go to a temp folder
   * that `close()` removes: nothing of a session that is not kept stays on disk.
   */
  sessionDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  initialMessages?: Message[];
  /**
   * Receives every message that enters history, synchronously and before the next API call, so
   * a crash never loses more than the response in flight.
   */
  transcript?: TranscriptSink;
  contextPipeline?: ContextPipeline;
  reactiveCompact?: ReactiveCompact;
  /**
   * Turns on the context pipeline (budgets, microcompact, auto-compact at 80 %, reactive compact);
   * it replaces `contextPipeline`/`reactiveCompact`. `autoCompact: false` lets a full context end
   * the turn with `blocking_limit` instead.
   */
  contextManagement?: ContextManagementConfig;
  includePartialMessages?: boolean;
  /**
   * Send a `tool_progress` frame at 0 seconds the moment each tool call really starts (after its
   * hooks and permission question, and after any call it waited behind): the REPL starts a call's
   * clock there. Off for -p and the SDK, whose frames stay Claude Code's.
   */
  toolStartFrames?: boolean;
  /** Where the hook runner's lifecycle events wait to be written as stream-json hook frames. */
  hookFrames?: HookFrameQueue;
  /** Extra facts for `system/init` (MCP servers, slash commands, agents…) from higher layers. */
  initExtras?: InitExtras;
  apiKeySource?: string;
  onNotification?: (notification: ToolNotification) => void;
  /** Turns each submitted prompt into a query or a local answer (slash commands); as typed when absent. */
  processInput?: InputProcessor;
  /** The REPL's pause for typed input between the steps of a turn's start (QueryParams.letInputIn). */
  letInputIn?: () => Promise<void>;
  /** Fixed environment facts (tests); gathered from the machine when absent. */
  environment?: EnvironmentFacts;
};
