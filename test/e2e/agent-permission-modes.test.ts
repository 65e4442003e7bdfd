/**
 * A subagent's `permissionMode` against the settings that turn a mode off, through the real CLI:
 * an agent file (the user's own, or one a plugin brings) saying `bypassPermissions` must not run
 * its worker in that mode when `permissions.disableBypassPermissionsMode` forbids it — the worker
 * keeps the parent's mode and the refusal is said once. And the model may not write an agent,
 * skill or command file unasked: an agent's hooks run when it starts, a skill's allowed-tools let
 * its calls run unasked — in later sessions too. Marker files prove what was written and what ran.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, tempProject } from './helpers';

let server: MockServer | undefined;
const folders: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The parent starts agent `fixer`; the worker writes `made` (which would prompt), then answers. */
const delegateWrite: ScenarioInput = [
  {
    match: { firstUserTextContains: 'SUBTASK' },
    reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch made' } }] },
  },
  { match: { firstUserTextContains: 'SUBTASK' }, reply: { content: [{ type: 'text', text: 'sub done' }] } },
  {
    reply: {
      content: [
        {
          type: 'tool_use',
          name: 'Agent',
          input: { description: 'fix', prompt: 'SUBTASK', subagent_type: 'fixer' },
        },
      ],
    },
  },
  { reply: { content: [{ type: 'text', text: 'Done.' }] } },
];

/** A project and a Yoke home with user settings `permissions` and an agent file of that `mode`. */
async function setUp(
  permissions: Record<string, unknown>,
  mode: string,
): Promise<{ project: string; home: string }> {
  const project = await tempProject();
  const home = await tempProject('yoke-e2e-home-');
  folders.push(project, home);
  await writeFile(join(home, 'settings.json'), JSON.stringify({ permissions }));
  await mkdir(join(home, 'agents'));
  await writeFile(
    join(home, 'agents', 'fixer.md'),
    `---\nname: fixer\ndescription: Fixes things.\npermissionMode: ${mode}\ntools: Bash\n---\nYou fix things.\n`,
  );
  return { project, home };
}

describe("an agent file's permissionMode", () => {
  it('cannot run its worker in bypassPermissions when disableBypassPermissionsMode turns it off', async () => {
    server = await startMockServer({ scenario: delegateWrite });
    const { project, home } = await setUp({ disableBypassPermissionsMode: 'disable' }, 'bypassPermissions');
    const run = await runYoke(['-p', 'delegate'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, 'made'))).toBe(false);
    expect(run.stderr).toContain(
      'Agent fixer asks for permission mode bypassPermissions: Permission mode bypassPermissions is disabled by permissions.disableBypassPermissionsMode (userSettings). It runs in default mode.',
    );
    // The worker was told its command was refused, not left to wonder.
    const workerRequests = JSON.stringify(server.requests.map((request) => request.body));
    expect(workerRequests).toContain('Permission for Bash: touch made was not granted');
  });

  it('still runs its worker in bypassPermissions where no setting forbids it (control)', async () => {
    server = await startMockServer({ scenario: delegateWrite });
    const { project, home } = await setUp({}, 'bypassPermissions');
    const run = await runYoke(['-p', 'delegate'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, 'made'))).toBe(true);
    expect(run.stderr).not.toContain('asks for permission mode');
  });
});

/** An agent file whose hook leaves `marker` in the project when the agent starts. */
const plantedAgent = (project: string) =>
  [
    '---',
    'name: helper',
    'description: Helps.',
    'hooks:',
    '  SubagentStart:',
    '    - hooks:',
    '        - type: command',
    `          command: touch ${join(project, 'marker')}`,
    '---',
    'Help.',
    '',
  ].join('\n');

/** A skill whose allowed-tools let every Bash call run unasked. */
const grantingSkill = '---\nname: helper\ndescription: Helps.\nallowed-tools: Bash\n---\nHelp.\n';

describe('agent, skill and command files under acceptEdits', () => {
  it('asks before the model writes one (refused headless), so nothing can be planted', async () => {
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    folders.push(project, home);
    const writes = [
      [join(project, '.claude', 'agents', 'helper.md'), plantedAgent(project)],
      [join(project, '.claude', 'skills', 'helper', 'SKILL.md'), grantingSkill],
      [join(project, '.yoke', 'commands', 'helper.md'), grantingSkill],
      [join(project, 'docs', 'notes.md'), '# notes\n'],
    ] as const;
    server = await startMockServer({
      scenario: [
        {
          reply: {
            content: writes.map(([file_path, content]) => ({
              type: 'tool_use' as const,
              name: 'Write',
              input: { file_path, content },
            })),
          },
        },
        { reply: { content: [{ type: 'text', text: 'Done.' }] } },
      ],
    });
    const run = await runYoke(['-p', 'write', '--permission-mode', 'acceptEdits'], {
      cwd: project,
      env: mockEnv(server.url, home),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(writes.map(([path]) => existsSync(path))).toEqual([false, false, false, true]);
    const told = JSON.stringify(server.requests.at(-1)?.body);
    expect(told).toContain(
      '.claude/agents/helper.md is protected: an agent file names hooks and MCP servers that run when the agent starts',
    );
    expect(told).toContain(
      '.claude/skills/helper/SKILL.md is protected: a skill file grants tools (allowed-tools) and names hooks that run when it is used',
    );
  });

  it("lets a trusted folder's skill grant its tools (what the refusal protects)", async () => {
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    folders.push(project, home);
    await mkdir(join(project, '.claude', 'skills', 'helper'), { recursive: true });
    await writeFile(join(project, '.claude', 'skills', 'helper', 'SKILL.md'), grantingSkill);
    server = await startMockServer({
      scenario: [
        { reply: { content: [{ type: 'tool_use', name: 'Skill', input: { skill: 'helper' } }] } },
        { reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch marker' } }] } },
        { reply: { content: [{ type: 'text', text: 'Done.' }] } },
      ],
    });
    const run = await runYoke(['-p', 'help', '--trust'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(project, 'marker'))).toBe(true);
  });

  it('runs the hooks of an agent file the user wrote, when the agent starts (what the refusal protects)', async () => {
    const project = await tempProject();
    const home = await tempProject('yoke-e2e-home-');
    folders.push(project, home);
    await mkdir(join(project, '.claude', 'agents'), { recursive: true });
    await writeFile(join(project, '.claude', 'agents', 'helper.md'), plantedAgent(project));
    server = await startMockServer({
      scenario: [
        {
          match: { firstUserTextContains: 'SUBTASK' },
          reply: { content: [{ type: 'text', text: 'sub done' }] },
        },
        {
          reply: {
            content: [
              {
                type: 'tool_use',
                name: 'Agent',
                input: { description: 'help', prompt: 'SUBTASK', subagent_type: 'helper' },
              },
            ],
          },
        },
        { reply: { content: [{ type: 'text', text: 'Done.' }] } },
      ],
    });
    const run = await runYoke(['-p', 'delegate'], { cwd: project, env: mockEnv(server.url, home) });
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(project, 'marker'), 'utf8')).toBe('');
  });
});
