/**
 * Loaded settings → `ToolPermissionContext`. Rules keep their source so a policy deny can be
 * told apart from a user's, and the mode is chosen as Claude Code does: an explicit mode wins,
 * else the highest source's `defaultMode` — and any source's `disableBypassPermissionsMode:
 * "disable"` (or `disableAutoMode: "disable"`) turns `bypassPermissions` (or `auto`) into `default`
 * and keeps a later switch out of it; any source's `denyInsteadOfPrompting: true` denies where a
 * prompt would appear. These only restrict, so a project's count untrusted too. Project settings (shared, committed, so
 * possibly planted) are gated by folder trust (issue 11 §5): their deny and ask rules and the
 * modes `default`, `plan`, `dontAsk` always apply; their allow rules, `additionalDirectories`
 * (an allow by folder) and `acceptEdits` only in a trusted folder; `bypassPermissions` and `auto`
 * never.
 */
import { resolve } from 'node:path';
import { type RuleOrigin, readRule } from './rule-problems';
import type {
  DisableableMode,
  PermissionMode,
  PermissionRule,
  RuleBehavior,
  RuleSource,
  ToolPermissionContext,
} from './types';

export type PermissionSettingsSource = {
  source: RuleSource;
  path?: string;
  settings: {
    allowManagedPermissionRulesOnly?: boolean;
    permissions?: {
      allow?: string[];
      deny?: string[];
      ask?: string[];
      defaultMode?: PermissionMode;
      additionalDirectories?: string[];
      disableBypassPermissionsMode?: 'disable';
      disableAutoMode?: 'disable';
      denyInsteadOfPrompting?: boolean;
    };
  };
};

export type BuildPermissionContextOptions = {
  /** Lowest precedence first, as `loadSettings` returns them. */
  settingsSources: readonly PermissionSettingsSource[];
  /** `--allowedTools` / `--disallowedTools` rule strings. */
  cliAllowed?: readonly string[];
  cliDisallowed?: readonly string[];
  /** `--permission-mode`; when absent, settings decide. */
  mode?: PermissionMode;
  /** `--add-dir`, resolved against `cwd`. */
  additionalDirectories?: readonly string[];
  cwd?: string;
  /**
   * Told, one line each, about rules that could not be read as written (rule-problems.ts): a
   * broken deny or ask rule then stands for its whole tool, a broken allow rule is dropped.
   */
  onRuleProblem?: (problem: string) => void;
  /** The project folder is trusted (config/project-trust.ts); untrusted when absent. */
  projectTrusted?: boolean;
};

const NEVER_FROM_PROJECT: ReadonlySet<PermissionMode> = new Set(['bypassPermissions', 'auto']);
const BEHAVIORS: readonly RuleBehavior[] = ['deny', 'ask', 'allow'];

/** Where a settings rule was written, for its problems: the file, or `--settings` for inline JSON. */
function fileOf(source: RuleSource, path: string | undefined): { file?: string } {
  if (path !== undefined) return { file: path };
  return source === 'flagSettings' ? { file: '--settings' } : {};
}

/** Whether a rule of this behaviour (or `additionalDirectories`, an allow) applies, given trust. */
export const settingsRuleApplies = (source: RuleSource, behavior: RuleBehavior, trusted: boolean): boolean =>
  source !== 'projectSettings' || behavior !== 'allow' || trusted;

/**
 * Whether a `defaultMode` from this source applies, given the folder's trust. A local settings
 * file is the user's own, but one git does not track can still have come with the folder (an
 * archive, a script the repository ran): the modes that ask nothing wait for trust there.
 */
export function settingsModeApplies(source: RuleSource, mode: PermissionMode, trusted: boolean): boolean {
  if (source === 'localSettings') return trusted || !NEVER_FROM_PROJECT.has(mode);
  if (source !== 'projectSettings') return true;
  if (NEVER_FROM_PROJECT.has(mode)) return false;
  return mode !== 'acceptEdits' || trusted;
}

/** A value whose parentheses are balanced and not nested: one regex splits it (the common case). */
const FLAT_LIST = /^[^()]*(?:\([^()]*\)[^()]*)*$/;
const FLAT_RULE = /(?:[^\s,()]|\([^()]*\))+/g;

