/**
 * The calibration of git-protection.ts with real git: each protected entry is first planted
 * without the sandbox to show git then runs the planted code (a marker file appears), then the
 * same planting runs inside the sandbox and the same git command outside runs nothing. The
 * legitimate control: commits, branches and merges inside the sandbox keep working, and what the
 * sandbox put in the project for the command is gone afterwards.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../tools/builtin/bash/run-command';
import { gitConfigFacts } from './git-protection';
import type { SandboxManager } from './manager';
import { hasBubblewrap, type SandboxFixture, sandboxFixture, sandboxManager } from './test-support';

type Case = {
  name: string;
  /** Run outside the sandbox first, as the user's own set-up. */
  setup?: string;
  /** What a command plants (in the project folder). */
  plant: string;
  /** The git command the user runs later, outside the sandbox. */
  trigger: string[];
};

/** A config line that makes `git status` (and most commands) run a shell command. */
const fsmonitor = (marker: string) => `[core]\n\tfsmonitor = "touch ${marker}; false"\n`;

const cases = (marker: string): Case[] => [
  {
    name: 'a hook in .git/hooks',
    plant: `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`,
    trigger: ['commit', '-q', '--allow-empty', '-m', 'later'],
  },
  {
    name: 'core.fsmonitor in .git/config',
    plant: `printf '${fsmonitor(marker)}' >> .git/config`,
    trigger: ['status'],
  },
  {
    name: '.git/commondir sending git to a config the command wrote',
    plant: `git init -q --bare evil && printf '${fsmonitor(marker)}' >> evil/config && echo ../evil > .git/commondir`,
    trigger: ['status'],
  },
  {
    name: '.git moved away and replaced by a gitdir file',
    plant: `git init -q --bare evil && git config --file evil/config core.bare false && printf '${fsmonitor(marker)}' >> evil/config && mv .git .git-old && echo 'gitdir: evil' > .git`,
    trigger: ['status'],
  },
  {
    name: '.git/config.worktree once the config enables it',
    setup: 'git config extensions.worktreeConfig true',
    plant: `printf '${fsmonitor(marker)}' > .git/config.worktree`,
    trigger: ['status'],
  },
  {
    name: 'a hook in the folder core.hooksPath names',
    setup: 'git config core.hooksPath githooks',
    plant: `mkdir -p githooks && printf '#!/bin/sh\\ntouch ${marker}\\n' > githooks/pre-commit && chmod +x githooks/pre-commit`,
    trigger: ['commit', '-q', '--allow-empty', '-m', 'later'],
  },
  {
    name: 'a config file the config includes',
    setup: 'git config include.path ../team.gitconfig',
    plant: `printf '${fsmonitor(marker)}' > team.gitconfig`,
    trigger: ['status'],
  },
];

function git(fixture: SandboxFixture, args: readonly string[]): void {
  try {
    execFileSync('git', [...args], { cwd: fixture.project, env: gitEnv(fixture), stdio: 'ignore' });
  } catch {
    // A planted file may also make git fail; what it ran is what counts.
  }
}

const gitEnv = (fixture: SandboxFixture) => ({
  PATH: process.env.PATH,
  HOME: fixture.home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@example.com',
});

function fixtureFor(testCase: Case): SandboxFixture & { marker: string } {
  const fixture = sandboxFixture();
  const marker = join(fixture.outside, 'PLANTED-CODE-RAN');
  if (testCase.setup) execFileSync('sh', ['-c', testCase.setup], { cwd: fixture.project });
  return { ...fixture, marker };
}

/** Runs `command` in the project under `sandbox`, with git's identity set. */
const runIn = (fixture: SandboxFixture, sandbox: SandboxManager, command: string) =>
  runCommand({
    command,
    cwd: fixture.project,
    env: gitEnv(fixture),
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    outputBudget: 20_000,
    spillPath: join(fixture.root, 'spill.txt'),
    sandbox,
  });

/** One command in a sandbox of its own, disposed afterwards. */
async function inSandbox(fixture: SandboxFixture, command: string) {
  const sandbox = sandboxManager(fixture);
  await sandbox.start();
  try {
    return await runIn(fixture, sandbox, command);
  } finally {
    await sandbox.dispose();
  }
}

describe('git config facts', () => {
  it('reads hooksPath, includes and worktreeConfig whatever the case and spacing', () => {
    const facts = gitConfigFacts(
      [
        '[Core]',
        '\tHooksPath = "githooks" ; a comment',
        '[includeIf "gitdir:~/work/"]',
        '  path = ../team.gitconfig',
        '[extensions] worktreeConfig',
      ].join('\n'),
    );
    expect(facts).toEqual({
      hooksPaths: ['githooks'],
      includes: ['../team.gitconfig'],
      worktreeConfig: true,
    });
    expect(gitConfigFacts('[extensions]\n\tworktreeConfig = false\n').worktreeConfig).toBe(false);
  });
});

