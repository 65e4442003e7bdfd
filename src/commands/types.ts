/**
 * The contract between the slash commands and whatever runs them. A command is plain data in,
 * data out: it reads and changes the running session only through a `CommandHost` (the TUI
 * implements it; tests use a fake) and answers with a `CommandOutcome` the UI acts on. Commands
 * never print, so the same command works in the REPL, a test, or a later headless runner.
 */

import type { AgentTaskInfo } from '../agents/background/types';
import type { LoadedSettings } from '../config/load-settings';
import type { Env } from '../config/paths';
import type { ContextSources } from '../interactive/context-breakdown';
import type { ProviderProbe } from '../interactive/provider-probe';
import type { PermissionMode, PermissionRule } from '../lib/permission-vocabulary';
import type { McpServerReport } from '../mcp/manager';
import type { ModelCatalog } from '../model/catalog';
import type { CostTotal, EarlierSpend, ModelUsage } from '../model/cost';
import type { ServedModels } from '../model/openai/served-models';
import type { SelectableProvider } from '../model/select';
import type { SandboxManager } from '../sandbox/manager';
import type { AvailabilityProblem } from '../tools/availability';
import type { BackgroundShellInfo } from '../tools/builtin/bash/shells';

export type { ContextSources, ProviderProbe };

/**
 * The three kinds of command (seed 000 §3.4): `prompt` expands to text for the model (custom
 * commands, skills, MCP prompts), `local` runs here and answers with an outcome, `ui` needs the
 * interactive screen (a picker, an editor). Headless runs (`-p`, stream-json) take `prompt`
 * commands and the `local` ones marked `headless`; the others say they need the UI.
 */
export type CommandKind = 'prompt' | 'local' | 'ui';

/** Where a command came from. */
export type CommandSource = 'builtin' | 'bundled' | 'user' | 'project' | 'plugin' | 'mcp';

interface CommandBase {
  /** Without the slash. */
  readonly name: string;
  readonly aliases?: readonly string[];
  /** One line, shown in completion and /help. */
  readonly description: string;
  /** Shown after the name in completion, e.g. "[instructions]". */
  readonly argumentHint?: string;
  readonly source?: CommandSource;
  /** Checked each time the command is listed or looked up (an MCP prompt's server is connected). */
  isEnabled?(): boolean;
  /** `args` is the text after the name, trimmed. */
  run(args: string, host: CommandHost): Promise<CommandOutcome>;
}

export interface LocalCommand extends CommandBase {
  /** Optional so a built-in written before the kinds existed is still a local command. */
  readonly kind?: 'local';
  /** Works without a screen: `-p` and stream-json run it and print its text. */
  readonly headless?: boolean;
}

export interface UiCommand extends CommandBase {
  readonly kind: 'ui';
}

export interface PromptCommand extends CommandBase {
  readonly kind: 'prompt';
  /** false: left out of completion and /help (the model may still run it). */
  readonly userInvocable: boolean;
}

export type Command = LocalCommand | UiCommand | PromptCommand;

export type CommandOutcome =
  /** Shown to the user only, never sent to the model. */
  | { kind: 'text'; text: string }
  /** Submitted as a user turn (e.g. /init); `display` is what the transcript view shows instead. */
  | { kind: 'prompt'; prompt: string; display: string }
  | { kind: 'compact'; instructions?: string }
  | { kind: 'clear' }
  | { kind: 'exit' }
  /** Open the resume picker (fed by interactive/session-picker.ts). */
  | { kind: 'pick-session' }
  | { kind: 'resume'; sessionId: string }
  /** Open a live view the UI has (/tasks, /mcp); `text` is what a host without it shows instead. */
  | { kind: 'view'; view: 'tasks' | 'mcp'; text: string }
  | { kind: 'none' };

/** This run's spend (`CostTotal`'s fields); `earlier` a resumed session's earlier runs. */
export type CostSnapshot = CostTotal & {
  /** What the earlier runs of a resumed session spent, from its transcript. */
  earlier?: EarlierSpend;
  /** Per model, as the SDK result's `modelUsage`. */
  byModel: Readonly<Record<string, ModelUsage>>;
  /** Wall time since the session started. */
  sessionDurationMs: number;
};

