/**
 * One MCP server's configuration as `.mcp.json`, `--mcp-config`, the user state and Claude Code's
 * `~/.claude.json` write it (compat-surface §6), checked into a shape where every transport has
 * exactly the fields it needs. A bad entry becomes one line naming the server and the field, and
 * the other servers still load.
 */
import { isJsonObject } from '../lib/json-object';
import { type McpOAuthConfig, parseOAuth } from './oauth-config';

export type { McpOAuthConfig } from './oauth-config';

type Common = {
  /** Per tool call, in ms (the reference's `timeout`); `MCP_TOOL_TIMEOUT` when absent. */
  timeout?: number;
  /** Never defer this server's tools behind ToolSearch. */
  alwaysLoad?: boolean;
};

export type McpStdioServerConfig = Common & {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
};

export type McpRemoteServerConfig = Common & {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  oauth?: McpOAuthConfig;
};

export type McpServerConfig = McpStdioServerConfig | McpRemoteServerConfig;

export type ParsedServerConfig = { ok: true; config: McpServerConfig } | { ok: false; problem: string };

const stringRecord = (value: unknown): value is Record<string, string> =>
  isJsonObject(value) && Object.values(value).every((v) => typeof v === 'string');

/** Server names become part of tool names; the API allows `[A-Za-z0-9_-]` there. */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export function parseServerConfig(name: string, raw: unknown): ParsedServerConfig {
  const fail = (why: string): ParsedServerConfig => ({ ok: false, problem: `MCP server "${name}": ${why}` });
  if (!SERVER_NAME_PATTERN.test(name)) {
    return fail('the name may use only letters, digits, ".", "_" and "-" (at most 64)');
  }
  if (!isJsonObject(raw)) return fail('its entry must be a JSON object');
  const common: Common = {};
  if (raw.timeout !== undefined) {
    if (typeof raw.timeout !== 'number' || !Number.isFinite(raw.timeout) || raw.timeout < 1000) {
      return fail('"timeout" must be a number of milliseconds, at least 1000');
    }
    common.timeout = raw.timeout;
  }
  if (raw.alwaysLoad !== undefined) {
    if (typeof raw.alwaysLoad !== 'boolean') return fail('"alwaysLoad" must be true or false');
    common.alwaysLoad = raw.alwaysLoad;
  }
  const type = raw.type ?? (raw.url !== undefined && raw.command === undefined ? 'http' : 'stdio');
  if (type === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      return fail('"command" must be a non-empty string');
    if (
      raw.args !== undefined &&
      !(Array.isArray(raw.args) && raw.args.every((a) => typeof a === 'string'))
    ) {
      return fail('"args" must be a list of strings');
    }
    if (raw.env !== undefined && !stringRecord(raw.env)) return fail('"env" must map names to string values');
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') return fail('"cwd" must be a string');
    const config: McpStdioServerConfig = {
      ...common,
      type: 'stdio',
      command: raw.command,
      args: (raw.args as string[] | undefined) ?? [],
      env: (raw.env as Record<string, string> | undefined) ?? {},
    };
    if (typeof raw.cwd === 'string') config.cwd = raw.cwd;
    return { ok: true, config };
  }
  if (type === 'http' || type === 'sse') {
    if (typeof raw.url !== 'string' || raw.url === '') return fail('"url" must be a non-empty string');
    if (raw.headers !== undefined && !stringRecord(raw.headers))
      return fail('"headers" must map names to string values');
    const oauth = parseOAuth(raw.oauth);
    if (typeof oauth === 'string') return fail(oauth);
    return {
      ok: true,
      config: {
        ...common,
        type,
        url: raw.url,
        headers: (raw.headers as Record<string, string> | undefined) ?? {},
        ...(oauth ? { oauth } : {}),
      },
    };
  }
  if (type === 'sdk')
    return fail('type "sdk" servers live in an Agent SDK host and cannot be started from a file');
  return fail(`unknown type ${JSON.stringify(type)}; expected stdio, http or sse`);
}

/** The `mcpServers` object of a config file, each entry checked; bad ones become problem lines. */
export function parseServerMap(
  value: unknown,
  where: string,
): { servers: Map<string, McpServerConfig>; problems: string[] } {
  const servers = new Map<string, McpServerConfig>();
  const problems: string[] = [];
  if (value === undefined) return { servers, problems };
  if (!isJsonObject(value)) return { servers, problems: [`${where}: "mcpServers" must be an object`] };
  for (const [name, raw] of Object.entries(value)) {
    const parsed = parseServerConfig(name, raw);
    if (parsed.ok) servers.set(name, parsed.config);
    else problems.push(`${where}: ${parsed.problem}`);
  }
  return { servers, problems };
}