/** Splits `--allowedTools "Bash(npm test) Read"` style values: commas or spaces outside parentheses. */
export function splitRuleList(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    // Command and skill files list their tools this way, hundreds at start: a regex, not a loop per character.
    if (FLAT_LIST.test(value)) {
      for (const match of value.match(FLAT_RULE) ?? []) out.push(match.trim());
      continue;
    }
    let depth = 0;
    let current = '';
    for (const ch of value) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (current.trim()) out.push(current.trim());
        current = '';
      } else current += ch;
    }
    if (current.trim()) out.push(current.trim());
  }
  return out;
}

export function buildPermissionContext(options: BuildPermissionContextOptions): ToolPermissionContext {
  const cwd = options.cwd ?? process.cwd();
  const trusted = options.projectTrusted === true;
  const rules: PermissionRule[] = [];
  const directories: string[] = [];
  let settingsMode: PermissionMode | undefined;
  const disabledModes: Partial<Record<DisableableMode, string>> = {};
  let denyInsteadOfPrompting = false;
  // Managed policy may keep every allow to itself: the others' allow rules and folders drop out.
  const managedOnly = options.settingsSources.some(
    (s) => s.source === 'policySettings' && s.settings.allowManagedPermissionRulesOnly === true,
  );
  const allows = (source: RuleSource) => !managedOnly || source === 'policySettings';
  const read = (text: string, behavior: RuleBehavior, origin: RuleOrigin) => {
    const { rule, problem } = readRule(text, behavior, origin);
    if (rule) rules.push(rule);
    if (problem) options.onRuleProblem?.(problem);
  };
  for (const { source, path, settings } of options.settingsSources) {
    const permissions = settings.permissions;
    if (!permissions) continue;
    for (const behavior of BEHAVIORS) {
      if (!settingsRuleApplies(source, behavior, trusted)) continue;
      if (behavior === 'allow' && !allows(source)) continue;
      for (const text of permissions[behavior] ?? []) {
        read(text, behavior, { source, ...fileOf(source, path) });
      }
    }
    if (settingsRuleApplies(source, 'allow', trusted) && allows(source))
      for (const dir of permissions.additionalDirectories ?? []) directories.push(resolve(cwd, dir));
    const mode = permissions.defaultMode;
    if (mode && settingsModeApplies(source, mode, trusted)) settingsMode = mode;
    if (permissions.disableBypassPermissionsMode === 'disable')
      disabledModes.bypassPermissions ??= disabledLine(
        'bypassPermissions',
        'disableBypassPermissionsMode',
        source,
      );
    if (permissions.disableAutoMode === 'disable')
      disabledModes.auto ??= disabledLine('auto', 'disableAutoMode', source);
    if (permissions.denyInsteadOfPrompting === true) denyInsteadOfPrompting = true;
  }
  for (const [list, behavior] of [
    [options.cliDisallowed, 'deny'],
    [options.cliAllowed, 'allow'],
  ] as const) {
    if (behavior === 'allow' && !allows('cliArg')) continue;
    for (const text of splitRuleList(list ?? [])) read(text, behavior, { source: 'cliArg' });
  }
  for (const dir of options.additionalDirectories ?? []) directories.push(resolve(cwd, dir));
  let mode = options.mode ?? settingsMode ?? 'default';
  if (modeRefusal(disabledModes, mode)) mode = 'default';
  return {
    mode,
    rules,
    additionalDirectories: [...new Set(directories)],
    ...(managedOnly ? { managedRulesOnly: true } : {}),
    ...(Object.keys(disabledModes).length > 0 ? { disabledModes } : {}),
    ...(denyInsteadOfPrompting ? { denyInsteadOfPrompting: true } : {}),
  };
}

/** The line that refuses a switch into a mode a setting turned off. */
const disabledLine = (mode: DisableableMode, key: string, source: RuleSource) =>
  `Permission mode ${mode} is disabled by permissions.${key} (${source}).`;

/** Why `mode` cannot be switched into, given the modes the settings turned off; undefined when it can. */
export function modeRefusal(
  disabled: ToolPermissionContext['disabledModes'],
  mode: PermissionMode,
): string | undefined {
  return mode === 'bypassPermissions' || mode === 'auto' ? disabled?.[mode] : undefined;
}
