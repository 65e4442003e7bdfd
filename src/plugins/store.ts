/**
 * What is installed, under `$YOKE_HOME/plugins/`:
 * - `installed.json`: every installed plugin (id → where its files are, where they came from);
 * - `marketplaces.json`: the marketplaces added with `yoke plugin marketplace add`;
 * - `cache/<marketplace>/<plugin>/`: the plugins' files; `marketplaces/<name>/`: cloned marketplaces.
 * Both JSON files are replaced atomically; a file that cannot be read is reported, never overwritten.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-write';
import { readJsonObjectFile } from '../config/json-file';
import { yokeHome } from '../config/paths';
import * as z from '../lib/zod';
import { describeIssues } from './manifest';
import { type MarketplaceSource, parseMarketplaceSource } from './marketplace-source';

type Env = Readonly<Record<string, string | undefined>>;

export const pluginsHome = (env: Env): string => join(yokeHome(env), 'plugins');
export const installedFile = (env: Env): string => join(pluginsHome(env), 'installed.json');
export const marketplacesFile = (env: Env): string => join(pluginsHome(env), 'marketplaces.json');
export const cacheDir = (env: Env): string => join(pluginsHome(env), 'cache');
export const marketplaceCloneDir = (env: Env): string => join(pluginsHome(env), 'marketplaces');

/** The marketplace part of the id of a plugin installed from a git URL or a folder. */
export const DIRECT_MARKETPLACE = 'direct';

const installedPluginSchema = z.looseObject({
  name: z.string(),
  /** Absent for a direct install. */
  marketplace: z.optional(z.string()),
  /** Where it was fetched from, as the user or the marketplace wrote it. */
  source: z.string(),
  installPath: z.string(),
  version: z.optional(z.string()),
  commit: z.optional(z.string()),
  installedAt: z.string(),
});
export type InstalledPlugin = z.infer<typeof installedPluginSchema>;

const installedSchema = z.looseObject({ plugins: z.record(z.string(), installedPluginSchema) });
export type InstalledList = z.infer<typeof installedSchema>;

const knownMarketplaceSchema = z.looseObject({
  source: z.looseObject({ source: z.string() }),
  /** The folder holding `.claude-plugin/marketplace.json` (a clone, or the user's own folder). */
  installLocation: z.string(),
  addedAt: z.string(),
});
export type KnownMarketplace = { source: MarketplaceSource; installLocation: string; addedAt: string };

const marketplacesSchema = z.looseObject({ marketplaces: z.record(z.string(), knownMarketplaceSchema) });
type MarketplaceList = { marketplaces: Record<string, KnownMarketplace> };

export class PluginStoreError extends Error {}

async function readStoreFile<T>(file: string, schema: z.ZodMiniType<T>, empty: T): Promise<T> {
  const read = await readJsonObjectFile(file);
  if (read.kind === 'missing') return empty;
  if (read.kind === 'invalid') {
    throw new PluginStoreError(`${file}: ${read.problem}; fix or delete the file and try again`);
  }
  const parsed = schema.safeParse(read.json);
  if (!parsed.success) {
    throw new PluginStoreError(
      `${describeIssues(file, parsed.error.issues)}; fix or delete the file and try again`,
    );
  }
  return parsed.data;
}

const writeJson = (file: string, value: unknown) =>
  writeFileAtomic(file, Buffer.from(`${JSON.stringify(value, null, 2)}\n`), { mode: 0o644 });

export const readInstalled = (env: Env): Promise<InstalledList> =>
  readStoreFile(installedFile(env), installedSchema, { plugins: {} });

export const writeInstalled = (env: Env, list: InstalledList) => writeJson(installedFile(env), list);

export async function readMarketplaces(env: Env): Promise<MarketplaceList> {
  const file = marketplacesFile(env);
  const read = await readStoreFile(file, marketplacesSchema, { marketplaces: {} });
  const marketplaces: Record<string, KnownMarketplace> = {};
  for (const [name, entry] of Object.entries(read.marketplaces)) {
    const source = parseMarketplaceSource(entry.source);
    if (typeof source === 'string') {
      throw new PluginStoreError(
        `${file}: "marketplaces.${name}.source": ${source}; fix or delete the file and try again`,
      );
    }
    marketplaces[name] = { source, installLocation: entry.installLocation, addedAt: entry.addedAt };
  }
  return { marketplaces };
}

export const writeMarketplaces = (env: Env, list: MarketplaceList) => writeJson(marketplacesFile(env), list);

/** `name@marketplace`. */
export const pluginId = (name: string, marketplace: string): string => `${name}@${marketplace}`;

/** Splits `name@marketplace`; undefined when it is not one. */
export function parsePluginId(id: string): { name: string; marketplace: string } | undefined {
  const at = id.lastIndexOf('@');
  if (at <= 0 || at === id.length - 1) return undefined;
  return { name: id.slice(0, at), marketplace: id.slice(at + 1) };
}
