/**
 * What one session owns besides its conversation: live background shells, the pages WebFetch
 * fetched, its model facts and what its requests cost, the git-configuration verdicts its
 * permission checks and system prompt share, its side-call client, and the settings
 * its tools read. Created by the composition root, carried on every ToolUseContext, and disposed
 * with the session, so several query loops in one process (subagents, background agents, teams)
 * never share any of it by accident: nothing here lives in a module.
 */

import { AgentTasks } from '../agents/background/agent-tasks';
import type { AgentTasksOptions } from '../agents/background/options';
import type { Settings } from '../config/settings-schema';
import type { McpManager } from '../mcp/manager';
import { ModelCatalog } from '../model/catalog';
import { CostTracker } from '../model/cost';
import {
  createSideCallClient,
  NoSideCallModelError,
  type SideCallClient,
  type SideCallRetry,
} from '../model/side-call';
import type { Env, Provider } from '../model/types';
import { GitConfigSafety } from '../permissions/git-config-safety';
import { KnownCopies } from '../permissions/worktree-copies';
import type { SandboxManager } from '../sandbox/manager';
import { LspSupervisor, type LspSupervisorOptions } from '../services/lsp/supervisor';
import { StagedEdits } from './builtin/ast/staged-edits';
import { outputBudget } from './builtin/bash/output';
import { BackgroundShells } from './builtin/bash/shells';
import { normalizeAllowedHosts } from './builtin/web-fetch/address-policy';
import { PageCache } from './builtin/web-fetch/page-cache';
import { DeferredTools } from './deferral/deferred-tools';
import { resolveToolSearchPolicy, type ToolSearchPolicy } from './deferral/policy';
import type { SkillPort } from './skill-port';

/** The settings built-in tools read, resolved once per session from its settings and environment. */
export type ToolSettings = {
  /** `webFetch.allowedHosts`: private hosts (`host` or `host:port`, lowercased) WebFetch may reach. */
  webFetchAllowedHosts: readonly string[];
  /** Characters of Bash output the model sees inline (`BASH_MAX_OUTPUT_LENGTH`, `bashOutputMaxChars`). */
  bashOutputMaxChars: number;
  /** When tool schemas wait behind ToolSearch (`toolSearch`, `ENABLE_TOOL_SEARCH`). */
  toolSearch: ToolSearchPolicy;
};

export function toolSettings(
  settings: Pick<Settings, 'webFetch' | 'bashOutputMaxChars' | 'toolSearch'>,
  env: Env,
): ToolSettings {
  return {
    webFetchAllowedHosts: normalizeAllowedHosts(settings.webFetch?.allowedHosts ?? []),
    bashOutputMaxChars: outputBudget(env.BASH_MAX_OUTPUT_LENGTH, settings.bashOutputMaxChars),
    toolSearch: resolveToolSearchPolicy(settings.toolSearch, env).policy,
  };
}

/**
 * Where the session's side calls go (model/side-call.ts): its provider (base URL, key, waits,
 * retry policy), its fast model, and who hears of their retries. Their cost goes to `costs`.
 */
export type SideCallSource = {
  provider: Provider;
  /** The model a side call asks when it names none: the session's fast model. */
  fastModel: () => string;
  onRetry?: (retry: SideCallRetry) => void;
};

/** For services made without a provider (tool tests): every side call fails and says why. */
const noSideCalls: SideCallClient = {
  fastModel: () => 'none',
  complete: () => Promise.reject(new NoSideCallModelError()),
};

export type SessionServicesOptions = {
  /** The session's environment (process env plus the settings' `env`): what its git and models see. */
  env: Env;
  settings?: Partial<ToolSettings>;
  /** The session's model facts; the built-in table alone when absent. */
  models?: ModelCatalog;
  /** Where side calls go; without it they fail with a clear message. */
  sideCalls?: SideCallSource;
  /** Replaces the page cache (tests give it a clock). */
  webPages?: PageCache;
  /**
   * The session's checker, when the composition root made it before the services (to start the
   * prompt's git status early); it must have been built on `env`.
   */
  gitConfig?: GitConfigSafety;
  /** Whether the project is trusted (its own server binaries may run) and the `lsp` settings. */
  lsp?: Omit<LspSupervisorOptions, 'env'>;
  /** The session's MCP servers, when it has any (closed with the session). */
  mcp?: McpManager;
  /** The session's shell sandbox (src/sandbox/); commands run unsandboxed without one. */
  sandbox?: SandboxManager;
  /** Background agents' progress-summary interval and clock (tests give a manual one). */
  backgroundAgents?: Omit<AgentTasksOptions, 'sideCalls'>;
  /** The session's skills, for the Skill tool (src/skills/ fills it). */
  skills?: SkillPort;
  /** The session's known copies of the project; made here when the composition root gives none. */
  copies?: KnownCopies;
};

