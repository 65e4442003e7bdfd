/**
 * When tool schemas wait behind ToolSearch: the session's policy, resolved once from the
 * `toolSearch` settings and `ENABLE_TOOL_SEARCH` (the variable Claude Code users already set).
 */
import type { Env } from '../../model/types';

/**
 * `auto`: deferrable schemas are deferred when together they exceed the budget; `always`: they
 * are deferred whatever their size; `off`: every schema is sent and ToolSearch is not offered.
 */
export type ToolSearchMode = 'auto' | 'always' | 'off';

export type ToolSearchPolicy = {
  mode: ToolSearchMode;
  /** Deferrable schemas may take at most this many tokens before they are deferred. */
  maxSchemaTokens: number;
  /** …and at most this share of the context window, in percent (whichever is less). */
  maxContextPercent: number;
  /** Built-in tools the user rarely needs, deferred whenever tool search is on. */
  deferBuiltins: readonly string[];
};

export const DEFAULT_MAX_SCHEMA_TOKENS = 5_000;
export const DEFAULT_MAX_CONTEXT_PERCENT = 10;

/** The `toolSearch` settings object (config/settings-schema.ts). */
export type ToolSearchSettings = {
  maxSchemaTokens?: number;
  maxContextPercent?: number;
  deferTools?: string[];
};

export type ResolvedToolSearchPolicy = { policy: ToolSearchPolicy; warning?: string };

/**
 * `ENABLE_TOOL_SEARCH`: `true`/`1` always defers, `false`/`0` turns tool search off, `auto` (the
 * default) defers over the budget, `auto:N` with N percent of the window instead of the setting.
 * An unreadable value keeps the default and says so.
 */
export function resolveToolSearchPolicy(
  settings: ToolSearchSettings | undefined,
  env: Env,
): ResolvedToolSearchPolicy {
  const policy: ToolSearchPolicy = {
    mode: 'auto',
    maxSchemaTokens: settings?.maxSchemaTokens ?? DEFAULT_MAX_SCHEMA_TOKENS,
    maxContextPercent: settings?.maxContextPercent ?? DEFAULT_MAX_CONTEXT_PERCENT,
    deferBuiltins: settings?.deferTools ?? [],
  };
  const raw = env.ENABLE_TOOL_SEARCH?.trim().toLowerCase();
  if (!raw) return { policy };
  if (raw === 'true' || raw === '1') return { policy: { ...policy, mode: 'always' } };
  if (raw === 'false' || raw === '0') return { policy: { ...policy, mode: 'off' } };
  if (raw === 'auto') return { policy };
  const percent = /^auto:(\d+(?:\.\d+)?)$/.exec(raw)?.[1];
  if (percent !== undefined && Number(percent) <= 100) {
    return { policy: { ...policy, maxContextPercent: Number(percent) } };
  }
  return {
    policy,
    warning:
      `ENABLE_TOOL_SEARCH=${JSON.stringify(env.ENABLE_TOOL_SEARCH)} is not understood; ` +
      'use true, false, auto or auto:N (percent of the context window). Tool search stays on auto.',
  };
}

/**
 * The problems of the session's tool-search configuration, one line each: an unreadable
 * `ENABLE_TOOL_SEARCH`, and `deferTools` names that are no built-in tool (so nothing is deferred
 * for them).
 */
export function toolSearchWarnings(
  settings: ToolSearchSettings | undefined,
  env: Env,
  builtinNames: readonly string[],
): string[] {
  const warnings: string[] = [];
  const { warning } = resolveToolSearchPolicy(settings, env);
  if (warning) warnings.push(warning);
  const unknown = (settings?.deferTools ?? []).filter((name) => !builtinNames.includes(name));
  if (unknown.length > 0) {
    warnings.push(
      `toolSearch.deferTools: ${unknown.map((name) => JSON.stringify(name)).join(', ')} ` +
        `${unknown.length === 1 ? 'is' : 'are'} no built-in tool; built-ins are ${builtinNames.join(', ')}.`,
    );
  }
  return warnings;
}

/** The token budget of deferrable schemas for a context window: the smaller of the two limits. */
export function schemaBudget(policy: ToolSearchPolicy, contextWindow: number): number {
  return Math.min(policy.maxSchemaTokens, Math.floor((contextWindow * policy.maxContextPercent) / 100));
}
