/**
 * The REPL's session features in a real terminal (tmux) against the mock model server: the resume
 * picker (`yoke --resume` without an id, and `/resume`), `!cd` moving the session's folder, the
 * `statusLine` command, and `@path` mentions attaching files.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenarioInput } from '../../../src/testing/mock-server';
import { runYoke } from '../helpers';
import { READY, useTuiFixture } from './fixture';
import { tmuxAvailable } from './tmux';

const hasTmux = tmuxAvailable();
const fx = useTuiFixture('yoke-features-', async (cwd) => {
  await mkdir(join(cwd, 'src'), { recursive: true });
  await writeFile(join(cwd, 'src', 'marker-file.txt'), 'x\n');
});
const open = (args: string[] = []) => fx.open(args);

/** The dollars a session's transcript records (its cost lines), as `yoke sessions` sums them. */
async function transcriptCostUsd(id: string): Promise<number> {
  const folders = await readdir(join(fx.home, 'projects'));
  for (const folder of folders) {
    const text = await readFile(join(fx.home, 'projects', folder, `${id}.jsonl`), 'utf8').catch(() => '');
    if (text === '') continue;
    return text
      .split('\n')
      .filter((line) => line.includes('"type":"cost"'))
      .reduce((sum, line) => sum + (JSON.parse(line) as { costUSD: number }).costUSD, 0);
  }
  throw new Error(`no transcript of ${id} under ${fx.home}`);
}

/** A finished -p session whose first prompt is `prompt` (answered by `turns`); returns its id. */
async function pastSession(
  prompt: string,
  turns: ScenarioInput = [{ reply: { content: [{ type: 'text', text: `answer to ${prompt}` }] } }],
): Promise<string> {
  fx.server.reset(turns);
  const run = await runYoke(['-p', prompt, '--output-format', 'json'], {
    cwd: fx.cwd,
    env: fx.env(),
  });
  return JSON.parse(run.stdout).session_id as string;
}

