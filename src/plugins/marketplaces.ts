/**
 * The marketplaces Yoke knows: the ones added with `yoke plugin marketplace add` (recorded in
 * `marketplaces.json`) and the ones settings declare in `extraKnownMarketplaces`. A project's
 * settings declare marketplaces only in a trusted folder: a repository must not point the user's
 * installs at a catalogue of its choosing. Git marketplaces are cloned under
 * `$YOKE_HOME/plugins/marketplaces/<name>/`; folders and files are read in place.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { readJsonObjectFile } from '../config/json-file';
import { claudeHome } from '../config/paths';
import type { SettingsSource } from '../config/settings-merge';
import { isJsonObject } from '../lib/json-object';
import { isWithin } from '../lib/path-within';
import { cloneRepository } from './git-clone';
import { githubUrl, type MarketplaceRead, readMarketplaceManifest } from './marketplace-manifest';
import {
  describeMarketplaceSource,
  type MarketplaceSource,
  parseMarketplaceSource,
} from './marketplace-source';
import { realPathOrUndefined } from './real-path';
import {
  DIRECT_MARKETPLACE,
  type KnownMarketplace,
  marketplaceCloneDir,
  readMarketplaces,
  writeMarketplaces,
} from './store';

type Env = Readonly<Record<string, string | undefined>>;

export class MarketplaceError extends Error {}

/** A marketplace from settings: where it is declared, and its source (or why that is unusable). */
export type DeclaredMarketplace = { name: string; declaredIn: string; source: MarketplaceSource };

export type SettingsMarketplaces = { declared: DeclaredMarketplace[]; problems: string[] };

/** `extraKnownMarketplaces` of every source; a project's only when the folder is trusted. */
export function settingsMarketplaces(
  sources: readonly SettingsSource[],
  trusted: boolean,
): SettingsMarketplaces {
  const byName = new Map<string, DeclaredMarketplace>();
  const problems: string[] = [];
  for (const { source, path, settings } of sources) {
    const extra = (settings as Record<string, unknown>).extraKnownMarketplaces;
    if (!isJsonObject(extra)) continue;
    const where = path ?? source;
    if (source === 'projectSettings' && !trusted) {
      problems.push(
        `this folder is not trusted, so the marketplaces ${Object.keys(extra).join(', ')} in ${where} are ignored; run "yoke trust" to use them`,
      );
      continue;
    }
    for (const [name, entry] of Object.entries(extra)) {
      const parsed = parseMarketplaceSource(isJsonObject(entry) ? entry.source : undefined);
      if (typeof parsed === 'string') {
        problems.push(`${where}: "extraKnownMarketplaces.${name}.source": ${parsed}; marketplace ignored`);
        continue;
      }
      byName.set(name, { name, declaredIn: where, source: parsed });
    }
  }
  return { declared: [...byName.values()], problems };
}

/**
 * A marketplace Claude Code knows (`~/.claude/plugins/known_marketplaces.json`, name → `{source}`),
 * so `enabledPlugins` entries written for Claude Code can be installed by the same id.
 */
export async function claudeCodeMarketplace(name: string, env: Env): Promise<MarketplaceSource | undefined> {
  const read = await readJsonObjectFile(join(claudeHome(env), 'plugins', 'known_marketplaces.json')).catch(
    () => undefined,
  );
  if (read?.kind !== 'object') return undefined;
  const entry = read.json[name];
  const source = parseMarketplaceSource(isJsonObject(entry) ? entry.source : undefined);
  return typeof source === 'string' ? undefined : source;
}

