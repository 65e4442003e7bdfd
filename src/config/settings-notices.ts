/**
 * What the settings files ask for that Yoke will not do, said once per run instead of silently
 * ignored:
 *
 * - a key nobody knows (not Yoke's, not Claude Code's) is most likely a typo: it is named with the
 *   nearest key that exists (`"modle"` → `"model"`);
 * - a key Claude Code knows that Yoke's schema does not read yet (`subagentStatusLine`,
 *   `outputStyle`, …) has no effect: all of them are named in one line with the files that set them. The list is
 *   data: Claude Code's keys (`claude-settings-keys.ts`) minus the keys of Yoke's settings schema.
 * (Whether the sandbox the settings ask for can start is said by the session: src/sandbox/.)
 *
 * A typo of a key that restricts the run (`"permisions"`, `"permissions.denny"`, `"hook"`) is not
 * a warning but a lost restriction: the file's deny rules would silently not apply, so it stops
 * the session like an invalid deny list does (settings-file.ts, cli/session-settings.ts).
 */
import { nearestName } from '../lib/edit-distance';
import { isJsonObject } from '../lib/json-object';
import type { RuleSource } from '../lib/permission-vocabulary';
import { CLAUDE_CODE_PERMISSIONS_KEYS, CLAUDE_CODE_SETTINGS_KEYS } from './claude-settings-keys';
import { restrictionsAt, type SettingsError } from './settings-file';
import { contextSettingsSchema, permissionsSettingsSchema, SETTINGS_KEYS } from './settings-schema';

/** A source's settings as read (unknown keys included), and where they came from. */
export type NoticeSource = { label: string; settings: Record<string, unknown>; source?: RuleSource };

export type SettingsNotices = {
  /** One line each. */
  warnings: string[];
  /** Unknown keys that are most likely a restricting key misspelt, each naming what it lost. */
  errors: SettingsError[];
};

/** Keys that carry no behaviour in any program, so never "not acted on". */
const INERT_KEYS: ReadonlySet<string> = new Set(['$schema']);

type KeySets = { yoke: ReadonlySet<string>; claude: ReadonlySet<string> };

const TOP: KeySets = {
  yoke: new Set(SETTINGS_KEYS),
  claude: new Set(CLAUDE_CODE_SETTINGS_KEYS),
};
// The two nested objects' keys are read from their schemas, made when a file has the object.
const permissionsKeys = (): KeySets => ({
  yoke: new Set(Object.keys(permissionsSettingsSchema().def.shape)),
  claude: new Set(CLAUDE_CODE_PERMISSIONS_KEYS),
});
/** Yoke's own object: Claude Code has no `context` key. */
const contextKeys = (): KeySets => ({
  yoke: new Set(Object.keys(contextSettingsSchema().def.shape)),
  claude: new Set(),
});

export function settingsNotices(sources: readonly NoticeSource[]): SettingsNotices {
  const warnings: string[] = [];
  const errors: SettingsError[] = [];
  /** Key path → the files that set it, for the keys Yoke does not act on. */
  const unused = new Map<string, string[]>();
  const note = (key: string, label: string) => {
    const files = unused.get(key) ?? [];
    if (!files.includes(label)) files.push(label);
    unused.set(key, files);
  };

  for (const { label, settings, source } of sources) {
    const check = (keys: Iterable<string>, sets: KeySets, prefix: string, path: string[] = []) => {
      for (const key of keys) {
        if (sets.yoke.has(key) || INERT_KEYS.has(key)) continue;
        if (sets.claude.has(key)) {
          note(`${prefix}${key}`, label);
          continue;
        }
        const near = nearestName(key, [...sets.yoke, ...sets.claude]);
        const hint = near === undefined ? '' : ` (did you mean "${prefix}${near}"?)`;
        const lostRestrictions = near === undefined ? undefined : restrictionsAt([...path, near]);
        if (lostRestrictions)
          errors.push({
            file: label,
            keyPath: `${prefix}${key}`,
            message: `Invalid settings ${label}: unknown key "${prefix}${key}"${hint}`,
            lostRestrictions,
            ...(source ? { source } : {}),
          });
        else warnings.push(`settings ${label}: unknown key "${prefix}${key}"${hint}; it has no effect`);
      }
    };
    check(Object.keys(settings), TOP, '');
    const permissions = settings.permissions;
    if (isJsonObject(permissions))
      check(Object.keys(permissions), permissionsKeys(), 'permissions.', ['permissions']);
    if (isJsonObject(settings.context)) check(Object.keys(settings.context), contextKeys(), 'context.');
  }

  if (unused.size > 0) {
    const list = [...unused].map(([key, files]) => `${key} (${files.join(', ')})`).join(', ');
    warnings.push(
      `settings: Yoke does not act on these Claude Code settings yet, so they have no effect: ${list}`,
    );
  }
  return { warnings, errors };
}
