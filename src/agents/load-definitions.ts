/**
 * Every agent a session knows: the built-ins, the agent files of the user (`~/.claude/agents`,
 * `~/.yoke/agents`) and of the project (`.claude/agents`, `.yoke/agents`), plugins' agent
 * folders, `--agents` JSON and the SDK's `agents`. A broken definition is reported once (one line
 * naming the file and the field) and skipped; the rest load. A project file is the repository
 * speaking, so it cannot widen permissions: its `permissionMode` follows the same gate as a
 * project settings file's `defaultMode` (never bypassPermissions or auto), and its `hooks` and
 * `mcpServers` apply only where the project's hooks would run.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { claudeHome, PROJECT_CLAUDE_DIR, PROJECT_YOKE_DIR, yokeHome } from '../config/paths';
import type { JsonObject } from '../lib/json-object';
import type { Env } from '../model/types';
import { settingsModeApplies } from '../permissions/permission-context';
import { BUILT_IN_AGENTS } from './built-in';
import { parseFrontmatter } from './frontmatter';
import { parseDefinition } from './parse-definition';
import { AgentRegistry } from './registry';
import type { AgentDefinition, AgentSource } from './types';

/**
 * A plugin's agent folders and the single agent files its manifest lists (the plugin loader gives
 * these, confined to the plugin; its agents are named `plugin:agent`).
 */
export type PluginAgentDirs = {
  pluginName: string;
  root: string;
  agentDirs: readonly string[];
  agentFiles?: readonly string[];
};

/** What the project may do in this session (session-trust.ts decides it). */
export type ProjectAgentGate = {
  /** The folder is trusted: its files may set acceptEdits. */
  trusted: boolean;
  /** The project's hooks and MCP servers would run in this session (`projectCodeRuns`). */
  codeRuns: boolean;
};

export type LoadAgentsOptions = {
  cwd: string;
  env: Env;
  gate: ProjectAgentGate;
  /** `--agents` JSON: name → definition. */
  cliAgents?: Record<string, unknown>;
  /** The SDK's `initialize.agents`. */
  sdkAgents?: Record<string, unknown>;
  plugins?: readonly PluginAgentDirs[];
  /** `--setting-sources` without user or project leaves that side's files out; `--bare` all. */
  sources?: { user: boolean; project: boolean };
};

/** A folder of agent files, or (`files`) the listed files themselves. */
type AgentFolder = { dir: string; source: AgentSource; pluginName?: string; files?: readonly string[] };

function folders(options: LoadAgentsOptions): AgentFolder[] {
  const { cwd, env } = options;
  const sources = options.sources ?? { user: true, project: true };
  return [
    ...(options.plugins ?? []).flatMap((plugin) => {
      const base = { source: 'plugin' as const, pluginName: plugin.pluginName };
      const listed = plugin.agentFiles?.length
        ? [{ ...base, dir: plugin.root, files: plugin.agentFiles }]
        : [];
      return [...plugin.agentDirs.map((dir) => ({ ...base, dir })), ...listed];
    }),
    ...(sources.user
      ? [
          { dir: join(claudeHome(env), 'agents'), source: 'user' as const },
          { dir: join(yokeHome(env), 'agents'), source: 'user' as const },
        ]
      : []),
    ...(sources.project
      ? [
          { dir: join(cwd, PROJECT_CLAUDE_DIR, 'agents'), source: 'project' as const },
          { dir: join(cwd, PROJECT_YOKE_DIR, 'agents'), source: 'project' as const },
        ]
      : []),
  ];
}

/** The Markdown files of a folder and its subfolders, sorted; none when it does not exist. */
async function markdownFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** Removes what a project file may not set here, with one line per removed field. */
export function gateProjectDefinition(
  definition: AgentDefinition,
  gate: ProjectAgentGate,
  where: string,
): { definition: AgentDefinition; problems: string[] } {
  if (definition.source !== 'project') return { definition, problems: [] };
  const gated = { ...definition };
  const problems: string[] = [];
  const mode = gated.permissionMode;
  if (mode && !settingsModeApplies('projectSettings', mode, gate.trusted)) {
    delete gated.permissionMode;
    problems.push(
      `${where}: permissionMode ${mode} is ignored: a project's agent file cannot set it${mode === 'acceptEdits' ? ' until the folder is trusted (yoke trust)' : ''}.`,
    );
  }
  // A user-level memory is read in every project: an untrusted repository may not write into it.
  if (gated.memory === 'user' && !gate.trusted) {
    delete gated.memory;
    problems.push(`${where}: memory user is ignored until the folder is trusted (yoke trust).`);
  }
  if (!gate.codeRuns) {
    for (const key of ['hooks', 'mcpServers'] as const) {
      if (gated[key] === undefined) continue;
      delete gated[key];
      problems.push(`${where}: its ${key} are ignored until the folder is trusted (yoke trust).`);
    }
  }
  return { definition: gated, problems };
}

async function loadFolder(
  folder: AgentFolder,
  options: LoadAgentsOptions,
): Promise<{ definitions: AgentDefinition[]; problems: string[] }> {
  const definitions: AgentDefinition[] = [];
  const problems: string[] = [];
  for (const path of folder.files ?? (await markdownFiles(folder.dir))) {
    const where = `agent file ${relative(options.cwd, path) || path}`;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      problems.push(`${where} cannot be read (${(error as Error).message}); skipped.`);
      continue;
    }
    const front = await parseFrontmatter(text);
    if ('problem' in front) {
      problems.push(`${where} is skipped: ${front.problem}.`);
      continue;
    }
    const parsed = parseDefinition({
      fields: front.fields,
      body: front.body,
      source: folder.source,
      filePath: path,
      ...(folder.pluginName ? { pluginName: folder.pluginName } : {}),
    });
    if ('problem' in parsed) {
      problems.push(`${where} is skipped: ${parsed.problem}.`);
      continue;
    }
    const gated = gateProjectDefinition(parsed.definition, options.gate, where);
    problems.push(...gated.problems);
    definitions.push(gated.definition);
  }
  return { definitions, problems };
}

function loadJson(
  agents: Record<string, unknown> | undefined,
  source: 'cli' | 'sdk',
): { definitions: AgentDefinition[]; problems: string[] } {
  const definitions: AgentDefinition[] = [];
  const problems: string[] = [];
  const label = source === 'cli' ? '--agents' : "the SDK's agents";
  for (const [name, fields] of Object.entries(agents ?? {})) {
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
      problems.push(`${label}: "${name}" is skipped: its definition must be an object.`);
      continue;
    }
    const parsed = parseDefinition({ fields: fields as JsonObject, name, source });
    if ('problem' in parsed) problems.push(`${label}: "${name}" is skipped: ${parsed.problem}.`);
    else definitions.push(parsed.definition);
  }
  return { definitions, problems };
}

export async function loadAgentDefinitions(options: LoadAgentsOptions): Promise<AgentRegistry> {
  const loaded = await Promise.all(folders(options).map((folder) => loadFolder(folder, options)));
  const all = [...loaded, loadJson(options.cliAgents, 'cli'), loadJson(options.sdkAgents, 'sdk')];
  return new AgentRegistry(
    [...BUILT_IN_AGENTS, ...all.flatMap((part) => part.definitions)],
    all.flatMap((part) => part.problems),
  );
}
