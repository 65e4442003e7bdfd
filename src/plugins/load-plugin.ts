/**
 * Loads one plugin folder: its manifest, the folders its commands, skills and agents are in, its
 * hooks and its MCP servers, with `${CLAUDE_PLUGIN_ROOT}` substituted. Anything that makes the
 * plugin unusable (an unreadable manifest, a bad path, a broken hooks file) comes back as one
 * problem line naming the file and the field, and the plugin is skipped; a bad MCP server entry
 * drops only that server.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readJsonObjectFile } from '../config/json-file';
import { type HooksSettings, hooksSettingsSchema } from '../config/settings-schema';
import { isJsonObject, type JsonObject } from '../lib/json-object';
import { type McpServerConfig, parseServerMap } from '../mcp/server-config';
import {
  type ComponentKind,
  ComponentPathError,
  defaultComponentDir,
  defaultComponentFile,
  resolveComponentPath,
} from './component-paths';
import {
  describeIssues,
  MANIFEST_PATH,
  PLUGIN_NAME_PATTERN,
  type PluginManifest,
  readPluginManifest,
} from './manifest';
import { hooksWithRoot, serverWithRoot } from './plugin-root';
import { realPathOrUndefined } from './real-path';
import type { LoadedPlugin, PluginOrigin } from './types';

export type PluginFolder = {
  root: string;
  origin: PluginOrigin;
  /** The name to use when the folder has no manifest (a marketplace entry's name). */
  nameHint?: string;
  /** `name@marketplace`; the plugin's name when absent. */
  id?: string;
  /** Leave its MCP servers out (`--plugin-dir-no-mcp`). */
  withoutMcp?: boolean;
};

export type PluginLoad =
  | { ok: true; plugin: LoadedPlugin; problems: string[] }
  | { ok: false; problem: string };

/** A problem that skips the plugin. */
class PluginProblem extends Error {}

export async function loadPluginFolder(folder: PluginFolder): Promise<PluginLoad> {
  try {
    return await load(folder);
  } catch (error) {
    if (error instanceof PluginProblem) return { ok: false, problem: error.message };
    return { ok: false, problem: `plugin at ${folder.root}: ${(error as Error).message}; skipped` };
  }
}

async function load(folder: PluginFolder): Promise<PluginLoad> {
  const realRoot = await realPathOrUndefined(folder.root);
  if (realRoot === undefined) throw new PluginProblem(`plugin folder ${folder.root} does not exist; skipped`);
  const read = await readPluginManifest(realRoot);
  if (read.kind === 'invalid') throw new PluginProblem(`${read.problem}; plugin skipped`);
  const manifest: Partial<PluginManifest> = read.kind === 'manifest' ? read.manifest : {};
  const manifestFile = join(realRoot, MANIFEST_PATH);
  const name = manifest.name ?? folder.nameHint ?? basename(realRoot);
  if (!PLUGIN_NAME_PATTERN.test(name)) {
    throw new PluginProblem(
      `plugin at ${realRoot}: its name "${name}" may use only letters, digits, ".", "_" and "-"; give it a "name" in ${MANIFEST_PATH}; skipped`,
    );
  }
  const fieldProblem = (field: string, why: string) =>
    new PluginProblem(`${manifestFile}: "${field}": ${why}; plugin skipped`);

  const components = async (kind: ComponentKind) => {
    const dirs: string[] = [];
    const files: string[] = [];
    const fallback = await defaultComponentDir(realRoot, kind);
    if (fallback) dirs.push(fallback);
    const listed = manifest[kind];
    for (const value of listed === undefined ? [] : typeof listed === 'string' ? [listed] : listed) {
      const entry = await resolveManifestPath(realRoot, value, kind, fieldProblem);
      const into = entry.isDirectory ? dirs : files;
      if (!into.includes(entry.path)) into.push(entry.path);
    }
    return { dirs, files };
  };
  const [commands, skills, agents] = await Promise.all([
    components('commands'),
    components('skills'),
    components('agents'),
  ]);
  // A listed folder that holds SKILL.md is one skill; any other holds skills in its subfolders.
  const skillFolders = skills.dirs.filter((dir) => existsSync(join(dir, 'SKILL.md')));
  const skillDirs = skills.dirs.filter((dir) => !skillFolders.includes(dir));
  if (skills.files.length > 0) {
    throw fieldProblem('skills', `${skills.files[0]} is a file; list skill folders (each holding SKILL.md)`);
  }

  const hooks = await loadHooks(realRoot, manifest, fieldProblem);
  const problems: string[] = [];
  const mcpServers = folder.withoutMcp
    ? new Map<string, McpServerConfig>()
    : await loadServers(realRoot, manifest, fieldProblem, problems);

  const plugin: LoadedPlugin = {
    pluginName: name,
    id: folder.id ?? name,
    root: realRoot,
    origin: folder.origin,
    commandDirs: commands.dirs,
    commandFiles: commands.files,
    skillDirs,
    skillFolders,
    agentDirs: agents.dirs,
    agentFiles: agents.files,
    mcpServers,
    ...(hooks ? { hooks: hooksWithRoot(hooks, realRoot) } : {}),
    ...(manifest.version !== undefined ? { version: manifest.version } : {}),
    ...(manifest.description !== undefined ? { description: manifest.description } : {}),
  };
  return { ok: true, plugin, problems };
}

