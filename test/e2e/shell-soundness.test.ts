/**
 * Commands that look read-only but run code, through `yoke -p` with no rules: a hostile model
 * tries them in default and acceptEdits mode, and a marker file proves nothing ran — while the
 * same command on a clean repository still runs without asking.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mockEnv, runYoke, tempProject } from './helpers';
import { useWorkspace } from './workspace';

const ws = useWorkspace();

/** A project that is a git repository with one commit. */
async function repository(): Promise<string> {
  const cwd = await tempProject();
  const git = (...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
  git('init', '-q', '.');
  await writeFile(join(cwd, 'f.txt'), 'hello\n');
  git('add', 'f.txt');
  git('-c', 'user.email=a@example.invalid', '-c', 'user.name=n', 'commit', '-qm', 'init');
  return cwd;
}

/** The model runs `command` with Bash once, then answers; returns the tool result it was sent. */
async function modelRuns(cwd: string, command: string, mode = 'default'): Promise<string> {
  ws.server.reset([
    { reply: { content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command } }] } },
    { reply: { content: [{ type: 'text', text: 'done' }] } },
  ]);
  const { code, stdout } = await runYoke(['-p', 'look around', '--permission-mode', mode], {
    cwd,
    env: mockEnv(ws.server.url, ws.home),
  });
  expect(code).toBe(0);
  expect(stdout).toBe('done\n');
  return JSON.stringify(ws.server.requests[1]?.body);
}

describe('yoke -p: read-only commands that would run code', () => {
  it('runs git status on a clean repository without asking', async () => {
    const cwd = await repository();
    const result = await modelRuns(cwd, 'git status');
    expect(result).toContain('On branch');
    expect(result).not.toContain('"is_error":true');
  });

  it("refuses git status when the project's .git/config sets core.fsmonitor, and nothing runs", async () => {
    const cwd = await repository();
    const marker = join(cwd, 'M');
    execFileSync('git', ['config', 'core.fsmonitor', `touch '${marker}'; false`], { cwd });
    const result = await modelRuns(cwd, 'git status');
    expect(result).toContain('"is_error":true');
    expect(result).toContain('core.fsmonitor');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses an arithmetic test over file names that hold a command substitution', async () => {
    const cwd = await tempProject();
    const marker = join(cwd, 'M');
    await writeFile(join(cwd, 'a[$(touch M)]'), '');
    const result = await modelRuns(cwd, 'for f in *; do [[ $f -eq 1 ]] && echo "$f"; done', 'acceptEdits');
    expect(result).toContain('"is_error":true');
    expect(result).toContain('as arithmetic');
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses git with a planted XDG_CONFIG_HOME in acceptEdits mode, and nothing runs', async () => {
    const cwd = await repository();
    const marker = join(cwd, 'M');
    await mkdir(join(cwd, 'cfg', 'git'), { recursive: true });
    await writeFile(join(cwd, 'cfg', 'git', 'config'), `[core]\n\tfsmonitor = "touch '${marker}'; false"\n`);
    const result = await modelRuns(cwd, 'XDG_CONFIG_HOME=$PWD/cfg git status', 'acceptEdits');
    expect(result).toContain('"is_error":true');
    expect(result).toContain('XDG_CONFIG_HOME=');
    expect(existsSync(marker)).toBe(false);
  });
});
