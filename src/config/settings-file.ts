/**
 * Reads and validates one settings source. Every problem is one error naming the file, the key
 * path, the problem and what was dropped for it, and every valid key of the file still applies (a
 * typo in `model` must not silently drop a policy file's deny rules). A file that cannot be read
 * as JSON is dropped whole, and its error says so. An error that lost something that restricts
 * the run — the whole file, its deny or ask rules, its hooks, … — says what in `lostRestrictions`:
 * running without it would allow more than the file says, so the session refuses to start
 * (cli/session-settings.ts).
 */
import { existsSync } from 'node:fs';
import type { RuleSource } from '../lib/permission-vocabulary';
import { readRegularText, UnreadableFileError } from '../lib/regular-file-text';
import type * as z from '../lib/zod';
import { hookTimeoutWarnings } from './hook-timeout';
import { MAX_JSON_FILE_BYTES, parseJsonText } from './json-file';
import { type Settings, safeParseSettings } from './settings-schema';

export type SettingsError = {
  /** The file path, or `--settings` for inline JSON. */
  file: string;
  /** Which source the file belongs to (set by `loadSettings`). */
  source?: RuleSource;
  /** Where in the file, e.g. `permissions.deny[2]`; absent for syntax and read errors. */
  keyPath?: string;
  /** One line for the user: file, place, problem, and what was dropped because of it. */
  message: string;
  /**
   * What the dropped part may have restricted (`deny rules`, `hooks`, `deny rules, ask rules and
   * hooks` for a whole file); absent when only settings that never restrict were dropped.
   */
  lostRestrictions?: string;
};

/** A whole file lost: anything it held may have been a restriction. */
const WHOLE_FILE = 'deny rules, ask rules and hooks';

/**
 * The keys whose loss can only let the run do more than the file says, and what each is called in
 * a message. Dropping an allow rule, a model or an added directory only asks more, and so does
 * dropping `defaultMode` (the default mode asks for every call no rule allows); dropping one of
 * these allows more.
 */
const RESTRICTING_KEYS: readonly { path: readonly string[]; what: string }[] = [
  { path: ['permissions', 'deny'], what: 'deny rules' },
  { path: ['permissions', 'ask'], what: 'ask rules' },
  { path: ['permissions', 'disableBypassPermissionsMode'], what: 'disableBypassPermissionsMode' },
  { path: ['permissions', 'disableAutoMode'], what: 'disableAutoMode' },
  { path: ['permissions', 'denyInsteadOfPrompting'], what: 'denyInsteadOfPrompting' },
  { path: ['hooks'], what: 'hooks' },
  { path: ['allowManagedHooksOnly'], what: 'allowManagedHooksOnly' },
  { path: ['allowManagedPermissionRulesOnly'], what: 'allowManagedPermissionRulesOnly' },
  { path: ['disableSkillShellExecution'], what: 'disableSkillShellExecution' },
  { path: ['sandbox'], what: 'sandbox settings' },
  { path: ['blockedMarketplaces'], what: 'blockedMarketplaces' },
  { path: ['strictKnownMarketplaces'], what: 'strictKnownMarketplaces' },
];

/** What dropping the value at `dropped` loses of the restricting keys (it, or what it holds). */
export function restrictionsAt(dropped: readonly PropertyKey[]): string | undefined {
  const lost = RESTRICTING_KEYS.filter(
    ({ path }) => startsWith(dropped, path) || startsWith(path, dropped),
  ).map(({ what }) => what);
  if (dropped.length === 0) return WHOLE_FILE;
  return lost.length > 0 ? lost.join(', ') : undefined;
}

const wholeFileError = (file: string, message: string): SettingsError => ({
  file,
  message,
  lostRestrictions: WHOLE_FILE,
});

export type ParsedSettings = {
  settings?: Settings;
  /** Every problem found, in file order; empty or absent when the file is valid. */
  errors?: SettingsError[];
  /** Values that loaded in a corrected form (a hook timeout clamped), one line each. */
  warnings?: string[];
};

/** Reads a settings file; a missing file is simply no settings, not an error. */
export async function readSettingsFile(path: string): Promise<ParsedSettings> {
  // Most settings files do not exist: existsSync says so without a failed read's cost.
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = await readRegularText(path, MAX_JSON_FILE_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    // A planted FIFO would hang the start-up; a device or huge file would fill memory.
    if (error instanceof UnreadableFileError)
      return { errors: [wholeFileError(path, `Settings file ${error.message}; file ignored`)] };
    return {
      errors: [
        wholeFileError(path, `Cannot read settings file ${path}: ${(error as Error).message}; file ignored`),
      ],
    };
  }
  return parseSettingsText(text, path);
}

