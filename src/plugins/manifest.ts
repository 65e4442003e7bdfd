/**
 * A plugin's manifest, `.claude-plugin/plugin.json`, as Claude Code plugins write it: metadata,
 * and optional component fields that add paths (or inline hooks and MCP servers) to the default
 * layout. The manifest itself is optional; without one the folder's name is the plugin's name.
 * A manifest that cannot be used becomes one line naming the file and the field.
 */
import { join } from 'node:path';
import { readJsonObjectFile } from '../config/json-file';
import { formatKeyPath } from '../config/settings-file';
import * as z from '../lib/zod';

export const MANIFEST_PATH = join('.claude-plugin', 'plugin.json');

/**
 * Plugin names become part of command names (`/name:command`) and MCP server names
 * (`plugin_<name>_<server>`), where only these characters are allowed.
 */
export const PLUGIN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const pathOrPaths = z.union([z.string(), z.array(z.string())]);
const inlineObject = z.record(z.string(), z.unknown());
/** A path to a JSON file, an inline object, or a list mixing both. */
const pathOrObject = z.union([z.string(), inlineObject, z.array(z.union([z.string(), inlineObject]))]);

/** The fields that say where a plugin's parts are; a marketplace entry may carry them too. */
export const componentFields = {
  commands: z.optional(pathOrPaths),
  agents: z.optional(pathOrPaths),
  skills: z.optional(pathOrPaths),
  hooks: z.optional(pathOrObject),
  mcpServers: z.optional(pathOrObject),
};
export const COMPONENT_FIELDS = Object.keys(componentFields) as (keyof typeof componentFields)[];

export const pluginManifestSchema = z.looseObject({
  name: z
    .string()
    .check(
      z.regex(
        PLUGIN_NAME_PATTERN,
        'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
      ),
    ),
  version: z.optional(z.string()),
  description: z.optional(z.string()),
  author: z.optional(z.union([z.string(), z.looseObject({ name: z.optional(z.string()) })])),
  ...componentFields,
});

export type PluginManifest = z.infer<typeof pluginManifestSchema>;

export type ManifestRead =
  | { kind: 'manifest'; manifest: PluginManifest }
  | { kind: 'none' }
  | { kind: 'invalid'; problem: string };

/** Reads `<root>/.claude-plugin/plugin.json`; the problem line names the file and the field. */
export async function readPluginManifest(root: string): Promise<ManifestRead> {
  const file = join(root, MANIFEST_PATH);
  const read = await readJsonObjectFile(file).catch((error: Error) => ({
    kind: 'invalid' as const,
    problem: error.message,
  }));
  if (read.kind === 'missing') return { kind: 'none' };
  if (read.kind === 'invalid') return { kind: 'invalid', problem: `${file}: ${read.problem}` };
  const parsed = pluginManifestSchema.safeParse(read.json);
  if (parsed.success) return { kind: 'manifest', manifest: parsed.data };
  return { kind: 'invalid', problem: describeIssues(file, parsed.error.issues) };
}

/** `file: "field": message` for the first issue, with a count of the others. */
export function describeIssues(file: string, issues: readonly z.core.$ZodIssue[]): string {
  const [first, ...rest] = issues;
  if (!first) return `${file}: invalid`;
  const where = formatKeyPath(first.path) || '(top level)';
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : '';
  return `${file}: "${where}": ${first.message}${more}`;
}
