import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestRepo, type TestRepo } from './test-repo';
import { parseWorktreeName, type WorktreeName } from './worktree-name';
import { createWorktree, finishWorktree, WORKTREES_FOLDER, worktreeChanges } from './worktrees';

const repos: TestRepo[] = [];
const repo = () => {
  const made = makeTestRepo();
  repos.push(made);
  return made;
};
afterEach(() => {
  for (const made of repos.splice(0)) rmSync(made.root, { recursive: true, force: true });
});

const name = (raw: string): WorktreeName => {
  const check = parseWorktreeName(raw);
  if (!check.ok) throw new Error(check.problem);
  return check.name;
};

function commitFile(r: TestRepo, worktree: string, file: string): void {
  writeFileSync(join(worktree, file), `${file}\n`);
  r.git(worktree, 'add', file);
  r.git(worktree, 'commit', '-qm', file);
}

const branches = (r: TestRepo) => r.git(r.work, 'branch', '--format=%(refname:short)').trim().split('\n');

describe('worktree lifecycle over real git', () => {
  it('makes .yoke/worktrees/<name> on branch worktree-<name>, invisible to the repository status', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: join(r.work, 'src'), name: name('fix/auth'), env: r.env });
    expect(wt.path).toBe(join(r.work, WORKTREES_FOLDER, 'fix+auth'));
    expect(wt.branch).toBe('worktree-fix/auth');
    expect(readFileSync(join(wt.path, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(r.git(wt.path, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('worktree-fix/auth');
    // The folder ignores itself: the main work tree stays clean.
    expect(r.git(r.work, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('removes an unchanged worktree together with its branch', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: r.work, name: name('clean'), env: r.env });
    const outcome = await finishWorktree(wt, r.env);
    expect(outcome).toEqual({ kind: 'removed', path: wt.path, branch: 'worktree-clean' });
    expect(existsSync(wt.path)).toBe(false);
    expect(branches(r)).toEqual(['main']);
  });

  it('keeps a worktree with an untracked file, a modified file or a new commit, and says which', async () => {
    const r = repo();
    const untracked = await createWorktree({ cwd: r.work, name: name('u'), env: r.env });
    writeFileSync(join(untracked.path, 'notes.md'), 'work in progress\n');
    const modified = await createWorktree({ cwd: r.work, name: name('m'), env: r.env });
    writeFileSync(join(modified.path, 'src/a.ts'), 'export const a = 2;\n');
    const committed = await createWorktree({ cwd: r.work, name: name('c'), env: r.env });
    commitFile(r, committed.path, 'b.ts');

    await expect(finishWorktree(untracked, r.env)).resolves.toMatchObject({
      kind: 'kept',
      reason: '1 uncommitted file (notes.md)',
    });
    await expect(finishWorktree(modified, r.env)).resolves.toMatchObject({
      kind: 'kept',
      reason: '1 uncommitted file (src/a.ts)',
    });
    await expect(finishWorktree(committed, r.env)).resolves.toMatchObject({
      kind: 'kept',
      path: committed.path,
      branch: 'worktree-c',
      reason: '1 new commit',
    });
    expect(readFileSync(join(untracked.path, 'notes.md'), 'utf8')).toBe('work in progress\n');
    expect(readFileSync(join(modified.path, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
    expect(branches(r)).toContain('worktree-c');
  });

  it('counts a commit as safe once another branch holds it', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: r.work, name: name('merged'), env: r.env });
    commitFile(r, wt.path, 'b.ts');
    expect((await worktreeChanges(wt, r.env)).unmergedCommits).toBe(1);
    r.git(r.work, 'merge', '-q', '--ff-only', 'worktree-merged');
    await expect(finishWorktree(wt, r.env)).resolves.toMatchObject({ kind: 'removed' });
    expect(branches(r)).toEqual(['main']);
  });

  it('keeps the commits of a branch the worktree moved off', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: r.work, name: name('moved'), env: r.env });
    commitFile(r, wt.path, 'b.ts');
    r.git(wt.path, 'checkout', '-q', '--detach', 'main');
    await expect(finishWorktree(wt, r.env)).resolves.toMatchObject({ kind: 'kept', reason: '1 new commit' });
  });

  it('relies on git refusing to remove a dirty worktree should a file arrive after the check', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: r.work, name: name('race'), env: r.env });
    writeFileSync(join(wt.path, 'late.txt'), 'late\n');
    // Calibration of the second line of defence: the removal finishWorktree runs, without --force.
    expect(() => r.git(r.work, 'worktree', 'remove', wt.path)).toThrow(
      /contains modified or untracked files/,
    );
    expect(readFileSync(join(wt.path, 'late.txt'), 'utf8')).toBe('late\n');
  });

  it('keeps uncommitted work when the process running the worktree is killed mid-way', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: r.work, name: name('killed'), env: r.env });
    // A process works in the worktree, writes half its output, and dies by SIGKILL.
    const child = spawn('sh', ['-c', 'echo partial > half.txt; echo ready; exec sleep 60'], { cwd: wt.path });
    await new Promise<void>((ready) => child.stdout.once('data', () => ready()));
    child.kill('SIGKILL');
    await new Promise((exit) => child.once('exit', exit));
    await expect(finishWorktree(wt, r.env)).resolves.toMatchObject({ kind: 'kept' });
    expect(readFileSync(join(wt.path, 'half.txt'), 'utf8')).toBe('partial\n');
  });

  it('removes a changed worktree only when told to discard, branch and all', async () => {
    const r = repo();
    const wt = await createWorktree({ cwd: r.work, name: name('drop'), env: r.env });
    writeFileSync(join(wt.path, 'x.txt'), 'x\n');
    await expect(finishWorktree(wt, r.env, { discard: true })).resolves.toMatchObject({ kind: 'removed' });
    expect(existsSync(wt.path)).toBe(false);
    expect(branches(r)).toEqual(['main']);
  });

  it('reopens a kept worktree by name for --worktree=name and never removes it', async () => {
    const r = repo();
    const first = await createWorktree({ cwd: r.work, name: name('again'), env: r.env });
    await expect(createWorktree({ cwd: r.work, name: name('again'), env: r.env })).rejects.toThrow(
      'already exists',
    );
    const again = await createWorktree({ cwd: r.work, name: name('again'), env: r.env, reuseExisting: true });
    expect(again).toMatchObject({ path: first.path, createdHere: false });
    await expect(finishWorktree(again, r.env)).resolves.toMatchObject({
      kind: 'kept',
      reason: 'it was made by an earlier session',
    });
  });

  it('makes a worktree of the main repository from inside another worktree', async () => {
    const r = repo();
    const outer = await createWorktree({ cwd: r.work, name: name('outer'), env: r.env });
    const inner = await createWorktree({ cwd: outer.path, name: name('inner'), env: r.env });
    expect(inner.path).toBe(join(r.work, WORKTREES_FOLDER, 'inner'));
  });

  it('explains what is wrong outside a repository and in a repository without commits', async () => {
    const r = repo();
    const plain = join(r.root, 'plain');
    mkdirSync(plain);
    await expect(createWorktree({ cwd: plain, name: name('x'), env: r.env })).rejects.toThrow(
      /is not in a git repository/,
    );
    const empty = join(r.root, 'empty');
    mkdirSync(empty);
    r.git(empty, 'init', '-q');
    await expect(createWorktree({ cwd: empty, name: name('x'), env: r.env })).rejects.toThrow(
      /no commit to start a worktree from/,
    );
  });

  it('runs no repository hook when it makes a worktree', async () => {
    const r = repo();
    const marker = join(r.root, 'hook-ran');
    const hook = join(r.work, '.git/hooks/post-checkout');
    writeFileSync(hook, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    // Calibration: plain git runs the hook on `worktree add`.
    r.git(r.work, 'worktree', 'add', '-q', '-b', 'calibrate', join(r.root, 'calibrate'));
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    await createWorktree({ cwd: r.work, name: name('nohook'), env: r.env });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('where worktrees may go', () => {
  it('refuses a .yoke that a planted symlink sends outside the repository', async () => {
    const r = repo();
    const outside = join(r.root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(r.work, '.yoke'));
    // Calibration: a worktree made at .yoke/worktrees/x lands outside the repository.
    mkdirSync(join(outside, 'worktrees'));
    r.git(r.work, 'worktree', 'add', '-q', '-b', 'calibrate', join(r.work, '.yoke/worktrees/x'));
    expect(existsSync(join(outside, 'worktrees/x/src/a.ts'))).toBe(true);
    await expect(createWorktree({ cwd: r.work, name: name('y'), env: r.env })).rejects.toThrow(
      /is a symbolic link; worktrees are made only in a real folder/,
    );
    expect(existsSync(join(outside, 'worktrees/y'))).toBe(false);
  });
});

describe('worktree names', () => {
  it('accept the reference form: /-separated parts of letters, digits, . _ -', () => {
    for (const ok of ['fix-auth', 'feature/login_v2', 'a.b', 'x'.repeat(64)])
      expect(parseWorktreeName(ok)).toEqual({ ok: true, name: ok });
  });

  it('refuse options, traversal, odd characters and refs git refuses, saying why', () => {
    const refused: Array<[string, string]> = [
      ['--upload-pack=touch /tmp/pwned', 'starts with'],
      ['-b', "starts with '-'"],
      ['../x', "starts with '.'"],
      ['a/../../x', "starts with '.'"],
      ['a..b', "contains '..'"],
      ['/abs', 'empty part'],
      ['a//b', 'empty part'],
      ['a b', 'outside the allowed set'],
      ['a;rm', 'outside the allowed set'],
      ['x.lock', '.lock'],
      ['', 'is empty'],
      ['x'.repeat(65), '65 characters'],
    ];
    for (const [raw, why] of refused) {
      const check = parseWorktreeName(raw);
      expect(check.ok, raw).toBe(false);
      if (!check.ok) expect(check.problem).toContain(why);
    }
  });

  it('calibration: a ../ name joined into the folder would make the worktree outside it', () => {
    const r = repo();
    const folder = join(r.work, WORKTREES_FOLDER);
    mkdirSync(folder, { recursive: true });
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'esc', join(folder, '../../../escaped')], {
      cwd: r.work,
      env: r.env,
    });
    expect(existsSync(join(r.root, 'escaped/src/a.ts'))).toBe(true);
    expect(parseWorktreeName('../../../escaped').ok).toBe(false);
  });
});
