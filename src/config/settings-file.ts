/**
 * Reads and validates one settings source. A bad file never stops Yoke: every problem is one
 * error naming the file, the key path, the problem and what was dropped for it, and every valid
 * key of the file still applies (a typo in `model` must not silently drop a policy file's deny
 * rules). A file that cannot be read as JSON is dropped whole, and its error says so.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type * as z from '../lib/zod';
import { hookTimeoutWarnings } from './hook-timeout';
import { parseJsonText } from './json-file';
import { type Settings, settingsSchema } from './settings-schema';

export type SettingsError = {
  /** The file path, or `--settings` for inline JSON. */
  file: string;
  /** Where in the file, e.g. `permissions.deny[2]`; absent for syntax and read errors. */
  keyPath?: string;
  /** One line for the user: file, place, problem, and what was dropped because of it. */
  message: string;
};

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
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return {};
    return {
      errors: [
        {
          file: path,
          message: `Cannot read settings file ${path}: ${(error as Error).message}; file ignored`,
        },
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
        { file: label, message: `Invalid JSON in settings ${label} at ${parsed.syntaxError}; file ignored` },
      ],
    };
  }
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      errors: [
        {
          file: label,
          message: `Invalid settings ${label}: the top level must be a JSON object; file ignored`,
        },
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
  const first = settingsSchema.safeParse(raw);
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
      errors.push({
        file: label,
        keyPath,
        message: `Invalid settings ${label}: ${keyPath || '(top level)'}: ${issue.message}; dropped ${what || 'the file'}, kept the rest of the file`,
      });
    }
    const result = settingsSchema.safeParse(repaired);
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
    file: label,
    ...(keyPath ? { keyPath } : {}),
    message: `Invalid settings ${label}: ${keyPath || '(top level)'}: ${problem}; file ignored`,
  };
  return {
    errors: [
      ...found.map((e) => ({ ...e, message: e.message.replace(/; dropped .*$/, '; file ignored') })),
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