describe('what git runs from a planted file (calibration, no sandbox)', () => {
  it.each(cases('MARKER').map((c) => [c.name, c] as const))('%s runs code', (_name, template) => {
    const fixture = fixtureFor(template);
    const testCase = cases(fixture.marker).find((c) => c.name === template.name) as Case;
    execFileSync('sh', ['-c', testCase.plant], { cwd: fixture.project, env: gitEnv(fixture) });
    git(fixture, testCase.trigger);
    expect(existsSync(fixture.marker)).toBe(true);
  });

  it('config.worktree without the extension, and attributes naming no configured driver, run nothing', () => {
    const fixture = fixtureFor({ name: 'controls', plant: '', trigger: [] });
    const plant = [
      `printf '${fsmonitor(fixture.marker)}' > .git/config.worktree`,
      "printf '* filter=evil diff=evil merge=evil\\n' > .gitattributes",
      'cp .gitattributes .git/info/attributes',
      'echo text > file.txt',
    ].join(' && ');
    execFileSync('sh', ['-c', plant], { cwd: fixture.project });
    for (const args of [['status'], ['add', '-A'], ['diff', '--cached'], ['commit', '-qm', 'x']])
      git(fixture, args);
    expect(existsSync(fixture.marker)).toBe(false);
  });
});

describe.skipIf(!hasBubblewrap())('the same plantings inside the sandbox (real bubblewrap)', () => {
  it.each(cases('MARKER').map((c) => [c.name, c] as const))('%s is refused', async (_name, template) => {
    const fixture = fixtureFor(template);
    const testCase = cases(fixture.marker).find((c) => c.name === template.name) as Case;
    const result = await inSandbox(fixture, testCase.plant);
    expect(result.exitCode).not.toBe(0);
    git(fixture, testCase.trigger);
    expect(existsSync(fixture.marker)).toBe(false);
  });

  it('says which protected file a write was refused for', async () => {
    const fixture = fixtureFor({ name: 'why', plant: '', trigger: [] });
    const result = await inSandbox(fixture, 'echo ../evil > .git/commondir');
    expect(result.violations[0]).toBe(
      `write to ${join(fixture.project, '.git', 'commondir')} blocked by the sandbox: it stays read-only because it moves where git reads its config and hooks from`,
    );
    const moved = await inSandbox(fixture, 'mv .git .git-old');
    expect(moved.violations[0]).toBe(
      `moving or removing ${join(fixture.project, '.git')} blocked by the sandbox: ${join(fixture.project, '.git', 'hooks')} stays read-only because git runs its hooks`,
    );
    const mcp = await inSandbox(fixture, `echo '{}' > .mcp.json`);
    expect(mcp.violations[0]).toBe(
      `write to ${join(fixture.project, '.mcp.json')} blocked by the sandbox: it stays read-only because it names the MCP servers Yoke starts`,
    );
  });

  it('commits, branches and merges inside; git sees nothing the sandbox added, during or after', async () => {
    const fixture = fixtureFor({ name: 'control', plant: '', trigger: [] });
    const before = readdirSync(fixture.project).sort();
    const result = await inSandbox(
      fixture,
      [
        'echo one > file.txt',
        'git add -A && git commit -qm one',
        'git checkout -qb topic && echo two >> file.txt && git commit -qam two',
        'git checkout -q - && git merge -q topic',
        'git status --porcelain --ignored',
        'git log --format=%s',
      ].join(' && '),
    );
    expect(result.exitCode).toBe(0);
    // No untracked entry: the placeholders inside are empty folders, which git does not list.
    expect(result.output.text.trim().split('\n')).toEqual(['two', 'one']);
    expect(readdirSync(fixture.project).sort()).toEqual([...before, 'file.txt'].sort());
    expect(existsSync(join(fixture.project, '.git', 'commondir'))).toBe(false);
  });

  it('keeps the placeholders for a run of commands and removes them when the session ends', async () => {
    const fixture = fixtureFor({ name: 'run', plant: '', trigger: [] });
    const sandbox = sandboxManager(fixture);
    await sandbox.start();
    const run = (command: string) => runIn(fixture, sandbox, command);
    const placeholder = join(fixture.project, '.mcp.json');
    try {
      await run('true');
      const made = statSync(placeholder);
      expect(made.isDirectory()).toBe(true);
      // Outside, between commands: an empty folder, which git does not list.
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: fixture.project, encoding: 'utf8' })).toBe(
        '?? .env\n',
      );
      const second = await run("echo '{}' > .mcp.json");
      expect(second.exitCode).not.toBe(0);
      expect(statSync(placeholder).ino).toBe(made.ino);
    } finally {
      await sandbox.dispose();
    }
    expect(existsSync(placeholder)).toBe(false);
    expect(existsSync(join(fixture.project, '.git', 'commondir'))).toBe(false);
  });

  it('keeps git working when its config includes a file or names a hooks folder not there yet', async () => {
    const fixture = fixtureFor({
      name: 'missing',
      setup: 'git config include.path ../team.gitconfig && git config core.hooksPath githooks',
      plant: '',
      trigger: [],
    });
    const result = await inSandbox(fixture, 'git commit -q --allow-empty -m inside && git log --format=%s');
    expect(result.output.text.trim()).toBe('inside');
    expect(existsSync(join(fixture.project, 'team.gitconfig'))).toBe(false);
    expect(existsSync(join(fixture.project, 'githooks'))).toBe(false);
  });
});