/** Reads the catalogue at a marketplace's install location (the `path` of a git source picks the file). */
export function readCatalogue(
  record: Pick<KnownMarketplace, 'installLocation' | 'source'>,
): Promise<MarketplaceRead> {
  const { source, installLocation } = record;
  if (source.source === 'file') return readMarketplaceManifest(dirname(installLocation), installLocation);
  const subpath = source.source === 'github' || source.source === 'git' ? source.path : undefined;
  const file = subpath ? join(installLocation, subpath) : undefined;
  if (file && !isWithin(file, installLocation)) {
    return Promise.resolve({ ok: false, problem: `marketplace path "${subpath}" leaves the repository` });
  }
  return readMarketplaceManifest(installLocation, file);
}

/**
 * Fetches a marketplace and records it under the name its catalogue gives (or `expectedName`, the
 * name settings declared it under, which must match). Returns the record and the catalogue's problems.
 */
export async function addMarketplace(
  source: MarketplaceSource,
  env: Env,
  expectedName?: string,
): Promise<{ name: string; record: KnownMarketplace; plugins: number; problems: string[] }> {
  const list = await readMarketplaces(env);
  const clones = marketplaceCloneDir(env);
  let installLocation: string;
  let fetched: string | undefined;
  if (source.source === 'directory' || source.source === 'file') {
    const real = await realPathOrUndefined(source.path);
    if (real === undefined) throw new MarketplaceError(`${source.path} does not exist`);
    installLocation = real;
  } else {
    await mkdir(clones, { recursive: true });
    fetched = join(clones, `.fetch-${process.pid}-${Date.now()}`);
    const url = source.source === 'github' ? githubUrl(source.repo) : source.url;
    await cloneRepository({ url, dest: fetched, env, ...(source.ref ? { ref: source.ref } : {}) });
    installLocation = fetched;
  }
  try {
    const read = await readCatalogue({ installLocation, source });
    if (!read.ok) throw new MarketplaceError(read.problem);
    const name = read.manifest.name;
    if (expectedName !== undefined && expectedName !== name) {
      throw new MarketplaceError(
        `the marketplace declared as "${expectedName}" calls itself "${name}" in its marketplace.json; use that name in extraKnownMarketplaces`,
      );
    }
    if (name === DIRECT_MARKETPLACE) {
      throw new MarketplaceError(
        `"${DIRECT_MARKETPLACE}" is reserved for plugins installed without a marketplace`,
      );
    }
    const existing = list.marketplaces[name];
    if (existing) {
      throw new MarketplaceError(
        `a marketplace named "${name}" is already added (${describeMarketplaceSource(existing.source)}); remove it first with \`yoke plugin marketplace remove ${name}\``,
      );
    }
    if (fetched) {
      const dest = join(clones, name);
      await rm(dest, { recursive: true, force: true });
      await rename(fetched, dest);
      fetched = undefined;
      installLocation = dest;
    }
    const record: KnownMarketplace = { source, installLocation, addedAt: new Date().toISOString() };
    list.marketplaces[name] = record;
    await writeMarketplaces(env, list);
    // Read where it now lives, so its problem lines name the file the user can open.
    const final = source.source === 'github' || source.source === 'git' ? await readCatalogue(record) : read;
    const problems = final.ok ? final.problems : [final.problem];
    return { name, record, plugins: read.manifest.plugins.length, problems };
  } finally {
    if (fetched) await rm(fetched, { recursive: true, force: true });
  }
}

/** Forgets a marketplace and removes its clone (a folder of the user's own is left alone). */
export async function removeMarketplace(name: string, env: Env): Promise<KnownMarketplace> {
  const list = await readMarketplaces(env);
  const record = list.marketplaces[name];
  if (!record) {
    const known = Object.keys(list.marketplaces);
    throw new MarketplaceError(
      `no marketplace named "${name}" is added${known.length ? ` (added: ${known.join(', ')})` : ''}`,
    );
  }
  delete list.marketplaces[name];
  await writeMarketplaces(env, list);
  const clones = marketplaceCloneDir(env);
  if (isWithin(record.installLocation, clones) && relative(clones, record.installLocation) !== '') {
    await rm(record.installLocation, { recursive: true, force: true });
  }
  return record;
}
