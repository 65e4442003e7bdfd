/**
 * Answers the host's control requests (agent-sdk-protocol.md §4.1). Each handler returns the
 * success payload or throws; the session turns a throw into an error answer. Unknown subtypes are
 * refused by name, which the SDK surfaces as a rejected promise and nothing worse.
 */

import { isAbsolute } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../lib/json-object';
import type { McpServerReport } from '../mcp/manager';
import { resolveModelAlias } from '../model/models';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types';
import type { McpToolDescriptor } from '../tools/mcp/tool-adapter';
import type { SdkMcpConnection } from './mcp-bridge';
import type { JsonObject } from './ndjson';
import type { McpServerControl, SessionEngine, SessionReloader } from './types';

/** The parts of the session the handlers act on. */
export type ControlContext = {
  initialize(request: JsonObject): Promise<JsonObject>;
  engine(): Promise<SessionEngine>;
  /** The model the session started with, for `set_model` with null or 'default'. */
  defaultModel(): string | undefined;
  turnRunning(): boolean;
  /**
   * Why the session is busy for a `refuse_if_busy` reload (a turn running or about to, messages
   * queued for one, background agents at work), or undefined when idle.
   */
  busyWith(): string | undefined;
  /** Aborts the running turn, if any. */
  interruptTurn(): void;
  /** Ids of user messages waiting for their turn; `cancel` drops them from the queue. */
  queuedTurns(cancel: boolean): string[];
  mcpConnections(): readonly SdkMcpConnection[];
  /** The configured (non-SDK) servers, once the engine is set up; undefined when there are none. */
  mcpServers(): Promise<McpServerControl | undefined>;
  /** What reloads plugins and skills from disk; undefined when this session cannot. */
  reloader(): Promise<SessionReloader | undefined>;
};

export class UnsupportedControlRequest extends Error {
  override name = 'UnsupportedControlRequest';
}

