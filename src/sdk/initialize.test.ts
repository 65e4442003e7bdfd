import { describe, expect, it } from 'vitest';
import { buildInitializeResponse, parseInitialize, SDK_IDENTITY_PROMPT } from './initialize';
import type { SessionEngine } from './types';

const engine = { permissionMode: 'default', currentModel: 'm', sessionId: 's' } as SessionEngine;

describe('initialize', () => {
  it('maps the systemPrompt forms of agent-sdk-protocol §4.2', () => {
    expect(parseInitialize({ systemPrompt: [''] }).extras.systemPromptOverride).toBe(SDK_IDENTITY_PROMPT);
    expect(parseInitialize({ systemPrompt: ['Be terse.'] }).extras.systemPromptOverride).toBe('Be terse.');
    const blocks = parseInitialize({ systemPrompt: ['A', '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__', 'B'] });
    expect(blocks.extras.systemPromptOverride).toBe('A\n\nB');
    // The preset: no systemPrompt at all, Yoke's own prompt, optionally extended.
    const preset = parseInitialize({ appendSystemPrompt: 'Also this.' });
    expect(preset.extras).toEqual({ appendSystemPrompt: 'Also this.' });
  });

  it('reads the schema, agents, SDK MCP servers and their timeouts', () => {
    const config = parseInitialize({
      jsonSchema: { type: 'object' },
      agents: { reviewer: { description: 'Reviews', prompt: 'Review.' } },
      sdkMcpServers: ['calc', 7],
      sdkMcpServerConfigs: { calc: { timeout: 5000 }, other: { timeout: -1 } },
    });
    expect(config.extras.jsonSchema).toEqual({ type: 'object' });
    expect(Object.keys(config.extras.agents ?? {})).toEqual(['reviewer']);
    expect(config.sdkMcpServers).toEqual(['calc']);
    expect(config.mcpCallTimeouts).toEqual({ calc: 5000 });
  });

  it('answers with the fields the SDK reads and the confirmations it demands', () => {
    const minimal = buildInitializeResponse({ systemPrompt: [''] }, { engine, models: [] });
    expect(minimal).toMatchObject({
      commands: [],
      agents: [],
      output_style: 'default',
      available_output_styles: ['default'],
      models: [],
      account: {},
      current_permission_mode: 'default',
    });
    expect(minimal).not.toHaveProperty('hook_on_failure_supported');

    const full = buildInitializeResponse(
      {
        hooks: { PreToolUse: [{ hookCallbackIds: ['hook_0'], onFailure: 'block' }] },
        mcpServers: {},
        sdkMcpServerManifests: { calc: {} },
      },
      { engine, models: [], agents: [{ name: 'reviewer', description: 'Reviews', model: 'inherit' }] },
    );
    expect(full).toMatchObject({
      hooks_applied: true,
      hook_on_failure_supported: true,
      mcp_servers_applied: false,
      sdk_mcp_manifests_parked: { calc: 'not_honoured' },
      agents: [{ name: 'reviewer', description: 'Reviews', model: 'inherit' }],
    });
  });
});
