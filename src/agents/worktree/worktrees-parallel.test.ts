import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestRepo, type TestRepo } from './test-repo';
import { parseWorktreeName, type WorktreeName } from './worktree-name';
import { createWorktree, finishWorktree } from './worktrees';

const repos: TestRepo[] = [];
afterEach(() => {
  for (const made of repos.splice(0)) rmSync(made.root, { recursive: true, force: true });
});

const name = (raw: string): WorktreeName => {
  const check = parseWorktreeName(raw);
  if (!check.ok) throw new Error(check.problem);
  return check.name;
};

describe('worktrees made at once in one repository', () => {
  // Parallel agents with `isolation: worktree` ask for their worktrees in the same instant;
  // concurrent `git worktree add` in one repository fail on each other's half-made admin folders.
  it('all twenty-four succeed, each on its own branch', async () => {
    const r = makeTestRepo();
    repos.push(r);
    const names = Array.from({ length: 24 }, (_, i) => name(`agent-${i}`));
    const made = await Promise.allSettled(
      names.map((n) => createWorktree({ cwd: r.work, name: n, env: r.env })),
    );
    const failures = made.flatMap((m) => (m.status === 'rejected' ? [String(m.reason)] : []));
    expect(failures).toEqual([]);
    const listed = r.git(r.work, 'worktree', 'list', '--porcelain');
    for (const n of names) expect(listed).toContain(`branch refs/heads/worktree-${n}`);
    const outcomes = await Promise.all(
      made.flatMap((m) => (m.status === 'fulfilled' ? [finishWorktree(m.value, r.env)] : [])),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(Array(24).fill('removed'));
  });
});
