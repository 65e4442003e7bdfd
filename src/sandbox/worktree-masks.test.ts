/**
 * Absolute Read deny rules inside the sandbox, for the copies of the project an agent works in.
 * Calibrated for real: before these masks, a sandboxed `cat sec/key.env` in a linked worktree at
 * `<repo>/.yoke/worktrees/agent-1` printed the secret `Read(//<repo>/sec/**)` denies (the
 * permission layer had twins for it, bubblewrap's masks did not), and so did a rule written
 * through a symlinked spelling of the repository, and a WorktreeCreate hook's plain copy.
 * Controls: the copies' other files stay readable, and a folder that is no copy keeps its files.
 *
 * The scratch folders live in /var/tmp: /tmp is private inside the sandbox, and a file the
 * command cannot see at all would prove nothing.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionRule } from '../lib/permission-vocabulary';
import { KnownCopies } from '../permissions/worktree-copies';
import { runCommand } from '../tools/builtin/bash/run-command';
import { SandboxManager } from './manager';
import { defaultSandboxConfig } from './settings';
import { denyRead, hasBubblewrap } from './test-support';

const SECRET = 'SECRET-IN-COPY-41';
let top: string;
let repo: string;
let worktree: string;
let hookCopy: string;
let stranger: string;
let link: string;

beforeAll(() => {
  if (!existsSync('/var/tmp')) return;
  top = mkdtempSync('/var/tmp/yoke-wt-masks-');
  repo = join(top, 'repo');
  worktree = join(repo, '.yoke/worktrees/agent-1');
  hookCopy = join(top, 'hook-copies/agent-2');
  stranger = join(top, 'stranger');
  link = join(top, 'link');
  mkdirSync(join(repo, 'sec'), { recursive: true });
  writeFileSync(join(repo, 'sec/key.env'), `${SECRET}\n`);
  writeFileSync(join(repo, 'README.md'), 'readme\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b.invalid', '-c', 'user.name=n', ...args], {
      cwd: repo,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: top },
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
  git('worktree', 'add', '-q', '-b', 'agent-1', worktree);
  // What a WorktreeCreate hook may make: a plain copy, no git link back.
  mkdirSync(join(top, 'hook-copies'));
  cpSync(join(repo, 'sec'), join(hookCopy, 'sec'), { recursive: true });
  writeFileSync(join(hookCopy, 'README.md'), 'readme\n');
  cpSync(join(repo, 'sec'), join(stranger, 'sec'), { recursive: true });
  symlinkSync(repo, link);
});
afterAll(() => {
  if (top) rmSync(top, { recursive: true, force: true });
});

function manager(
  rule: string,
  copies?: KnownCopies,
  projectRoot = repo,
  rules: PermissionRule[] = [denyRead(rule)],
): SandboxManager {
  return new SandboxManager({
    config: { ...defaultSandboxConfig(), enabled: true },
    projectRoot,
    additionalDirs: [],
    home: join(top, 'home'),
    rules,
    protectedPaths: [],
    ...(copies ? { copies } : {}),
  });
}

async function catIn(sandbox: SandboxManager, cwd: string, file: string): Promise<string> {
  return runIn(sandbox, cwd, `cat ${file} 2>&1; true`);
}

async function runIn(sandbox: SandboxManager, cwd: string, command: string): Promise<string> {
  const result = await runCommand({
    command,
    cwd,
    env: process.env,
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    outputBudget: 20_000,
    spillPath: join(top, 'spill.txt'),
    sandbox,
  });
  return result.output.text;
}

async function withSandbox<T>(sandbox: SandboxManager, use: (s: SandboxManager) => Promise<T>): Promise<T> {
  await sandbox.start();
  try {
    return await use(sandbox);
  } finally {
    await sandbox.dispose();
  }
}

describe.skipIf(!hasBubblewrap() || !existsSync('/var/tmp'))(
  'deny masks on the copies of the project',
  () => {
    it('unsandboxed, every copy holds the secret (what the masks must hide)', () => {
      for (const folder of [repo, worktree, hookCopy, stranger])
        expect(execFileSync('cat', [join(folder, 'sec/key.env')], { encoding: 'utf8' })).toContain(SECRET);
    });

    it("masks a linked worktree's copy of what an absolute Read deny rule names", async () => {
      await withSandbox(manager(`/${repo}/sec/**`), async (sandbox) => {
        expect(await catIn(sandbox, repo, 'sec/key.env')).not.toContain(SECRET);
        expect(await catIn(sandbox, worktree, 'sec/key.env')).not.toContain(SECRET);
        // The same from the main working copy, through the worktree's path.
        expect(await catIn(sandbox, repo, '.yoke/worktrees/agent-1/sec/key.env')).not.toContain(SECRET);
        // Control: the worktree's other files are there.
        expect(await catIn(sandbox, worktree, 'README.md')).toContain('readme');
      });
    });

    it('masks it when the session itself runs in the worktree', async () => {
      await withSandbox(manager(`/${repo}/sec/**`, undefined, worktree), async (sandbox) => {
        expect(await catIn(sandbox, worktree, 'sec/key.env')).not.toContain(SECRET);
        expect(await catIn(sandbox, worktree, 'README.md')).toContain('readme');
      });
    });

    it('holds a rule written through a symlinked spelling of the repository, in both copies', async () => {
      await withSandbox(manager(`/${link}/sec/**`), async (sandbox) => {
        expect(await catIn(sandbox, repo, 'sec/key.env')).not.toContain(SECRET);
        expect(await catIn(sandbox, worktree, 'sec/key.env')).not.toContain(SECRET);
        expect(await catIn(sandbox, worktree, 'README.md')).toContain('readme');
      });
    });

    it("masks a WorktreeCreate hook's copy once it is known as a copy of the project; a stranger keeps its files", async () => {
      const copies = new KnownCopies();
      copies.add(hookCopy, repo);
      await withSandbox(manager(`/${repo}/sec/**`, copies), async (sandbox) => {
        expect(await catIn(sandbox, hookCopy, 'sec/key.env')).not.toContain(SECRET);
        expect(await catIn(sandbox, hookCopy, 'README.md')).toContain('readme');
        expect(await catIn(sandbox, stranger, 'sec/key.env')).toContain(SECRET);
      });
    });

    it("keeps a linked worktree's copy of an Edit-denied file read-only; the copy's other files stay writable", async () => {
      const editDeny: PermissionRule = {
        toolName: 'Edit',
        ruleContent: `/${repo}/sec/key.env`,
        behavior: 'deny',
        source: 'userSettings',
      };
      // The session runs in the worktree (an agent's, --worktree): the worktree is writable there.
      await withSandbox(manager('', undefined, worktree, [editDeny]), async (sandbox) => {
        // Through a shell's own redirect, which no permission check reads here.
        await runIn(sandbox, worktree, 'sh -c "echo planted >> sec/key.env" 2>&1; true');
        await runIn(sandbox, worktree, 'sh -c "echo more >> README.md" 2>&1; true');
      });
      expect(readFileSync(join(worktree, 'sec/key.env'), 'utf8')).toBe(`${SECRET}\n`);
      expect(readFileSync(join(worktree, 'README.md'), 'utf8')).toBe('readme\nmore\n');
      execFileSync('git', ['checkout', '--', 'README.md'], { cwd: worktree });
    });
  },
);
