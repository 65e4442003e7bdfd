/**
 * Background work in stream-json through the built CLI and the mock model server: a background
 * agent and a background shell each report `system/task_started`, progress, `task_updated` and
 * `task_notification`, and the agent's own messages arrive nested under the Agent call that
 * launched it. The official Agent SDK reads the same frames. The worker waits for a file the
 * parent's Stop hook makes, so it always ends after the parent's first turn, never by timing.
 */
import { join } from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, sdkEnv, tempProject, YOKE_BIN } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (name: string, input: Record<string, unknown>, id?: string) => ({
  content: [{ type: 'tool_use' as const, name, input, ...(id ? { id } : {}) }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/** The parent starts a shell and a worker in the background; the worker ends after the parent's turn. */
function scenario(): ScenarioInput {
  return [
    {
      match: { firstUserTextContains: 'WORKER: count', lastToolResultContains: 'released' },
      reply: say('COUNTED 7'),
    },
    {
      match: { firstUserTextContains: 'WORKER: count' },
      reply: call('Bash', { command: 'while [ ! -f go ]; do sleep 0.02; done; echo released' }),
    },
    {
      match: { firstUserTextContains: 'Count things', lastUserTextContains: 'task-notification' },
      reply: say('The agent counted 7.'),
    },
    {
      match: { firstUserTextContains: 'Count things', lastToolResultContains: 'agentId' },
      reply: say('Started both.'),
    },
    {
      match: { firstUserTextContains: 'Count things', lastToolResultContains: 'running in background' },
      reply: call(
        'Agent',
        { description: 'Count things', prompt: 'WORKER: count', run_in_background: true },
        'toolu_agent_bg',
      ),
    },
    {
      match: { firstUserTextContains: 'Count things' },
      reply: call(
        'Bash',
        { command: 'echo shell-done', run_in_background: true, description: 'Say done' },
        'toolu_shell_bg',
      ),
    },
  ];
}

const releaseAtTurnEnd = (project: string) =>
  JSON.stringify({
    hooks: { Stop: [{ hooks: [{ type: 'command', command: `touch ${join(project, 'go')}` }] }] },
  });

type Frame = Record<string, unknown> & { type: string; subtype?: string };

function taskFrames(frames: readonly Frame[], taskId: string) {
  return frames.filter(
    (f) => f.type === 'system' && String(f.subtype).startsWith('task_') && f.task_id === taskId,
  );
}

function expectAgentTask(frames: readonly Frame[]) {
  const started = frames.find((f) => f.subtype === 'task_started' && f.task_type === 'local_agent');
  expect(started).toMatchObject({
    tool_use_id: 'toolu_agent_bg',
    description: 'Count things',
    subagent_type: 'general-purpose',
    is_backgrounded: true,
    prompt: 'WORKER: count',
  });
  const agentId = String(started?.task_id);
  expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
  const own = taskFrames(frames, agentId);
  expect(own.map((f) => f.subtype)).toEqual([
    'task_started',
    'task_progress',
    'task_updated',
    'task_notification',
  ]);
  expect(own[1]).toMatchObject({ last_tool_name: 'Bash', usage: { tool_uses: 1 } });
  expect(own[2]).toMatchObject({ patch: { status: 'completed' } });
  expect(own[3]).toMatchObject({
    tool_use_id: 'toolu_agent_bg',
    status: 'completed',
    summary: 'Agent "Count things" finished',
    usage: { tool_uses: 1 },
  });
  expect(String(own[3]?.output_file)).toMatch(new RegExp(`tasks/${agentId}\\.output$`));
  // Every frame of one run names the same run.
  expect(new Set(own.map((f) => f.run_id)).size).toBe(1);

  // The worker's own messages, nested under the Agent call, between its start and its end.
  const nested = frames.filter(
    (f) => (f.type === 'user' || f.type === 'assistant') && f.parent_tool_use_id === 'toolu_agent_bg',
  );
  expect(nested.map((f) => f.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
  expect(nested.every((f) => f.agent_id === agentId)).toBe(true);
  expect(JSON.stringify(nested.at(-1))).toContain('COUNTED 7');
  const at = (f: Frame | undefined) => frames.indexOf(f as Frame);
  expect(at(own[0])).toBeLessThan(at(nested[0]));
  expect(at(nested.at(-1))).toBeLessThan(at(own[3]));
  return agentId;
}

function expectShellTask(frames: readonly Frame[]) {
  const own = taskFrames(frames, 'bash_1');
  expect(own.map((f) => f.subtype)).toEqual(['task_started', 'task_updated', 'task_notification']);
  expect(own[0]).toMatchObject({
    task_type: 'local_bash',
    tool_use_id: 'toolu_shell_bg',
    description: 'Say done',
    is_backgrounded: true,
  });
  expect(own[2]).toMatchObject({
    status: 'completed',
    tool_use_id: 'toolu_shell_bg',
    summary: 'Background command "Say done" completed with exit code 0',
  });
  expect(String(own[2]?.output_file)).toMatch(/shells\/bash_1\.log$/);
}

describe('background tasks in stream-json', () => {
  it('-p: task frames for a background agent and shell, the worker nested under its Agent call', async () => {
    server = await startMockServer({ scenario: scenario() });
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    const run = await runYoke(
      [
        '-p',
        'Count things',
        '--output-format',
        'stream-json',
        '--verbose',
        '--allowedTools',
        'Bash',
        '--settings',
        releaseAtTurnEnd(project),
      ],
      { cwd: project, env: mockEnv(server.url, home) },
    );
    expect(run.code, run.stderr).toBe(0);
    const frames = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Frame);
    expectAgentTask(frames);
    expectShellTask(frames);
    // The notification frames come before the final result, which answers the notification.
    const last = frames.at(-1);
    expect(last).toMatchObject({ type: 'result', result: 'The agent counted 7.' });
  });

  it('the Agent SDK hands the task frames to its host as system messages', async () => {
    server = await startMockServer({ scenario: scenario() });
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    let stderr = '';
    const q = query({
      prompt: 'Count things',
      options: {
        pathToClaudeCodeExecutable: YOKE_BIN,
        cwd: project,
        env: sdkEnv(server.url, home),
        allowedTools: ['Bash'],
        settings: releaseAtTurnEnd(project),
        stderr: (text) => {
          stderr += text;
        },
      },
    });
    const messages: SDKMessage[] = [];
    for await (const message of q) messages.push(message);
    const frames = messages as unknown as Frame[];
    expect(
      frames.some((f) => f.type === 'result'),
      stderr,
    ).toBe(true);
    expectAgentTask(frames);
    expectShellTask(frames);
  });
});
