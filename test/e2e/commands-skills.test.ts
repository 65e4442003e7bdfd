/**
 * Custom slash commands and skills through the built CLI (issue 16): `-p "/name args"` expands a
 * project's command, `!` commands run under the permission pipeline (a refused one never runs:
 * proven with a marker file, and run for real in a trusted folder as the control), built-in
 * commands that need no screen answer without the model, the model runs skills through the Skill
 * tool, a path-gated skill appears once a matching file is touched, and an invoked skill's body
 * survives an auto-compaction.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const FIXTURES = join(import.meta.dirname, '../../src/skills/fixtures/project');

const workspace = useWorkspace();
const server = {
  get requests() {
    return workspace.server.requests;
  },
  get url() {
    return workspace.server.url;
  },
  reset: (...args: Parameters<typeof workspace.server.reset>) => workspace.server.reset(...args),
};

type Folder = { cwd: string; home: string };

/** A project with the fixture commands and skills (the shapes of public ones) and a home of its own. */
async function project(): Promise<Folder> {
  const cwd = await tempProject();
  await cp(FIXTURES, cwd, { recursive: true });
  return { cwd, home: await tempProject('yoke-home-') };
}

async function command(folder: Folder, name: string, text: string): Promise<void> {
  await mkdir(join(folder.cwd, '.claude', 'commands'), { recursive: true });
  await writeFile(join(folder.cwd, '.claude', 'commands', `${name}.md`), text);
}

const yoke = (folder: Folder, args: string[]) =>
  runYoke(args, { cwd: folder.cwd, env: mockEnv(server.url, folder.home) });

async function trust(folder: Folder): Promise<void> {
  expect((await yoke(folder, ['trust'])).code).toBe(0);
}

type Body = { messages: { role: string; content: unknown }[] };
const requestText = (index: number) =>
  JSON.stringify((server.requests[index]?.body as Body | undefined)?.messages ?? 'no such request');

function answer(...texts: string[]): void {
  server.reset(texts.map((text) => ({ reply: { content: [{ type: 'text', text }] } })));
}

