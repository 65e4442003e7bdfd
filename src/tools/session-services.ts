/**
 * What one session owns besides its conversation: live background shells, the pages WebFetch
 * fetched, its model facts and what its requests cost, the git-configuration verdicts its
 * permission checks and system prompt share, its access to a side-call model, and the settings
 * its tools read. Created by the composition root, carried on every ToolUseContext, and disposed
 * with the session, so several query loops in one process (subagents, background agents, teams)
 * never share any of it by accident: nothing here lives in a module.
 */
import type { Settings } from '../config/settings-schema';
import { ModelCatalog } from '../model/catalog';
import { CostTracker } from '../model/cost';
import { DEFAULT_FAST_ANTHROPIC_MODEL } from '../model/models';
import type { Env, Provider } from '../model/types';
import { GitConfigSafety } from '../permissions/git-config-safety';
import { outputBudget } from './builtin/bash/output';
import { BackgroundShells } from './builtin/bash/shells';
import { normalizeAllowedHosts } from './builtin/web-fetch/address-policy';
import { PageCache } from './builtin/web-fetch/page-cache';

/** The settings built-in tools read, resolved once per session from its settings and environment. */
export type ToolSettings = {
  /** `webFetch.allowedHosts`: private hosts (`host` or `host:port`, lowercased) WebFetch may reach. */
  webFetchAllowedHosts: readonly string[];
  /** Characters of Bash output the model sees inline (`BASH_MAX_OUTPUT_LENGTH`, `bashOutputMaxChars`). */
  bashOutputMaxChars: number;
};

export function toolSettings(
  settings: Pick<Settings, 'webFetch' | 'bashOutputMaxChars'>,
  env: Env,
): ToolSettings {
  return {
    webFetchAllowedHosts: normalizeAllowedHosts(settings.webFetch?.allowedHosts ?? []),
    bashOutputMaxChars: outputBudget(env.BASH_MAX_OUTPUT_LENGTH, settings.bashOutputMaxChars),
  };
}

/**
 * The session's access to a small, fast model for side calls (WebFetch's answer about a page):
 * which provider and model to use, chosen from the session's own environment, not the process's.
 */
export type SideCallModel = {
  fast(): Promise<{ provider: Provider; model: string }>;
};

/** `YOKE_FAST_MODEL`, else the default fast model, selected on first use and kept for the session. */
export function sideCallModelFromEnv(env: Env): SideCallModel {
  let selection: Promise<{ provider: Provider; model: string }> | undefined;
  return {
    fast() {
      selection ??= import('../model/select')
        .then(({ selectModel }) =>
          selectModel({ model: env.YOKE_FAST_MODEL ?? DEFAULT_FAST_ANTHROPIC_MODEL, env }),
        )
        .catch((error: unknown) => {
          // Missing credentials are reported at every use; a later call may find them fixed.
          selection = undefined;
          throw error;
        });
      return selection;
    },
  };
}

export type SessionServicesOptions = {
  /** The session's environment (process env plus the settings' `env`): what its git and models see. */
  env: Env;
  settings?: Partial<ToolSettings>;
  /** The session's model facts; the built-in table alone when absent. */
  models?: ModelCatalog;
  sideCalls?: SideCallModel;
  /** Replaces the page cache (tests give it a clock). */
  webPages?: PageCache;
  /**
   * The session's checker, when the composition root made it before the services (to start the
   * prompt's git status early); it must have been built on `env`.
   */
  gitConfig?: GitConfigSafety;
};

export class SessionServices {
  /** `run_in_background` shells, which TaskOutput and TaskStop reach by id. */
  readonly shells = new BackgroundShells();
  readonly webPages: PageCache;
  /** Prices and context windows: for cost, and for when to compact. */
  readonly models: ModelCatalog;
  /** Where every request of the session, main loop or side call, records its usage and cost. */
  readonly costs: CostTracker;
  /** One per session: it caches its verdicts per repository, for permission checks and the prompt. */
  readonly gitConfig: GitConfigSafety;
  readonly sideCalls: SideCallModel;
  readonly settings: ToolSettings;
  private disposal: Promise<void> | undefined;

  constructor(options: SessionServicesOptions) {
    this.webPages = options.webPages ?? new PageCache();
    this.models = options.models ?? new ModelCatalog();
    this.costs = new CostTracker(this.models);
    this.gitConfig = options.gitConfig ?? new GitConfigSafety({ env: options.env });
    this.sideCalls = options.sideCalls ?? sideCallModelFromEnv(options.env);
    this.settings = { ...toolSettings({}, options.env), ...options.settings };
  }

  /**
   * Ends what the session still runs: background shells die with their process groups, model
   * lookups stop. Safe to call more than once; every call waits for the same end.
   */
  dispose(): Promise<void> {
    this.disposal ??= (async () => {
      this.models.dispose();
      await this.shells.dispose();
    })();
    return this.disposal;
  }
}
