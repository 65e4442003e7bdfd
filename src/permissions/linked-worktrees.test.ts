/**
 * The session's proofs of a repository's linked worktrees, with real git. A planted repository
 * with 3000 `.git/worktrees` entries made every decision under an absolute deny rule re-prove
 * each one (~700-1300 ms per decision here; ~100-150 ms with the proofs kept, two stats an
 * entry). Kept proofs must follow what git does: a worktree added, moved (`git worktree move`
 * rewrites its entry's `gitdir` in place, the folder's listing unchanged) or removed is seen at
 * the next decision. And a planted FIFO in an entry is never waited for.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkedWorktrees, linkedWorktreesOf } from './linked-worktrees';
import { parseRule } from './rule-string';
import { KnownCopies, withWorktreeCopies } from './worktree-copies';

let top: string;
let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=a@b.invalid', '-c', 'user.name=n', ...args], {
    cwd: repo,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: top },
  });

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'yoke-linked-')));
  repo = join(top, 'repo');
  mkdirSync(join(repo, 'sec'), { recursive: true });
  writeFileSync(join(repo, 'sec/key.env'), 'k');
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

describe("a session's proofs of linked worktrees", () => {
  it('follow a worktree added, moved in place and removed', () => {
    const cache = new LinkedWorktrees();
    const first = join(top, 'wt-aaaa');
    git('worktree', 'add', '-q', '-b', 'one', first);
    expect(cache.of(repo)).toEqual([first]);
    // The same length of path: the entry's gitdir file keeps its size, only its times change.
    const moved = join(top, 'wt-bbbb');
    git('worktree', 'move', first, moved);
    expect(cache.of(repo)).toEqual([moved]);
    const second = join(top, 'wt-cccc');
    git('worktree', 'add', '-q', '-b', 'two', second);
    expect(cache.of(repo).sort()).toEqual([moved, second]);
    git('worktree', 'remove', moved);
    expect(cache.of(repo)).toEqual([second]);
    // The same answers as proving every entry afresh.
    expect(linkedWorktreesOf(repo)).toEqual(cache.of(repo));
    git('worktree', 'remove', second);
    expect(cache.of(repo)).toEqual([]);
  });

  it('keeps the deny twins on a moved worktree through the session copies', () => {
    const copies = new KnownCopies();
    const deny = parseRule(`Read(/${repo}/sec/**)`, 'deny', 'userSettings');
    if (!deny) throw new Error('rule');
    const twins = () =>
      withWorktreeCopies([deny], { projectRoot: repo, home: '/home/u', copies })
        .slice(1)
        .map((r) => r.ruleContent);
    const before = join(top, 'agent-xx');
    git('worktree', 'add', '-q', '-b', 'three', before);
    expect(twins()).toEqual([`/${before}/sec/**`]);
    const after = join(top, 'agent-yy');
    git('worktree', 'move', before, after);
    expect(twins()).toEqual([`/${after}/sec/**`]);
    git('worktree', 'remove', after);
    expect(twins()).toEqual([]);
  });

  it('passes over a planted FIFO as an entry file or as the .git it names, without waiting', () => {
    const real = join(top, 'real-wt');
    // Made first: git itself waits on such a FIFO.
    git('worktree', 'add', '-q', '-b', 'four', real);
    const entry = join(repo, '.git', 'worktrees', 'planted');
    mkdirSync(entry, { recursive: true });
    execFileSync('mkfifo', [join(entry, 'gitdir')]);
    const fifoRoot = join(top, 'fifo-root');
    mkdirSync(fifoRoot);
    execFileSync('mkfifo', [join(fifoRoot, '.git')]);
    const other = join(repo, '.git', 'worktrees', 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'gitdir'), `${fifoRoot}/.git\n`);
    // Control: the real worktree beside them is found.
    expect(new LinkedWorktrees().of(repo)).toEqual([real]);
    expect(linkedWorktreesOf(repo)).toEqual([real]);
  });
});