describe.skipIf(!hasTmux)('session features in tmux', { timeout: 120_000 }, () => {
  it('yoke --resume without an id opens the picker; typing filters, Enter resumes that session', async () => {
    const alpha = await pastSession('first prompt alpha');
    await pastSession('second prompt beta');
    const t = await open(['--resume']);
    let screen = await t.waitFor('second prompt beta', { timeoutMs: 45_000 });
    expect(screen).toMatch(/❯ just now\s+[\d.]+ KB {2}second prompt beta/);
    expect(screen).toContain('first prompt alpha');
    await t.type('alpha');
    await t.waitFor((s) => s.includes('filter: alpha') && !s.includes('second prompt beta'));
    await t.press('Enter');
    screen = await t.waitFor((s) => s.includes(`Resumed session ${alpha}`) && READY(s), {
      timeoutMs: 45_000,
    });
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'continued' }] } }]);
    await t.type('and now?');
    await t.press('Enter');
    await t.waitFor('continued');
    // The resumed conversation went with the new prompt.
    expect(JSON.stringify(fx.server.requests.at(-1)?.body)).toContain('first prompt alpha');
  });

  it('yoke --resume <id> shows the conversation so far, its tool calls with their results', async () => {
    const id = await pastSession('what is in the marker?', [
      {
        reply: {
          content: [
            { type: 'text', text: 'Let me read it.' },
            { type: 'tool_use', name: 'Bash', input: { command: 'echo marker-said-hello' } },
          ],
        },
      },
      { reply: { content: [{ type: 'text', text: 'It says hello.' }] } },
    ]);
    const t = await open(['--resume', id]);
    let screen = await t.waitFor((s) => s.includes('It says hello.') && READY(s), { timeoutMs: 45_000 });
    expect(screen).toContain('> what is in the marker?');
    expect(screen).toMatch(/● Bash\(echo marker-said-hello\)\n\s+⎿ exit 0\n\s+marker-said-hello/);
    expect(screen).toContain(`Resumed session ${id}.`);
    // The status line shows what the session cost, its earlier run included (the transcript's
    // cost lines), and /cost says which part was earlier.
    const earlier = await transcriptCostUsd(id);
    expect(earlier).toBeGreaterThan(0);
    expect(screen).toContain(`default mode · context 1% · $${earlier.toFixed(4)}`);
    await t.type('/cost ');
    await t.press('Enter');
    screen = await t.waitFor('earlier runs:');
    expect(screen).toContain(`Total cost:        $${earlier.toFixed(4)} for the whole session`);
    expect(screen).toMatch(new RegExp(`earlier runs: +\\$${earlier.toFixed(4)} — 2 API requests`));
  });

  it('yoke --continue says which session it resumed', async () => {
    const id = await pastSession('the one to continue');
    const t = await open(['--continue']);
    const screen = await t.waitFor((s) => s.includes('answer to the one to continue') && READY(s), {
      timeoutMs: 45_000,
    });
    expect(screen).toContain(`Resumed session ${id}.`);
  });

  it('/resume opens the picker without the running session; Esc goes back to the prompt', async () => {
    await pastSession('an older conversation');
    const t = await open();
    await t.waitFor(READY, { timeoutMs: 45_000 });
    // The space closes the completion list, so Enter runs the command.
    await t.type('/resume ');
    await t.press('Enter');
    const screen = await t.waitFor('an older conversation');
    expect(screen).toContain('Esc to go back');
    await t.press('Escape');
    await t.waitFor((s) => !s.includes('Resume a session') && READY(s));
    await t.type('/exit ');
    await t.press('Enter');
    expect(await t.exitCode()).toBe(0);
  });

  it('!cd moves the session into a folder: the status line shows it and later commands run there', async () => {
    const t = await open();
    await t.waitFor(READY, { timeoutMs: 45_000 });
    await t.type('!cd src');
    await t.press('Enter');
    await t.waitFor(/default mode · .* · in src/);
    await t.type('!ls');
    await t.press('Enter');
    await t.waitFor(/! ls\n\s+marker-file\.txt/);
  });

  it('a statusLine command replaces the built-in line and runs again when the mode changes', async () => {
    // Reads Claude Code's JSON on stdin and prints the mode it was given.
    const command = `read -r json; mode=\${json#*\\"permission_mode\\":\\"}; echo "custom-line \${mode%%\\"*}"`;
    const t = await open(['--settings', JSON.stringify({ statusLine: { type: 'command', command } })]);
    await t.waitFor(/╰─+╯\n\s+custom-line default/, { timeoutMs: 45_000 });
    await t.press('BTab');
    const screen = await t.waitFor(/╰─+╯\n\s+custom-line acceptEdits/);
    expect(screen).not.toContain('statusLine');
  });

  it('a failing statusLine command is reported once and the built-in line stays', async () => {
    const command = 'echo broken-on-purpose >&2; exit 3';
    const t = await open(['--settings', JSON.stringify({ statusLine: { type: 'command', command } })]);
    await t.waitFor('the status line command exited with code 3: broken-on-purpose', { timeoutMs: 45_000 });
    await t.waitFor(READY);
    await t.press('BTab');
    const screen = await t.waitFor(/╰─+╯\n\s+\S+ · ⏵⏵ accept edits on/);
    expect(screen.split('exited with code 3').length - 1).toBe(1);
  });

  it('@path attaches the file to the prompt; a missing one is named and not sent', async () => {
    fx.server.reset([{ reply: { content: [{ type: 'text', text: 'read it' }] } }]);
    const t = await open();
    await t.waitFor(READY, { timeoutMs: 45_000 });
    // A space after the path closes the completion list, so Enter sends.
    await t.type('what is in @src/marker-file.txt and @src/nothing-here.txt ');
    await t.press('Enter');
    const screen = await t.waitFor('read it');
    expect(screen).toContain('Attached src/marker-file.txt');
    expect(screen).toContain('@src/nothing-here.txt was not attached: there is no');
    const sent = JSON.stringify(fx.server.requests.at(-1)?.body);
    expect(sent).toContain('The user mentioned @src/marker-file.txt');
    expect(sent).not.toContain('The user mentioned @src/nothing-here.txt');
  });
});
