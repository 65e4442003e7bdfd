/**
 * The `initialize` control request (agent-sdk-protocol.md §4.2): what it configures, and the
 * answer the SDK reads, including the confirmations it insists on for fields it sent.
 */

import { isJsonObject, type JsonObject } from '../lib/json-object';
import type { EffortLevel } from '../model/effort';
import type {
  AgentSummary,
  SdkAgentDefinition,
  SdkCommandInfo,
  SessionEngine,
  StreamJsonEngineExtras,
} from './types';

/**
 * What `systemPrompt: [""]` (the SDK's default) means: no Yoke preset, only a one-line identity,
 * as the SDK's own CLI does. Written for Yoke, not copied.
 */
export const SDK_IDENTITY_PROMPT = 'You are an agent built with the Agent SDK, running on Yoke.';

/** The marker the SDK may put between static and dynamic prompt blocks; not prompt text. */
const DYNAMIC_BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';

export type InitializeConfig = {
  extras: Pick<
    StreamJsonEngineExtras,
    'systemPromptOverride' | 'appendSystemPrompt' | 'jsonSchema' | 'agents' | 'onlySkills'
  >;
  hooks: unknown;
  sdkMcpServers: string[];
  /** Per-server `tools/call` timeouts in ms (`sdkMcpServerConfigs[name].timeout`). */
  mcpCallTimeouts: Record<string, number>;
};

export function parseInitialize(request: JsonObject): InitializeConfig {
  const extras: InitializeConfig['extras'] = {};
  if (Array.isArray(request.systemPrompt)) {
    const parts = request.systemPrompt.filter(
      (p): p is string => typeof p === 'string' && p !== DYNAMIC_BOUNDARY,
    );
    const text = parts.filter((p) => p.trim() !== '').join('\n\n');
    extras.systemPromptOverride = text === '' ? SDK_IDENTITY_PROMPT : text;
  }
  if (typeof request.appendSystemPrompt === 'string' && request.appendSystemPrompt !== '') {
    extras.appendSystemPrompt = request.appendSystemPrompt;
  }
  if (isJsonObject(request.jsonSchema)) extras.jsonSchema = request.jsonSchema;
  if (isJsonObject(request.agents)) extras.agents = request.agents as Record<string, SdkAgentDefinition>;
  if (Array.isArray(request.skills))
    extras.onlySkills = request.skills.filter((name): name is string => typeof name === 'string');

  const sdkMcpServers = Array.isArray(request.sdkMcpServers)
    ? request.sdkMcpServers.filter((name): name is string => typeof name === 'string')
    : [];
  const mcpCallTimeouts: Record<string, number> = {};
  if (isJsonObject(request.sdkMcpServerConfigs)) {
    for (const [name, config] of Object.entries(request.sdkMcpServerConfigs)) {
      const timeout = isJsonObject(config) ? config.timeout : undefined;
      if (typeof timeout === 'number' && timeout > 0) mcpCallTimeouts[name] = timeout;
    }
  }
  return { extras, hooks: request.hooks, sdkMcpServers, mcpCallTimeouts };
}

/** One entry of the initialize answer's `models` (agent-sdk-protocol §4.2). */
export type SdkModelInfo = {
  value: string;
  displayName: string;
  description: string;
  supportsEffort: boolean;
  supportedEffortLevels?: EffortLevel[];
};

export type InitializeAnswerFacts = {
  engine: SessionEngine;
  agents?: readonly AgentSummary[];
  apiKeySource?: string;
  models: SdkModelInfo[];
  /** The session's slash commands and skills (`supportedCommands()`). */
  commands?: SdkCommandInfo[];
};

export function buildInitializeResponse(request: JsonObject, facts: InitializeAnswerFacts): JsonObject {
  const response: JsonObject = {
    commands: facts.commands ?? [],
    agents: [...(facts.agents ?? [])],
    output_style: 'default',
    available_output_styles: ['default'],
    models: facts.models,
    account: facts.apiKeySource ? { apiKeySource: facts.apiKeySource } : {},
    pid: process.pid,
    claude_code_version: YOKE_VERSION,
    yoke_version: YOKE_VERSION,
    current_permission_mode: facts.engine.permissionMode,
    session_state: 'idle',
    // reload_plugins_refuse_if_busy_v1: `reload_plugins` honours `refuse_if_busy` (control-handlers.ts).
    capabilities: ['interrupt_receipt_v1', 'interrupt_cancel_queued_v1', 'reload_plugins_refuse_if_busy_v1'],
  };
  if (request.hooks !== undefined) {
    response.hooks_applied = true;
    // The hook invoker honours `onFailure: 'block'`, so the SDK may rely on it.
    response.hook_on_failure_supported = true;
  }
  // Servers, settings and the rest in `initialize` are only read by a CLI started with
  // --await-initialize, which Yoke is not: say so rather than claim they were applied.
  if (request.mcpServers !== undefined) response.mcp_servers_applied = false;
  if (request.plugins !== undefined) response.plugins_applied = false;
  if (isJsonObject(request.sdkMcpServerManifests)) {
    // Yoke always does the live handshake, which the protocol allows.
    response.sdk_mcp_manifests_parked = Object.fromEntries(
      Object.keys(request.sdkMcpServerManifests).map((name) => [name, 'not_honoured']),
    );
  }
  return response;
}
