/**
 * One session's prompt commands and skills: the specs loaded at start, which of them the model
 * may run now, their expansion for the user (`/name args`) and for the model (the Skill tool), the
 * skills invoked so far (their bodies survive compaction), and the listing the model reads. A
 * value per session; nothing here is module state.
 */
import type { HooksSettings } from '../config/settings-schema';
import type { HookRunner } from '../hooks/types';
import { resolveModelAlias } from '../model/models';
import type { UserContentBlock } from '../model/types';
import { parseRule } from '../permissions/rule-string';
import type { CanUseToolFn, PermissionRule } from '../permissions/types';
import type { ToolUseContext } from '../tools/context';
import type { ForkedSkillLaunch, SkillLaunch, SkillPort } from '../tools/skill-port';
import type { ToolProgress } from '../tools/tool';
import { type Expansion, expandPromptCommand } from './expand';
import { type ExpansionGate, userPromptExpansionGate } from './expansion-hooks';
import { ForkedSkills } from './fork-run';
import { skillListingText } from './listing';
import { type SkillOverride, type SkillOverrides, skillOverrideLookup, withoutDisabled } from './overrides';
import { shellRunner } from './shell-runner';
import { type McpPromptFetch, type PromptCommandSpec, widens } from './types';
import { isModelInvocable, PathActivation } from './visibility';

export type SessionSkillsOptions = {
  specs: readonly PromptCommandSpec[];
  sessionId: string;
  projectRoot: string;
  /** Whether the project folder is trusted: a project's commands widen permissions only then. */
  trusted: boolean;
  /** `disableSkillShellExecution`: `!` commands are refused. */
  shellDisabled?: boolean;
  /** The SDK's `skills` option: only these are offered to the model. */
  onlySkills?: readonly string[];
  /** `skillOverrides` in settings (overrides.ts). */
  overrides?: SkillOverrides;
  /** The listing's budget in tokens (about 1 % of the context window). */
  listingBudgetTokens: number;
  /** The permission pipeline `!` commands go through; read when first needed. */
  pipeline: () => { canUseTool: CanUseToolFn; hooks: HookRunner };
  mcpPrompt?: McpPromptFetch;
  /** Registers a skill's hooks for the rest of the session (skill-hooks.ts); absent when hooks are off. */
  addHooks?: (skill: string, hooks: HooksSettings) => void;
  /** Prompt commands that come and go during the session (MCP servers' prompts), read when asked. */
  dynamicSpecs?: () => PromptCommandSpec[];
};

export type CommandExpansion = Expansion & {
  spec: PromptCommandSpec;
  /** The command's allowed-tools as allow rules (empty when its author may not widen). */
  allowRules: PermissionRule[];
};

export class SessionSkills implements SkillPort {
  private readonly byName = new Map<string, PromptCommandSpec>();
  private readonly paths: PathActivation;
  /** Invoked skills, newest last: name → the body the model was given. */
  private readonly active = new Map<string, string>();
  /** Names the model has been told about. */
  private readonly told = new Set<string>();
  /** `context: fork` skills run in subagents; a fork's worker may not fork again. */
  private readonly forks = new ForkedSkills();

  private readonly override: (name: string) => SkillOverride;
  /** The specs from files, less those turned off. */
  private own: PromptCommandSpec[] = [];

  constructor(private readonly options: SessionSkillsOptions) {
    this.override = skillOverrideLookup(options.overrides);
    this.replaceSpecs(options.specs);
    this.paths = new PathActivation(options.projectRoot);
  }

  /**
   * The files' commands and skills read again (a reload): later lookups and listings see these.
   * What the model was told and the skills it invoked stay; a new skill is listed at the next
   * listing update, as one that became visible.
   */
  replaceSpecs(specs: readonly PromptCommandSpec[]): void {
    this.own = specs.filter((spec) => this.override(spec.name) !== 'off');
    this.byName.clear();
    for (const spec of this.own) this.byName.set(spec.name.toLowerCase(), spec);
  }

  /** Every prompt command now: the files' and the connected MCP servers' prompts, less those turned off. */
  get specs(): readonly PromptCommandSpec[] {
    const dynamic = withoutDisabled(this.options.dynamicSpecs?.() ?? [], this.options.overrides);
    return dynamic.length === 0 ? this.own : [...this.own, ...dynamic];
  }

