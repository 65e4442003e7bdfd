/**
 * Background agents through the built CLI against the mock model server. The parent and its
 * worker each follow their own script (routed by the first user message). Where an order matters,
 * the worker waits on a file that only the parent's next step creates (or the parent's Stop hook,
 * at the end of its turn), so no test depends on how fast either side is.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { messages: { role: string; content: unknown }[] };

async function setUp(scenario: ScenarioInput) {
  server = await startMockServer({ scenario });
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  return { project, home, env: mockEnv(server.url, home) };
}

const bodies = () =>
  (server?.requests ?? []).filter((r) => r.path === '/v1/messages').map((r) => r.body as Body);
const textOf = (body: Body | undefined) => JSON.stringify(body?.messages ?? []);
/** The requests whose first user message contains `marker`: one side's conversation. */
const side = (marker: string) => bodies().filter((body) => JSON.stringify(body.messages[0]).includes(marker));

const call = (name: string, input: Record<string, unknown>, id?: string) => ({
  content: [{ type: 'tool_use' as const, name, input, ...(id ? { id } : {}) }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const waitFor = (file: string, then: string) => `while [ ! -f ${file} ]; do sleep 0.02; done; echo ${then}`;

/**
 * The parent starts a worker in the background and ends its turn with `started`; the worker
 * waits for the file `go`, then reports; the parent answers the notification.
 */
function slowWorkScenario(started: string): ScenarioInput {
  return [
    {
      match: { firstUserTextContains: 'WORKER: slow', lastToolResultContains: 'released' },
      reply: say('SLOW WORK DONE'),
    },
    {
      match: { firstUserTextContains: 'WORKER: slow' },
      reply: call('Bash', { command: waitFor('go', 'released') }),
    },
    {
      match: { firstUserTextContains: 'Start slow work', lastUserTextContains: 'task-notification' },
      reply: say('Final: the agent says SLOW WORK DONE.'),
    },
    {
      match: { firstUserTextContains: 'Start slow work', lastToolResultContains: 'agentId' },
      reply: say(started),
    },
    {
      match: { firstUserTextContains: 'Start slow work' },
      reply: call('Agent', { description: 'Slow work', prompt: 'WORKER: slow', run_in_background: true }),
    },
  ];
}

/** Settings whose Stop hook makes `go`: the worker can finish only once the parent's turn is over. */
const releaseAtTurnEnd = (project: string) =>
  JSON.stringify({
    hooks: { Stop: [{ hooks: [{ type: 'command', command: `touch ${join(project, 'go')}` }] }] },
  });

async function json(args: string[], project: string, env: Record<string, string | undefined>) {
  const run = await runYoke(['-p', ...args, '--output-format', 'json'], { cwd: project, env });
  expect(run.code, run.stderr).toBe(0);
  return { ...run, result: JSON.parse(run.stdout) as Record<string, unknown> };
}

describe('background agents', () => {
  it('returns async_launched at once; the notification reaches the parent at a later turn boundary, never the worker', async () => {
    const { project, env } = await setUp([
      // The worker: blocked until the parent has taken its next step, then reports.
      {
        match: { firstUserTextContains: 'WORKER: survey', lastToolResultContains: 'released' },
        reply: say('SURVEY: 3 files'),
      },
      {
        match: { firstUserTextContains: 'WORKER: survey' },
        reply: call('Bash', { command: waitFor('go', 'released') }),
      },
      // The parent.
      {
        match: { firstUserTextContains: 'Survey the repo', lastToolResultContains: 'SURVEY: 3 files' },
        reply: say('The survey found 3 files.'),
      },
      {
        match: { firstUserTextContains: 'Survey the repo', lastToolResultContains: 'no output' },
        reply: call('TaskOutput', { task_id: 'surveyor' }),
      },
      {
        match: { firstUserTextContains: 'Survey the repo', lastToolResultContains: 'agentId' },
        reply: call('Bash', { command: 'touch go' }),
      },
      {
        match: { firstUserTextContains: 'Survey the repo' },
        reply: call(
          'Agent',
          {
            description: 'Survey the repo',
            prompt: 'WORKER: survey',
            run_in_background: true,
            name: 'surveyor',
          },
          'toolu_bg1',
        ),
      },
    ]);
    const { result } = await json(['Survey the repo', '--allowedTools', 'Bash'], project, env);
    expect(result).toMatchObject({ is_error: false, result: 'The survey found 3 files.' });

    const parent = side('Survey the repo');
    expect(parent).toHaveLength(4);
    const launched = textOf(parent[1]);
    const agentId = launched.match(/agentId: (a[0-9a-f]{16})/)?.[1];
    expect(agentId, launched).toBeDefined();
    expect(launched).toContain(`SendMessage with to: '${agentId}'`);
    // While the worker was still blocked, the parent's request carried no notification.
    expect(textOf(parent[1])).not.toContain('task-notification');
    const last = textOf(parent[3]);
    expect(last.match(/<task-notification>/g)).toHaveLength(1);
    expect(last).toContain(`<task-id>${agentId}</task-id>`);
    expect(last).toContain('<tool-use-id>toolu_bg1</tool-use-id>');
    expect(last).toContain('<status>completed</status>');
    expect(last).toContain('<summary>Agent \\"Survey the repo\\" finished</summary>');
    expect(last).toContain('<result>SURVEY: 3 files</result>');
    expect(last).toContain('<tool_uses>1</tool_uses>');
    const outputFile = last.match(/<output-file>([^<]+)<\/output-file>/)?.[1] as string;
    const output = await readFile(outputFile, 'utf8');
    expect(output).toContain('[task] WORKER: survey');
    expect(output).toContain('← released');
    expect(output).toContain('SURVEY: 3 files\n[completed]');

    // The worker never sees a notification, nor anything of the parent's conversation.
    const worker = side('WORKER: survey');
    expect(worker).toHaveLength(2);
    for (const body of worker) expect(textOf(body)).not.toMatch(/task-notification|Survey the repo/);
  });

  it('TaskStop aborts a running agent: it ends as killed and no notification follows', async () => {
    const { project, env } = await setUp([
      // The worker's model call never finishes on its own.
      { match: { firstUserTextContains: 'WORKER: stuck' }, fault: { type: 'stall', afterEvents: 1 } },
      {
        match: {
          firstUserTextContains: 'Stop the agent',
          lastToolResultContains: 'Stopped background agent',
        },
        reply: say('It is stopped.'),
      },
      {
        match: { firstUserTextContains: 'Stop the agent', lastToolResultContains: 'agentId' },
        reply: call('TaskStop', { task_id: 'stuck-one' }),
      },
      {
        match: { firstUserTextContains: 'Stop the agent' },
        reply: call('Agent', {
          description: 'Hang',
          prompt: 'WORKER: stuck',
          run_in_background: true,
          name: 'stuck-one',
        }),
      },
    ]);
    const { result } = await json(['Stop the agent', '--allowedTools', 'TaskStop'], project, env);
    expect(result).toMatchObject({ is_error: false, result: 'It is stopped.' });
    const parent = side('Stop the agent');
    const stopped = textOf(parent[2]);
    expect(stopped).toMatch(
      /Stopped background agent a[0-9a-f]{16} \\"stuck-one\\" \(Hang\); final status: killed/,
    );
    expect(textOf(parent.at(-1))).not.toContain('task-notification');
    const outputFile = stopped.match(/What it wrote so far is in ([^ ]+\.output)/)?.[1] as string;
    expect(await readFile(outputFile, 'utf8')).toMatch(/\[killed\] Stopped before it finished\.\n$/);
    expect(result.stopped_background_tasks).toBeUndefined();
  });

  it('SendMessage continues a finished agent with its own conversation', async () => {
    const { project, env } = await setUp([
      {
        match: { firstUserTextContains: 'WORKER: count', lastUserTextContains: 'And how many are tests?' },
        reply: say('TESTS: 1'),
      },
      { match: { firstUserTextContains: 'WORKER: count' }, reply: say('COUNT: 3') },
      {
        match: { firstUserTextContains: 'Count things', lastToolResultContains: 'TESTS: 1' },
        reply: say('3 files, 1 of them a test.'),
      },
      {
        match: { firstUserTextContains: 'Count things', lastToolResultContains: 'now continues' },
        reply: call('TaskOutput', { task_id: 'counter' }),
      },
      {
        match: { firstUserTextContains: 'Count things', lastToolResultContains: 'COUNT: 3' },
        reply: call('SendMessage', { to: 'counter', message: 'And how many are tests?' }),
      },
      {
        match: { firstUserTextContains: 'Count things', lastToolResultContains: 'agentId' },
        reply: call('TaskOutput', { task_id: 'counter' }),
      },
      {
        match: { firstUserTextContains: 'Count things' },
        reply: call('Agent', {
          description: 'Count files',
          prompt: 'WORKER: count',
          run_in_background: true,
          name: 'counter',
        }),
      },
    ]);
    const { result } = await json(['Count things'], project, env);
    expect(result).toMatchObject({ is_error: false, result: '3 files, 1 of them a test.' });
    const worker = side('WORKER: count');
    expect(worker).toHaveLength(2);
    // The continuation is the same conversation: its task, its answer, then the follow-up.
    const continued = worker[1]?.messages ?? [];
    expect(continued.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(continued[1])).toContain('COUNT: 3');
    expect(JSON.stringify(continued[2])).toContain('And how many are tests?');
    // Each run notified the parent; the second notification carries the second answer.
    const parentText = side('Count things').map(textOf).join('\n');
    expect(parentText).toContain('<result>COUNT: 3</result>');
    expect(parentText).toContain('<result>TESTS: 1</result>');
  });

  it('-p waits for a running agent and gives the model a turn for its notification before the final result', async () => {
    const { project, env } = await setUp(slowWorkScenario('Started; I will report when it is done.'));
    const run = await runYoke(
      ['-p', 'Start slow work', '--allowedTools', 'Bash', '--settings', releaseAtTurnEnd(project)],
      { cwd: project, env },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Final: the agent says SLOW WORK DONE.\n');
    expect(existsSync(join(project, 'go'))).toBe(true);
    expect(side('Start slow work')).toHaveLength(3);
  });

  it('stream-json: after the input ends, the session waits for the agent and answers its notification', async () => {
    const { project, env } = await setUp(slowWorkScenario('Started.'));
    const user = {
      type: 'user',
      message: { role: 'user', content: 'Start slow work' },
      parent_tool_use_id: null,
    };
    const streamJson = ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
    const run = await runYoke(
      ['-p', ...streamJson, '--allowedTools', 'Bash', '--settings', releaseAtTurnEnd(project)],
      { cwd: project, env, input: `${JSON.stringify(user)}\n` },
    );
    expect(run.code, run.stderr).toBe(0);
    const results = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; result?: string })
      .filter((frame) => frame.type === 'result');
    expect(results.map((r) => r.result)).toEqual(['Started.', 'Final: the agent says SLOW WORK DONE.']);
  });

  it('-p kills background shells still running at its end and names them in the result', async () => {
    const marker = `yoke-bg-${process.pid}-${Date.now()}`;
    const { project, env } = await setUp([
      { match: { lastToolResultContains: 'running in background' }, reply: say('Left it running.') },
      {
        reply: call('Bash', {
          command: `sleep 30 # ${marker}`,
          run_in_background: true,
          description: 'Long sleep',
        }),
      },
    ]);
    const { result, stderr } = await json(['start a server', '--allowedTools', 'Bash'], project, env);
    expect(result).toMatchObject({
      result: 'Left it running.',
      stopped_background_tasks: [
        { task_id: 'bash_1', task_type: 'local_bash', description: 'Long sleep', reason: 'run_ended' },
      ],
    });
    expect(stderr).toContain(
      'yoke: stopped 1 background shell still running at the end of the run: bash_1 (Long sleep)',
    );
    const { execFileSync } = await import('node:child_process');
    const survivors = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(marker));
    expect(survivors).toEqual([]);
  });
});
