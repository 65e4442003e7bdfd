/**
 * What the composition root (session-setup.ts) takes and gives: the parsed options plus what an
 * SDK host supplies, and the session it builds for `-p`, stream-json, the REPL and `mcp serve`.
 */

import type { HookCallbackInvoker, SdkHookMatcher } from '../hooks/types';
import type { McpManager } from '../mcp/manager';
import type { EarlierSpend } from '../model/cost';
import type { ModelSelection } from '../model/select';
import type { ProtectedPaths } from '../permissions/protected-paths';
import type { PermissionPrompt, ToolPermissionContext } from '../permissions/types';
import type { LoadedPlugin } from '../plugins/types';
import type { SessionReloader } from '../sdk/types';
import type { AvailabilityProblem } from '../tools/availability';
import type { AnyTool } from '../tools/tool';
import type { CliOptions } from './cli-options';
import type { SessionCommands } from './session-commands';
import type { SessionSettings } from './session-settings';

type QueryEngineType = import('../engine/query-engine').QueryEngine;
type QueryEngineConfig = import('../engine/query-engine').QueryEngineConfig;

/** SDK callback hooks from `initialize.hooks`, and how to call them. */
export type SdkHooks = { matchers: readonly SdkHookMatcher[]; invoke: HookCallbackInvoker };

export type SessionSetupOptions = CliOptions & {
  /** Asked where a headless run would refuse (the SDK's `can_use_tool`). */
  permissionPrompt?: PermissionPrompt;
  sdkHooks?: SdkHooks;
  /** In-process tools (SDK MCP servers), placed after the built-ins. */
  extraTools?: readonly AnyTool[];
  /** Replaces the system prompt (wins over `--system-prompt`). */
  systemPromptOverride?: string;
  /** Facts for `system/init` from the caller (the SDK MCP servers of a stream-json session). */
  initExtras?: QueryEngineConfig['initExtras'];
  /** The SDK's `skills` option: only these skills are offered to the model. */
  onlySkills?: readonly string[];
  /** The REPL's pause for typed input inside a turn's start (QueryEngineConfig.letInputIn). */
  letInputIn?: () => Promise<void>;
  /** Each tool call's start as a frame, for the REPL (QueryEngineConfig.toolStartFrames). */
  toolStartFrames?: boolean;
};

export type SessionSetup = {
  engine: QueryEngineType;
  selection: ModelSelection;
  /** The pool the model sees (before the engine adds StructuredOutput for a JSON schema). */
  tools: AnyTool[];
  permissionContext: ToolPermissionContext;
  /** Non-fatal problems with the options, one line each, for the caller to show. */
  warnings: string[];
  /** Tools left out or limited on this machine, and why (also among `warnings`, as one line each). */
  toolAvailability: AvailabilityProblem[];
  /**
   * The session's MCP servers (for `mcp_status`, `/mcp`); absent while none is configured. Read
   * it when needed rather than keeping it: a plugin reload may bring the first servers.
   */
  readonly mcp: McpManager | undefined;
  /** Runs `adopt` on the session's MCP manager: now, or when a plugin reload makes the first. */
  whenMcp(adopt: (manager: McpManager) => void): void;
  /** The files whose writes always ask (the REPL's `#` memory note respects them too). */
  protectedPaths: ProtectedPaths;
  /** The settings loaded for the session, with their problems (the REPL's /doctor shows them). */
  settings: SessionSettings;
  /** The agents the session knows (the SDK's initialize answer lists them). */
  agents: { name: string; description: string; model: string }[];
  /** The session's plugins: their command, skill and agent folders for those loaders. */
  plugins: LoadedPlugin[];
  /** The slash commands and skills (the REPL's registry takes the prompt commands from here). */
  commands: SessionCommands;
  /** Reads plugins, commands, skills and agents again (the SDK's reload requests). */
  reload: SessionReloader;
  /** A resumed session's spend in its earlier runs (its transcript's cost lines), for /cost. */
  earlierSpend?: EarlierSpend;
  /** `--agent`'s `initialPrompt`: the first user turn, before any prompt given (agents/main-agent.ts). */
  initialPrompt?: string;
};

export type SessionLog = { warn(text: string): void; debug(text: string): void };
