/**
 * Rewrites a settings file in place for "always allow" answers and `yoke permissions remove`.
 * Works on the raw JSON, not the schema's view, so keys Yoke does not know survive the edit.
 * The write is atomic (temp file + rename): a crash leaves the old file or the new one, never half.
 */
import { writeFileAtomic } from './atomic-write';
import { readJsonObjectFile } from './json-file';

export type SettingsJson = Record<string, unknown>;

/** Applies `mutate` to the file's JSON (`{}` if it does not exist) and returns what was written. */
export async function editSettingsFile(
  path: string,
  mutate: (json: SettingsJson) => SettingsJson,
): Promise<SettingsJson> {
  const current = await readJson(path);
  const next = mutate(structuredClone(current));
  // A new settings file gets 0644; an existing one keeps its mode.
  await writeFileAtomic(path, Buffer.from(`${JSON.stringify(next, null, 2)}\n`), { mode: 0o644 });
  return next;
}

/** Refuses to edit a file it cannot parse: rewriting it would destroy the user's content. */
async function readJson(path: string): Promise<SettingsJson> {
  const file = await readJsonObjectFile(path);
  if (file.kind === 'missing') return {};
  if (file.kind === 'object') return file.json;
  throw new Error(`Cannot update ${path}: ${file.problem}. Fix the file and try again.`);
}
