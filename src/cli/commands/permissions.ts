/**
 * `yoke permissions list` and `yoke permissions remove <rule>`: every rule the session would
 * apply, with its behaviour, source and file; and revoking a rule from the personal local
 * settings file, where "always allow" answers and ad-hoc grants live. Shared and policy files
 * are never edited from here — the error names the file to change instead.
 */
import { withoutRule } from '../../commands/permission-edits';
import { editSettingsFile } from '../../config/edit-settings';
import { loadSettings } from '../../config/load-settings';
import type { Env } from '../../config/paths';
import { projectTrust } from '../../config/project-trust';
import type { SettingsRule } from '../../config/settings-merge';
import { settingsRuleApplies } from '../../permissions/permission-context';
import { formatRule, parseRuleValue, sameRuleValue } from '../../permissions/rule-string';
import { CliUsageError } from '../errors';

export type PermissionsListOptions = { cwd: string; env: Env; print: (line: string) => void };
export type PermissionsRemoveOptions = {
  cwd: string;
  env: Env;
  rule: string;
  print?: (line: string) => void;
};

const ORDER = { deny: 0, ask: 1, allow: 2 } as const;

/**
 * Prints one line per rule (deny first, as they take precedence), then any settings errors. A
 * project allow rule that an untrusted folder ignores says so.
 */
export async function runPermissionsList(options: PermissionsListOptions): Promise<number> {
  const [loaded, trust] = await Promise.all([
    loadSettings({ cwd: options.cwd, env: options.env }),
    projectTrust(options.cwd, options.env),
  ]);
  const rules = [...loaded.rules].sort((a, b) => ORDER[a.behavior] - ORDER[b.behavior]);
  if (rules.length === 0)
    options.print('No permission rules. Add them under permissions.allow/deny/ask in .yoke/settings.json.');
  const width = Math.max(0, ...rules.map((r) => r.rule.length));
  for (const rule of rules) {
    const where = rule.path ? `  ${rule.path}` : '';
    const ignored = settingsRuleApplies(rule.source, rule.behavior, trust.trusted)
      ? ''
      : '  (ignored: this folder is not trusted; run "yoke trust")';
    options.print(`${rule.behavior.padEnd(5)}  ${rule.rule.padEnd(width)}  ${rule.source}${where}${ignored}`);
  }
  for (const error of loaded.errors) options.print(`warning: ${error.message}`);
  for (const problem of trust.problems) options.print(`warning: ${problem}`);
  return 0;
}

const isLocalFile = (rule: SettingsRule) => rule.source === 'localSettings' && rule.path !== undefined;

/** Removes the rule from every local settings file that holds it; returns the files changed. */
export async function runPermissionsRemove(options: PermissionsRemoveOptions): Promise<string[]> {
  const target = parseRuleValue(options.rule);
  if (!target)
    throw new CliUsageError(
      `"${options.rule}" is not a permission rule; write it as Tool or Tool(specifier), e.g. "Bash(npm test)".`,
    );
  const loaded = await loadSettings({ cwd: options.cwd, env: options.env });
  const matches = loaded.rules.filter((r) => {
    const parsed = parseRuleValue(r.rule);
    return parsed !== undefined && sameRuleValue(parsed, target);
  });
  const local = [...new Set(matches.filter(isLocalFile).map((r) => r.path as string))];
  if (local.length === 0) {
    const shown = formatRule(target);
    if (matches.length === 0) {
      // The rule may well be in a file that could not be read: say so rather than "not there".
      const unread = loaded.errors.map((error) => error.message.replace(/; file ignored$/, ''));
      if (unread.length > 0)
        throw new CliUsageError(
          `"${shown}" is not in any settings file Yoke could read, and nothing was changed: ${unread.join('; ')}. Fix that first.`,
        );
      throw new CliUsageError(
        `"${shown}" is not in any settings file; run "yoke permissions list" to see the rules.`,
      );
    }
    const places = matches.map((r) => `${r.source}${r.path ? ` (${r.path})` : ''}`).join(', ');
    throw new CliUsageError(
      `"${shown}" is not in a local settings file; it comes from ${places}. Edit that file to remove it.`,
    );
  }
  for (const path of local) {
    await editSettingsFile(path, (json) => withoutRule(json, target));
    options.print?.(`Removed ${formatRule(target)} from ${path}`);
  }
  return local;
}
