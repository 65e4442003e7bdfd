/**
 * The permission side of a session: the permission context (mode, CLI rules, extra directories)
 * and the `canUseTool` decision function. This is the one place the decision pipeline is chosen.
 */
import { resolve } from 'node:path';
import { createBasicCanUseTool } from '../permissions/basic-can-use-tool';
import { parseRule } from '../permissions/rule-string';
import type {
  CanUseToolFn,
  PermissionMode,
  PermissionPrompt,
  PermissionRule,
  ToolPermissionContext,
} from '../permissions/types';
import type { CliOptions } from './cli-options';

export type PermissionSetup = {
  permissionContext: ToolPermissionContext;
  canUseTool: CanUseToolFn;
  warnings: string[];
};

type PermissionOptions = Pick<
  CliOptions,
  'permissionMode' | 'dangerouslySkipPermissions' | 'allowedTools' | 'disallowedTools' | 'addDirs'
>;

export function initialPermissionMode(options: PermissionOptions): PermissionMode {
  return options.dangerouslySkipPermissions ? 'bypassPermissions' : (options.permissionMode ?? 'default');
}

/** `--allowedTools` / `--disallowedTools` as rules from the command line. */
export function cliPermissionRules(options: PermissionOptions, warnings: string[]): PermissionRule[] {
  const rules: PermissionRule[] = [];
  const add = (texts: readonly string[], behavior: 'allow' | 'deny', flag: string) => {
    for (const text of texts) {
      const rule = parseRule(text, behavior, 'cliArg');
      if (rule) rules.push(rule);
      else
        warnings.push(
          `ignoring ${flag} entry ${JSON.stringify(text)}: not a rule like Read or Bash(git log:*)`,
        );
    }
  };
  add(options.allowedTools, 'allow', '--allowedTools');
  add(options.disallowedTools, 'deny', '--disallowedTools');
  return rules;
}

/**
 * Builds the context and the decision function. `getMode` reads the live mode (it changes with
 * `set_permission_mode`). A `permissionPrompt` (the SDK host, via `can_use_tool`) is asked
 * wherever a headless run would otherwise have to refuse.
 */
export function createPermissionSetup(
  options: PermissionOptions,
  cwd: string,
  getMode: () => PermissionMode,
  permissionPrompt?: PermissionPrompt,
): PermissionSetup {
  const warnings: string[] = [];
  const permissionContext: ToolPermissionContext = {
    mode: initialPermissionMode(options),
    rules: cliPermissionRules(options, warnings),
    additionalDirectories: options.addDirs.map((dir) => resolve(cwd, dir)),
  };
  const base = createBasicCanUseTool(getMode);
  const canUseTool: CanUseToolFn = permissionPrompt
    ? async (request) => {
        const decision = await base(request);
        if (decision.behavior !== 'deny' || decision.decisionReason?.type !== 'headless') return decision;
        return permissionPrompt({
          toolName: request.toolName,
          input: request.input,
          toolUseId: request.toolUseId,
          message: `Yoke wants to use ${request.toolName}.`,
          signal: request.signal,
        });
      }
    : base;
  return { permissionContext, canUseTool, warnings };
}
