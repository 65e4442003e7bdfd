/**
 * `--worktree` and the EnterWorktree / ExitWorktree tools through the built CLI, over real git:
 * the session works in `.yoke/worktrees/<name>`, its permission paths follow the worktree, an
 * unchanged worktree is removed with its branch when the session ends, one with work is kept and
 * reported, and a session killed mid-way leaves its uncommitted work on disk.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/testing/mock-server';
import type { ScenarioInput } from '../../src/testing/mock-server/scenario';
import { mockEnv, runYoke, startYoke, tempProject } from './helpers';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function repoProject(): Promise<{ repo: string; home: string; git: (...args: string[]) => string }> {
  const repo = await tempProject('yoke-e2e-wt-');
  const home = await tempProject('yoke-e2e-home-');
  const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'a@example.invalid');
  git('config', 'user.name', 'n');
  writeFileSync(join(repo, 'README.md'), 'project\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  return { repo, home, git };
}

const write = (file_path: string, content: string) => ({
  content: [{ type: 'tool_use' as const, name: 'Write', input: { file_path, content } }],
});

describe('--worktree', () => {
  it('runs the session in a new worktree, keeps it with its work and says where', async () => {
    const { repo, home, git } = await repoProject();
    const outside = join(repo, 'README.md');
    const scenario: ScenarioInput = [
      { match: { lastUserTextContains: 'draft' }, reply: write('draft.md', 'draft\n') },
      { match: { lastToolResultContains: 'draft.md' }, reply: write(outside, 'overwritten\n') },
      { match: { lastToolResultContains: '' }, reply: { content: [{ type: 'text', text: 'done' }] } },
    ];
    server = await startMockServer({ scenario });
    const result = await runYoke(
      ['-p', '--worktree=feature-x', '--permission-mode', 'acceptEdits', 'write a draft'],
      {
        cwd: repo,
        env: mockEnv(server.url, home),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const worktree = join(repo, '.yoke/worktrees/feature-x');
    // The relative path landed in the worktree; the main working copy is untouched.
    expect(readFileSync(join(worktree, 'draft.md'), 'utf8')).toBe('draft\n');
    expect(existsSync(join(repo, 'draft.md'))).toBe(false);
    // The main copy's README is outside the session's project root now: acceptEdits does not cover it.
    expect(readFileSync(outside, 'utf8')).toBe('project\n');
    expect(JSON.stringify(server.requests[2]?.body)).toContain('outside');
    expect(result.stderr).toContain(
      `Kept the worktree ${worktree} (branch worktree-feature-x): 1 uncommitted file (draft.md).`,
    );
    expect(git('branch', '--format=%(refname:short)')).toContain('worktree-feature-x');
    expect(git('status', '--porcelain')).toBe('');
  });

  it('removes an unchanged worktree and its branch when the session ends', async () => {
    const { repo, home, git } = await repoProject();
    server = await startMockServer({
      scenario: [{ reply: { content: [{ type: 'text', text: 'nothing to do' }] } }],
    });
    const result = await runYoke(['-p', '--worktree', 'just answer'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('nothing to do');
    expect(result.stderr).toMatch(
      /Removed the unchanged worktree .*\.yoke\/worktrees\/session-[0-9a-f]{8} and its branch/,
    );
    expect(git('branch', '--format=%(refname:short)').trim()).toBe('main');
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    // The request's environment named the worktree as the working directory.
    expect(JSON.stringify(server.requests[0]?.body)).toContain('.yoke/worktrees/session-');
  });

  it('refuses a bad name and a folder outside git with one line', async () => {
    const { repo, home } = await repoProject();
    server = await startMockServer({ scenario: [] });
    const env = mockEnv(server.url, home);
    const bad = await runYoke(['-p', '--worktree=../escape', 'x'], { cwd: repo, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(
      /^yoke: --worktree: The worktree name "..\/escape" has a part that starts with '.'/,
    );
    const plain = await tempProject();
    const outside = await runYoke(['-p', '--worktree', 'x'], { cwd: plain, env });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('is not in a git repository, so no worktree can be made');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a repository whose git configuration would run a program on checkout (a planted smudge filter ran before)', async () => {
    const { repo, home, git } = await repoProject();
    const marker = join(await tempProject('yoke-e2e-markers-'), 'filter-ran');
    writeFileSync(join(repo, '.gitattributes'), '* filter=planted\n');
    git('add', '.');
    git('commit', '-qm', 'attributes');
    git('config', 'filter.planted.smudge', `touch ${marker}; cat`);
    git('config', 'filter.planted.clean', `touch ${marker}; cat`);
    server = await startMockServer({ scenario: [] });
    const result = await runYoke(['-p', '--worktree=feat', 'x'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^yoke: --worktree: no worktree is made: checking files out would run what this repository's git configuration names \(.*filter\.planted/,
    );
    expect(existsSync(marker)).toBe(false);
    expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
    // Control: the same repository without the filter gets its worktree.
    git('config', '--remove-section', 'filter.planted');
    server.reset([{ reply: { content: [{ type: 'text', text: 'done' }] } }]);
    const control = await runYoke(['-p', '--worktree=feat', 'x'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    expect(control.code, control.stderr).toBe(0);
  });

  it('leaves uncommitted work on disk when the session is killed mid-way', async () => {
    const { repo, home } = await repoProject();
    const fifo = join(home, 'ready.fifo');
    execFileSync('mkfifo', [fifo]);
    const command = `echo partial > half.txt; echo $$ > '${fifo}'; exec sleep 30`;
    server = await startMockServer({
      scenario: [{ reply: { content: [{ type: 'tool_use', name: 'Bash', input: { command } }] } }],
    });
    const running = startYoke(['-p', '--worktree=killed', '--dangerously-skip-permissions', 'work'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    running.child.stdin.end();
    // The command has written its file once it names itself on the FIFO (outside the project,
    // hence bypassPermissions for this run).
    const pid = await new Promise<number>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8')
        .on('data', (chunk) => {
          text += chunk;
        })
        .on('end', () => resolve(Number(text.trim())))
        .on('error', reject);
    });
    running.child.kill('SIGKILL');
    await running.exited;
    process.kill(pid, 'SIGKILL');
    const worktree = join(repo, '.yoke/worktrees/killed');
    expect(readFileSync(join(worktree, 'half.txt'), 'utf8')).toBe('partial\n');
  });
});

describe('EnterWorktree and ExitWorktree in a -p session', () => {
  it('enter a worktree, write there, and keep it for review', async () => {
    const { repo, home } = await repoProject();
    const scenario: ScenarioInput = [
      {
        match: { lastUserTextContains: 'isolated' },
        reply: { content: [{ type: 'tool_use', name: 'EnterWorktree', input: { name: 'iso' } }] },
      },
      { match: { lastToolResultContains: 'Created and entered' }, reply: write('note.md', 'n\n') },
      {
        match: { lastToolResultContains: 'note.md' },
        reply: { content: [{ type: 'tool_use', name: 'ExitWorktree', input: { action: 'remove' } }] },
      },
      {
        match: { lastToolResultContains: 'not removed' },
        reply: { content: [{ type: 'tool_use', name: 'ExitWorktree', input: { action: 'keep' } }] },
      },
      { match: { lastToolResultContains: 'stays at' }, reply: { content: [{ type: 'text', text: 'kept' }] } },
    ];
    server = await startMockServer({ scenario });
    const result = await runYoke(['-p', '--permission-mode', 'acceptEdits', 'work isolated'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('kept');
    expect(readFileSync(join(repo, '.yoke/worktrees/iso/note.md'), 'utf8')).toBe('n\n');
    expect(existsSync(join(repo, 'note.md'))).toBe(false);
    expect(JSON.stringify(server.requests[3]?.body)).toContain(
      '1 uncommitted file (note.md), so it was not removed',
    );
  });
});

describe('isolation: worktree on an Agent call', () => {
  it('runs each worker in its own worktree: the one with work is kept and reported, the other removed', async () => {
    const { repo, home, git } = await repoProject();
    const agent = (task: string) => ({
      type: 'tool_use' as const,
      name: 'Agent',
      input: { description: task, prompt: `${task}: do it`, isolation: 'worktree' },
    });
    const scenario: ScenarioInput = [
      {
        match: { firstUserTextContains: 'delegate', lastToolResultContains: 'merge or review it' },
        reply: { content: [{ type: 'text', text: 'both back' }] },
      },
      {
        match: { firstUserTextContains: 'delegate' },
        reply: { content: [agent('TASK-W'), agent('TASK-R')] },
      },
      {
        match: { firstUserTextContains: 'TASK-W', lastToolResultContains: 'w.txt' },
        reply: { content: [{ type: 'text', text: 'written' }] },
      },
      { match: { firstUserTextContains: 'TASK-W' }, reply: write('w.txt', 'w\n') },
      {
        match: { firstUserTextContains: 'TASK-R' },
        reply: { content: [{ type: 'text', text: 'nothing to change' }] },
      },
    ];
    server = await startMockServer({ scenario });
    const result = await runYoke(['-p', '--permission-mode', 'acceptEdits', 'delegate the work'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('both back');
    const worktrees = git('worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree '))
      .map((line) => line.slice('worktree '.length));
    expect(worktrees).toHaveLength(2);
    const kept = worktrees[1] as string;
    expect(kept).toMatch(/\.yoke\/worktrees\/agent-[0-9a-f]{12}$/);
    expect(readFileSync(join(kept, 'w.txt'), 'utf8')).toBe('w\n');
    expect(existsSync(join(repo, 'w.txt'))).toBe(false);
    const results = JSON.stringify(server.requests.at(-1)?.body);
    expect(results).toContain(`The agent's work is in the worktree ${kept}`);
    expect(results).toContain('The agent made no changes; its worktree was removed.');
    expect(git('branch', '--format=%(refname:short)').trim().split('\n')).toHaveLength(2);
  });
});

/** A repository with a committed secret, denied in user settings by absolute Read and Edit rules. */
async function secretRepo(): Promise<{ repo: string; home: string }> {
  const { repo, home, git } = await repoProject();
  execFileSync('mkdir', ['-p', join(repo, 'sec')]);
  writeFileSync(join(repo, 'sec', 'key.env'), 'TOKEN=WT_SECRET_5d1e\n');
  writeFileSync(join(repo, 'open.txt'), 'OPEN_TEXT_77\n');
  git('add', '.');
  git('commit', '-qm', 'secret');
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ permissions: { deny: [`Read(/${repo}/sec/**)`, `Edit(/${repo}/sec/**)`] } }),
  );
  return { repo, home };
}

