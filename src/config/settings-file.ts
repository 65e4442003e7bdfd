/**
 * Reads and validates one settings source. A bad file never stops Yoke: it yields one error that
 * names the file, the key path and the problem, and every valid key of the file still applies
 * (a typo in `model` must not silently drop a policy file's deny rules).
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
  /** One line for the user: file, place and problem. */
  message: string;
};

export type ParsedSettings = {
  settings?: Settings;
  error?: SettingsError;
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
      error: { file: path, message: `Cannot read settings file ${path}: ${(error as Error).message}` },
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
      error: {
        file: label,
        message: `Invalid JSON in settings ${label} at ${parsed.syntaxError}; file ignored`,
      },
    };
  }
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      error: {
        file: label,
        message: `Invalid settings ${label}: the top level must be a JSON object; file ignored`,
      },
    };
  }
  const result = validate(raw as Record<string, unknown>, label);
  const warnings = hookTimeoutWarnings(raw, label);
  return warnings.length > 0 ? { ...result, warnings } : result;
}

/** Caps the repair loop; a file with more broken keys than this is dropped whole. */
const MAX_REPAIRS = 50;

function validate(raw: Record<string, unknown>, label: string): ParsedSettings {
  const first = settingsSchema.safeParse(raw);
  if (first.success) return { settings: first.data };

  const issue = first.error.issues[0] as z.core.$ZodIssue;
  const keyPath = formatKeyPath(issue.path);
  const others = first.error.issues.length - 1;
  const more = others > 0 ? ` (and ${others} more problem${others === 1 ? '' : 's'})` : '';
  const problem = `Invalid settings ${label}: ${keyPath || '(top level)'}: ${issue.message}${more}`;
  const error: SettingsError = { file: label, keyPath, message: `${problem}; ignoring the invalid value` };

  // Remove each offending value in turn and re-validate, keeping everything that is valid.
  const repaired = structuredClone(raw);
  for (let round = 0; round < MAX_REPAIRS; round++) {
    const result = settingsSchema.safeParse(repaired);
    if (result.success) return { settings: result.data, error };
    const path = (result.error.issues[0] as z.core.$ZodIssue).path;
    if (!removeAt(repaired, path)) break;
  }
  return { error: { ...error, message: `${problem}; file ignored` } };
}

/** Deletes the value at `path`; when nothing is there (a missing required key), its parent. */
function removeAt(root: Record<string, unknown>, path: readonly PropertyKey[]): boolean {
  for (let end = path.length; end > 0; end--) {
    const parent = walk(root, path.slice(0, end - 1));
    const key = path[end - 1] as PropertyKey;
    if (parent === undefined || !hasKey(parent, key)) continue;
    if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
    else delete (parent as Record<PropertyKey, unknown>)[key];
    return true;
  }
  return false;
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
