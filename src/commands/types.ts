/**
 * The contract between the slash commands and whatever runs them. A command is plain data in,
 * data out: it reads and changes the running session only through a `CommandHost` (the TUI
 * implements it; tests use a fake) and answers with a `CommandOutcome` the UI acts on. Commands
 * never print, so the same command works in the REPL, a test, or a later headless runner.
 */
import type { LoadedSettings } from '../config/load-settings';
import type { Env } from '../config/paths';
import type { ContextSources } from '../interactive/context-breakdown';
import type { ProviderProbe } from '../interactive/provider-probe';
import type { PermissionMode, PermissionRule } from '../lib/permission-vocabulary';
import type { McpServerReport } from '../mcp/manager';
import type { ModelCatalog } from '../model/catalog';
import type { CostTotal, ModelUsage } from '../model/cost';
import type { AvailabilityProblem } from '../tools/availability';
import type { BackgroundShellInfo } from '../tools/builtin/bash/shells';

export type { ContextSources, ProviderProbe };

export interface LocalCommand {
  /** Without the slash. */
  readonly name: string;
  readonly aliases?: readonly string[];
  /** One line, shown in completion and /help. */
  readonly description: string;
  /** Shown after the name in completion, e.g. "[instructions]". */
  readonly argumentHint?: string;
  /** Where the command came from; the commands/skills issue adds user and project commands. */
  readonly source?: 'builtin' | 'user' | 'project' | 'plugin';
  /** `args` is the text after the name, trimmed. */
  run(args: string, host: CommandHost): Promise<CommandOutcome>;
}

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

export type CostSnapshot = CostTotal & {
  /** Per model, as the SDK result's `modelUsage`. */
  byModel: Readonly<Record<string, ModelUsage>>;
  /** Wall time since the session started. */
  sessionDurationMs: number;
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
  /** The session's MCP servers with their status (absent where the host has none). */
  mcpServers?(): readonly McpServerReport[];

  /** Opens a file in $VISUAL/$EDITOR (the UI gives the terminal over); refuses when none is set. */
  openInEditor(path: string): Promise<EditorResult>;

  /** Settings problems found when the session started, one line each. */
  settingsProblems(): { errors: readonly string[]; warnings: readonly string[] };
  /** The tools that cannot work, or work only in part, on this machine. */
  toolAvailability(): readonly AvailabilityProblem[];
  /** A cheap request to the configured provider with a short deadline. */
  probeProvider(signal: AbortSignal): Promise<ProviderProbe>;
}

export interface CommandRegistry {
  list(): readonly LocalCommand[];
  /** By name or alias, without the slash, case-insensitive. */
  find(nameOrAlias: string): LocalCommand | undefined;
  /** Commands whose name or alias starts with `prefix` (no slash), best match first. */
  complete(prefix: string): readonly LocalCommand[];
  /** Refuses a name or alias already taken. */
  register(command: LocalCommand): void;
}
