/**
 * What the stream-json session needs from the layers it drives. The engine is reached through a
 * narrow view so the protocol can be tested with a scripted engine.
 */
import type { QueryEngine } from '../engine/query-engine';
import type { HookCallbackInvoker, SdkHookMatcher } from '../hooks/types';
import type { McpManager } from '../mcp/manager';
import type { PermissionPrompt } from '../permissions/types';
import type { AnyTool } from '../tools/tool';

export type SessionEngine = Pick<
  QueryEngine,
  | 'submitMessage'
  | 'interrupt'
  | 'setModel'
  | 'setPermissionMode'
  | 'currentModel'
  | 'permissionMode'
  | 'sessionId'
> & {
  /** Present when the engine can change its thinking budget between turns. */
  setMaxThinkingTokens?(tokens: number | null): void;
  /** Ends the session (SessionEnd hooks, background shells, transcript). */
  close?(): Promise<void>;
} & Partial<
    Pick<
      QueryEngine,
      | 'enqueuePrompt'
      | 'takeQueuedPrompts'
      | 'queuedPromptIds'
      | 'hasQueuedNotices'
      | 'submitQueuedNotices'
      | 'sessionServices'
    >
  >;

/** A programmatic subagent from `initialize.agents` (the SDK's `AgentDefinition`). */
export type SdkAgentDefinition = {
  description: string;
  prompt: string;
  tools?: string[];
  disallowedTools?: string[];
  model?: string;
  [field: string]: unknown;
};

/** What the protocol adds to the CLI's options when it builds the session's engine. */
export type StreamJsonEngineExtras = {
  permissionPrompt?: PermissionPrompt;
  sdkHooks?: { matchers: SdkHookMatcher[]; invoke: HookCallbackInvoker };
  extraTools?: AnyTool[];
  /** Replaces Yoke's system prompt (the SDK's custom prompt, or its one-line identity). */
  systemPromptOverride?: string;
  appendSystemPrompt?: string;
  jsonSchema?: Record<string, unknown>;
  agents?: Record<string, SdkAgentDefinition>;
  /** `initialize.skills` (the SDK's `skills` option): only these skills are offered to the model. */
  onlySkills?: string[];
  /**
   * Facts for `system/init` the protocol layer knows: the SDK MCP servers and their status, and
   * problems with what `initialize` sent (a clamped hook timeout).
   */
  initExtras?: { mcp_servers?: { name: string; status: string }[]; warnings?: string[] };
};

/** The CLI options the protocol itself reads. */
export type StreamJsonCliOptions = {
  /** `stdio` routes undecided permission questions to the host as `can_use_tool`. */
  permissionPromptTool?: string;
};

/** What `mcp_status`, `mcp_reconnect` and `mcp_toggle` act on: the session's configured MCP servers. */
export type McpServerControl = Pick<McpManager, 'statuses' | 'reconnect' | 'setEnabled'> &
  Partial<Pick<McpManager, 'setElicitationHandler'>>;

export type CreateSessionEngine<Options> = (options: Options & StreamJsonEngineExtras) => Promise<{
  engine: SessionEngine;
  /** Read at each use: a plugin reload may bring the first servers. */
  readonly mcp?: McpServerControl | undefined;
  /** Runs `adopt` on the configured servers: now, or when a plugin reload brings the first. */
  whenMcp?(adopt: (servers: McpServerControl) => void): void;
  /** Every agent the session knows, for the initialize answer. */
  agents?: AgentSummary[];
  /** The session's slash commands and skills. */
  commands?: { describe(): SdkCommandInfo[] };
  /** Reads plugins, commands, skills and agents from disk again (`reload_plugins`, `reload_skills`). */
  reload?: SessionReloader;
}>;

/** A plugin as `system/init.plugins` and the `reload_plugins` answer list it. */
export type SdkPluginInfo = { name: string; path: string; version?: string };

/**
 * Reloads what the session read from disk at start. `idle()` is asked once the files are read,
 * not when the request came (a turn may have started meanwhile): false, and the session takes
 * the new set at the start of its next turn; the answer already describes it.
 */
export interface SessionReloader {
  /** Takes a reload that waited for the turn to end; called before a turn starts (and its `system/init`). */
  beforeTurn(): void;
  skills(options: { idle(): boolean }): Promise<{ skills: SdkCommandInfo[] }>;
  plugins(options: {
    idle(): boolean;
    /** More plugin folders (absolute paths), as `--plugin-dir` would add them; they stay for later reloads. */
    addPluginDirs: readonly string[];
  }): Promise<{
    commands: SdkCommandInfo[];
    agents: AgentSummary[];
    plugins: SdkPluginInfo[];
    /** Plugins, command files and agent files that were skipped (each said on stderr). */
    error_count: number;
  }>;
}

/** An agent as the initialize answer lists it. */
export type AgentSummary = { name: string; description: string; model: string };

/** A slash command as the initialize reply's `commands` lists it (`supportedCommands()`). */
export type SdkCommandInfo = { name: string; description: string; argumentHint: string };
