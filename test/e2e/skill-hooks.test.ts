/**
 * The UserPromptExpansion and PreSkillShellCommand hooks through the built CLI, with real command
 * hooks (shell scripts in the user's settings). A trusted project's `/mark` command would run
 * `touch marker.txt` through a `!` command: the marker file shows whether it ran. Hooks that
 * block stop it before anything runs; a hook that hangs is stopped at its timeout and the command
 * goes on; a hook that prints garbage blocks with a line saying which hook and why.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileExists, mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

type Folder = { cwd: string; home: string };
type Result = { is_error: boolean; result: string };

/** A trusted project with `/mark` and a home whose settings run `script` on `event`. */
async function setUp(
  event: string,
  script: string,
  extra: Record<string, unknown> = {},
  markHead = '',
): Promise<Folder> {
  const cwd = await tempProject();
  const home = await tempProject('yoke-home-');
  await mkdir(join(cwd, '.claude/commands'), { recursive: true });
  await writeFile(
    join(cwd, '.claude/commands/mark.md'),
    `---\nallowed-tools: Bash(touch:*)\n${markHead}---\nMarked: !\`touch marker.txt && echo made\`\n`,
  );
  await mkdir(join(cwd, '.claude/skills/marker'), { recursive: true });
  await writeFile(
    join(cwd, '.claude/skills/marker/SKILL.md'),
    '---\ndescription: Leaves a marker\nallowed-tools: Bash(touch:*)\n---\nMarked: !`touch marker.txt && echo made`\n',
  );
  const hook = join(home, 'hook.sh');
  await writeFile(hook, script);
  await writeFile(
    join(home, 'settings.json'),
    JSON.stringify({
      hooks: {
        [event]: [{ matcher: 'mark', hooks: [{ type: 'command', command: `sh ${hook}`, ...extra }] }],
      },
    }),
  );
  const folder = { cwd, home };
  expect((await yoke(folder, ['trust'])).code).toBe(0);
  return folder;
}

const yoke = (folder: Folder, args: string[]) =>
  runYoke(args, { cwd: folder.cwd, env: mockEnv(ws.server.url, folder.home) });

async function mark(folder: Folder, line = '/mark now') {
  const run = await yoke(folder, ['-p', line, '--output-format', 'json']);
  return {
    ...run,
    result: JSON.parse(run.stdout) as Result,
    marked: await fileExists(join(folder.cwd, 'marker.txt')),
  };
}

/** What the hook was given on stdin (the script saves it next to itself). */
const SAVE_INPUT = 'cat > "$(dirname "$0")/input.json"\n';
const hookInput = async (folder: Folder) =>
  JSON.parse(await readFile(join(folder.home, 'input.json'), 'utf8')) as Record<string, unknown>;
const requestText = (index: number) => JSON.stringify(ws.server.requests[index]?.body ?? 'no such request');

describe('UserPromptExpansion', () => {
  it('a hook that exits 2 stops the command before its ! command runs; it was told what was typed', async () => {
    const folder = await setUp(
      'UserPromptExpansion',
      `${SAVE_INPUT}echo "deploys need an approval file" >&2\nexit 2\n`,
    );
    ws.answer('never asked');
    const run = await mark(folder);
    expect(run.code).toBe(1);
    expect(run.result).toMatchObject({ is_error: true });
    expect(run.result.result).toContain('/mark was not run: a UserPromptExpansion hook blocked it');
    expect(run.result.result).toContain('deploys need an approval file');
    expect(run.marked).toBe(false);
    expect(ws.server.requests).toHaveLength(0);
    expect(await hookInput(folder)).toMatchObject({
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'mark',
      command_args: 'now',
      command_source: 'project',
      prompt: '/mark now',
      cwd: folder.cwd,
    });
  });

  it("a hook's additionalContext goes with the expansion", async () => {
    const context = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'UserPromptExpansion',
        additionalContext: 'Use the release checklist.',
      },
    });
    const folder = await setUp('UserPromptExpansion', `printf '%s' '${context}'\n`);
    ws.answer('marked');
    const run = await mark(folder);
    expect(run.code).toBe(0);
    expect(run.marked).toBe(true);
    expect(requestText(0)).toContain('Marked: made');
    expect(requestText(0)).toContain(
      'UserPromptExpansion:mark hook additional context: Use the release checklist.',
    );
  });

  it('suppressOriginalPrompt sends the context alone: the command neither expands nor runs', async () => {
    const suppress = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'UserPromptExpansion',
        suppressOriginalPrompt: true,
        additionalContext: 'Marking is frozen this week.',
      },
    });
    const folder = await setUp('UserPromptExpansion', `printf '%s' '${suppress}'\n`);
    ws.answer('understood');
    const run = await mark(folder);
    expect(run.code).toBe(0);
    expect(run.marked).toBe(false);
    expect(requestText(0)).toContain('Marking is frozen this week.');
    expect(requestText(0)).not.toContain('<command-name>/mark');
  });

  it('a context: fork command is gated the same way: a block forks nothing, a suppressing hook sends its context instead', async () => {
    const blocked = await setUp(
      'UserPromptExpansion',
      'echo "no forks today" >&2\nexit 2\n',
      {},
      'context: fork\n',
    );
    ws.answer('never asked');
    const refused = await mark(blocked);
    expect(refused.result.result).toContain('/mark was not run: a UserPromptExpansion hook blocked it');
    expect(refused.marked).toBe(false);
    expect(ws.server.requests).toHaveLength(0);

    const suppress = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'UserPromptExpansion',
        suppressOriginalPrompt: true,
        additionalContext: 'Forking is frozen this week.',
      },
    });
    const folder = await setUp('UserPromptExpansion', `printf '%s' '${suppress}'\n`, {}, 'context: fork\n');
    ws.answer('understood');
    const run = await mark(folder);
    expect(run.code).toBe(0);
    expect(run.marked).toBe(false);
    // One request, the main conversation's, carrying the hook's context: no worker ran.
    expect(ws.server.requests).toHaveLength(1);
    expect(requestText(0)).toContain('Forking is frozen this week.');
  });

  it('a hook that hangs is stopped at its timeout, said once, and the command goes on', async () => {
    const folder = await setUp('UserPromptExpansion', 'sleep 30\n', { timeout: 1 });
    ws.answer('marked');
    const run = await mark(folder);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('UserPromptExpansion:mark hook "sh');
    expect(
      run.stderr.split('timed out after 1s and was stopped; continuing without its verdict'),
    ).toHaveLength(2);
    expect(run.marked).toBe(true);
    expect(requestText(0)).toContain('Marked: made');
  });

  it('a hook that prints garbage blocks, naming the hook and what was wrong', async () => {
    const folder = await setUp('UserPromptExpansion', 'echo "{not json"\n');
    ws.answer('never asked');
    const run = await mark(folder);
    expect(run.code).toBe(1);
    expect(run.result.result).toMatch(
      /\/mark was not run: a UserPromptExpansion hook blocked it: \[sh .*hook\.sh\]: UserPromptExpansion:mark hook "sh .*hook\.sh" printed invalid JSON \(.*\); blocked until the hook replies with readable output/,
    );
    expect(run.marked).toBe(false);
    expect(ws.server.requests).toHaveLength(0);
  });
});

