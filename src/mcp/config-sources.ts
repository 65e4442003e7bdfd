/**
 * Which MCP servers a session knows of, and which of them it starts (compat-surface §6). Sources,
 * strongest first: `--mcp-config` (`dynamic`), local (this folder's entry in the user state),
 * project (`.mcp.json`), user (the user state's `mcpServers`). Yoke's user state is
 * `$YOKE_HOME/state.json`; Claude Code's `~/.claude.json` is read too, Yoke's own entry winning
 * within a scope. `--strict-mcp-config` keeps only `--mcp-config`; `--bare` discovers nothing.
 *
 * A project's `.mcp.json` is written by whoever wrote the repository (principle 9): its servers
 * start headless (as Claude Code does), but interactively only once the user approved them for
 * this folder, or a setting the project itself did not write enables them.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseJsonText, readJsonObjectFile } from '../config/json-file';
import { claudeUserFile } from '../config/project-trust';
import type { SettingsSource } from '../config/settings-merge';
import { projectsOf, readUserState } from '../config/user-state';
import { isJsonObject, type JsonObject } from '../lib/json-object';
import { type McpServerConfig, parseServerMap } from './server-config';

type Env = Readonly<Record<string, string | undefined>>;

/** Where a server's entry came from; `system/init.mcp_servers[].source` carries it. */
export type McpServerSource = 'dynamic' | 'local' | 'project' | 'user' | 'plugin';

export type ConfiguredServer = {
  name: string;
  config: McpServerConfig;
  source: McpServerSource;
  /** Why the session does not start it, when it does not (one line for the user and the model). */
  disabledReason?: string;
};

export type McpConfiguration = { servers: ConfiguredServer[]; problems: string[] };

/** An unusable `--mcp-config` value: the run stops, since the user asked for exactly those servers. */
export class McpConfigError extends Error {
  override name = 'McpConfigError';
}

export type McpConfigInput = {
  cwd: string;
  env: Env;
  /** Each `--mcp-config` value: inline JSON or a file path. */
  mcpConfigs: readonly string[];
  strict: boolean;
  bare: boolean;
  /** The session's settings sources, for the `.mcp.json` approval settings. */
  settingsSources: readonly SettingsSource[];
  trusted: boolean;
  /** Someone can be asked (the REPL); headless runs start project servers without approval. */
  interactive: boolean;
  /** The enabled plugins' servers (src/plugins), already named `plugin_<plugin>_<server>`. */
  pluginServers?: readonly ConfiguredServer[];
};

/**
 * The configuration as a command outside a session sees it (`yoke mcp list|get|login`): every
 * scope, no `--mcp-config`, and project servers counted as started, as in a headless run.
 */
export function standaloneConfigInput(cwd: string, env: Env): McpConfigInput {
  return {
    cwd,
    env,
    mcpConfigs: [],
    strict: false,
    bare: false,
    settingsSources: [],
    trusted: false,
    interactive: false,
  };
}

export async function loadMcpConfiguration(input: McpConfigInput): Promise<McpConfiguration> {
  const problems: string[] = [];
  const dynamic = new Map<string, ConfiguredServer>();
  for (const value of input.mcpConfigs) {
    for (const [name, config] of await readDynamicConfig(value, input.cwd)) {
      dynamic.set(name, { name, config, source: 'dynamic' });
    }
  }
  if (input.strict || input.bare) return { servers: [...dynamic.values()], problems };

  const [yokeState, claude, project] = await Promise.all([
    readUserState(input.env),
    readClaudeServers(input.env, input.cwd, problems),
    readProjectServers(input.cwd, problems),
  ]);
  if (yokeState.problem) problems.push(yokeState.problem);
  const yoke = readStateServers(yokeState.state, input.cwd, 'Yoke user state', problems);
  const approval = projectApproval(input, yoke.projectEntry, claude.projectEntry);
  const merged = new Map<string, ConfiguredServer>();
  const put = (servers: Map<string, McpServerConfig>, source: McpServerSource) => {
    for (const [name, config] of servers) merged.set(name, { name, config, source });
  };
  // Weakest first, so a stronger scope replaces an entry of the same name.
  for (const server of input.pluginServers ?? []) merged.set(server.name, server);
  put(claude.user, 'user');
  put(yoke.user, 'user');
  for (const [name, config] of project) {
    const disabledReason = approval(name);
    merged.set(name, { name, config, source: 'project', ...(disabledReason ? { disabledReason } : {}) });
  }
  put(claude.local, 'local');
  put(yoke.local, 'local');
  for (const [name, server] of dynamic) merged.set(name, server);
  return { servers: [...merged.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), problems };
}

