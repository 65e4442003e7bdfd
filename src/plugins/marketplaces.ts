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
import { type MarketplacePolicy, policyRefusal } from './marketplace-policy';
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

export type MarketplaceAdded = {
  name: string;
  record: KnownMarketplace;
  plugins: number;
  problems: string[];
};

/**
 * Fetches a marketplace and records it under the name its catalogue gives (or `expectedName`, the
 * name settings declared it under, which must match). Returns the record and the catalogue's problems.
 */
export async function addMarketplace(
  source: MarketplaceSource,
  env: Env,
  policy: MarketplacePolicy,
  expectedName?: string,
): Promise<MarketplaceAdded> {
  const refused = policyRefusal(policy, source);
  if (refused) throw new MarketplaceError(refused);
  const list = await readMarketplaces(env);
  return withFetched(source, env, async (read, fetched) => {
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
    const installLocation = await intoPlace(fetched, name, env);
    const record: KnownMarketplace = { source, installLocation, addedAt: new Date().toISOString() };
    list.marketplaces[name] = record;
    await writeMarketplaces(env, list);
    return { name, record, plugins: read.manifest.plugins.length, problems: await problemsAt(record, read) };
  });
}

/**
 * Fetches a git marketplace again and swaps the new clone in once its catalogue reads; a folder
 * or file marketplace is read in place and has nothing to fetch (`undefined`).
 */
export async function updateMarketplace(
  name: string,
  env: Env,
  policy: MarketplacePolicy,
): Promise<MarketplaceAdded | undefined> {
  const list = await readMarketplaces(env);
  const record = list.marketplaces[name];
  if (!record) throw notAdded(name, list.marketplaces);
  const refused = policyRefusal(policy, record.source);
  if (refused) throw new MarketplaceError(refused);
  if (record.source.source === 'directory' || record.source.source === 'file') return undefined;
  return withFetched(record.source, env, async (read, fetched) => {
    if (read.manifest.name !== name) {
      throw new MarketplaceError(
        `the marketplace "${name}" now calls itself "${read.manifest.name}"; remove it and add it again`,
      );
    }
    const updated: KnownMarketplace = { ...record, installLocation: await intoPlace(fetched, name, env) };
    list.marketplaces[name] = updated;
    await writeMarketplaces(env, list);
    return {
      name,
      record: updated,
      plugins: read.manifest.plugins.length,
      problems: await problemsAt(updated, read),
    };
  });
}

type Fetched = { location: string; temporary: boolean };

/** Runs `use` on the source's readable catalogue; a clone made for it is removed unless `use` moved it. */
async function withFetched<T>(
  source: MarketplaceSource,
  env: Env,
  use: (read: Extract<MarketplaceRead, { ok: true }>, fetched: Fetched) => Promise<T>,
): Promise<T> {
  let fetched: Fetched;
  if (source.source === 'directory' || source.source === 'file') {
    const real = await realPathOrUndefined(source.path);
    if (real === undefined) throw new MarketplaceError(`${source.path} does not exist`);
    fetched = { location: real, temporary: false };
  } else {
    const clones = marketplaceCloneDir(env);
    await mkdir(clones, { recursive: true });
    const location = join(clones, `.fetch-${process.pid}-${Date.now()}`);
    const url = source.source === 'github' ? githubUrl(source.repo) : source.url;
    await cloneRepository({ url, dest: location, env, ...(source.ref ? { ref: source.ref } : {}) });
    fetched = { location, temporary: true };
  }
  try {
    const read = await readCatalogue({ installLocation: fetched.location, source });
    if (!read.ok) throw new MarketplaceError(read.problem);
    return await use(read, fetched);
  } finally {
    if (fetched.temporary) await rm(fetched.location, { recursive: true, force: true });
  }
}

/** A fresh clone becomes `marketplaces/<name>/` (replacing the old one); a folder stays where it is. */
async function intoPlace(fetched: Fetched, name: string, env: Env): Promise<string> {
  if (!fetched.temporary) return fetched.location;
  const dest = join(marketplaceCloneDir(env), name);
  await rm(dest, { recursive: true, force: true });
  await rename(fetched.location, dest);
  return dest;
}

/** The catalogue's problems, read where it now lives so each line names a file the user can open. */
async function problemsAt(
  record: KnownMarketplace,
  first: Extract<MarketplaceRead, { ok: true }>,
): Promise<string[]> {
  if (record.source.source === 'directory' || record.source.source === 'file') return first.problems;
  const read = await readCatalogue(record);
  return read.ok ? read.problems : [read.problem];
}

function notAdded(name: string, marketplaces: Record<string, KnownMarketplace>): MarketplaceError {
  const known = Object.keys(marketplaces);
  return new MarketplaceError(
    `no marketplace named "${name}" is added${known.length ? ` (added: ${known.join(', ')})` : ''}`,
  );
}

/** Forgets a marketplace and removes its clone (a folder of the user's own is left alone). */
export async function removeMarketplace(name: string, env: Env): Promise<KnownMarketplace> {
  const list = await readMarketplaces(env);
  const record = list.marketplaces[name];
  if (!record) throw notAdded(name, list.marketplaces);
  delete list.marketplaces[name];
  await writeMarketplaces(env, list);
  const clones = marketplaceCloneDir(env);
  if (isWithin(record.installLocation, clones) && relative(clones, record.installLocation) !== '') {
    await rm(record.installLocation, { recursive: true, force: true });
  }
  return record;
}