/** A refusal with the machine-readable `error_code` the SDK documents for it. */
export class CodedControlError extends Error {
  override name = 'CodedControlError';
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** The success payload, and what to do once it has been written (the interrupt's abort). */
export type ControlAnswer = { payload: JsonObject; afterAnswer?: () => void };

export async function handleControlRequest(
  context: ControlContext,
  request: JsonObject,
): Promise<ControlAnswer> {
  if (request.subtype === 'interrupt') return interrupt(context, request.cancel_queued === true);
  return { payload: await answer(context, request) };
}

async function answer(context: ControlContext, request: JsonObject): Promise<JsonObject> {
  const subtype = String(request.subtype);
  switch (subtype) {
    case 'initialize':
      return context.initialize(request);
    case 'set_permission_mode': {
      const mode = request.mode;
      if (!(PERMISSION_MODES as readonly unknown[]).includes(mode)) {
        throw new Error(
          `Unknown permission mode ${JSON.stringify(mode)}; expected one of ${PERMISSION_MODES.join(', ')}.`,
        );
      }
      const engine = await context.engine();
      engine.setPermissionMode(mode as PermissionMode);
      return { mode: engine.permissionMode };
    }
    case 'set_model': {
      const engine = await context.engine();
      const requested = request.model;
      const model =
        typeof requested === 'string' && requested !== '' && requested !== 'default'
          ? resolveModelAlias(requested)
          : (context.defaultModel() ?? engine.currentModel);
      engine.setModel(model);
      return { model: engine.currentModel };
    }
    case 'set_max_thinking_tokens': {
      const engine = await context.engine();
      if (!engine.setMaxThinkingTokens) throw new Error('This session cannot change its thinking budget.');
      const tokens = request.max_thinking_tokens;
      engine.setMaxThinkingTokens(typeof tokens === 'number' && tokens >= 0 ? tokens : null);
      return {};
    }
    case 'mcp_status':
      return { mcpServers: await mcpStatuses(context) };
    case 'reload_skills':
      return (await reloader(context)).skills({ idle: () => !context.turnRunning() });
    case 'reload_plugins': {
      const addPluginDirs = pluginPaths(request.add_plugins);
      refuseIfBusy(context, request.refuse_if_busy);
      const idle = () => !context.turnRunning();
      const answer = await (await reloader(context)).plugins({ idle, addPluginDirs });
      return { ...answer, mcpServers: await mcpStatuses(context) };
    }
    case 'mcp_reconnect':
      await (await configuredServers(context, request.serverName)).reconnect(String(request.serverName));
      return {};
    case 'mcp_toggle':
      if (typeof request.enabled !== 'boolean') throw new Error('mcp_toggle needs "enabled": true or false.');
      await (await configuredServers(context, request.serverName)).setEnabled(
        String(request.serverName),
        request.enabled,
      );
      return {};
    case 'mcp_message':
      return relayMcpMessage(context, request);
    default:
      throw new UnsupportedControlRequest(`Unsupported control request subtype: ${subtype}`);
  }
}

async function mcpStatuses(context: ControlContext): Promise<JsonObject[]> {
  const configured = (await context.mcpServers())?.statuses() ?? [];
  return [...context.mcpConnections().map(mcpStatus), ...configured.map(configuredStatus)];
}

/**
 * `refuse_if_busy: true` (the SDK's `reloadPlugins({refuseIfBusy})`, advertised as
 * `reload_plugins_refuse_if_busy_v1`): a host whose request may arrive late would rather hear
 * "busy" than have the reload held for the next turn. Unset, a busy session holds it (as before).
 */
function refuseIfBusy(context: ControlContext, refuse: unknown): void {
  if (refuse !== undefined && typeof refuse !== 'boolean')
    throw new Error('refuse_if_busy must be true or false; nothing was reloaded.');
  const busy = refuse ? context.busyWith() : undefined;
  if (busy)
    throw new CodedControlError(
      `The session is busy (${busy}), so nothing was reloaded (refuse_if_busy); ask again once it is idle.`,
      'reload_plugins_busy',
    );
}

async function reloader(context: ControlContext): Promise<SessionReloader> {
  const found = await context.reloader();
  if (!found) throw new Error('This session cannot reload plugins or skills.');
  return found;
}

/** `add_plugins`: the SDK's `plugins` entries, `{type: 'local', path}` with an absolute path. */
function pluginPaths(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error('add_plugins must be a list of {"type": "local", "path": …}.');
  return value.map((entry, i) => {
    const path = isJsonObject(entry) && entry.type === 'local' ? entry.path : undefined;
    if (typeof path !== 'string' || !isAbsolute(path))
      throw new Error(
        `add_plugins[${i}] must be {"type": "local", "path": <absolute path>}; nothing was reloaded.`,
      );
    return path;
  });
}

/**
 * The receipt must reach the host before the aborted turn's frames (agent-sdk-protocol §4.3), so the abort runs only
 * after the answer is written. With no turn running there is nothing to receipt: a plain success.
 */
function interrupt(context: ControlContext, cancelQueued: boolean): ControlAnswer {
  const queued = context.queuedTurns(cancelQueued);
  if (!context.turnRunning()) return { payload: cancelQueued ? { cancelled: queued } : {} };
  const payload = cancelQueued ? { still_queued: [], cancelled: queued } : { still_queued: queued };
  return { payload, afterAnswer: () => context.interruptTurn() };
}

/** The servers a reconnect or toggle may act on; an SDK server is the host's to manage. */
async function configuredServers(context: ControlContext, name: unknown): Promise<McpServerControl> {
  if (typeof name !== 'string' || name === '') throw new Error('Name the MCP server in "serverName".');
  if (context.mcpConnections().some((c) => c.name === name)) {
    throw new Error(`MCP server "${name}" lives in the SDK host; connect or disconnect it there.`);
  }
  const servers = await context.mcpServers();
  if (!servers) throw new Error(`No MCP server named "${name}": this session has none configured.`);
  return servers;
}

function toolEntries(tools: readonly McpToolDescriptor[]): JsonObject[] {
  return tools.map((tool) => {
    const entry: JsonObject = { name: tool.name };
    if (tool.description) entry.description = tool.description;
    const hints = tool.annotations;
    if (hints) entry.annotations = { readOnly: hints.readOnlyHint, destructive: hints.destructiveHint };
    return entry;
  });
}

function configuredStatus(report: McpServerReport): JsonObject {
  const status: JsonObject = {
    name: report.name,
    status: report.status,
    scope: report.source,
    source: report.source,
  };
  if (report.serverInfo) status.serverInfo = report.serverInfo;
  if (report.error) status.error = report.error;
  if (report.status === 'connected') status.tools = toolEntries(report.tools);
  return status;
}

function mcpStatus(connection: SdkMcpConnection): JsonObject {
  const status: JsonObject = {
    name: connection.name,
    status: connection.status,
    scope: 'sdk',
    source: 'sdk',
  };
  if (connection.serverInfo) status.serverInfo = connection.serverInfo;
  if (connection.error) status.error = connection.error;
  if (connection.status === 'connected') status.tools = toolEntries(connection.descriptors);
  return status;
}

/** A message the host's server originated (a notification, or a request of its own). */
function relayMcpMessage(context: ControlContext, request: JsonObject): JsonObject {
  const name = request.server_name;
  const connection = context.mcpConnections().find((c) => c.name === name);
  if (!connection) throw new Error(`SDK MCP server not found: ${String(name)}`);
  if (request.message && typeof request.message === 'object') {
    connection.transport.deliver(request.message as JSONRPCMessage);
  }
  return {};
}
