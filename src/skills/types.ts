/**
 * A prompt command as the loaders find it: a custom command file, a skill folder, a bundled
 * skill, a plugin's command or skill, or an MCP server's prompt. Only what the listings need is
 * read at start (the frontmatter); the body is read when the command runs.
 */
import type { HooksSettings } from '../config/settings-schema';
import type { EffortLevel } from '../model/effort';

/** Who wrote it, which decides whether its permission widenings apply (see `widens`). */
export type PromptSource = 'bundled' | 'user' | 'project' | 'plugin' | 'mcp';

/** How it was found: the seed's `loadedFrom`, which the Skill tool's filter reads. */
export type LoadedFrom = 'bundled' | 'skills' | 'commands' | 'plugin' | 'mcp';

/** Where the body comes from, read on use. */
export type PromptBody =
  /** The rest of a file after its frontmatter (byte offset). */
  | { kind: 'file'; path: string; offset: number }
  | { kind: 'text'; text: string }
  /** An MCP server's prompt, fetched with the arguments (`prompts/get`). */
  | { kind: 'mcp'; server: string; prompt: string; argumentNames: readonly string[] };

export type PromptCommandSpec = {
  /** Without the slash: `review`, `frontend:lint`, `my-plugin:deploy`, `mcp__server__prompt`. */
  name: string;
  description: string;
  /** The description came from the frontmatter, not from the body's first line. */
  hasUserSpecifiedDescription: boolean;
  whenToUse?: string;
  argumentHint?: string;
  /** `arguments:` names: `$name` is the N-th argument. */
  argumentNames: readonly string[];
  /** Permission rules (`Bash(git diff:*)`, `Read`) granted while it runs. */
  allowedTools: readonly string[];
  model?: string;
  /** The effort while it runs (inline: the rest of the turn; forked: its worker). */
  effort?: EffortLevel;
  disableModelInvocation: boolean;
  /** false: hidden from the `/` menu; the model may still use it. */
  userInvocable: boolean;
  context: 'inline' | 'fork';
  /** The subagent type for `context: fork`. */
  agent?: string;
  /** Globs (relative to the project root): offered to the model only once it touched a match. */
  paths: readonly string[];
  /** Hooks active once the skill ran. */
  hooks?: HooksSettings;
  source: PromptSource;
  loadedFrom: LoadedFrom;
  /** The file it came from, for problems and /help. */
  file?: string;
  /** A skill's folder: `${CLAUDE_SKILL_DIR}`, and where its supporting files are. */
  skillDir?: string;
  /** A plugin's root: `${CLAUDE_PLUGIN_ROOT}`. */
  pluginRoot?: string;
  body: PromptBody;
};

/** Whether this command asks for more than the session's own rules give. */
export function widens(spec: Pick<PromptCommandSpec, 'allowedTools' | 'hooks'>): boolean {
  return spec.allowedTools.length > 0 || (spec.hooks !== undefined && Object.keys(spec.hooks).length > 0);
}

/**
 * What a plugin contributes (given by the plugin loader; see sources.ts): folders of commands and
 * of skills, and the single command files and skill folders its manifest lists. Every path is
 * real and inside `root` (src/plugins/component-paths.ts).
 */
export type PluginContribution = {
  pluginName: string;
  root: string;
  commandDirs: readonly string[];
  skillDirs: readonly string[];
  commandFiles: readonly string[];
  skillFolders: readonly string[];
};

/** An MCP server's prompt text for these arguments (`prompts/get`). */
export type McpPromptFetch = (
  server: string,
  prompt: string,
  args: Record<string, string>,
  signal: AbortSignal,
) => Promise<string>;
