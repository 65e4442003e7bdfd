/**
 * `yoke mcp add|add-json|remove|list|get`, with the options Claude Code users know: `-s/--scope
 * local|project|user` (local by default), `-t/--transport stdio|http|sse`, `-e/--env KEY=VALUE`
 * and `-H/--header "Name: value"`. `list` and `get` connect to the servers, so what they show is
 * what a session would get. Entries are checked with the same rules a session reads them by.
 */
import type { Env } from '../../config/paths';
import { isJsonObject, type JsonObject } from '../../lib/json-object';
import { loadMcpConfiguration, standaloneConfigInput } from '../../mcp/config-sources';
import { readScopes, WRITABLE_SCOPES, type WritableScope, writeServer } from '../../mcp/config-store';
import { connectionOptionsFromEnv, McpManager, type McpServerReport } from '../../mcp/manager';
import { parseServerConfig } from '../../mcp/server-config';
import { serverStatusText } from '../../mcp/status-text';
import { CliUsageError } from '../errors';

export type McpCommandContext = { cwd: string; env: Env; print: (line: string) => void };

export const MCP_USAGE = [
  'usage: yoke mcp add [-s local|project|user] [-t stdio|http|sse] [-e KEY=VALUE]... [-H "Name: value"]... <name> <command-or-url> [args...]',
  '       yoke mcp add-json [-s scope] <name> <json>',
  '       yoke mcp remove [-s scope] <name>',
  '       yoke mcp list',
  '       yoke mcp get <name>',
].join('\n');

type Parsed = {
  scope?: WritableScope;
  transport?: string;
  env: string[];
  headers: string[];
  positional: string[];
};

/**
 * Options come before the name; for a stdio server every word after `<name> <command>` (or after
 * `--`) is the server's own. An http or sse server has no words of its own, so options may follow its URL.
 */
function parseArgs(args: readonly string[], positionalsBeforeRest: number): Parsed {
  const out: Parsed = { env: [], headers: [], positional: [] };
  const value = (flag: string, i: number) => {
    const v = args[i + 1];
    if (v === undefined) throw new CliUsageError(`${flag} needs a value\n${MCP_USAGE}`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (out.positional.length >= positionalsBeforeRest && (out.transport ?? 'stdio') === 'stdio') {
      out.positional.push(...args.slice(i));
      break;
    }
    if (arg === '--') {
      out.positional.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-s' || arg === '--scope') {
      const scope = value(arg, i++);
      if (!(WRITABLE_SCOPES as readonly string[]).includes(scope)) {
        throw new CliUsageError(`--scope must be local, project or user (got "${scope}")`);
      }
      out.scope = scope as WritableScope;
    } else if (arg === '-t' || arg === '--transport') out.transport = value(arg, i++);
    else if (arg === '-e' || arg === '--env') out.env.push(value(arg, i++));
    else if (arg === '-H' || arg === '--header') out.headers.push(value(arg, i++));
    else if (arg.startsWith('-') && arg !== '-')
      throw new CliUsageError(`unknown option ${arg}\n${MCP_USAGE}`);
    else out.positional.push(arg);
  }
  return out;
}

function pairs(items: readonly string[], separator: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at > 0 ? item.slice(0, at).trim() : '';
    if (!key)
      throw new CliUsageError(
        `${what} must look like ${separator === '=' ? 'KEY=VALUE' : '"Name: value"'} (got "${item}")`,
      );
    out[key] = item.slice(at + 1).trim();
  }
  return out;
}

async function save(
  context: McpCommandContext,
  scope: WritableScope,
  name: string,
  entry: JsonObject,
): Promise<number> {
  const parsed = parseServerConfig(name, entry);
  if (!parsed.ok) throw new CliUsageError(parsed.problem);
  const scopes = await readScopes(context.env, context.cwd);
  if (scopes[scope][name] !== undefined) {
    throw new CliUsageError(
      `MCP server "${name}" already exists in the ${scope} scope; remove it first with \`yoke mcp remove -s ${scope} ${name}\``,
    );
  }
  await writeServer(context.env, context.cwd, scope, name, entry);
  context.print(
    `Added ${parsed.config.type} MCP server "${name}" to the ${scope} scope (${describeScope(scope)}).`,
  );
  return 0;
}

const describeScope = (scope: WritableScope) =>
  scope === 'project'
    ? '.mcp.json in this folder'
    : scope === 'user'
      ? 'every folder'
      : 'this folder only, private to you';

async function add(args: readonly string[], context: McpCommandContext): Promise<number> {
  const parsed = parseArgs(args, 2);
  const [name, target, ...rest] = parsed.positional;
  if (!name || !target) throw new CliUsageError(MCP_USAGE);
  const transport = parsed.transport ?? 'stdio';
  if (transport === 'stdio') {
    if (parsed.headers.length > 0)
      throw new CliUsageError('-H headers are for http and sse servers; give -t http or -t sse');
    const entry: JsonObject = { type: 'stdio', command: target, args: rest };
    if (parsed.env.length > 0) entry.env = pairs(parsed.env, '=', '-e');
    return save(context, parsed.scope ?? 'local', name, entry);
  }
  if (transport !== 'http' && transport !== 'sse') {
    throw new CliUsageError(`--transport must be stdio, http or sse (got "${transport}")`);
  }
  if (rest.length > 0)
    throw new CliUsageError(`an ${transport} server takes a URL and no arguments (got "${rest.join(' ')}")`);
  if (parsed.env.length > 0)
    throw new CliUsageError("-e sets a stdio server's environment; use -H for http and sse");
  const entry: JsonObject = { type: transport, url: target };
  if (parsed.headers.length > 0) entry.headers = pairs(parsed.headers, ':', '-H');
  return save(context, parsed.scope ?? 'local', name, entry);
}

