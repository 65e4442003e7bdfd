/**
 * A session's slash commands and skills, set up once per session: the prompt commands loaded from
 * their folders (src/skills/sources.ts), the registry with the built-ins, the session's skills
 * (the Skill tool's port), and the input step the engine runs at each turn
 * (commands/process-user-input.ts). Loaded lazily: a project without command files reads a few
 * missing folders and no YAML.
 */
import { createSessionCommands } from '../commands/builtin';
import { processUserInput } from '../commands/process-user-input';
import { promptCommandOf } from '../commands/prompt-commands';
import { createCommandRegistry } from '../commands/registry';
import type { CommandHost, CommandRegistry, PromptCommand } from '../commands/types';
import type { HooksSettings } from '../config/settings-schema';
import type { QueryEngine, QueryEngineConfig } from '../engine/query-engine';
import type { HookRunner } from '../hooks/types';
import type { McpManagerSlot } from '../mcp/manager-slot';
import type { CanUseToolFn } from '../permissions/types';
import type { SkillOverrides } from '../skills/overrides';
import type { SessionSkills } from '../skills/session-skills';
import type { LiveHooks } from '../skills/skill-hooks';
import type { PluginContribution } from '../skills/types';
import { createHeadlessCommandHost, type HeadlessHostDeps } from './headless-command-host';
import type { Env } from './session-settings';

/** What the MCP prompts read while the session has no MCP manager: no server. */
const NO_PROMPT_SERVERS = { connectedServers: () => [], connection: () => undefined };

/** What the headless host answers from, known once the engine is made. */
export type EngineFacts = Omit<HeadlessHostDeps, 'engine' | 'commands' | 'startedAt'> & {
  engine: () => QueryEngine;
};

export type SessionCommandsInput = {
  projectRoot: string;
  env: Env;
  sessionId: string;
  trusted: boolean;
  bare: boolean;
  settings: {
    disableBundledSkills?: boolean;
    disableSkillShellExecution?: boolean;
    skillOverrides?: SkillOverrides;
  };
  /** The plugins' folders (the plugin loader hands them in; empty until then). */
  plugins: readonly PluginContribution[];
  /** The SDK's `skills` option. */
  onlySkills?: readonly string[];
  contextWindow: number;
  pipeline: () => { canUseTool: CanUseToolFn; hooks: HookRunner };
  /** The session's MCP servers (a reload may bring the first): their prompts are commands. */
  mcp: McpManagerSlot;
  /** Where a skill's `hooks:` go once it runs; absent when hooks are turned off. */
  liveHooks?: LiveHooks;
};

export type SessionCommands = {
  registry: CommandRegistry;
  /** The prompt commands alone (the interactive UI's registry takes them into its own). */
  promptCommands: PromptCommand[];
  skills: SessionSkills;
  /** Broken files, name clashes and the untrusted-folder notice: said once, at start. */
  warnings: string[];
  /** `system/init.slash_commands` and `.skills`. */
  initExtras: { slash_commands: string[]; skills: string[] };
  /** The engine's input step and skill listing; the headless host is made from `facts` on first use. */
  engineConfig(facts: EngineFacts): Pick<QueryEngineConfig, 'processInput' | 'skillListing'>;
  /** What compaction keeps: the invoked skills' bodies and the listing. */
  essentials: {
    getActiveSkills(): { name: string; content: string }[];
    getSkillListing(): string | undefined;
  };
  /** The initialize reply's `commands` (name, description, argument hint). */
  describe(): CommandInfo[];
  /**
   * Reads the command and skill files again (with these plugins' folders): what they would make
   * the session's commands, and `apply` to make them so. Nothing changes until `apply`.
   */
  reread(plugins: readonly PluginContribution[]): Promise<RereadCommands>;
  /** Runs `change` at the start of the next turn (before its input is processed), not during one. */
  atNextTurn(change: () => void): void;
  /** Runs the changes `atNextTurn` holds, now: a frontend does it before its turn's `system/init`. */
  applyStaged(): void;
};

type CommandInfo = { name: string; description: string; argumentHint: string };

export type RereadCommands = {
  /** Every command the session would list: built-ins and prompt commands. */
  commands: CommandInfo[];
  /** The prompt commands alone (custom commands and skills). */
  skills: CommandInfo[];
  problems: string[];
  apply(): void;
};

