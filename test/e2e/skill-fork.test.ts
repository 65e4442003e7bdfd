/**
 * Skills with `context: fork` through the built CLI against the mock model server: the model's
 * Skill call runs the skill in a subagent whose report is the call's result (the worker's frames
 * nested under the call in stream-json), `/name args` typed by the user answers with the report
 * without a model turn and leaves it in the conversation, an unknown `agent:` is refused by
 * naming the known ones, a fork's worker cannot fork again, and an untrusted project's forked
 * skill gets none of its allowed-tools (a trusted one does: the calibration is `touch` making the
 * marker file for real).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';
import { bodies, type RequestBody, toolResultOf } from './request-bodies';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const AUDIT = `---
name: audit
description: Reviews one module for risks in a separate agent
context: fork
agent: Explore
---
Audit the module $ARGUMENTS and list its risks.
`;

async function setUp(scenario: ScenarioInput, skills: Record<string, string>) {
  server = await startMockServer({ scenario });
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  for (const [name, text] of Object.entries(skills)) {
    await mkdir(join(project, '.claude/skills', name), { recursive: true });
    await writeFile(join(project, '.claude/skills', name, 'SKILL.md'), text);
  }
  const env = mockEnv(server.url, home);
  const yoke = (args: string[]) => runYoke(args, { cwd: project, env });
  return { project, yoke };
}

const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const skillCall = (skill: string, args?: string, id = 'toolu_skill1') => ({
  content: [{ type: 'tool_use' as const, id, name: 'Skill', input: { skill, ...(args ? { args } : {}) } }],
});
const frames = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const isWorker = (body: RequestBody) => JSON.stringify(body.messages[0]).includes('Audit the module');

describe('a context: fork skill called by the model', () => {
  it("runs in the named agent, its report is the Skill call's result, and its frames nest under the call", async () => {
    const { yoke } = await setUp(
      [
        {
          match: { firstUserTextContains: 'Audit the module' },
          reply: say('Worker report: 2 risks in src.'),
        },
        { match: { lastToolResultContains: 'Worker report' }, reply: say('Main: the audit is done.') },
        { match: { lastUserTextContains: 'check the code' }, reply: skillCall('audit', 'src') },
      ],
      { audit: AUDIT },
    );
    const run = await yoke(['-p', 'check the code', '--output-format', 'stream-json', '--verbose']);
    expect(run.code, run.stderr).toBe(0);
    const out = frames(run.stdout);
    expect(out.at(-1)).toMatchObject({
      type: 'result',
      subtype: 'success',
      result: 'Main: the audit is done.',
    });

    const requests = bodies(server as MockServer);
    const worker = requests.filter(isWorker);
    expect(worker).toHaveLength(1);
    // A fresh context: the skill's expanded body is the worker's only message; Explore's read-only pool.
    expect(worker[0]?.messages).toHaveLength(1);
    expect(JSON.stringify(worker[0]?.messages)).toContain('Audit the module src and list its risks.');
    expect(JSON.stringify(worker[0]?.messages)).not.toContain('check the code');
    expect((worker[0]?.tools ?? []).map((tool) => tool.name)).not.toContain('Write');

    const result = toolResultOf(server as MockServer, 'toolu_skill1');
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(
      /^Skill "audit" ran in a forked Explore agent\. Its report:\n\nWorker report: 2 risks in src\.\n\n\[agent a[0-9a-f]{16} \(Explore\) · 0 tool uses/,
    );
    // The main conversation never saw the body inline.
    const last = requests.at(-1) as RequestBody;
    expect(last.messages.filter((m) => JSON.stringify(m).includes('Audit the module src'))).toEqual([]);

    const nested = out.filter((frame) => frame.parent_tool_use_id === 'toolu_skill1');
    expect(nested.map((frame) => frame.type)).toEqual(['user', 'assistant']);
    expect(nested[0]?.agent_id).toMatch(/^a[0-9a-f]{16}$/);
  });

  it('refuses a skill whose agent does not exist, naming the agents there are', async () => {
    const ghostly = AUDIT.replace('name: audit', 'name: ghostly').replace('agent: Explore', 'agent: ghost');
    const { yoke } = await setUp(
      [
        { match: { lastToolResultContains: 'does not exist' }, reply: say('noted') },
        { match: { lastUserTextContains: 'go' }, reply: skillCall('ghostly') },
      ],
      { ghostly },
    );
    const run = await yoke(['-p', 'go']);
    expect(run.code, run.stderr).toBe(0);
    expect(bodies(server as MockServer).some(isWorker)).toBe(false);
    expect(toolResultOf(server as MockServer, 'toolu_skill1')).toEqual({
      isError: true,
      text: 'The skill "ghostly" names the agent "ghost", which does not exist. Known agents: Explore, general-purpose, Plan.',
    });
  });

  it("refuses a fork inside a fork's worker; the worker reports without it", async () => {
    const { yoke } = await setUp(
      [
        {
          match: { firstUserTextContains: 'Audit the module', lastToolResultContains: 'cannot fork again' },
          reply: say('Worker: audited without forking.'),
        },
        {
          match: { firstUserTextContains: 'Audit the module' },
          reply: skillCall('audit', 'deeper', 'inner'),
        },
        { match: { lastToolResultContains: 'Worker:' }, reply: say('done') },
        { match: { lastUserTextContains: 'go' }, reply: skillCall('audit', 'src') },
      ],
      { audit: AUDIT },
    );
    const run = await yoke(['-p', 'go']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('done');
    // One worker only, with two requests: its Skill call was refused, not run.
    expect(bodies(server as MockServer).filter(isWorker)).toHaveLength(2);
    expect(toolResultOf(server as MockServer, 'inner')).toMatchObject({
      isError: true,
      text: expect.stringContaining("this agent is itself a forked skill's worker, which cannot fork again"),
    });
    expect(toolResultOf(server as MockServer, 'toolu_skill1').text).toContain(
      'Worker: audited without forking.',
    );
  });
});

describe("a forked skill's allowed-tools", () => {
  const TOUCHER = `---
name: toucher
description: Leaves a marker file
context: fork
allowed-tools: Bash(touch:*)
---
Make the marker file with touch.
`;
  const scenario = (): ScenarioInput => [
    {
      match: { firstUserTextContains: 'Make the marker' },
      reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch marker.txt' } }] },
    },
    { match: { firstUserTextContains: 'Make the marker' }, reply: say('Worker: tried the marker.') },
    { match: { lastToolResultContains: 'Worker:' }, reply: say('done') },
    { match: { lastUserTextContains: 'go' }, reply: skillCall('toucher') },
  ];

  it('are dropped in an untrusted project: the worker is refused touch, and no marker appears', async () => {
    const { project, yoke } = await setUp(scenario(), { toucher: TOUCHER });
    const run = await yoke(['-p', 'go']);
    expect(run.code, run.stderr).toBe(0);
    expect(await fileExists(join(project, 'marker.txt'))).toBe(false);
    const refused = bodies(server as MockServer).filter((body) =>
      JSON.stringify(body.messages[0]).includes('Make the marker'),
    );
    expect(JSON.stringify(refused.at(-1)?.messages.at(-1))).toContain('"is_error":true');
  });

  it('grant nothing when a trusted skill has none: the same worker is refused touch', async () => {
    const bare = TOUCHER.replace('allowed-tools: Bash(touch:*)\n', '');
    const { project, yoke } = await setUp(scenario(), { toucher: bare });
    expect((await yoke(['trust'])).code).toBe(0);
    expect((await yoke(['-p', 'go'])).code).toBe(0);
    expect(await fileExists(join(project, 'marker.txt'))).toBe(false);
  });

  it('apply to the worker in a trusted project (the calibration: touch makes the marker)', async () => {
    const { project, yoke } = await setUp(scenario(), { toucher: TOUCHER });
    expect((await yoke(['trust'])).code).toBe(0);
    const run = await yoke(['-p', 'go']);
    expect(run.code, run.stderr).toBe(0);
    expect(await fileExists(join(project, 'marker.txt'))).toBe(true);
  });
});

describe('/name args typed by the user', () => {
  it("answers with the fork's report without a model turn, and the next prompt sees it", async () => {
    const { yoke } = await setUp(
      [
        {
          match: { firstUserTextContains: 'Audit the module' },
          reply: say('Worker report: auth.ts trusts input.'),
        },
        { match: { lastUserTextContains: 'what next' }, reply: say('Fix auth.ts first.') },
      ],
      { audit: AUDIT },
    );
    const first = await yoke(['-p', '/audit src/auth', '--output-format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout) as { result: string; is_error: boolean; num_turns: number };
    expect(result.is_error).toBe(false);
    expect(result.result).toMatch(
      /^Worker report: auth\.ts trusts input\.\n\n\[agent a[0-9a-f]{16} \(Explore\)/,
    );
    // Only the worker asked the model.
    expect(bodies(server as MockServer)).toHaveLength(1);
    expect(JSON.stringify(bodies(server as MockServer)[0]?.messages)).toContain('Audit the module src/auth');

    const next = await yoke(['-p', 'what next', '--continue']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout.trim()).toBe('Fix auth.ts first.');
    const followUp = JSON.stringify(bodies(server as MockServer)[1]?.messages);
    expect(followUp).toContain('<command-name>/audit</command-name>');
    expect(followUp).toContain('Worker report: auth.ts trusts input.');
  });
});