describe('-p "/name args"', () => {
  it('expands a namespaced project command: arguments, project dir, the command line block', async () => {
    const folder = await project();
    answer('scaffolded');
    const { code, stdout } = await yoke(folder, ['-p', '/frontend:component Button forms']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('scaffolded');
    const sent = requestText(0);
    expect(sent).toContain('<command-name>/frontend:component</command-name>');
    expect(sent).toContain('<command-args>Button forms</command-args>');
    expect(sent).toContain(`named Button in ${folder.cwd}/src/forms`);
  });

  it('does not run a refused !`command`: an untrusted project grants nothing, and the marker stays absent', async () => {
    const folder = await project();
    await command(folder, 'mark', '---\nallowed-tools: Bash(touch:*)\n---\nMarked: !`touch marker.txt`\n');
    answer('never asked');
    const { code, stdout } = await yoke(folder, ['-p', '/mark', '--output-format', 'json']);
    expect(code).toBe(1);
    const result = JSON.parse(stdout) as { is_error: boolean; result: string };
    expect(result.is_error).toBe(true);
    expect(result.result).toContain('/mark was not run: its command `touch marker.txt` was refused');
    expect(await fileExists(join(folder.cwd, 'marker.txt'))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('runs the same command in a trusted folder, where its allowed-tools apply (the calibration: touch makes the file)', async () => {
    const folder = await project();
    await trust(folder);
    await command(
      folder,
      'mark',
      '---\nallowed-tools: Bash(touch:*)\n---\nMarked: !`touch marker.txt && echo made`\n',
    );
    answer('noted');
    const { code } = await yoke(folder, ['-p', '/mark']);
    expect(code).toBe(0);
    expect(await fileExists(join(folder.cwd, 'marker.txt'))).toBe(true);
    expect(requestText(0)).toContain('Marked: made');
  });

  it('inlines the output of an allowed read-only command', async () => {
    const folder = await project();
    await command(folder, 'where', 'Branch files: !`ls .claude/skills`\n');
    answer('ok');
    expect((await yoke(folder, ['-p', '/where'])).code).toBe(0);
    expect(requestText(0)).toContain('api-conventions');
  });

  it('answers /cost without the model, and says /memory needs the interactive UI', async () => {
    const folder = await project();
    answer('unused');
    const cost = await yoke(folder, ['-p', '/cost']);
    expect(cost.code).toBe(0);
    expect(cost.stdout).toContain('Total cost:');
    const memory = await yoke(folder, ['-p', '/memory']);
    expect(memory.code).toBe(1);
    expect(memory.stdout + memory.stderr).toContain('/memory needs the interactive UI');
    expect(server.requests).toHaveLength(0);
  });

  it("expands an MCP server's prompt, /mcp__<server>__<prompt>, once the server is connected", async () => {
    const folder = await project();
    const fixture = join(import.meta.dirname, '../fixtures/mcp/fixture-server.mjs');
    await writeFile(
      join(folder.cwd, '.mcp.json'),
      JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [fixture] } } }),
    );
    answer('hello');
    const { code, stdout } = await yoke(folder, ['-p', '/mcp__fx__greet']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('hello');
    expect(requestText(0)).toContain('<command-name>/mcp__fx__greet</command-name>');
    expect(requestText(0)).toContain('Say hello.');
  });

  it('lists commands and skills in system/init', async () => {
    const folder = await project();
    answer('ok');
    const { stdout } = await yoke(folder, ['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    const init = JSON.parse(stdout.split('\n')[0] as string) as {
      slash_commands: string[];
      skills: string[];
    };
    expect(init.slash_commands).toEqual(
      expect.arrayContaining(['compact', 'frontend:component', 'pdf-forms', 'review']),
    );
    expect(init.skills).toEqual(expect.arrayContaining(['pdf-forms', 'api-conventions', 'review']));
    expect(init.skills).not.toContain('frontend:component');
  });
});

describe('the Skill tool', () => {
  it('loads a skill body after the tool result, with its folder; refuses a user-only command', async () => {
    const folder = await project();
    server.reset([
      { reply: { content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'pdf-forms' } }] } },
      { reply: { content: [{ type: 'tool_use', id: 's2', name: 'Skill', input: { skill: 'commit' } }] } },
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    // A personal command that sets disable-model-invocation.
    await mkdir(join(folder.home, '.claude', 'commands'), { recursive: true });
    await writeFile(
      join(folder.home, '.claude', 'commands', 'commit.md'),
      '---\ndisable-model-invocation: true\n---\nCommit.\n',
    );
    expect((await yoke(folder, ['-p', 'fill the form'])).code).toBe(0);
    const second = requestText(1);
    expect(second).toContain('Launching skill: pdf-forms');
    expect(second).toContain(`Base directory for this skill: ${folder.cwd}/.claude/skills/pdf-forms`);
    const third = requestText(2);
    expect(third).toContain('can only be run by the user');
  });

  it('honours a Skill(name) deny rule: that skill is refused and its body never sent, another still runs', async () => {
    const folder = await project();
    server.reset([
      { reply: { content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'pdf-forms' } }] } },
      { reply: { content: [{ type: 'tool_use', id: 's2', name: 'Skill', input: { skill: 'review' } }] } },
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const { code } = await yoke(folder, ['-p', 'go', '--disallowedTools', 'Skill(pdf-forms)']);
    expect(code).toBe(0);
    expect(requestText(1)).toContain('"is_error":true');
    expect(requestText(1)).not.toContain('List the fields');
    expect(requestText(2)).toContain('Launching skill: review');
  });

  it('offers a path-gated skill only after the model touched a matching file', async () => {
    const folder = await project();
    await mkdir(join(folder.cwd, 'src', 'api'), { recursive: true });
    await writeFile(join(folder.cwd, 'src', 'api', 'users.ts'), 'export {};\n');
    server.reset([
      {
        reply: {
          content: [
            {
              type: 'tool_use',
              id: 'r1',
              name: 'Read',
              input: { file_path: join(folder.cwd, 'src/api/users.ts') },
            },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'read it' }] } },
    ]);
    expect((await yoke(folder, ['-p', 'look at the users handler'])).code).toBe(0);
    expect(requestText(0)).toContain('pdf-forms');
    expect(requestText(0)).not.toContain('api-conventions');
    expect(requestText(1)).toContain('More skills are available');
    expect(requestText(1)).toContain('api-conventions');
  });

  it("registers a skill's hooks once it ran (trusted folder): a Bash call allowed before is blocked after", async () => {
    const folder = await project();
    await trust(folder);
    await mkdir(join(folder.cwd, '.claude', 'skills', 'guarded'), { recursive: true });
    await writeFile(
      join(folder.cwd, '.claude', 'skills', 'guarded', 'SKILL.md'),
      [
        '---',
        'description: Work carefully, with no shell while this skill is active',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        '          command: "echo \'blocked by the guarded skill\' >&2; exit 2"',
        '---',
        'Use only the file tools from now on.',
      ].join('\n'),
    );
    const bash = (id: string) => ({
      reply: { content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command: 'echo hi' } }] },
    });
    server.reset([
      bash('b1'),
      { reply: { content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'guarded' } }] } },
      bash('b2'),
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    expect((await yoke(folder, ['-p', 'go'])).code).toBe(0);
    expect(requestText(1)).not.toContain('blocked by the guarded skill');
    expect(requestText(3)).toContain('blocked by the guarded skill');
  });

  it("keeps an invoked skill's body through an auto-compaction", async () => {
    const folder = await project();
    server.reset([
      {
        reply: {
          content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'pdf-forms' } }],
          // Close to the window: the next pass compacts before it asks the model.
          usage: { inputTokens: 990_000 },
        },
      },
      { reply: { content: [{ type: 'text', text: 'Summary: the user wants a form filled.' }] } },
      { reply: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const { code } = await yoke(folder, ['-p', 'fill the form', '--model', 'claude-sonnet-5-5']);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(3);
    const after = requestText(2);
    expect(after).toContain('Summary: the user wants a form filled.');
    expect(after).toContain('Skills active in this session');
    expect(after).toContain('## Skill: pdf-forms');
    expect(after).toContain('List the fields');
  });
});
