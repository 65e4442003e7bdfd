/**
 * Merges settings sources the way Claude Code's `resolveSettings` does (compat-surface §3.1):
 * objects deeply, arrays concatenated, scalars from the highest source that sets them.
 */

import { isJsonObject } from '../lib/json-object';
import type { RuleBehavior, RuleSource } from '../lib/permission-vocabulary';
import type { HooksSettings, Settings } from './settings-schema';

export type SettingsSource = { source: RuleSource; path?: string; settings: Settings };

/** A permission rule string with the source it came from, so policy denies can be applied first. */
export type SettingsRule = { rule: string; behavior: RuleBehavior; source: RuleSource; path?: string };

const BEHAVIORS: readonly RuleBehavior[] = ['deny', 'ask', 'allow'];

/** `sources` are ordered lowest precedence first. */
export function mergeSettings(sources: readonly SettingsSource[]): Settings {
  let merged: Record<string, unknown> = {};
  for (const { settings } of sources) merged = mergeObjects(merged, settings as Record<string, unknown>);
  const result = merged as Settings;
  const hooks = effectiveHooks(sources, result);
  if (hooks) result.hooks = hooks;
  else delete result.hooks;
  return result;
}

/** Every permission rule, tagged with its source, in source order (lowest precedence first). */
export function collectRules(sources: readonly SettingsSource[]): SettingsRule[] {
  const rules: SettingsRule[] = [];
  for (const { source, path, settings } of sources) {
    for (const behavior of BEHAVIORS) {
      for (const rule of settings.permissions?.[behavior] ?? []) {
        rules.push(path === undefined ? { rule, behavior, source } : { rule, behavior, source, path });
      }
    }
  }
  return rules;
}

/**
 * Managed policy can restrict hooks: `allowManagedHooksOnly` keeps only its own, and its
 * `disableAllHooks` turns every hook off. A lower source's `disableAllHooks` cannot switch off
 * the policy's hooks, only everyone else's.
 */
function effectiveHooks(sources: readonly SettingsSource[], merged: Settings): HooksSettings | undefined {
  const policy = sources.filter((s) => s.source === 'policySettings');
  if (policy.some((s) => s.settings.disableAllHooks === true)) return undefined;
  const policyOnly =
    policy.some((s) => s.settings.allowManagedHooksOnly === true) || merged.disableAllHooks === true;
  if (!policyOnly) return merged.hooks;
  let hooks: Record<string, unknown> = {};
  for (const { settings } of policy) hooks = mergeObjects(hooks, settings.hooks ?? {});
  return Object.keys(hooks).length > 0 ? (hooks as HooksSettings) : undefined;
}

function mergeObjects(
  lower: Record<string, unknown>,
  higher: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...lower };
  for (const [key, value] of Object.entries(higher)) {
    if (value === undefined) continue;
    out[key] = mergeValues(out[key], value);
  }
  return out;
}

function mergeValues(lower: unknown, higher: unknown): unknown {
  if (Array.isArray(lower) && Array.isArray(higher)) {
    // The same rule from two files is one rule; objects (hook groups) are all kept.
    const seen = new Set(lower.filter((v) => typeof v !== 'object'));
    return [...lower, ...higher.filter((v) => typeof v === 'object' || !seen.has(v))];
  }
  if (isJsonObject(lower) && isJsonObject(higher)) return mergeObjects(lower, higher);
  return structuredCloneIfObject(higher);
}

function structuredCloneIfObject(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
