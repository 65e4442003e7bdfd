/**
 * Coordinator mode through the built CLI over the mock model server: the coordinator (offered
 * only the delegation tools, under its own system prompt) fans out three research workers at once;
 * each writes its findings into the session's scratchpad without a prompt; a fourth worker reads
 * them there and answers in the shape of a `report_schema` (a first wrong shape is sent back to
 * it), and the coordinator gets that report as JSON. Each conversation follows its own script
 * (the mock server routes by first user message).
 */
import { realpathSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectSlug } from '../../src/agents/coordinator/scratchpad';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';
import { bodies, type RequestBody, systemText, toolNames } from './request-bodies';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const firstUserText = (body: RequestBody) => JSON.stringify(body.messages[0]?.content ?? '');

/** Agent, and of TaskStop and SendMessage whichever this build has: nothing that reads or writes. */
function expectDelegationOnly(body: RequestBody): void {
  const names = toolNames(body);
  expect(names).toContain('Agent');
  for (const name of names) expect(['Agent', 'SendMessage', 'TaskStop']).toContain(name);
}

const SESSION = '11111111-2222-4333-8444-555555555555';
const REPORT_SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' }, files: { type: 'array', items: { type: 'string' } } },
  required: ['summary', 'files'],
};

const agentCall = (task: string, prompt: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_use' as const,
  name: 'Agent',
  input: { description: `Research ${task}`, prompt: `${task}: ${prompt}`, ...extra },
});
const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

type Turns = Extract<ScenarioInput, unknown[]>;

function scenario(scratch: string): Turns {
  const researcher = (task: string, file: string, finding: string): Turns => [
    {
      match: { firstUserTextContains: task, lastToolResultContains: file },
      reply: text(`wrote ${file}`),
    },
    {
      match: { firstUserTextContains: task },
      reply: { content: [tool('Write', { file_path: join(scratch, file), content: `${finding}\n` })] },
    },
  ];
  return [
    // The coordinator: fan out, then hand the findings on through the scratchpad, then finish.
    {
      match: { firstUserTextContains: 'Fix the login bug', lastToolResultContains: '"summary"' },
      reply: text('All three areas are covered; see the report.'),
    },
    {
      match: { firstUserTextContains: 'Fix the login bug', lastToolResultContains: 'wrote' },
      reply: {
        content: [
          agentCall('TASK-D', 'Read a.md, b.md and c.md in the scratchpad and report the files they name.', {
            report_schema: REPORT_SCHEMA,
          }),
        ],
      },
    },
    {
      match: { firstUserTextContains: 'Fix the login bug' },
      reply: {
        content: [
          agentCall('TASK-A', 'Find where sessions expire; write your findings to a.md in the scratchpad.'),
          agentCall('TASK-B', 'Find the token cache; write your findings to b.md in the scratchpad.'),
          agentCall('TASK-C', 'Find the login tests; write your findings to c.md in the scratchpad.'),
        ],
      },
    },
    ...researcher('TASK-A', 'a.md', 'finding A: src/auth/session.ts:42'),
    ...researcher('TASK-B', 'b.md', 'finding B: src/auth/cache.ts:7'),
    ...researcher('TASK-C', 'c.md', 'finding C: test/login.test.ts'),
    // The reporting worker: read the three files, answer in the wrong shape, then in the right one.
    {
      match: { firstUserTextContains: 'TASK-D', lastToolResultContains: 'Structured output provided' },
      reply: text('reported'),
    },
    {
      match: { firstUserTextContains: 'TASK-D', lastToolResultContains: 'files' },
      reply: {
        content: [
          tool('StructuredOutput', {
            summary: 'expiry at session.ts:42, stale cache at cache.ts:7, tests in login.test.ts',
            files: ['src/auth/session.ts', 'src/auth/cache.ts', 'test/login.test.ts'],
          }),
        ],
      },
    },
    {
      match: { firstUserTextContains: 'TASK-D', lastToolResultContains: 'finding A' },
      reply: { content: [tool('StructuredOutput', { summary: 'no file list yet' })] },
    },
    {
      match: { firstUserTextContains: 'TASK-D' },
      reply: {
        content: ['a.md', 'b.md', 'c.md'].map((file) => tool('Read', { file_path: join(scratch, file) })),
      },
    },
  ];
}

