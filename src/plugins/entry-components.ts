/**
 * A marketplace entry may declare where the plugin's parts are (`"skills": ["./xlsx", "./pdf"]`,
 * as `strict: false` catalogues do for a repository that has no plugin.json of its own). At
 * install, those fields are written into the installed copy's manifest — where the manifest does
 * not set them itself — so the plugin loads the same way wherever it came from.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write';
import { readJsonObjectFile } from '../config/json-file';
import { MANIFEST_PATH } from './manifest';
import type { MarketplaceEntry } from './marketplace-manifest';

export async function completeManifest(root: string, entry: MarketplaceEntry): Promise<void> {
  if (!entry.components) return;
  const file = join(root, MANIFEST_PATH);
  const read = await readJsonObjectFile(file);
  // A manifest that does not parse is reported as it is when the plugin loads.
  if (read.kind === 'invalid') return;
  const manifest = read.kind === 'object' ? { ...read.json } : {};
  manifest.name ??= entry.name;
  if (entry.version !== undefined) manifest.version ??= entry.version;
  if (entry.description !== undefined) manifest.description ??= entry.description;
  for (const [field, value] of Object.entries(entry.components)) manifest[field] ??= value;
  await writeFileAtomic(file, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), { mode: 0o644 });
}
