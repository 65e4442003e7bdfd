/**
 * Rewrites a settings file in place for "always allow" answers and `yoke permissions remove`.
 * Works on the raw JSON, not the schema's view, so keys Yoke does not know survive the edit.
 * The write is atomic (temp file + rename): a crash leaves the old file or the new one, never half.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write';
import { locateJsonError } from './json-error';

export type SettingsJson = Record<string, unknown>;

/** Applies `mutate` to the file's JSON (`{}` if it does not exist) and returns what was written. */
export async function editSettingsFile(
  path: string,
  mutate: (json: SettingsJson) => SettingsJson,
  options: { mode?: number } = {},
): Promise<SettingsJson> {
  const current = await readJsonObject(path);
  const next = mutate(structuredClone(current));
  // A new settings file gets 0644 unless told otherwise; an existing one keeps its mode.
  await writeFileAtomic(path, Buffer.from(`${JSON.stringify(next, null, 2)}\n`), {
    mode: options.mode ?? 0o644,
  });
  return next;
}

/**
 * The file's JSON object (`{}` if it does not exist). Refuses a file it cannot parse: rewriting
 * it would destroy the user's content.
 */
export async function readJsonObject(path: string): Promise<SettingsJson> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const source = text.replace(/^\uFEFF/, '');
  if (source.trim() === '') return {};
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    const where = locateJsonError(source);
    const detail = where
      ? `line ${where.line}, column ${where.column}: ${where.message}`
      : (error as Error).message;
    throw new Error(`Cannot update ${path}: invalid JSON at ${detail}. Fix the file and try again.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new Error(`Cannot update ${path}: the top level is not a JSON object. Fix the file and try again.`);
  }
  return json as SettingsJson;
}