describe('PreSkillShellCommand', () => {
  const decide = (decision: string) =>
    `${SAVE_INPUT}printf '%s' '${JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreSkillShellCommand',
        permissionDecision: decision,
        permissionDecisionReason: `the hook says ${decision}`,
      },
    })}'\n`;

  it('a deny stops the expansion before the command runs; the hook saw the command and who ran it', async () => {
    const folder = await setUp('PreSkillShellCommand', decide('deny'));
    ws.answer('never asked');
    const run = await mark(folder);
    expect(run.code).toBe(1);
    expect(run.result.result).toBe(
      '/mark was not run: its command `touch marker.txt && echo made` was blocked by a PreSkillShellCommand hook: the hook says deny',
    );
    expect(run.marked).toBe(false);
    expect(ws.server.requests).toHaveLength(0);
    expect(await hookInput(folder)).toMatchObject({
      hook_event_name: 'PreSkillShellCommand',
      tool_name: 'Bash',
      tool_input: { command: 'touch marker.txt && echo made' },
      tool_use_id: expect.stringMatching(/^toolu_/),
      command_name: 'mark',
      command_source: 'project',
      invoked_by: 'user',
    });
  });

  it('an ask blocks too (there is no one to ask mid-expansion); an allow lets the command run (the calibration)', async () => {
    const asking = await setUp('PreSkillShellCommand', decide('ask'));
    ws.answer('never asked');
    const refused = await mark(asking);
    expect(refused.result.result).toContain('was blocked by a PreSkillShellCommand hook: the hook says ask');
    expect(refused.marked).toBe(false);

    const allowing = await setUp('PreSkillShellCommand', decide('allow'));
    ws.answer('marked');
    const allowed = await mark(allowing);
    expect(allowed.code).toBe(0);
    expect(allowed.marked).toBe(true);
    expect(requestText(0)).toContain('Marked: made');
  });

  it('a hook that rewrites the command blocks it; a hook that prints garbage blocks it', async () => {
    const rewrite = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', updatedInput: { command: 'true' } },
    });
    const rewriting = await setUp('PreSkillShellCommand', `printf '%s' '${rewrite}'\n`);
    ws.answer('never asked');
    const rewritten = await mark(rewriting);
    expect(rewritten.result.result).toContain("a skill's shell command cannot be rewritten");
    expect(rewritten.marked).toBe(false);

    const garbled = await setUp('PreSkillShellCommand', 'printf "{oops"\n');
    const garbage = await mark(garbled);
    expect(garbage.result.result).toMatch(
      /printed invalid JSON .*; blocked until the hook replies with readable output/,
    );
    expect(garbage.marked).toBe(false);
    expect(ws.server.requests).toHaveLength(0);
  });

  it('fires for a skill the model runs through the Skill tool, with invoked_by "claude"', async () => {
    const folder = await setUp('PreSkillShellCommand', decide('deny'));
    await writeFile(
      join(folder.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          PreSkillShellCommand: [
            {
              matcher: 'marker',
              hooks: [{ type: 'command', command: `sh ${join(folder.home, 'hook.sh')}` }],
            },
          ],
        },
      }),
    );
    ws.server.reset([
      { reply: { content: [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'marker' } }] } },
      { reply: { content: [{ type: 'text', text: 'could not mark' }] } },
    ]);
    const run = await yoke(folder, ['-p', 'leave a marker']);
    expect(run.code).toBe(0);
    expect(await fileExists(join(folder.cwd, 'marker.txt'))).toBe(false);
    expect(requestText(1)).toContain('was blocked by a PreSkillShellCommand hook: the hook says deny');
    expect(await hookInput(folder)).toMatchObject({ command_name: 'marker', invoked_by: 'claude' });
  });
});