/** Parses and validates settings JSON; `label` names the origin in messages. */
export function parseSettingsText(text: string, label: string): ParsedSettings {
  if (text.replace(/^\uFEFF/, '').trim() === '') return { settings: {} };
  const parsed = parseJsonText(text);
  if ('syntaxError' in parsed) {
    return {
      errors: [
        wholeFileError(label, `Invalid JSON in settings ${label} at ${parsed.syntaxError}; file ignored`),
      ],
    };
  }
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      errors: [
        wholeFileError(label, `Invalid settings ${label}: the top level must be a JSON object; file ignored`),
      ],
    };
  }
  const result = validate(raw as Record<string, unknown>, label);
  const warnings = hookTimeoutWarnings(raw, label);
  return warnings.length > 0 ? { ...result, warnings } : result;
}

/** Caps the repair loop; a file with more broken keys than this is dropped whole. */
const MAX_REPAIRS = 50;

/**
 * Validates, and when something is invalid, drops each offending value (or the smallest thing
 * around it that can go, such as a hook handler without its command) and validates again, until
 * what is left is valid. Every problem is reported with what was dropped for it.
 */
function validate(raw: Record<string, unknown>, label: string): ParsedSettings {
  const first = safeParseSettings(raw);
  if (first.success) return { settings: first.data };

  const repaired = structuredClone(raw);
  const errors: SettingsError[] = [];
  let issues = first.error.issues as z.core.$ZodIssue[];
  while (errors.length < MAX_REPAIRS) {
    const droppedNow: PropertyKey[][] = [];
    // Later array items first, so removing one does not shift the paths of the others.
    for (const issue of [...issues].sort((a, b) => comparePaths(b.path, a.path))) {
      const keyPath = formatKeyPath(issue.path);
      // Two problems inside one hook handler: the first drop took the second with it.
      const dropped =
        droppedNow.find((path) => startsWith(issue.path, path)) ?? removeAt(repaired, issue.path);
      if (dropped === undefined) return fileIgnored(label, errors, keyPath, issue.message);
      droppedNow.push(dropped);
      const what = formatKeyPath(dropped);
      const lostRestrictions = restrictionsAt(dropped);
      errors.push({
        file: label,
        keyPath,
        message: `Invalid settings ${label}: ${keyPath || '(top level)'}: ${issue.message}; dropped ${what || 'the file'}, kept the rest of the file`,
        ...(lostRestrictions ? { lostRestrictions } : {}),
      });
    }
    const result = safeParseSettings(repaired);
    if (result.success) return { settings: result.data, errors: errors.sort(byKeyPath) };
    issues = result.error.issues as z.core.$ZodIssue[];
  }
  return fileIgnored(label, errors, '', `more than ${MAX_REPAIRS} invalid values`);
}

/** The file could not be repaired: it is dropped whole, and every error found so far says so. */
function fileIgnored(
  label: string,
  found: SettingsError[],
  keyPath: string,
  problem: string,
): ParsedSettings {
  const last: SettingsError = {
    ...wholeFileError(
      label,
      `Invalid settings ${label}: ${keyPath || '(top level)'}: ${problem}; file ignored`,
    ),
    ...(keyPath ? { keyPath } : {}),
  };
  return {
    errors: [
      ...found.map((e) => ({
        ...e,
        message: e.message.replace(/; dropped .*$/, '; file ignored'),
        lostRestrictions: WHOLE_FILE,
      })),
      last,
    ],
  };
}

const byKeyPath = (a: SettingsError, b: SettingsError) =>
  (a.keyPath ?? '').localeCompare(b.keyPath ?? '', undefined, { numeric: true });

function startsWith(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): boolean {
  return prefix.length <= path.length && prefix.every((key, i) => path[i] === key);
}

/** Orders key paths element by element, numbers numerically. */
function comparePaths(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x).localeCompare(String(y));
  }
  return a.length - b.length;
}

/**
 * Deletes the value at `path`; when nothing is there (a missing required key), its parent.
 * Returns the path actually deleted, or undefined when nothing could be.
 */
function removeAt(root: Record<string, unknown>, path: readonly PropertyKey[]): PropertyKey[] | undefined {
  for (let end = path.length; end > 0; end--) {
    const parent = walk(root, path.slice(0, end - 1));
    const key = path[end - 1] as PropertyKey;
    if (parent === undefined || !hasKey(parent, key)) continue;
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else delete (parent as Record<PropertyKey, unknown>)[key];
    return path.slice(0, end);
  }
  return undefined;
}

function walk(root: unknown, path: readonly PropertyKey[]): object | undefined {
  let node: unknown = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return typeof node === 'object' && node !== null ? node : undefined;
}

function hasKey(node: object, key: PropertyKey): boolean {
  return Object.hasOwn(node, key) && (node as Record<PropertyKey, unknown>)[key] !== undefined;
}

/** `['permissions','deny',2]` → `permissions.deny[2]`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
    .join('');
}
