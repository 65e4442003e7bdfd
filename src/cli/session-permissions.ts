/**
 * The permission side of a session: the permission context (settings rules by source, CLI rules,
 * mode, extra directories) and the five-level `canUseTool` decision. The one place it is chosen.
 * The decision reads each call's cwd, rules and mode from the call itself; what is set up here
 * belongs to the whole session (protected files, whom to ask, the classifier).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { claudeHome, homeDir, managedSettingsPath, yokeHome } from '../config/paths';
import type { SettingsSource } from '../config/settings-merge';
import type { SideCallClient } from '../model/side-call';
import { type CreateCanUseToolOptions, createCanUseTool } from '../permissions/can-use-tool';
import { createModelClassifier } from '../permissions/classifier';
import { type HookCommand, hookScriptPaths } from '../permissions/hook-scripts';
import { buildPermissionContext, modeRefusal } from '../permissions/permission-context';
import { ProtectedPaths } from '../permissions/protected-paths';
import type {
  CanUseToolFn,
  PermissionMode,
  PermissionPrompt,
  PermissionRequestHook,
  ToolPermissionContext,
} from '../permissions/types';
import { type SandboxManager, sandboxJudge } from '../sandbox/manager';
import type { CliOptions } from './cli-options';
import { CliUsageError } from './errors';
import { ruleSaver } from './saved-approvals';

export type PermissionSetup = {
  permissionContext: ToolPermissionContext;
  canUseTool: CanUseToolFn;
  warnings: string[];
};

type PermissionOptions = Pick<
  CliOptions,
  'permissionMode' | 'dangerouslySkipPermissions' | 'allowedTools' | 'disallowedTools' | 'addDirs'
>;

/**
 * `--add-dir` must name folders that exist: a typo would otherwise leave tools refused (or asking)
 * everywhere the user meant to allow, with nothing saying why.
 */
export function checkAddDirs(addDirs: readonly string[], cwd: string): void {
  for (const dir of addDirs) {
    const path = resolve(cwd, dir);
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw new CliUsageError(`--add-dir ${dir}: no such folder (${path}).`);
    }
    if (!isFolder) throw new CliUsageError(`--add-dir ${dir}: ${path} is a file, not a folder.`);
  }
}

/**
 * A settings file's `additionalDirectories` that name no folder: one warning each. Not an error
 * like `--add-dir` (a shared file may name a sibling checkout some users lack), but said, since
 * tools would otherwise ask or refuse there with nothing explaining why.
 */
export function missingSettingsDirectories(
  settingsSources: readonly SettingsSource[],
  applied: readonly string[],
  cwd: string,
): string[] {
  const lines: string[] = [];
  for (const { path, settings } of settingsSources) {
    for (const dir of settings.permissions?.additionalDirectories ?? []) {
      const full = resolve(cwd, dir);
      if (!applied.includes(full) || isFolder(full)) continue;
      lines.push(
        `settings ${path ?? '--settings'}: permissions.additionalDirectories "${dir}" is not a folder (${full}); tools cannot use it`,
      );
    }
  }
  return lines;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The mode the flags ask for; undefined lets the settings' `defaultMode` decide. */
export function requestedPermissionMode(options: PermissionOptions): PermissionMode | undefined {
  return options.dangerouslySkipPermissions ? 'bypassPermissions' : options.permissionMode;
}

/**
 * The files whose writes always ask in this session (protected-paths.ts): the user folders where
 * the environment puts them, the scripts every loaded settings file's hooks run, the
 * `--settings` file, and where any of them (or the project's `.git`, `.claude`, …) link to.
 */
export async function sessionProtectedPaths(input: {
  settingsSources: readonly SettingsSource[];
  cliSettings?: string;
  cwd: string;
  env: Record<string, string | undefined>;
}): Promise<ProtectedPaths> {
  const { env, cwd } = input;
  const home = homeDir(env);
  const hooks: HookCommand[] = [];
  for (const { settings } of input.settingsSources) {
    for (const groups of Object.values(settings.hooks ?? {})) {
      for (const handler of groups.flatMap((group) => group.hooks)) {
        if (handler.type === 'command' && handler.command) {
          hooks.push(
            handler.args ? { command: handler.command, args: handler.args } : { command: handler.command },
          );
        }
      }
    }
  }
  const cliFile = input.cliSettings;
  const paths = new ProtectedPaths({
    home,
    yokeHome: yokeHome(env),
    claudeHome: claudeHome(env),
    xdgConfigHome: env.XDG_CONFIG_HOME || undefined,
    hookScripts: await hookScriptPaths(hooks, { projectRoot: cwd, home }),
    settingsFiles: cliFile && !cliFile.trim().startsWith('{') ? [resolve(cwd, cliFile)] : [],
    policyFile: managedSettingsPath(env),
  });
  await paths.addLinkTargets(cwd);
  return paths;
}

export function createPermissionSetup(input: {
  options: PermissionOptions;
  settingsSources: readonly SettingsSource[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** The folder is trusted: project allow rules and `acceptEdits` apply (session-trust.ts). */
  projectTrusted: boolean;
  /** The files whose writes always ask; the user folders under HOME when absent. */
  protectedPaths?: ProtectedPaths;
  /** The session's side calls: the `auto` mode classifier is one. */
  sideCalls: SideCallClient;
  permissionPrompt?: PermissionPrompt;
  permissionRequestHook?: PermissionRequestHook;
  /** The session's checker of git repository configuration (its services own it). */
  gitConfig?: CreateCanUseToolOptions['gitConfig'];
  /** The session's shell sandbox, whose verdicts the decision uses for Bash calls. */
  sandbox?: SandboxManager;
  /** The session's known copies of the project (its services own them). */
  copies?: CreateCanUseToolOptions['copies'];
  /** Where a problem saving a "don't ask again" rule is said. */
  report?: (line: string) => void;
}): PermissionSetup {
  const { options, cwd } = input;
  const warnings: string[] = [];
  const permissionContext = buildPermissionContext({
    settingsSources: input.settingsSources,
    cliAllowed: options.allowedTools,
    cliDisallowed: options.disallowedTools,
    mode: requestedPermissionMode(options),
    additionalDirectories: options.addDirs,
    cwd,
    onRuleProblem: (problem) => warnings.push(problem),
    projectTrusted: input.projectTrusted,
  });
  warnings.push(
    ...missingSettingsDirectories(input.settingsSources, permissionContext.additionalDirectories, cwd),
  );
  const requested = requestedPermissionMode(options);
  const refusal = requested && modeRefusal(permissionContext.disabledModes, requested);
  if (refusal) warnings.push(`${refusal} Using ${permissionContext.mode}.`);
  const canUseTool = createCanUseTool({
    home: homeDir(input.env),
    ...(input.protectedPaths ? { protectedPaths: input.protectedPaths } : {}),
    prompt: input.permissionPrompt,
    permissionRequestHook: input.permissionRequestHook,
    // Only consulted in `auto` mode.
    classifier: createModelClassifier({ sideCalls: input.sideCalls }),
    ...(input.gitConfig ? { gitConfig: input.gitConfig } : {}),
    ...(input.sandbox ? { sandbox: sandboxJudge(input.sandbox) } : {}),
    ...(input.copies ? { copies: input.copies } : {}),
    saveRules: ruleSaver(cwd, input.env, input.report ?? (() => {})),
  });
  return { permissionContext, canUseTool, warnings };
}
