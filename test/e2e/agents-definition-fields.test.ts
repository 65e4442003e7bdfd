/**
 * Agent-file fields that shape a worker, through the built CLI and the mock model server: `memory`
 * (a folder of its own the worker reads in its prompt and writes without a prompt, and nowhere
 * else), `skills` (their bodies before its task), and `initialPrompt` for `--agent`.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
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

const KEEPER = 'You are the note keeper.';
type Body = { system?: unknown; tools?: { name: string }[]; messages: { role: string; content: unknown }[] };
const workerBodies = () =>
  (server?.requests ?? [])
    .filter((r) => r.path === '/v1/messages')
    .map((r) => r.body as Body)
    .filter((body) => JSON.stringify(body.system ?? '').includes(KEEPER));
const write = (file_path: string, content: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Write', input: { file_path, content } }],
});
const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

async function keeperProject(skillHead = '') {
  const project = await tempProject();
  await mkdir(join(project, '.claude', 'agents'), { recursive: true });
  await writeFile(
    join(project, '.claude', 'agents', 'keeper.md'),
    `---\nname: keeper\ndescription: Keeps notes.\ntools: Bash\nmemory: project\nskills: [checklist]\n---\n${KEEPER}\n`,
  );
  await mkdir(join(project, '.claude', 'skills', 'checklist'), { recursive: true });
  await writeFile(
    join(project, '.claude', 'skills', 'checklist', 'SKILL.md'),
    `---\nname: checklist\ndescription: The release checklist.\n${skillHead}---\nCHECKLIST: bump the version, tag, publish.\n`,
  );
  return project;
}

/** The worker writes into its memory, then outside it; the parent reports. */
function keeperScenario(project: string): ScenarioInput {
  const memory = join(project, '.claude', 'agent-memory', 'keeper');
  return [
    {
      match: { systemContains: KEEPER, lastToolResultContains: 'outside.txt' },
      reply: say('KEPT'),
    },
    {
      match: { systemContains: KEEPER, lastToolResultContains: 'notes.md' },
      reply: write(join(project, 'outside.txt'), 'not memory\n'),
    },
    { match: { systemContains: KEEPER }, reply: write(join(memory, 'notes.md'), 'use pnpm\n') },
    { match: { lastToolResultContains: 'KEPT' }, reply: say('Noted.') },
    {
      reply: {
        content: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: {
              description: 'Keep a note',
              prompt: 'Note the package manager',
              subagent_type: 'keeper',
            },
          },
        ],
      },
    },
  ];
}

async function run(project: string, args: string[]) {
  const home = await tempProject('yoke-e2e-home-');
  const result = await runYoke(['-p', ...args, '--output-format', 'json'], {
    cwd: project,
    env: mockEnv(server?.url ?? '', home),
  });
  return { ...result, json: JSON.parse(result.stdout) as Record<string, unknown> };
}

const toolResults = (body: Body | undefined) => JSON.stringify(body?.messages.at(-1)?.content ?? '');

