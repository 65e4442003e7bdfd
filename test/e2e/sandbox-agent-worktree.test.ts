/**
 * A sandboxed agent with `isolation: worktree` works in its own worktree, below the project's
 * `.yoke/worktrees`. The sandbox binds `.yoke` read-only (Yoke's project settings, commands and
 * agents live there), and that covered the worktree too. Calibrated through the built CLI under
 * real bubblewrap: before, `echo made > made.txt` there failed with "Read-only file system" and
 * `git commit` could not write the worktree's index (below the read-only `.git/worktrees`). Now
 * the agent writes and commits in its worktree, while the project's `.yoke`, the worktree's own
 * configuration (`.claude`, `.git` file) and its git folder's `commondir`, `gitdir` and
 * `config.worktree` stay read-only, and nothing else below `.yoke` becomes writable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import { lastToolResultBlock, mockEnv, runYoke, tempProject } from './helpers';

function bwrapWorks(): boolean {
  try {
    execFileSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const call = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_use' as const, name, input }],
});

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ scenario: [] });
});
afterAll(async () => {
  await server.close();
});

describe.runIf(process.platform === 'linux' && bwrapWorks())('a sandboxed agent in its worktree', () => {
  it('writes and commits there; the configuration around and inside it stays read-only', async () => {
    const home = await tempProject('yoke-sbwt-home-');
    const project = await tempProject('yoke-sbwt-project-');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(project, 'README.md'), 'r\n');
    git('add', '.');
    git('-c', 'user.email=a@b.invalid', '-c', 'user.name=n', 'commit', '-qm', 'init');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true } }),
    );
    const work =
      'echo made > made.txt && git add made.txt && git -c user.email=a@b.invalid -c user.name=n commit -qm w && git log --format=%s -1';
    // Spelled so the permission layer lets them through (the user's exact rules): only the
    // sandbox stands between them and the files.
    const planted =
      'for f in .claude/settings.json .git ../../settings.json ../planted.txt; do mkdir -p $(dirname $f); echo x >> $f && echo WROTE $f; done 2>&1; true';
    const gitFolder =
      'g=$(sed s/gitdir:.// .git); for f in commondir gitdir config.worktree; do echo x >> $g/$f && echo WROTE $f; done 2>&1; true';
    server.reset([
      { reply: call('Agent', { description: 'work', prompt: 'TASK-SBWT', isolation: 'worktree' }) },
      { reply: call('Bash', { command: work }) },
      { reply: call('Bash', { command: planted }) },
      { reply: call('Bash', { command: gitFolder }) },
      { reply: { content: [{ type: 'text', text: 'worker done' }] } },
      { reply: { content: [{ type: 'text', text: 'all done' }] } },
    ]);
    const result = await runYoke(
      ['-p', 'go', '--allowedTools', `Bash(${planted})`, '--allowedTools', `Bash(${gitFolder})`],
      { cwd: project, env: { ...mockEnv(server.url, home), HOME: home }, timeoutMs: 60_000 },
    );
    expect(result.code, result.stderr).toBe(0);
    const text = (i: number) => JSON.stringify(lastToolResultBlock(server, i).content);
    expect(text(2)).toContain('w');
    expect(text(2)).not.toContain('Read-only file system');
    expect(text(3)).not.toContain('WROTE');
    expect(text(3)).toContain('Read-only file system');
    expect(text(4)).not.toContain('WROTE');
    const worktrees = readdirSync(join(project, '.yoke', 'worktrees')).filter((name) =>
      name.startsWith('agent-'),
    );
    expect(worktrees).toHaveLength(1);
    const worktree = join(project, '.yoke', 'worktrees', worktrees[0] as string);
    expect(readFileSync(join(worktree, 'made.txt'), 'utf8')).toBe('made\n');
    expect(readFileSync(join(worktree, '.git'), 'utf8')).toMatch(/^gitdir: /);
    expect(existsSync(join(project, '.yoke', 'settings.json'))).toBe(false);
    expect(existsSync(join(project, '.yoke', 'worktrees', 'planted.txt'))).toBe(false);
    expect(existsSync(join(worktree, '.claude', 'settings.json'))).toBe(false);
    expect(
      execFileSync('git', ['log', '--format=%s', '-1', `worktree-${worktrees[0]}`], {
        cwd: project,
      }).toString(),
    ).toBe('w\n');
  });
});