/** The session after /reload-plugins: what it now has, and how many things were skipped. */
export type PluginReload = {
  plugins: readonly { name: string; version?: string }[];
  commands: number;
  agents: number;
  /** Plugins, files and servers that were skipped; each was said as a notice already. */
  problems: number;
  /** The plugins' MCP servers as they are now. */
  mcpServers: readonly Pick<McpServerReport, 'name' | 'status' | 'error'>[];
};

export type EditorResult = { opened: true } | { opened: false; reason: string };

/** What a command may ask of the running session. */
export interface CommandHost {
  readonly cwd: string;
  /** The git root, or cwd outside a repository. */
  readonly projectRoot: string;
  readonly env: Env;
  readonly sessionId: string;
  /** The transcript file, once the session has written one. */
  readonly transcriptPath: string | undefined;
  /** The commands of this session, for /help. */
  readonly commands: CommandRegistry;
  /** Aborts when the user cancels the command (Esc) or the session ends. */
  readonly signal: AbortSignal;

  model(): string;
  /** Switches the model for the next turn; the caller validated the id against `models`. */
  setModel(id: string): void;
  readonly models: ModelCatalog;

  permissionMode(): PermissionMode;
  setPermissionMode(mode: PermissionMode): void;
  /** The settings as this session loads them (same sources, same --settings), read afresh. */
  loadSettings(): Promise<LoadedSettings>;
  /** The rules in force, every source (flags and "always allow" answers included). */
  permissionRules(): readonly PermissionRule[];
  /** Whether the project folder is trusted (untrusted folders ignore project allow rules). */
  projectTrusted(): Promise<boolean>;
  /** After /permissions wrote a settings file: the session re-reads its rules. */
  reloadPermissionRules(): Promise<void>;

  cost(): CostSnapshot;
  context(): ContextSources;
  backgroundShells(): readonly BackgroundShellInfo[];
  /** The session's background agents (a snapshot; `services.agentTasks.subscribe` for changes). */
  backgroundAgents(): readonly AgentTaskInfo[];
  /** The session's MCP servers with their status (absent where the host has none). */
  mcpServers?(): readonly McpServerReport[];
  /**
   * The columns a command's text is shown in (the REPL's terminal, less the output's indent), for
   * a table that wraps its cells under their column; absent headless, where text is not wrapped.
   */
  textColumns?(): number | undefined;
  /**
   * Reads the plugins again and rewires them (/reload-plugins, cli/session-reload.ts); throws,
   * with the reason, when it cannot now. Absent where the host cannot reload.
   */
  reloadPlugins?(): Promise<PluginReload>;

  /** Opens a file in $VISUAL/$EDITOR (the UI gives the terminal over); refuses when none is set. */
  openInEditor(path: string): Promise<EditorResult>;

  /** Settings problems found when the session started, one line each. */
  settingsProblems(): { errors: readonly string[]; warnings: readonly string[] };
  /** The tools that cannot work, or work only in part, on this machine. */
  toolAvailability(): readonly AvailabilityProblem[];
  /** Which API the session talks to: /model offers and accepts only that provider's models. */
  providerName(): SelectableProvider;
  /** A cheap request to the configured provider with a short deadline. */
  probeProvider(signal: AbortSignal): Promise<ProviderProbe>;
  /**
   * The models the session's OpenAI-compatible server lists (`GET <base>/models`, as Ollama, vLLM,
   * llama.cpp and LM Studio serve it), asked afresh each time; absent on Anthropic.
   */
  servedModels?(signal: AbortSignal): Promise<{ url: string; served: ServedModels }>;
  /** The session's shell sandbox (for /sandbox); undefined when the session has none. */
  sandbox(): SandboxManager | undefined;
}

export interface CommandRegistry {
  /** The enabled commands the user may type (prompt commands marked not user-invocable are left out). */
  list(): readonly Command[];
  /** By name or alias, without the slash, case-insensitive; enabled ones only. */
  find(nameOrAlias: string): Command | undefined;
  /** Commands whose name or alias starts with `prefix` (no slash), best match first. */
  complete(prefix: string): readonly Command[];
  /** Refuses a name or alias already taken. */
  register(command: Command): void;
  /**
   * Replaces the session's prompt commands (custom commands, skills, MCP prompts): a new
   * conversation (/clear) brings its own. Names the built-ins hold were left out by the loader.
   */
  setPromptCommands(commands: readonly PromptCommand[]): void;
}
