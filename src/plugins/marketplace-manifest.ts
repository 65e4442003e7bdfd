/**
 * A marketplace's catalogue, `.claude-plugin/marketplace.json`: its name and one entry per plugin
 * saying where the plugin comes from. An entry Yoke cannot use becomes one line naming the file
 * and the entry; the other entries still load.
 */
import { join } from 'node:path';
import { readJsonObjectFile } from '../config/json-file';
import * as z from '../lib/zod';
import {
  COMPONENT_FIELDS,
  componentFields,
  describeIssues,
  PLUGIN_NAME_PATTERN,
  type PluginManifest,
} from './manifest';

export const MARKETPLACE_MANIFEST_PATH = join('.claude-plugin', 'marketplace.json');

/** Where a marketplace entry's plugin is. */
export type PluginEntrySource =
  /** A folder inside the marketplace itself. */
  | { kind: 'relative'; path: string }
  /** A git repository (a `github` entry becomes its https URL); `path` is a folder inside it. */
  | { kind: 'git'; url: string; ref?: string; sha?: string; path?: string };

export type MarketplaceEntry = {
  name: string;
  source: PluginEntrySource;
  description?: string;
  version?: string;
  /**
   * Component fields the entry itself declares (Claude Code's `strict: false` entries, such as a
   * skills collection that lists its skill folders): they complete the plugin's manifest.
   */
  components?: Partial<Pick<PluginManifest, (typeof COMPONENT_FIELDS)[number]>>;
};

export type MarketplaceManifest = { name: string; plugins: MarketplaceEntry[] };

const optionalString = z.optional(z.string());
const gitPin = {
  ref: optionalString,
  sha: z.optional(z.string().check(z.regex(/^[0-9a-f]{40}$/, 'must be a full 40-character commit id'))),
};

const entrySourceSchema = z.union([
  z.string(),
  z.looseObject({
    source: z.literal('github'),
    repo: z.string().check(z.regex(/^[\w.-]+\/[\w.-]+$/, 'must be "owner/repo"')),
    ...gitPin,
  }),
  z.looseObject({ source: z.literal('url'), url: z.string(), ...gitPin }),
  z.looseObject({ source: z.literal('git-subdir'), url: z.string(), path: z.string(), ...gitPin }),
]);

const entrySchema = z.looseObject({
  name: z.string().check(z.regex(PLUGIN_NAME_PATTERN, 'must be 1–64 letters, digits, ".", "_" or "-"')),
  source: entrySourceSchema,
  description: optionalString,
  version: optionalString,
  strict: z.optional(z.boolean()),
  ...componentFields,
});

const manifestSchema = z.looseObject({
  name: z
    .string()
    .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, ".", "_" or "-"')),
  metadata: z.optional(z.looseObject({ pluginRoot: optionalString })),
  plugins: z.array(z.unknown()),
});

export type MarketplaceRead =
  | { ok: true; manifest: MarketplaceManifest; problems: string[] }
  | { ok: false; problem: string };

/** The GitHub shorthand as the URL git clones. */
export const githubUrl = (repo: string): string => `https://github.com/${repo}.git`;

/** Reads `<root>/.claude-plugin/marketplace.json`, or `file` when the marketplace is that file. */
export async function readMarketplaceManifest(
  root: string,
  file = join(root, MARKETPLACE_MANIFEST_PATH),
): Promise<MarketplaceRead> {
  const read = await readJsonObjectFile(file).catch((error: Error) => ({
    kind: 'invalid' as const,
    problem: error.message,
  }));
  if (read.kind === 'missing')
    return { ok: false, problem: `${file} not found: a marketplace needs ${MARKETPLACE_MANIFEST_PATH}` };
  if (read.kind === 'invalid') return { ok: false, problem: `${file}: ${read.problem}` };
  const parsed = manifestSchema.safeParse(read.json);
  if (!parsed.success) return { ok: false, problem: describeIssues(file, parsed.error.issues) };
  const pluginRoot = parsed.data.metadata?.pluginRoot;
  const problems: string[] = [];
  const plugins: MarketplaceEntry[] = [];
  parsed.data.plugins.forEach((raw, index) => {
    const kind = unsupportedSourceKind(raw);
    if (kind !== undefined) {
      problems.push(
        `${file}: "plugins[${index}].source": source ${JSON.stringify(kind)} is not supported by Yoke (use "./folder", github, url or git-subdir); that plugin is not offered`,
      );
      return;
    }
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) {
      const issues = entry.error.issues.map((issue) => ({
        ...issue,
        path: ['plugins', index, ...issue.path],
      }));
      problems.push(`${describeIssues(file, issues)}; that plugin is not offered`);
      return;
    }
    const source = entrySource(entry.data.source, pluginRoot);
    if (typeof source === 'string') {
      problems.push(
        `${file}: "plugins[${index}].source": ${source}; plugin "${entry.data.name}" is not offered`,
      );
      return;
    }
    if (plugins.some((known) => known.name === entry.data.name)) {
      problems.push(
        `${file}: "plugins[${index}]": a second plugin named "${entry.data.name}"; the first is kept`,
      );
      return;
    }
    const components = Object.fromEntries(
      COMPONENT_FIELDS.filter((field) => entry.data[field] !== undefined).map((field) => [
        field,
        entry.data[field],
      ]),
    );
    plugins.push({
      name: entry.data.name,
      source,
      ...(Object.keys(components).length > 0 ? { components } : {}),
      ...(entry.data.description !== undefined ? { description: entry.data.description } : {}),
      ...(entry.data.version !== undefined ? { version: entry.data.version } : {}),
    });
  });
  return { ok: true, manifest: { name: parsed.data.name, plugins }, problems };
}

const SUPPORTED_KINDS = ['github', 'url', 'git-subdir'];

/** The `source.source` of an entry when it names a kind Yoke cannot fetch (npm, pip, …). */
function unsupportedSourceKind(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const source = (raw as { source?: unknown }).source;
  if (typeof source !== 'object' || source === null) return undefined;
  const kind = (source as { source?: unknown }).source;
  return SUPPORTED_KINDS.includes(kind as string) ? undefined : kind;
}

/** The entry's source, or why it cannot be used. */
function entrySource(
  raw: z.infer<typeof entrySourceSchema>,
  pluginRoot: string | undefined,
): PluginEntrySource | string {
  if (typeof raw === 'string') {
    if (raw.startsWith('./') || raw === '.') return { kind: 'relative', path: raw };
    // A bare name is a folder under `metadata.pluginRoot` (Claude Code's shorthand).
    if (pluginRoot !== undefined) return { kind: 'relative', path: join(pluginRoot, raw) };
    return `"${raw}" must be a folder in the marketplace starting with "./", or a source object`;
  }
  const pin = {
    ...(raw.ref !== undefined ? { ref: raw.ref } : {}),
    ...(raw.sha !== undefined ? { sha: raw.sha } : {}),
  };
  if (raw.source === 'github') return { kind: 'git', url: githubUrl(raw.repo), ...pin };
  if (raw.source === 'url') return { kind: 'git', url: raw.url, ...pin };
  return { kind: 'git', url: raw.url, path: raw.path, ...pin };
}
