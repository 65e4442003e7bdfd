/**
 * A hook's `timeout` (seconds) as Yoke applies it. No value may shorten a hook so much that its
 * verdict is skipped: a huge number once overflowed the timer into 1 ms, and a tiny fraction
 * rounded down to nothing. So the value is always a whole number of seconds from 1 to 600:
 *
 * - absent: the default, 60 s;
 * - above 600: 600, with a warning;
 * - a fraction: rounded up to the next whole second (0.5 → 1 s), silently;
 * - zero, negative, not a finite number (a string, `null`, …): the default, with a warning.
 */
import { isJsonObject } from '../lib/json-object';

/** Seconds; the issue sets 60 s for every hook kind (Claude Code's docs say 600 s for commands). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
/** Seconds; the longest a hook may hold up the session. */
export const MAX_HOOK_TIMEOUT_SECONDS = 600;

export type EffectiveHookTimeout = {
  seconds: number;
  /** Why the written value was not used as is, completing "timeout <value> …". */
  problem?: string;
};

export function effectiveHookTimeout(value: unknown): EffectiveHookTimeout {
  if (value === undefined) return { seconds: DEFAULT_HOOK_TIMEOUT_SECONDS };
  const fallback = (why: string) => ({
    seconds: DEFAULT_HOOK_TIMEOUT_SECONDS,
    problem: `${why}; using the default of ${DEFAULT_HOOK_TIMEOUT_SECONDS} s`,
  });
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback('is not a number of seconds');
  if (value === 0) return fallback('of 0 would skip the hook');
  if (value < 0) return fallback('is negative');
  if (value > MAX_HOOK_TIMEOUT_SECONDS) {
    return {
      seconds: MAX_HOOK_TIMEOUT_SECONDS,
      problem: `is above the maximum of ${MAX_HOOK_TIMEOUT_SECONDS} s; using ${MAX_HOOK_TIMEOUT_SECONDS} s`,
    };
  }
  return { seconds: Math.ceil(value) };
}

/**
 * One warning per hook in a settings file whose `timeout` is not used as written, naming the
 * file, the hook's place and its command. Reads the raw JSON, before validation turns the
 * values into the effective ones.
 */
export function hookTimeoutWarnings(raw: unknown, label: string): string[] {
  const warnings: string[] = [];
  const hooks = isJsonObject(raw) ? raw.hooks : undefined;
  if (!isJsonObject(hooks)) return warnings;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      const handlers = isJsonObject(group) ? group.hooks : undefined;
      if (!Array.isArray(handlers)) return;
      handlers.forEach((handler, h) => {
        if (!isJsonObject(handler) || !('timeout' in handler)) return;
        const { problem } = effectiveHookTimeout(handler.timeout);
        if (!problem) return;
        const name = typeof handler.command === 'string' ? ` ("${handler.command}")` : '';
        warnings.push(
          `settings ${label}: hooks.${event}[${g}].hooks[${h}]${name}: timeout ${JSON.stringify(handler.timeout)} ${problem}`,
        );
      });
    });
  }
  return warnings;
}
