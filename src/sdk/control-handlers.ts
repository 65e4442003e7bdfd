/**
 * Answers the host's control requests (agent-sdk-protocol.md §4.1). Each handler returns the
 * success payload or throws; the session turns a throw into an error answer. Unknown subtypes are
 * refused by name, which the SDK surfaces as a rejected promise and nothing worse.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { resolveModelAlias } from '../model/models';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types';
import type { SdkMcpConnection } from './mcp-bridge';
import type { JsonObject } from './ndjson';
import type { SessionEngine } from './types';

/** The parts of the session the handlers act on. */
export type ControlContext = {
  initialize(request: JsonObject): Promise<JsonObject>;
  engine(): Promise<SessionEngine>;
  /** The model the session started with, for `set_model` with null or 'default'. */
  defaultModel(): string | undefined;
  turnRunning(): boolean;
  /** Aborts the running turn, if any. */
  interruptTurn(): void;
  /** Ids of user messages waiting for their turn; `cancel` drops them from the queue. */
  queuedTurns(cancel: boolean): string[];
  mcpConnections(): readonly SdkMcpConnection[];
};

export class UnsupportedControlRequest extends Error {
  override name = 'UnsupportedControlRequest';
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
      return { mcpServers: context.mcpConnections().map(mcpStatus) };
    case 'mcp_message':
      return relayMcpMessage(context, request);
    default:
      throw new UnsupportedControlRequest(`Unsupported control request subtype: ${subtype}`);
  }
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

function mcpStatus(connection: SdkMcpConnection): JsonObject {
  const status: JsonObject = {
    name: connection.name,
    status: connection.status,
    scope: 'sdk',
    source: 'sdk',
  };
  if (connection.serverInfo) status.serverInfo = connection.serverInfo;
  if (connection.error) status.error = connection.error;
  if (connection.status === 'connected') {
    status.tools = connection.descriptors.map((tool) => {
      const entry: JsonObject = { name: tool.name };
      if (tool.description) entry.description = tool.description;
      const hints = tool.annotations;
      if (hints) entry.annotations = { readOnly: hints.readOnlyHint, destructive: hints.destructiveHint };
      return entry;
    });
  }
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
