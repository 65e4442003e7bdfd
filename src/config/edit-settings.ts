/**
 * Rewrites a settings file in place for "always allow" answers and `yoke permissions remove`.
 * Works on the raw JSON, not the schema's view, so keys Yoke does not know survive the edit.
 * The write is atomic (temp file + rename): a crash leaves the old file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { locateJsonError } from './json-error';

export type SettingsJson = Record<string, unknown>;

/** Applies `mutate` to the file's JSON (`{}` if it does not exist) and returns what was written. */
export async function editSettingsFile(
  path: string,
  mutate: (json: SettingsJson) => SettingsJson,
): Promise<SettingsJson> {
  const current = await readJson(path);
  const next = mutate(structuredClone(current));
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const mode = await stat(path).then(
    (s) => s.mode & 0o777,
    () => 0o644,
  );
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(next, null, 2)}\n`, { mode });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return next;
}

/** Refuses to edit a file it cannot parse: rewriting it would destroy the user's content. */
async function readJson(path: string): Promise<SettingsJson> {
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