const call = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });

describe('absolute deny rules in a worktree copy', () => {
  it("hold for a worker's copy of the files they name; its other files stay readable", async () => {
    const { repo, home } = await secretRepo();
    const scenario: ScenarioInput = [
      {
        match: { firstUserTextContains: 'delegate' },
        reply: {
          content: [call('Agent', { description: 'look', prompt: 'TASK-S: look', isolation: 'worktree' })],
        },
      },
      { match: { firstUserTextContains: 'delegate' }, reply: { content: [{ type: 'text', text: 'back' }] } },
      {
        match: { firstUserTextContains: 'TASK-S' },
        reply: {
          content: [
            call('Read', { file_path: 'sec/key.env' }),
            call('Bash', { command: 'cat sec/key.env' }),
            call('Grep', { pattern: 'WT_SECRET', path: '.', output_mode: 'content' }),
            call('Bash', { command: 'echo TOKEN=planted >> sec/key.env' }),
          ],
        },
      },
      // In a response of its own: a refused Bash call stops its running siblings (streaming-executor.ts).
      {
        match: { firstUserTextContains: 'TASK-S' },
        reply: { content: [call('Bash', { command: 'cat open.txt' })] },
      },
      { match: { firstUserTextContains: 'TASK-S' }, reply: { content: [{ type: 'text', text: 'seen' }] } },
    ];
    server = await startMockServer({ scenario });
    const result = await runYoke(['-p', '--permission-mode', 'acceptEdits', 'delegate the look'], {
      cwd: repo,
      env: mockEnv(server.url, home),
    });
    expect(result.code, result.stderr).toBe(0);
    const told = JSON.stringify(server.requests.map((request) => request.body));
    expect(told).not.toContain('WT_SECRET_5d1e');
    expect(told).toContain(
      `Denied by rule Read(/${repo}/sec/**) (userSettings, applied to its copy in the worktree ${repo}/.yoke/worktrees/agent-`,
    );
    expect(told).toContain(
      `Denied by rule Edit(/${repo}/sec/**) (userSettings, applied to its copy in the worktree ${repo}/.yoke/worktrees/agent-`,
    );
    // The worker's other files are still read.
    expect(told).toContain('OPEN_TEXT_77');
  });

  it('hold after EnterWorktree moves the session into a worktree', async () => {
    const { repo, home } = await secretRepo();
    const scenario: ScenarioInput = [
      {
        match: { lastUserTextContains: 'isolated' },
        reply: { content: [call('EnterWorktree', { name: 'iso' })] },
      },
      {
        match: { lastToolResultContains: 'Created and entered' },
        reply: { content: [call('Bash', { command: 'cat sec/key.env' })] },
      },
      // In a response of its own: a refused Bash call stops its running siblings (streaming-executor.ts).
      {
        match: { lastToolResultContains: 'Denied by rule' },
        reply: { content: [call('Bash', { command: 'cat open.txt' })] },
      },
      { reply: { content: [{ type: 'text', text: 'looked' }] } },
    ];
    server = await startMockServer({ scenario });
    const result = await runYoke(['-p', 'look isolated'], { cwd: repo, env: mockEnv(server.url, home) });
    expect(result.code, result.stderr).toBe(0);
    const told = JSON.stringify(server.requests.map((request) => request.body));
    expect(told).not.toContain('WT_SECRET_5d1e');
    expect(told).toContain(`applied to its copy in the worktree ${repo}/.yoke/worktrees/iso`);
    expect(told).toContain('OPEN_TEXT_77');
  });
});
