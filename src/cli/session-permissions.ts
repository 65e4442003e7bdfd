/**
 * The permission side of a session: the permission context (settings rules by source, CLI rules,
 * mode, extra directories) and the five-level `canUseTool` pipeline. The one place it is chosen.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SettingsSource } from '../config/settings-merge';
import {
  type CreateCanUseToolOptions,
  createCanUseTool,
  type PermissionTool,
} from '../permissions/can-use-tool';
import { createModelClassifier } from '../permissions/classifier';
import { buildPermissionContext } from '../permissions/permission-context';
import type {
  CanUseToolFn,
  PermissionMode,
  PermissionPrompt,
  ToolPermissionContext,
} from '../permissions/types';
import type { CliOptions } from './cli-options';
import { CliUsageError } from './errors';

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

/** The mode the flags ask for; undefined lets the settings' `defaultMode` decide. */
export function requestedPermissionMode(options: PermissionOptions): PermissionMode | undefined {
  return options.dangerouslySkipPermissions ? 'bypassPermissions' : options.permissionMode;
}

/** What the pipeline reads live from the running engine. */
export type LiveSession = {
  permissionContext(): ToolPermissionContext | undefined;
  cwd(): string | undefined;
  userRequest(): string;
  tools(): readonly PermissionTool[];
};

export function createPermissionSetup(input: {
  options: PermissionOptions;
  settingsSources: readonly SettingsSource[];
  cwd: string;
  env: Record<string, string | undefined>;
  live: LiveSession;
  permissionPrompt?: PermissionPrompt;
  permissionRequestHook?: CreateCanUseToolOptions['permissionRequestHook'];
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
  });
  const requested = requestedPermissionMode(options);
  if (requested && requested !== permissionContext.mode) {
    warnings.push(`permission mode ${requested} is disabled by settings; using ${permissionContext.mode}`);
  }
  const canUseTool = createCanUseTool({
    getContext: () => input.live.permissionContext() ?? permissionContext,
    tools: () => input.live.tools(),
    projectRoot: cwd,
    cwd: () => input.live.cwd() ?? cwd,
    prompt: input.permissionPrompt,
    permissionRequestHook: input.permissionRequestHook,
    // Only consulted in `auto` mode; the model is selected on first use.
    classifier: createModelClassifier({ env: input.env }),
    getUserRequest: () => input.live.userRequest(),
  });
  return { permissionContext, canUseTool, warnings };
}
