/**
 * The session's services (tools/session-services.ts) as the composition root builds them: the
 * protected files, the shell sandbox around Bash and the language servers, the model catalog,
 * MCP, skills, and one side-call client on the session's provider. Owned by the engine once it
 * exists: its close() disposes them.
 */

import { resolve } from 'node:path';
import { backgroundAgentOptions } from '../agents/background/options';
import { homeDir } from '../config/paths';
import type { SettingsSource } from '../config/settings-merge';
import type { Settings } from '../config/settings-schema';
import { sideCallRetryNotices } from '../engine/api-notices';
import type { McpManagerSlot } from '../mcp/manager-slot';
import type { ModelCatalog } from '../model/catalog';
import type { Provider } from '../model/types';
import type { GitConfigSafety } from '../permissions/git-config-safety';
import type { ProtectedPaths } from '../permissions/protected-paths';
import type { ToolPermissionContext } from '../permissions/types';
import { KnownCopies } from '../permissions/worktree-copies';
import { lspSettings } from '../services/lsp/settings';
import type { ToolNotification } from '../tools/context';
import type { SessionServices } from '../tools/session-services';
import type { SkillPort } from '../tools/skill-port';
import { confineLanguageServers, createSessionSandbox, type SessionSandbox } from './session-sandbox';
import type { Env } from './session-settings';

export type SessionServicesSetup = {
  services: SessionServices;
  sandbox: SessionSandbox;
  protectedPaths: ProtectedPaths;
};

export async function createSessionServices(input: {
  settingsSources: readonly SettingsSource[];
  /** Started by the caller as soon as the settings are known (session-permissions.ts). */
  protectedPaths: Promise<ProtectedPaths>;
  /** `--sandbox` / `--no-sandbox`. */
  sandboxFlag: boolean | undefined;
  /** The settings as applied (untrusted projects' gated keys removed). */
  applied: Settings;
  cwd: string;
  sessionEnv: Env;
  trusted: boolean;
  models: ModelCatalog;
  gitConfig: GitConfigSafety;
  mcp: McpManagerSlot;
  skills: SkillPort;
  provider: Provider;
  /** The model side calls use: the fast model, else the engine's current one. */
  fastModel: () => string;
  notify: (notification: ToolNotification) => void;
  /** Read when the sandbox starts: the permission context is built after the services. */
  permissionContext: () => ToolPermissionContext | undefined;
}): Promise<SessionServicesSetup> {
  const { cwd, sessionEnv, applied } = input;
  const protectedPaths = await input.protectedPaths;
  // Filled when a WorktreeCreate hook makes a copy of the project; the sandbox masks in it too.
  const copies = new KnownCopies();
  const sandbox = createSessionSandbox({
    settingsSources: input.settingsSources,
    flag: input.sandboxFlag,
    projectRoot: cwd,
    home: homeDir(sessionEnv),
    additionalDirs: () =>
      (input.permissionContext()?.additionalDirectories ?? []).map((dir) => resolve(cwd, dir)),
    rules: () => input.permissionContext()?.rules ?? [],
    protectedPaths,
    copies,
  });
  const { SessionServices, toolSettings } = await import('../tools/session-services');
  const services = new SessionServices({
    env: sessionEnv,
    sandbox: sandbox.manager,
    copies,
    settings: toolSettings(applied, sessionEnv),
    models: input.models,
    gitConfig: input.gitConfig,
    lsp: {
      trusted: input.trusted,
      settings: lspSettings(applied),
      confine: confineLanguageServers(sandbox.manager),
    },
    backgroundAgents: backgroundAgentOptions(applied.backgroundAgents),
    skills: input.skills,
    sideCalls: {
      provider: input.provider,
      fastModel: input.fastModel,
      onRetry: (retry) => {
        for (const notice of sideCallRetryNotices(retry)) input.notify(notice);
      },
    },
  });
  // The session's close closes it, and the resource tools reach it (a reload may bring the first).
  await input.mcp.whenPresent((manager) => services.adoptMcp(manager));
  return { services, sandbox, protectedPaths };
}