export class SessionServices {
  /** `run_in_background` shells, which TaskOutput and TaskStop reach by id. */
  readonly shells = new BackgroundShells();
  /** Agents started with `run_in_background`, which TaskOutput, TaskStop and SendMessage reach. */
  readonly agentTasks: AgentTasks;
  readonly webPages: PageCache;
  /** Prices and context windows: for cost, and for when to compact. */
  readonly models: ModelCatalog;
  /** Where every request of the session, main loop or side call, records its usage and cost. */
  readonly costs: CostTracker;
  /** One per session: it caches its verdicts per repository, for permission checks and the prompt. */
  readonly gitConfig: GitConfigSafety;
  /** Model requests outside the conversation (compaction, WebFetch, the classifier), at `costs`. */
  readonly sideCalls: SideCallClient;
  readonly settings: ToolSettings;
  /** The deferred tools the model loaded, and the deferral plan of each pool's latest request. */
  readonly deferredTools: DeferredTools;
  /** Language servers, started on first use (the `lsp` tools, diagnostics after writes). */
  readonly lsp: LspSupervisor;
  private mcpManager: McpManager | undefined;
  readonly sandbox: SandboxManager | undefined;
  readonly skills: SkillPort | undefined;
  /** ast_edit's proposed rewrites, until resolve accepts or discards them. */
  readonly stagedEdits = new StagedEdits();
  /** Folders WorktreeCreate hooks made as copies of the project: deny rules hold in them too. */
  readonly copies: KnownCopies;
  private disposal: Promise<void> | undefined;
  private readonly endings: Array<() => Promise<void>> = [];

  constructor(options: SessionServicesOptions) {
    this.webPages = options.webPages ?? new PageCache();
    this.models = options.models ?? new ModelCatalog();
    this.costs = new CostTracker(this.models);
    this.gitConfig = options.gitConfig ?? new GitConfigSafety({ env: options.env });
    this.sideCalls = options.sideCalls
      ? createSideCallClient({ ...options.sideCalls, usage: this.costs })
      : noSideCalls;
    this.settings = { ...toolSettings({}, options.env), ...options.settings };
    this.agentTasks = new AgentTasks({ ...options.backgroundAgents, sideCalls: this.sideCalls });
    this.deferredTools = new DeferredTools(this.settings.toolSearch);
    this.lsp = new LspSupervisor({ env: options.env, trusted: false, ...options.lsp });
    this.mcpManager = options.mcp;
    this.sandbox = options.sandbox;
    this.skills = options.skills;
    this.copies = options.copies ?? new KnownCopies();
  }

  /** The MCP servers, for the resource tools; absent until some server is configured. */
  get mcp(): McpManager | undefined {
    return this.mcpManager;
  }

  /**
   * The session's MCP servers when they come after the services (a plugin reload's first ones):
   * closed with the session, or at once when the session has ended already.
   */
  adoptMcp(manager: McpManager): void {
    this.mcpManager = manager;
    if (this.disposal) void manager.close();
  }

  /**
   * Runs `ending` when the session ends, after its shells are dead (a worktree's end checks what
   * its commands left behind). Endings run in order; one that fails does not stop the next.
   */
  onDispose(ending: () => Promise<void>): void {
    this.endings.push(ending);
  }

  /**
   * Ends what the session still runs: background agents stop, background shells die with their
   * process groups, model lookups stop, language servers shut down. Safe to call more than once; every call waits for the same end.
   */
  dispose(): Promise<void> {
    this.disposal ??= (async () => {
      this.models.dispose();
      // Agents first: their loops use the shells, servers and sandbox that go next.
      await this.agentTasks.dispose();
      await Promise.all([this.shells.dispose(), this.lsp.dispose(), this.mcp?.close()]);
      // After the shells: a sandboxed command's read-only placeholders go once none runs.
      await this.sandbox?.dispose();
      for (const ending of this.endings) await ending().catch(() => {});
    })();
    return this.disposal;
  }
}