type FieldProblem = (field: string, why: string) => PluginProblem;

async function resolveManifestPath(
  realRoot: string,
  value: string,
  field: string,
  fieldProblem: FieldProblem,
) {
  try {
    return await resolveComponentPath(realRoot, value);
  } catch (error) {
    if (error instanceof ComponentPathError) throw fieldProblem(field, error.message);
    throw error;
  }
}

/** The JSON objects a `hooks` or `mcpServers` field names: inline, a `./file.json`, or a list of both. */
async function fieldObjects(
  realRoot: string,
  value: unknown,
  field: string,
  fieldProblem: FieldProblem,
): Promise<{ file: string; json: JsonObject }[]> {
  const manifestFile = join(realRoot, MANIFEST_PATH);
  const out: { file: string; json: JsonObject }[] = [];
  for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
    if (typeof item !== 'string') {
      out.push({ file: manifestFile, json: item as JsonObject });
      continue;
    }
    const entry = await resolveManifestPath(realRoot, item, field, fieldProblem);
    out.push({ file: entry.path, json: await readObject(entry.path) });
  }
  return out;
}

async function readObject(file: string): Promise<JsonObject> {
  const read = await readJsonObjectFile(file);
  if (read.kind === 'object') return read.json;
  throw new PluginProblem(`${file}: ${read.kind === 'missing' ? 'not found' : read.problem}; plugin skipped`);
}

/** `hooks/hooks.json` and the manifest's `hooks`, concatenated per event; a file holds `{"hooks": {…}}`. */
async function loadHooks(
  realRoot: string,
  manifest: Partial<PluginManifest>,
  fieldProblem: FieldProblem,
): Promise<HooksSettings | undefined> {
  const sources: { file: string; json: JsonObject }[] = [];
  const fallback = await defaultComponentFile(realRoot, join('hooks', 'hooks.json'));
  if (fallback) sources.push({ file: fallback, json: await readObject(fallback) });
  for (const source of await fieldObjects(realRoot, manifest.hooks, 'hooks', fieldProblem)) {
    // The manifest may name the default file again; its hooks must not run twice.
    if (!sources.some((known) => known.file === source.file && source.file !== join(realRoot, MANIFEST_PATH)))
      sources.push(source);
  }
  const merged: HooksSettings = {};
  for (const { file, json } of sources) {
    const events = isJsonObject(json.hooks) ? json.hooks : json;
    const parsed = hooksSettingsSchema().safeParse(events);
    if (!parsed.success) {
      const where = file === join(realRoot, MANIFEST_PATH) ? `${file} (hooks)` : file;
      throw new PluginProblem(`${describeIssues(where, parsed.error.issues)}; plugin skipped`);
    }
    for (const [event, groups] of Object.entries(parsed.data))
      merged[event] = [...(merged[event] ?? []), ...groups];
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** `.mcp.json` and the manifest's `mcpServers`; a file holds `{"mcpServers": {…}}` or the bare map. */
async function loadServers(
  realRoot: string,
  manifest: Partial<PluginManifest>,
  fieldProblem: FieldProblem,
  problems: string[],
): Promise<Map<string, McpServerConfig>> {
  const sources: { file: string; json: JsonObject }[] = [];
  const fallback = await defaultComponentFile(realRoot, '.mcp.json');
  if (fallback) sources.push({ file: fallback, json: await readObject(fallback) });
  for (const source of await fieldObjects(realRoot, manifest.mcpServers, 'mcpServers', fieldProblem)) {
    if (!sources.some((known) => known.file === source.file && source.file !== join(realRoot, MANIFEST_PATH)))
      sources.push(source);
  }
  const servers = new Map<string, McpServerConfig>();
  for (const { file, json } of sources) {
    const map = isJsonObject(json.mcpServers) ? json.mcpServers : json;
    const parsed = parseServerMap(map, file);
    problems.push(...parsed.problems.map((line) => `${line}; that server is skipped`));
    for (const [name, config] of parsed.servers) servers.set(name, serverWithRoot(config, realRoot));
  }
  return servers;
}
