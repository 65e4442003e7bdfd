/**
 * Adding and removing a permission rule in a settings file's raw JSON (config/edit-settings.ts
 * does the atomic read-modify-write). Rules are compared parsed, so `Bash(npm test)` and
 * `Bash( npm test )` are the same rule; entries Yoke cannot read are left as they are.
 */
import type { SettingsJson } from '../config/edit-settings';
import type { RuleBehavior } from '../lib/permission-vocabulary';
import { type ParsedRuleValue, parseRuleValue, sameRuleValue } from '../permissions/rule-string';

const BEHAVIORS = ['allow', 'deny', 'ask'] as const;

function permissionsOf(json: SettingsJson): Record<string, unknown> {
  const permissions = json.permissions;
  return permissions && typeof permissions === 'object' && !Array.isArray(permissions)
    ? { ...(permissions as Record<string, unknown>) }
    : {};
}

const isRule = (entry: unknown, target: ParsedRuleValue) => {
  const parsed = typeof entry === 'string' ? parseRuleValue(entry) : undefined;
  return parsed !== undefined && sameRuleValue(parsed, target);
};

/** The JSON without `target` in any of allow/deny/ask. */
export function withoutRule(json: SettingsJson, target: ParsedRuleValue): SettingsJson {
  if (json.permissions === undefined) return json;
  const next = permissionsOf(json);
  for (const behavior of BEHAVIORS) {
    const list = next[behavior];
    if (Array.isArray(list)) next[behavior] = list.filter((entry) => !isRule(entry, target));
  }
  return { ...json, permissions: next };
}

/** The JSON with `text` appended to `permissions[behavior]`, unless that list holds it already. */
export function withRule(json: SettingsJson, behavior: RuleBehavior, text: string): SettingsJson {
  const target = parseRuleValue(text);
  if (!target) throw new Error(`"${text}" is not a permission rule.`);
  const next = permissionsOf(json);
  const list = next[behavior];
  if (list !== undefined && !Array.isArray(list))
    throw new Error(`permissions.${behavior} is not a list; fix the file and try again.`);
  const entries = (list as unknown[] | undefined) ?? [];
  if (!entries.some((entry) => isRule(entry, target))) next[behavior] = [...entries, text.trim()];
  return { ...json, permissions: next };
}

/** Whether the file's JSON lists `target` under `behavior`. */
export function hasRule(json: SettingsJson, behavior: RuleBehavior, target: ParsedRuleValue): boolean {
  const list = permissionsOf(json)[behavior];
  return Array.isArray(list) && list.some((entry) => isRule(entry, target));
}