async function readDynamicConfig(value: string, cwd: string): Promise<Map<string, McpServerConfig>> {
  const inline = value.trim().startsWith('{');
  const where = inline ? '--mcp-config' : `--mcp-config ${value}`;
  let text = value;
  if (!inline) {
    try {
      text = await readFile(resolve(cwd, value), 'utf8');
    } catch (error) {
      throw new McpConfigError(
        `${where}: ${(error as Error).message}; give a JSON object or a file that holds one`,
      );
    }
  }
  const parsed = parseJsonText(text);
  if ('syntaxError' in parsed) throw new McpConfigError(`${where}: invalid JSON at ${parsed.syntaxError}`);
  if (!isJsonObject(parsed.value))
    throw new McpConfigError(`${where}: expected a JSON object with "mcpServers"`);
  // Claude Code takes both `{"mcpServers": {…}}` and the bare map; so does Yoke.
  const map = parsed.value.mcpServers ?? parsed.value;
  const { servers, problems } = parseServerMap(map, where);
  if (problems.length > 0) throw new McpConfigError(problems.join('; '));
  return servers;
}

type StateServers = {
  user: Map<string, McpServerConfig>;
  local: Map<string, McpServerConfig>;
  projectEntry: JsonObject | undefined;
};

function readStateServers(state: JsonObject, cwd: string, label: string, problems: string[]): StateServers {
  const user = parseServerMap(state.mcpServers, `${label} (user scope)`);
  const projectEntry = projectsOf(state)[cwd];
  const local = parseServerMap(projectEntry?.mcpServers, `${label} (local scope for ${cwd})`);
  problems.push(...user.problems, ...local.problems);
  return { user: user.servers, local: local.servers, projectEntry };
}

async function readClaudeServers(env: Env, cwd: string, problems: string[]): Promise<StateServers> {
  const file = claudeUserFile(env);
  const read = await readJsonObjectFile(file).catch((error: Error) => ({
    kind: 'invalid' as const,
    problem: error.message,
  }));
  if (read.kind === 'invalid') problems.push(`${file}: ${read.problem}; its MCP servers are ignored`);
  return readStateServers(read.kind === 'object' ? read.json : {}, cwd, file, problems);
}

/** The reason a `.mcp.json` server is not started in an interactive session until approved. */
export const AWAITING_APPROVAL = "it comes from this folder's .mcp.json and waits for your approval";

export const projectConfigPath = (cwd: string): string => join(cwd, '.mcp.json');

async function readProjectServers(cwd: string, problems: string[]): Promise<Map<string, McpServerConfig>> {
  const path = projectConfigPath(cwd);
  const read = await readJsonObjectFile(path).catch((error: Error) => ({
    kind: 'invalid' as const,
    problem: error.message,
  }));
  if (read.kind === 'invalid') {
    problems.push(`${path}: ${read.problem}; its MCP servers are not started until it is fixed`);
    return new Map();
  }
  if (read.kind === 'missing') return new Map();
  const { servers, problems: entryProblems } = parseServerMap(read.json.mcpServers, path);
  problems.push(...entryProblems);
  return servers;
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * Whether a `.mcp.json` server may start, as a reason it may not (undefined: it starts). A "no"
 * anywhere wins; a "yes" counts from the user's own files, and from the project's settings only in
 * a trusted folder (an untrusted repository cannot approve its own servers).
 */
function projectApproval(
  input: McpConfigInput,
  ...stateEntries: (JsonObject | undefined)[]
): (name: string) => string | undefined {
  const enabled = new Set<string>();
  const disabled = new Map<string, string>();
  let enableAll = false;
  for (const { source, path, settings } of input.settingsSources) {
    const record = settings as Record<string, unknown>;
    for (const name of names(record.disabledMcpjsonServers)) {
      disabled.set(name, `turned off by disabledMcpjsonServers in ${path ?? source}`);
    }
    if (source === 'projectSettings' && !input.trusted) continue;
    for (const name of names(record.enabledMcpjsonServers)) enabled.add(name);
    if (record.enableAllProjectMcpServers === true) enableAll = true;
  }
  for (const entry of stateEntries) {
    for (const name of names(entry?.disabledMcpjsonServers))
      disabled.set(name, 'you declined it for this folder');
    for (const name of names(entry?.enabledMcpjsonServers)) enabled.add(name);
  }
  return (name) => {
    const no = disabled.get(name);
    if (no) return no;
    if (enableAll || enabled.has(name) || !input.interactive) return undefined;
    return AWAITING_APPROVAL;
  };
}
