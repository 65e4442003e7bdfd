/**
 * The Agent SDK's `agents` option against the built CLI: the SDK sends them in `initialize`
 * (Yoke used to exit on them), the model delegates to one, the host sees the worker's messages
 * nested under the Agent call, and a permission question from the worker reaches the host's
 * `canUseTool` with the agent named.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CanUseTool, query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { sdkEnv, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('SDK agents', () => {
  it('offers the SDK-defined agent, nests its messages, and asks the host for its Write with the agent named', async () => {
    server = await startMockServer({
      scenario: [
        {
          match: { systemContains: 'You are the notes writer.' },
          reply: {
            content: [
              { type: 'tool_use', name: 'Write', input: { file_path: 'notes.txt', content: 'noted\n' } },
            ],
          },
        },
        {
          match: { systemContains: 'You are the notes writer.' },
          reply: { content: [{ type: 'text', text: 'NOTES WRITTEN' }] },
        },
        {
          match: { lastToolResultContains: 'NOTES WRITTEN' },
          reply: { content: [{ type: 'text', text: 'All set.' }] },
        },
        {
          reply: {
            content: [
              {
                type: 'tool_use',
                id: 'toolu_notes',
                name: 'Agent',
                input: {
                  description: 'Write the notes',
                  prompt: 'Write notes.txt',
                  subagent_type: 'notes-writer',
                },
              },
            ],
          },
        },
      ],
    });
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    const asked: { tool: string; agentID: string | undefined }[] = [];
    const canUseTool: CanUseTool = async (tool, input, options) => {
      asked.push({ tool, agentID: options.agentID });
      return { behavior: 'allow', updatedInput: input };
    };
    let stderr = '';
    const q = query({
      prompt: 'Take notes',
      options: {
        pathToClaudeCodeExecutable: YOKE_BIN,
        cwd: project,
        env: sdkEnv(server.url, home),
        canUseTool,
        agents: {
          'notes-writer': {
            description: 'Writes notes files.',
            prompt: 'You are the notes writer.',
            tools: ['Write', 'Read'],
          },
        },
        stderr: (text) => {
          stderr += text;
        },
      },
    });
    const agents = await q.supportedAgents();
    const messages: SDKMessage[] = [];
    for await (const message of q) messages.push(message);

    expect(messages.at(-1), stderr).toMatchObject({ type: 'result', subtype: 'success', result: 'All set.' });
    expect(agents.map((agent) => agent.name)).toEqual(['Explore', 'general-purpose', 'notes-writer', 'Plan']);
    const init = messages.find((m) => m.type === 'system' && m.subtype === 'init') as { agents?: string[] };
    expect(init.agents).toContain('notes-writer');

    const nested = messages.filter(
      (m) => (m.type === 'assistant' || m.type === 'user') && m.parent_tool_use_id === 'toolu_notes',
    );
    expect(nested.map((m) => m.type)).toEqual(['user', 'assistant', 'user', 'assistant']);

    expect(asked).toHaveLength(1);
    expect(asked[0]?.tool).toBe('Write');
    expect(asked[0]?.agentID).toMatch(/^a[0-9a-f]{16}$/);
    expect(await readFile(join(project, 'notes.txt'), 'utf8')).toBe('noted\n');
  });
});