  find(name: string): PromptCommandSpec | undefined {
    const key = name.replace(/^\//, '').toLowerCase();
    if (this.override(key) === 'off') return undefined;
    return (
      this.byName.get(key) ?? this.options.dynamicSpecs?.().find((spec) => spec.name.toLowerCase() === key)
    );
  }

  /** Whether its allowed-tools apply: not for an untrusted project's own files. */
  mayWiden(spec: PromptCommandSpec): boolean {
    return spec.source !== 'project' || this.options.trusted;
  }

  /** The prompt commands the model may run right now. */
  forModel(): PromptCommandSpec[] {
    const only = this.options.onlySkills
      ? new Set(this.options.onlySkills.map((n) => n.toLowerCase()))
      : undefined;
    return this.specs.filter(
      (spec) =>
        isModelInvocable(spec) &&
        this.override(spec.name) !== 'user-invocable-only' &&
        this.paths.isVisible(spec) &&
        (!only || only.has(spec.name.toLowerCase())),
    );
  }

  /**
   * The listing for the model when it changed: everything at first, then the skills that
   * became visible (a file matching their `paths` was touched). Undefined when nothing is new.
   */
  listingUpdate(touchedPaths: readonly string[]): string | undefined {
    this.paths.touch(this.specs, touchedPaths);
    const fresh = this.told.size === 0;
    const added = this.forModel().filter((spec) => !this.told.has(spec.name));
    if (added.length === 0) return undefined;
    for (const spec of added) this.told.add(spec.name);
    return skillListingText(added, this.options.listingBudgetTokens, fresh, this.nameOnly);
  }

  /** The whole listing as it stands (re-attached after a compaction). */
  fullListing(): string | undefined {
    const specs = this.forModel();
    return specs.length === 0
      ? undefined
      : skillListingText(specs, this.options.listingBudgetTokens, true, this.nameOnly);
  }

  private readonly nameOnly = (spec: PromptCommandSpec) => this.override(spec.name) === 'name-only';

  /** The bodies of the skills invoked so far, for compaction to keep. */
  activeSkills(): { name: string; content: string }[] {
    return [...this.active].map(([name, content]) => ({ name, content }));
  }

  /**
   * `/name args` from the user. Its UserPromptExpansion hooks run first: they may stop it before
   * anything of it runs, add context, or send their context instead of the expansion.
   */
  async expandForUser(
    spec: PromptCommandSpec,
    args: string,
    context: ToolUseContext,
  ): Promise<CommandExpansion> {
    const gate = await userPromptExpansionGate(this.options.pipeline().hooks, spec, args, context);
    if (gate.suppress) return suppressedExpansion(spec, gate);
    const expansion = await this.expand(spec, args, context, 'user');
    return { ...expansion, attachments: [...expansion.attachments, ...gateBlocks(gate)] };
  }

  /**
   * `/name args` from the user for a `context: fork` command: a subagent runs it to its end. Its
   * UserPromptExpansion hooks run first, as for an inline command (their context joins the
   * worker's task; a suppressing hook sends its context to this conversation and forks nothing).
   */
  async forkForUser(
    spec: PromptCommandSpec,
    args: string,
    context: ToolUseContext,
    onProgress?: (progress: ToolProgress) => void,
  ): Promise<ForkedSkillLaunch | { kind: 'suppressed'; expansion: CommandExpansion }> {
    this.forks.refuseNested(spec.name, context);
    const gate = await userPromptExpansionGate(this.options.pipeline().hooks, spec, args, context);
    if (gate.suppress) return { kind: 'suppressed', expansion: suppressedExpansion(spec, gate) };
    const expansion = await this.expand(spec, args, context, 'user');
    return this.forks.run(
      { ...expansion, attachments: [...expansion.attachments, ...gateBlocks(gate)] },
      context,
      onProgress,
    );
  }

  /** The Skill tool's call. */
  async launch(
    name: string,
    args: string,
    context: ToolUseContext,
    onProgress?: (progress: ToolProgress) => void,
    options: { inline?: boolean } = {},
  ): Promise<SkillLaunch> {
    const spec = this.find(name);
    if (!spec) throw new Error(`There is no skill "${name}". ${this.namesHint()}`);
    if (spec.disableModelInvocation)
      throw new Error(
        `The skill "${spec.name}" can only be run by the user (/${spec.name}); it sets disable-model-invocation.`,
      );
    if (this.override(spec.name) === 'user-invocable-only')
      throw new Error(
        `The skill "${spec.name}" can only be run by the user (/${spec.name}); skillOverrides sets it user-invocable-only.`,
      );
    if (!this.forModel().includes(spec))
      throw new Error(`The skill "${spec.name}" is not available now. ${this.namesHint()}`);
    if (spec.context === 'fork' && !options.inline) {
      // Refused before the expansion runs the skill's `!` commands.
      this.forks.refuseNested(spec.name, context);
      return this.forks.run(await this.expand(spec, args, context, 'model'), context, onProgress);
    }
    const expansion = await this.expand(spec, args, context, 'model');
    const body = expansion.blocks.slice(1);
    return {
      kind: 'inline',
      commandName: spec.name,
      body,
      attachments: expansion.attachments,
      allowRules: expansion.allowRules,
      ...(spec.model ? { model: resolveModelAlias(spec.model) } : {}),
      ...(spec.effort ? { effort: spec.effort } : {}),
    };
  }

  private namesHint(): string {
    const names = this.forModel().map((spec) => spec.name);
    return names.length === 0 ? 'No skills are available.' : `Available: ${names.join(', ')}.`;
  }

  private async expand(
    spec: PromptCommandSpec,
    args: string,
    context: ToolUseContext,
    invokedBy: 'user' | 'model',
  ): Promise<CommandExpansion> {
    const allowRules = this.mayWiden(spec) ? allowRulesOf(spec) : [];
    const { canUseTool, hooks } = this.options.pipeline();
    const expansion = await expandPromptCommand(spec, args, {
      sessionId: this.options.sessionId,
      projectRoot: this.options.projectRoot,
      context,
      invokedBy,
      ...(this.options.shellDisabled
        ? {
            runShell: async (command: string) => {
              throw new Error(
                `/${spec.name} was not run: it runs \`${command}\`, and disableSkillShellExecution is set.`,
              );
            },
          }
        : {
            runShell: shellRunner({
              context,
              canUseTool,
              hooks,
              allowRules,
              commandName: spec.name,
              commandSource: spec.source,
              invokedBy: invokedBy === 'model' ? 'claude' : 'user',
            }),
          }),
      ...(this.options.mcpPrompt ? { mcpPrompt: this.options.mcpPrompt } : {}),
    });
    if (spec.hooks && this.mayWiden(spec)) this.options.addHooks?.(spec.name, spec.hooks);
    // A forked skill's body lives in its worker's context, not in this conversation's.
    if (spec.loadedFrom !== 'commands' && spec.loadedFrom !== 'mcp' && spec.context !== 'fork') {
      this.active.delete(spec.name);
      this.active.set(spec.name, expansion.body);
    }
    return { ...expansion, spec, allowRules };
  }
}

export function allowRulesOf(spec: Pick<PromptCommandSpec, 'allowedTools'>): PermissionRule[] {
  return spec.allowedTools.flatMap((text) => {
    const rule = parseRule(text, 'allow', 'session');
    return rule ? [rule] : [];
  });
}

const NOTICE_NAMES = 5;

/** One line for the user, once per session: which project commands run without their widenings. */
export function untrustedNotice(specs: readonly PromptCommandSpec[], trusted: boolean): string | undefined {
  if (trusted) return undefined;
  const names = specs
    .filter((spec) => spec.source === 'project' && widens(spec))
    .map((spec) => `/${spec.name}`);
  if (names.length === 0) return undefined;
  // One readable line, however many files a repository ships.
  const shown =
    names.length <= NOTICE_NAMES
      ? names.join(', ')
      : `${names.slice(0, NOTICE_NAMES).join(', ')} and ${names.length - NOTICE_NAMES} more`;
  const [runs, files] = names.length === 1 ? ['runs', 'its file grants'] : ['run', 'their files grant'];
  return `This folder is not trusted, so ${shown} ${runs} without the tools and hooks ${files} (allowed-tools, hooks); trust it with \`yoke trust\` to allow them.`;
}

const gateBlocks = (gate: ExpansionGate): UserContentBlock[][] =>
  gate.context.map((text): UserContentBlock[] => [{ type: 'text', text }]);

/** What a suppressing UserPromptExpansion hook sends instead of the command: its context alone. */
function suppressedExpansion(spec: PromptCommandSpec, gate: ExpansionGate): CommandExpansion {
  const [first, ...rest] = gateBlocks(gate);
  return {
    blocks: first ?? [
      { type: 'text', text: `(/${spec.name} was suppressed by a UserPromptExpansion hook.)` },
    ],
    body: '',
    attachments: rest,
    problems: [],
    spec,
    allowRules: [],
  };
}