export async function setUpSessionCommands(input: SessionCommandsInput): Promise<SessionCommands> {
  const [
    { loadPromptCommands },
    { SessionSkills, untrustedNotice },
    { mcpPromptFetch, mcpPromptSpecs },
    { withoutDisabled },
  ] = await Promise.all([
    import('../skills/sources'),
    import('../skills/session-skills'),
    import('../skills/mcp-prompts'),
    import('../skills/overrides'),
  ]);
  const mcp = input.mcp;
  const registry = createSessionCommands();
  const builtinNames = new Set(
    registry.list().flatMap((c) => [c.name, ...(c.aliases ?? [])].map((n) => n.toLowerCase())),
  );
  const load = async (plugins: readonly PluginContribution[]) => {
    const composed = await loadPromptCommands(
      {
        projectRoot: input.projectRoot,
        env: input.env,
        plugins,
        disableBundled: input.settings.disableBundledSkills === true,
        bundledOnly: input.bare,
      },
      builtinNames,
    );
    // `skillOverrides: off` leaves a command out of the session, its listings and the slash.
    return {
      specs: withoutDisabled(composed.specs, input.settings.skillOverrides),
      problems: composed.problems,
    };
  };
  const composed = await load(input.plugins);
  const specs = composed.specs;
  const skills = new SessionSkills({
    specs,
    ...(input.settings.skillOverrides ? { overrides: input.settings.skillOverrides } : {}),
    sessionId: input.sessionId,
    projectRoot: input.projectRoot,
    trusted: input.trusted,
    shellDisabled: input.settings.disableSkillShellExecution === true,
    ...(input.onlySkills ? { onlySkills: input.onlySkills } : {}),
    // About 1 % of the context window, as Claude Code's skillListingBudgetFraction.
    listingBudgetTokens: Math.max(500, Math.floor(input.contextWindow * 0.01)),
    pipeline: input.pipeline,
    ...(input.liveHooks
      ? { addHooks: (skill: string, hooks: HooksSettings) => input.liveHooks?.add(skill, hooks) }
      : {}),
    dynamicSpecs: () => (mcp.manager ? mcpPromptSpecs(mcp.manager) : []),
    mcpPrompt: (server, prompt, args, signal) =>
      mcpPromptFetch(mcp.manager ?? NO_PROMPT_SERVERS)(server, prompt, args, signal),
  });
  const promptCommands = specs.map((spec) => promptCommandOf(spec));
  registry.setPromptCommands(promptCommands);
  const notice = untrustedNotice(specs, input.trusted);
  const skillNames = specs.filter((spec) => spec.loadedFrom !== 'commands').map((spec) => spec.name);
  const info = (c: {
    name: string;
    description: string;
    argumentHint?: string | undefined;
  }): CommandInfo => ({
    name: c.name,
    description: c.description,
    argumentHint: c.argumentHint ?? '',
  });
  const initExtras = { slash_commands: registry.list().map((c) => c.name), skills: skillNames };
  const staged: Array<() => void> = [];
  const applyStaged = () => {
    for (const change of staged.splice(0)) change();
  };
  return {
    registry,
    promptCommands,
    skills,
    warnings: [...composed.problems, ...(notice ? [notice] : [])],
    initExtras,
    engineConfig(facts) {
      const startedAt = Date.now();
      let host: CommandHost | undefined;
      const deps = {
        commands: registry,
        skills,
        host: () => {
          host ??= createHeadlessCommandHost({
            ...facts,
            engine: facts.engine(),
            commands: registry,
            startedAt,
          });
          return host;
        },
        settleMcp: async () => mcp.manager?.whenSettled(),
        compact: async (instructions: string | undefined, signal: AbortSignal) => {
          const compacted = await facts.engine().compact(instructions, { signal });
          return `Compacted the conversation: ${compacted.length} messages carry it now.`;
        },
      };
      return {
        processInput: (prompt, turn) => {
          // A turn boundary: changes staged while the last turn ran (a reload) take effect now.
          applyStaged();
          return processUserInput(prompt, turn, deps);
        },
        skillListing: { update: (paths) => skills.listingUpdate(paths) },
      };
    },
    essentials: {
      getActiveSkills: () => skills.activeSkills(),
      getSkillListing: () => skills.fullListing(),
    },
    describe: () => registry.list().map(info),
    async reread(plugins) {
      const fresh = await load(plugins);
      const freshCommands = fresh.specs.map((spec) => promptCommandOf(spec));
      // The list as the registry will give it once applied: built-ins first, clashes left out.
      const preview = createCommandRegistry(registry.list().filter((c) => c.kind !== 'prompt'));
      preview.setPromptCommands(freshCommands);
      return {
        commands: preview.list().map(info),
        skills: freshCommands.map(info),
        problems: fresh.problems,
        apply: () => {
          skills.replaceSpecs(fresh.specs);
          registry.setPromptCommands(freshCommands);
          promptCommands.splice(0, promptCommands.length, ...freshCommands);
          // The engine's `system/init` reads these arrays: they are changed in place.
          initExtras.slash_commands.splice(0, Infinity, ...registry.list().map((c) => c.name));
          initExtras.skills.splice(
            0,
            Infinity,
            ...fresh.specs.filter((spec) => spec.loadedFrom !== 'commands').map((spec) => spec.name),
          );
        },
      };
    },
    atNextTurn: (change) => {
      staged.push(change);
    },
    applyStaged,
  };
}
