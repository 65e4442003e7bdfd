/**
 * `permissions.denyInsteadOfPrompting` and `permissions.disableAutoMode` from a settings file, as a
 * user meets them: headless (`-p`) and through the Agent SDK's control requests. A call that would
 * prompt is denied without asking the host, saying why; a switch into auto mode is refused with
 * one line naming the setting; what no prompt would have stopped runs as before.
 */
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, sdkEnv, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
const folders: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The model runs `touch made` (a write no rule allows: it would prompt), then answers. */
const touchThenAnswer: ScenarioInput = [
  {
    match: { lastUserTextContains: 'make' },
    reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made' } }] },
  },
  { match: { lastToolResultContains: '' }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
];

/** A project and a Yoke home whose user settings hold `permissions`. */
async function setUp(permissions: Record<string, unknown>): Promise<{ project: string; home: string }> {
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  folders.push(project, home);
  await writeFile(join(home, 'settings.json'), JSON.stringify({ permissions }));
  return { project, home };
}

describe('permissions.denyInsteadOfPrompting', () => {
  it('denies through the SDK where the host would have been asked, and says why', async () => {
    server = await startMockServer({ scenario: touchThenAnswer });
    const { project, home } = await setUp({ denyInsteadOfPrompting: true });
    const asked: string[] = [];
    const messages: SDKMessage[] = [];
    let stderr = '';
    for await (const message of query({
      prompt: 'make the file',
      options: {
        pathToClaudeCodeExecutable: YOKE_BIN,
        cwd: project,
        env: sdkEnv(server.url, home),
        canUseTool: async (toolName) => {
          asked.push(toolName);
          return { behavior: 'allow', updatedInput: {} };
        },
        stderr: (text) => {
          stderr += text;
        },
      },
    }))
      messages.push(message);
    expect(messages.at(-1), stderr).toMatchObject({ type: 'result', subtype: 'success' });
    expect(asked).toEqual([]);
    expect(existsSync(join(project, 'made'))).toBe(false);
    const result = messages.at(-1) as { permission_denials?: { tool_name: string }[] };
    expect(result.permission_denials?.map((d) => d.tool_name)).toEqual(['Bash']);
    const toolResult = JSON.stringify(server.requests.at(-1)?.body);
    expect(toolResult).toContain('the settings deny instead of asking (permissions.denyInsteadOfPrompting)');
  });

  it('leaves allowed calls alone (control): an allow rule still runs the command', async () => {
    server = await startMockServer({ scenario: touchThenAnswer });
    const { project, home } = await setUp({ denyInsteadOfPrompting: true, allow: ['Bash(touch made)'] });
    const run = await runYoke(['-p', 'make the file'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, 'made'))).toBe(true);
  });
});

describe('permissions.disableAutoMode', () => {
  let project: string;
  let home: string;
  beforeAll(async () => {
    ({ project, home } = await setUp({ disableAutoMode: 'disable' }));
  });

  it('refuses --permission-mode auto in one line and runs in default mode', async () => {
    server = await startMockServer({ scenario: [{ reply: { content: [{ type: 'text', text: 'hi' }] } }] });
    const run = await runYoke(
      ['-p', 'hello', '--permission-mode', 'auto', '--output-format', 'stream-json', '--verbose'],
      {
        cwd: project,
        env: mockEnv(server.url, home),
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'Permission mode auto is disabled by permissions.disableAutoMode (userSettings). Using default.',
    );
    const init = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; subtype?: string; permissionMode?: string })
      .find((frame) => frame.type === 'system' && frame.subtype === 'init');
    expect(init?.permissionMode).toBe('default');
  });

  it('refuses set_permission_mode auto from the SDK, and still takes another mode (control)', async () => {
    server = await startMockServer({ scenario: [{ reply: { content: [{ type: 'text', text: 'hi' }] } }] });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* prompts() {
      yield {
        type: 'user' as const,
        message: { role: 'user' as const, content: 'hello' },
        parent_tool_use_id: null,
        session_id: '',
      };
      await held;
    }
    const q = query({
      prompt: prompts(),
      options: { pathToClaudeCodeExecutable: YOKE_BIN, cwd: project, env: sdkEnv(server.url, home) },
    });
    const refused = await q.setPermissionMode('auto').then(
      () => 'switched',
      (error: Error) => error.message,
    );
    expect(refused).toContain(
      'Permission mode auto is disabled by permissions.disableAutoMode (userSettings).',
    );
    await expect(q.setPermissionMode('acceptEdits')).resolves.not.toThrow();
    release();
    for await (const _ of q) {
      // drain to the end of the session
    }
  });
});