describe('agent memory and preloaded skills', () => {
  it('the worker reads its MEMORY.md, starts with its skill, and writes its memory folder without a prompt (nowhere else)', async () => {
    const project = await keeperProject();
    const memory = join(project, '.claude', 'agent-memory', 'keeper');
    await mkdir(memory, { recursive: true });
    await writeFile(join(memory, 'MEMORY.md'), '- notes.md: tooling decisions\n');
    server = await startMockServer({ scenario: keeperScenario(project) });
    const { json, code, stderr } = await run(project, ['Note it']);
    expect(code, stderr).toBe(0);
    expect(json).toMatchObject({ result: 'Noted.' });

    const [first, second, third] = workerBodies();
    const system = JSON.stringify(first?.system);
    expect(system).toContain(`You keep notes that last between your runs in the folder ${memory}.`);
    expect(system).toContain('- notes.md: tooling decisions');
    // Its tools: its own list plus what the memory needs.
    expect(first?.tools?.map((tool) => tool.name).sort()).toEqual(['Bash', 'Edit', 'Read', 'Write']);
    // The skill's body comes before its task.
    const opening = JSON.stringify(first?.messages);
    expect(opening).toContain('CHECKLIST: bump the version, tag, publish.');
    expect(opening.indexOf('CHECKLIST')).toBeLessThan(opening.indexOf('Note the package manager'));

    // The memory write went through without a prompt; the one outside was refused (headless).
    expect(await readFile(join(memory, 'notes.md'), 'utf8')).toBe('use pnpm\n');
    expect(toolResults(second)).not.toContain('"is_error":true');
    expect(toolResults(third)).toContain('"is_error":true');
    expect(existsSync(join(project, 'outside.txt'))).toBe(false);
  });

  it('a preloaded context: fork skill loads its body into the worker instead of forking another agent', async () => {
    const project = await keeperProject('context: fork\n');
    server = await startMockServer({ scenario: keeperScenario(project) });
    const { json, code, stderr } = await run(project, ['Note it']);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('runs without the skill');
    expect(json).toMatchObject({ result: 'Noted.' });
    const [first] = workerBodies();
    expect(JSON.stringify(first?.messages)).toContain('CHECKLIST: bump the version, tag, publish.');
    // No forked worker ran: besides the keeper's, only the parent's two requests went out.
    const others = (server?.requests ?? [])
      .filter((r) => r.path === '/v1/messages')
      .filter((r) => !JSON.stringify((r.body as Body).system ?? '').includes(KEEPER));
    expect(others).toHaveLength(2);
  });

  it('a memory path planted as a symlink out of the project is not used, and the write through it is refused', async () => {
    const project = await keeperProject();
    const outside = await tempProject('yoke-e2e-outside-');
    // The same link sends a plain shell write outside (calibrated in agent-memory.test.ts).
    symlinkSync(outside, join(project, '.claude', 'agent-memory'));
    mkdirSync(join(outside, 'keeper'));
    server = await startMockServer({ scenario: keeperScenario(project) });
    const { code, stderr } = await run(project, ['Note it']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('The agent keeper runs without its project memory:');
    expect(stderr).toContain('is not a real folder (a symlink or a file is in its place)');
    const [first, second] = workerBodies();
    expect(JSON.stringify(first?.system)).not.toContain('# Your memory');
    // Without its memory the agent has only Bash: the Write through the link never runs.
    expect(toolResults(second)).toContain('"is_error":true');
    expect(existsSync(join(outside, 'keeper', 'notes.md'))).toBe(false);
  });
});

describe('--agent with an initialPrompt', () => {
  const agents = JSON.stringify({
    'release-bot': {
      description: 'Runs releases.',
      prompt: 'You are the release bot.',
      initialPrompt: 'Start by reading CHANGELOG.md.',
    },
    'plain-bot': { description: 'Plain.', prompt: 'You are plain.' },
  });
  const firstUserText = () => {
    const body = server?.requests.find((r) => r.path === '/v1/messages')?.body as Body | undefined;
    return JSON.stringify(body?.messages.filter((m) => m.role === 'user') ?? []);
  };

  it('is the first user turn, before the prompt given', async () => {
    server = await startMockServer({ scenario: [{ reply: say('Reading it.') }] });
    const project = await tempProject();
    const { json, code, stderr } = await run(project, [
      'Then tag v2.',
      '--agent',
      'release-bot',
      '--agents',
      agents,
    ]);
    expect(code, stderr).toBe(0);
    expect(json).toMatchObject({ result: 'Reading it.' });
    expect(firstUserText()).toContain('Start by reading CHANGELOG.md.\\n\\nThen tag v2.');
  });

  it('runs alone when no prompt is given; an agent without one still needs a prompt', async () => {
    server = await startMockServer({ scenario: [{ reply: say('Reading it.') }] });
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    const env = mockEnv(server.url, home);
    const alone = await runYoke(['-p', '--agent', 'release-bot', '--agents', agents], {
      cwd: project,
      env,
      input: '',
    });
    expect(alone.code, alone.stderr).toBe(0);
    expect(firstUserText()).toContain('Start by reading CHANGELOG.md.');

    const plain = await runYoke(['-p', '--agent', 'plain-bot', '--agents', agents], {
      cwd: project,
      env,
      input: '',
    });
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain(
      'no prompt given: pass it as an argument or on stdin. The agent plain-bot has no initialPrompt.',
    );
  });
});
