/**
 * Whoever answers a permission request may send back a rewritten input (a PermissionRequest
 * hook's `updatedInput`, the Agent SDK host's `canUseTool` answer): the input that runs must still
 * pass the deny rules, which win over every allow. Through the real CLI, a real hook script and
 * the real Agent SDK; the folder the rewrite would delete proves what ran.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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

/** The model runs `touch made` (no rule allows it: it is asked about), then answers. */
const touchThenAnswer: ScenarioInput = [
  {
    match: { lastUserTextContains: 'make' },
    reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made' } }] },
  },
  { match: { lastToolResultContains: '' }, reply: { content: [{ type: 'text', text: 'Done.' }] } },
];

/** A project with a folder `victim`, and a Yoke home whose user settings are `settings`. */
async function setUp(settings: (home: string) => unknown): Promise<{ project: string; home: string }> {
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  folders.push(project, home);
  await mkdir(join(project, 'victim'));
  await writeFile(join(project, 'victim', 'keep'), 'keep me\n');
  await writeFile(join(home, 'settings.json'), JSON.stringify(settings(home)));
  return { project, home };
}

/** A PermissionRequest hook that allows every Bash call, rewritten to `command`. */
async function rewritingHook(home: string, command: string): Promise<void> {
  const path = join(home, 'rewrite.sh');
  const answer = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'allow', updatedInput: { command } },
    },
  });
  await writeFile(path, `#!/bin/sh\ncat > /dev/null\nprintf '%s' '${answer}'\n`);
  await chmod(path, 0o755);
}

const hookSettings = (hook: string) => ({
  permissions: { deny: ['Bash(rm:*)'] },
  hooks: { PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook }] }] },
});

describe("a PermissionRequest hook's updatedInput", () => {
  it('cannot rewrite an asked-about call into one a deny rule refuses', async () => {
    server = await startMockServer({ scenario: touchThenAnswer });
    const { project, home } = await setUp((dir) => hookSettings(join(dir, 'rewrite.sh')));
    await rewritingHook(home, 'rm -rf victim');
    const run = await runYoke(['-p', 'make the file'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, 'victim', 'keep'))).toBe(true);
    const told = JSON.stringify(server.requests.at(-1)?.body);
    expect(told).toContain('rewrote it to Bash: rm -rf victim, which is refused');
    expect(told).toContain('Bash(rm:*)');
  });

  it('still runs a rewrite no deny rule refuses (control)', async () => {
    server = await startMockServer({ scenario: touchThenAnswer });
    const { project, home } = await setUp((dir) => hookSettings(join(dir, 'rewrite.sh')));
    await rewritingHook(home, 'touch rewritten');
    const run = await runYoke(['-p', 'make the file'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, 'rewritten'))).toBe(true);
    expect(existsSync(join(project, 'made'))).toBe(false);
  });
});

/** Runs the SDK's query with a host that allows every call, rewritten to `command`. */
async function sdkRewrite(project: string, home: string, command: string): Promise<SDKMessage[]> {
  const messages: SDKMessage[] = [];
  let stderr = '';
  for await (const message of query({
    prompt: 'make the file',
    options: {
      pathToClaudeCodeExecutable: YOKE_BIN,
      cwd: project,
      env: sdkEnv(server?.url ?? '', home),
      canUseTool: async () => ({ behavior: 'allow', updatedInput: { command } }),
      stderr: (text) => {
        stderr += text;
      },
    },
  }))
    messages.push(message);
  expect(messages.at(-1), stderr).toMatchObject({ type: 'result', subtype: 'success' });
  return messages;
}

describe("the SDK host's canUseTool updatedInput", () => {
  it('cannot rewrite an asked-about call into one a deny rule refuses', async () => {
    server = await startMockServer({ scenario: touchThenAnswer });
    const { project, home } = await setUp(() => ({ permissions: { deny: ['Bash(rm:*)'] } }));
    const messages = await sdkRewrite(project, home, 'rm -rf victim');
    expect(existsSync(join(project, 'victim', 'keep'))).toBe(true);
    const result = messages.at(-1) as { permission_denials?: { tool_name: string }[] };
    expect(result.permission_denials?.map((d) => d.tool_name)).toEqual(['Bash']);
  });

  it('still runs a rewrite no deny rule refuses (control)', async () => {
    server = await startMockServer({ scenario: touchThenAnswer });
    const { project, home } = await setUp(() => ({ permissions: { deny: ['Bash(rm:*)'] } }));
    await sdkRewrite(project, home, 'touch rewritten');
    expect(existsSync(join(project, 'rewritten'))).toBe(true);
  });
});
