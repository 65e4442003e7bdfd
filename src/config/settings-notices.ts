/**
 * What the settings files ask for that Yoke will not do, said once per run instead of silently
 * ignored:
 *
 * - a key nobody knows (not Yoke's, not Claude Code's) is most likely a typo: it is named with the
 *   nearest key that exists (`"modle"` → `"model"`);
 * - a key Claude Code knows that Yoke's schema does not read yet (`statusLine`, `enabledPlugins`,
 *   …) has no effect: all of them are named in one line with the files that set them. The list is
 *   data: Claude Code's keys (`claude-settings-keys.ts`) minus the keys of `settingsSchema`;
 * - `sandbox.enabled`: Yoke has no sandbox, so this is said plainly — commands are NOT sandboxed —
 *   and with `sandbox.failIfUnavailable` (Claude Code's "exit if the sandbox cannot start") the
 *   run stops instead.
 */
import { nearestName } from '../lib/edit-distance';
import { isJsonObject } from '../lib/json-object';
import { CLAUDE_CODE_PERMISSIONS_KEYS, CLAUDE_CODE_SETTINGS_KEYS } from './claude-settings-keys';
import { contextSettingsSchema, permissionsSettingsSchema, settingsSchema } from './settings-schema';

/** A source's settings as read (unknown keys included), and where they came from. */
export type NoticeSource = { label: string; settings: Record<string, unknown> };

export type SettingsNotices = {
  /** One line each. */
  warnings: string[];
  /** Set when the settings forbid running at all (a required sandbox). */
  fatal?: string;
};

/** Keys that carry no behaviour in any program, so never "not acted on". */
const INERT_KEYS: ReadonlySet<string> = new Set(['$schema']);

type KeySets = { yoke: ReadonlySet<string>; claude: ReadonlySet<string> };

const TOP: KeySets = {
  yoke: new Set(Object.keys(settingsSchema.def.shape)),
  claude: new Set(CLAUDE_CODE_SETTINGS_KEYS),
};
const PERMISSIONS: KeySets = {
  yoke: new Set(Object.keys(permissionsSettingsSchema.def.shape)),
  claude: new Set(CLAUDE_CODE_PERMISSIONS_KEYS),
};
/** Yoke's own object: Claude Code has no `context` key. */
const CONTEXT: KeySets = { yoke: new Set(Object.keys(contextSettingsSchema.def.shape)), claude: new Set() };

export function settingsNotices(sources: readonly NoticeSource[]): SettingsNotices {
  const warnings: string[] = [];
  /** Key path → the files that set it, for the keys Yoke does not act on. */
  const unused = new Map<string, string[]>();
  const note = (key: string, label: string) => {
    const files = unused.get(key) ?? [];
    if (!files.includes(label)) files.push(label);
    unused.set(key, files);
  };
  const sandboxed: string[] = [];
  const required: string[] = [];

  for (const { label, settings } of sources) {
    const check = (keys: Iterable<string>, sets: KeySets, prefix: string) => {
      for (const key of keys) {
        if (sets.yoke.has(key) || INERT_KEYS.has(key)) continue;
        if (sets.claude.has(key)) {
          if (`${prefix}${key}` !== 'sandbox' || !isEnabledSandbox(settings.sandbox))
            note(`${prefix}${key}`, label);
          continue;
        }
        const near = nearestName(key, [...sets.yoke, ...sets.claude]);
        const hint = near === undefined ? '' : ` (did you mean "${prefix}${near}"?)`;
        warnings.push(`settings ${label}: unknown key "${prefix}${key}"${hint}; it has no effect`);
      }
    };
    check(Object.keys(settings), TOP, '');
    const permissions = settings.permissions;
    if (isJsonObject(permissions)) check(Object.keys(permissions), PERMISSIONS, 'permissions.');
    if (isJsonObject(settings.context)) check(Object.keys(settings.context), CONTEXT, 'context.');
    if (isEnabledSandbox(settings.sandbox)) {
      sandboxed.push(label);
      if ((settings.sandbox as Record<string, unknown>).failIfUnavailable === true) required.push(label);
    }
  }

  if (unused.size > 0) {
    const list = [...unused].map(([key, files]) => `${key} (${files.join(', ')})`).join(', ');
    warnings.push(
      `settings: Yoke does not act on these Claude Code settings yet, so they have no effect: ${list}`,
    );
  }
  if (sandboxed.length > 0) {
    warnings.push(
      `settings: sandbox.enabled is set (${sandboxed.join(', ')}), but Yoke has no sandbox: Bash commands are NOT sandboxed — they run with your user's full access, limited only by permission rules and hooks`,
    );
  }
  if (required.length === 0) return { warnings };
  return {
    warnings,
    fatal: `settings require a sandbox (sandbox.failIfUnavailable in ${required.join(', ')}) and Yoke has none, so it will not run; remove failIfUnavailable to run commands unsandboxed under permission rules`,
  };
}

function isEnabledSandbox(value: unknown): boolean {
  return isJsonObject(value) && value.enabled === true;
}