describe('coordinator mode', () => {
  it('fans out three workers, hands their findings on through the scratchpad and gets a JSON report', async () => {
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    // Not below YOKE_HOME: Yoke's own folder is protected, scratchpad or not.
    const tmp = await tempProject('yoke-e2e-tmp-');
    const scratch = join(
      realpathSync(tmp),
      `yoke-${process.getuid?.() ?? 0}`,
      projectSlug(project),
      SESSION,
      'scratchpad',
    );
    server = await startMockServer({ scenario: scenario(scratch) });
    const result = await runYoke(['-p', '--coordinator', '--session-id', SESSION, 'Fix the login bug'], {
      cwd: project,
      env: { ...mockEnv(server.url, home), TMPDIR: tmp },
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('All three areas are covered');

    const all = bodies(server);
    const coordinator = all.filter((body) => firstUserText(body).includes('Fix the login bug'));
    const workers = all.filter((body) => !firstUserText(body).includes('Fix the login bug'));
    // The coordinator only delegates, under its own prompt that names the scratchpad.
    expectDelegationOnly(coordinator[0] as RequestBody);
    expect(systemText(coordinator[0] as RequestBody)).toContain('coordinator mode');
    expect(systemText(coordinator[0] as RequestBody)).toContain(scratch);
    // Three workers were started by one reply, and all three ran before the coordinator's next turn.
    const secondTurn = all.indexOf(coordinator[1] as RequestBody);
    for (const task of ['TASK-A', 'TASK-B', 'TASK-C'])
      expect(all.findIndex((body) => firstUserText(body).includes(task))).toBeLessThan(secondTurn);
    // Workers get the worker tools, never the delegation ones, and are told of the scratchpad.
    const worker = workers[0] as RequestBody;
    expect(toolNames(worker)).toEqual(expect.arrayContaining(['Bash', 'Edit', 'Read', 'Write']));
    expect(toolNames(worker)).not.toContain('Agent');
    expect(toolNames(worker)).not.toContain('TaskStop');
    expect(systemText(worker)).toContain(`shared by all its workers: ${scratch}`);

    // The hand-off went through the scratchpad, private to this user, without any prompt.
    expect(await readFile(join(scratch, 'b.md'), 'utf8')).toBe('finding B: src/auth/cache.ts:7\n');
    expect((await stat(scratch)).mode & 0o777).toBe(0o700);
    expect(result.stderr).not.toMatch(/denied|permission/i);

    // report_schema: the wrong shape went back to the worker, the right one reached the coordinator as JSON.
    const reporter = workers.filter((body) => firstUserText(body).includes('TASK-D'));
    expect(toolNames(reporter[0] as RequestBody)).toContain('StructuredOutput');
    expect(JSON.stringify(reporter.at(-2)?.messages.at(-1))).toContain('files');
    const last = JSON.stringify(coordinator.at(-1)?.messages.at(-1));
    expect(last).toContain('\\"files\\": [');
    expect(last).toContain('src/auth/cache.ts');
  });

  it('is switched on by YOKE_COORDINATOR_MODE=1 and CLAUDE_CODE_COORDINATOR_MODE=1 too', async () => {
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    server = await startMockServer({ scenario: [{ reply: text('ok'), repeat: 2 }] });
    for (const variable of ['YOKE_COORDINATOR_MODE', 'CLAUDE_CODE_COORDINATOR_MODE']) {
      const result = await runYoke(['-p', 'hello'], {
        cwd: project,
        env: { ...mockEnv(server.url, home), [variable]: '1' },
      });
      expect(result.code, result.stderr).toBe(0);
    }
    for (const body of bodies(server)) expectDelegationOnly(body);
  });

  it('report_schema: a worker that never answers in the shape fails the call; a bad schema starts no worker', async () => {
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    const parent = 'Summarize the repository';
    server = await startMockServer({
      scenario: [
        {
          match: { firstUserTextContains: parent, lastToolResultContains: 'did not return a report' },
          reply: text('gave up'),
        },
        {
          match: { firstUserTextContains: parent, lastToolResultContains: 'must describe a JSON object' },
          reply: {
            content: [agentCall('TASK-E', 'Summarize in the shape given.', { report_schema: REPORT_SCHEMA })],
          },
        },
        {
          match: { firstUserTextContains: parent },
          reply: { content: [agentCall('TASK-X', 'Never runs.', { report_schema: { type: 'array' } })] },
        },
        // Text only, never StructuredOutput: the loop reminds it (twice), then gives up.
        {
          match: { firstUserTextContains: 'TASK-E' },
          reply: text('here is prose instead'),
          repeat: 'forever',
        },
      ],
    });
    const result = await runYoke(['-p', parent], { cwd: project, env: mockEnv(server.url, home) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('gave up');
    const all = bodies(server);
    expect(all.some((body) => firstUserText(body).includes('TASK-X'))).toBe(false);
    expect(all.filter((body) => firstUserText(body).includes('TASK-E'))).toHaveLength(3);
    const last = JSON.stringify(all.at(-1)?.messages.at(-1));
    expect(last).toContain('The agent did not return a report matching report_schema');
    expect(last).toContain('"is_error":true');
  });
});
