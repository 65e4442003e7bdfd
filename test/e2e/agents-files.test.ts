/**
 * Agent definitions through the built CLI against the mock model server: the MCP servers a
 * definition brings for its worker alone, the permission mode an agent file may (user folder) or
 * may not (project) set, and `--agent` running the main session as a named agent.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { runYoke } from './helpers';
import { bodies, type RequestBody, systemText, toolNames, toolResultOf } from './request-bodies';
import { agentCall, say, serverPerTest } from './server-per-test';

const mock = serverPerTest();
const setUp = mock.setUp;

describe('agent MCP servers', () => {
  it('connects the servers a definition brings for its worker alone (the parent never sees their tools)', async () => {
    const fixture = join(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');
    const { project, env } = await setUp([
      {
        match: { systemContains: 'You use the fixture.', lastToolResultContains: 'echo: ping' },
        reply: say('ECHOED'),
      },
      {
        match: { systemContains: 'You use the fixture.' },
        reply: { content: [{ type: 'tool_use', name: 'mcp__fixture__echo', input: { text: 'ping' } }] },
      },
      { match: { lastToolResultContains: 'ECHOED' }, reply: say('done') },
      {
        reply: agentCall({
          description: 'Use the fixture',
          prompt: 'Echo ping',
          subagent_type: 'fixture-user',
        }),
      },
    ]);
    const marker = join(project, 'mcp.log');
    const agents = JSON.stringify({
      'fixture-user': {
        description: 'Uses the fixture server.',
        prompt: 'You use the fixture.',
        tools: ['Read'],
        mcpServers: [{ fixture: { command: process.execPath, args: [fixture, '--marker', marker] } }],
      },
    });
    const run = await runYoke(['-p', 'go', '--agents', agents, '--allowedTools', 'mcp__fixture__echo'], {
      cwd: project,
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    const requests = bodies(mock.server);
    const worker = requests.filter((body) => systemText(body).includes('You use the fixture.'));
    expect(toolNames(worker[0] as RequestBody)).toContain('mcp__fixture__echo');
    expect(toolNames(requests[0] as RequestBody)).not.toContain('mcp__fixture__echo');
    expect(toolResultOf(mock.server, 'toolu_agent1').text).toMatch(/^ECHOED/);
    expect(await readFile(marker, 'utf8')).toMatch(/^start \d+\n$/);
  });
});

describe('agent files and permissions', () => {
  const writer = (mode: string) =>
    `---\nname: writer\ndescription: Writes files.\npermissionMode: ${mode}\n---\nYou write files when asked.\n`;
  // Turns are consumed in order: the worker writes first, then reports.
  const scenario: ScenarioInput = [
    {
      match: { systemContains: 'You write files' },
      reply: {
        content: [{ type: 'tool_use', name: 'Write', input: { file_path: 'out.txt', content: 'hi\n' } }],
      },
    },
    { match: { systemContains: 'You write files' }, reply: say('wrote it') },
    { match: { lastToolResultContains: 'wrote it' }, reply: say('done') },
    { reply: agentCall({ description: 'Write a file', prompt: 'Write out.txt', subagent_type: 'writer' }) },
  ];
  /** The worker's Write result, as its second request carried it. */
  const writeResult = (s: MockServer) => {
    const worker = bodies(s).filter((body) => systemText(body).includes('You write files'));
    return JSON.stringify(worker[1]?.messages.at(-1));
  };

  it('a project agent file cannot bypass permissions: its Write is refused headless and nothing is written', async () => {
    const { project, env } = await setUp(scenario);
    await mkdir(join(project, '.claude/agents'), { recursive: true });
    await writeFile(join(project, '.claude/agents/writer.md'), writer('bypassPermissions'));
    const run = await runYoke(['-p', 'go'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      "agent file .claude/agents/writer.md: permissionMode bypassPermissions is ignored: a project's agent file cannot set it.",
    );
    expect(writeResult(mock.server)).toContain('"is_error":true');
    await expect(readFile(join(project, 'out.txt'), 'utf8')).rejects.toThrow();
  });

  it('the same file in the user folder is the user speaking: the worker writes without a prompt', async () => {
    const { project, home, env } = await setUp(scenario);
    await mkdir(join(home, '.claude/agents'), { recursive: true });
    await writeFile(join(home, '.claude/agents/writer.md'), writer('bypassPermissions'));
    const run = await runYoke(['-p', 'go'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(writeResult(mock.server)).not.toContain('"is_error":true');
    expect(await readFile(join(project, 'out.txt'), 'utf8')).toBe('hi\n');
  });
});

describe('--agent', () => {
  it('runs the main session as the named agent: its prompt, its tools, its model', async () => {
    const { project, env } = await setUp([{ reply: say('Docs bot here.') }]);
    await mkdir(join(project, '.claude/agents'), { recursive: true });
    await writeFile(
      join(project, '.claude/agents/docs.md'),
      '---\nname: docs-bot\ndescription: Answers from the docs.\ntools: Read, Grep, Agent\nmodel: claude-haiku-4-5\n---\nYou are the docs bot.\n',
    );
    const run = await runYoke(['-p', 'hi', '--agent', 'docs-bot'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('Docs bot here.\n');
    const [request] = bodies(mock.server);
    expect(systemText(request as RequestBody)).toContain('You are the docs bot.');
    expect(systemText(request as RequestBody)).not.toContain('You are Yoke');
    // The main thread keeps the Agent tool when the agent lists it.
    expect(toolNames(request as RequestBody).sort()).toEqual(['Agent', 'Grep', 'Read']);
    expect(mock.server.requests[0]?.body).toMatchObject({ model: 'claude-haiku-4-5' });
  });

  it('refuses an agent name it does not know, listing the known ones', async () => {
    const { project, env } = await setUp([{ reply: say('never') }]);
    const run = await runYoke(['-p', 'hi', '--agent', 'nope'], { cwd: project, env });
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr:
        'yoke: --agent: there is no agent named "nope"; known agents: Explore, general-purpose, Plan.\n',
    });
  });
});