async function addJson(args: readonly string[], context: McpCommandContext): Promise<number> {
  const parsed = parseArgs(args, 2);
  const [name, json, ...extra] = parsed.positional;
  if (!name || !json || extra.length > 0) throw new CliUsageError(MCP_USAGE);
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    throw new CliUsageError(`add-json: the JSON is not valid: ${(error as Error).message}`);
  }
  if (!isJsonObject(entry)) throw new CliUsageError('add-json: give the server entry as a JSON object');
  return save(context, parsed.scope ?? 'local', name, entry);
}

async function remove(args: readonly string[], context: McpCommandContext): Promise<number> {
  const parsed = parseArgs(args, 1);
  const [name, ...extra] = parsed.positional;
  if (!name || extra.length > 0) throw new CliUsageError(MCP_USAGE);
  const scopes = await readScopes(context.env, context.cwd);
  const holding = WRITABLE_SCOPES.filter((scope) => scopes[scope][name] !== undefined);
  const scope = parsed.scope ?? (holding.length === 1 ? holding[0] : undefined);
  if (!scope || !holding.includes(scope)) {
    throw new CliUsageError(
      holding.length === 0
        ? `No MCP server named "${name}" in Yoke's local, project or user scope`
        : parsed.scope
          ? `MCP server "${name}" is not in the ${parsed.scope} scope; it is in: ${holding.join(', ')}`
          : `MCP server "${name}" is in several scopes (${holding.join(', ')}); say which with -s`,
    );
  }
  await writeServer(context.env, context.cwd, scope, name, undefined);
  context.print(`Removed MCP server "${name}" from the ${scope} scope.`);
  return 0;
}

/** Every server a session here would know of, connected (project servers count as approved). */
async function connectAll(context: McpCommandContext): Promise<{ manager: McpManager; problems: string[] }> {
  const configuration = await loadMcpConfiguration(standaloneConfigInput(context.cwd, context.env));
  const manager = new McpManager(configuration.servers, connectionOptionsFromEnv(context.env, context.cwd));
  manager.start();
  await manager.whenSettled();
  return { manager, problems: configuration.problems };
}

async function list(context: McpCommandContext): Promise<number> {
  const { manager, problems } = await connectAll(context);
  try {
    for (const problem of problems) context.print(`warning: ${problem}`);
    const reports = manager.statuses();
    if (reports.length === 0) {
      context.print('No MCP servers configured. Add one with `yoke mcp add <name> <command> [args...]`.');
      return 0;
    }
    for (const report of reports) {
      context.print(`${report.name} (${report.source}, ${report.transport}): ${serverStatusText(report)}`);
    }
    return reports.every((r) => r.status === 'connected') ? 0 : 1;
  } finally {
    await manager.close();
  }
}

async function get(args: readonly string[], context: McpCommandContext): Promise<number> {
  const [name, ...extra] = args;
  if (!name || extra.length > 0) throw new CliUsageError('usage: yoke mcp get <name>');
  const { manager } = await connectAll(context);
  try {
    const connection = manager.connection(name);
    if (!connection)
      throw new CliUsageError(`No MCP server named "${name}"; \`yoke mcp list\` shows the configured ones`);
    const report = manager.statuses().find((r) => r.name === name) as McpServerReport;
    const config = connection.server.config;
    context.print(`${name}:`);
    context.print(`  scope: ${report.source}`);
    context.print(`  type: ${config.type}`);
    if (config.type === 'stdio') {
      context.print(`  command: ${[config.command, ...config.args].join(' ')}`);
      for (const key of Object.keys(config.env)) context.print(`  env: ${key}=…`);
    } else {
      context.print(`  url: ${config.url}`);
      for (const key of Object.keys(config.headers)) context.print(`  header: ${key}: …`);
    }
    context.print(`  status: ${serverStatusText(report)}`);
    for (const tool of report.tools) context.print(`  tool: mcp__${name}__${tool.name}`);
    return report.status === 'connected' ? 0 : 1;
  } finally {
    await manager.close();
  }
}

export async function runMcpCommand(args: readonly string[], context: McpCommandContext): Promise<number> {
  const [verb, ...rest] = args;
  switch (verb) {
    case 'add':
      return add(rest, context);
    case 'add-json':
      return addJson(rest, context);
    case 'remove':
      return remove(rest, context);
    case 'list':
      if (rest.length > 0) throw new CliUsageError('usage: yoke mcp list');
      return list(context);
    case 'get':
      return get(rest, context);
    default:
      throw new CliUsageError(MCP_USAGE);
  }
}
