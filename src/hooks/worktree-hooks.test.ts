import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combineVerdicts } from './combine';
import type { HookVerdict } from './interpret';
import { worktreeCreateOutcome, worktreeRemoveOutcome } from './worktree-hooks';

const run = (...verdicts: HookVerdict[]) => combineVerdicts('WorktreeCreate', 'WorktreeCreate', verdicts);
const folder = mkdtempSync(join(tmpdir(), 'yoke-wt-hook-'));

describe('WorktreeCreate outcome', () => {
  it('is not handled when no hook ran: git makes the worktree', () => {
    expect(worktreeCreateOutcome(run())).toEqual({ handled: false });
  });

  it("takes a command's last stdout line, or an SDK callback's worktreePath", () => {
    expect(worktreeCreateOutcome(run({ hookName: 'h', plainStdout: `Preparing…\n${folder}\n` }))).toEqual({
      handled: true,
      path: folder,
    });
    const json = { hookSpecificOutput: { hookEventName: 'WorktreeCreate', worktreePath: folder } };
    expect(worktreeCreateOutcome(run({ hookName: 'callback 1', json }))).toEqual({
      handled: true,
      path: folder,
    });
  });

  it('refuses a relative path, a missing folder, no path and a failed hook, each with its reason', () => {
    const cases: [HookVerdict, string][] = [
      [{ hookName: 'h', plainStdout: 'trees/x' }, 'gave "trees/x", not an absolute path'],
      [{ hookName: 'h', plainStdout: join(folder, 'absent') }, 'which is not an existing folder'],
      [{ hookName: 'h' }, 'gave no path (print it on stdout)'],
      [{ hookName: 'h', error: 'WorktreeCreate hook "h" failed with exit code 1: disk full' }, 'disk full'],
      [{ hookName: 'h', blockingError: 'not here' }, 'the WorktreeCreate hook failed: [h]: not here'],
    ];
    for (const [verdict, reason] of cases) {
      const outcome = worktreeCreateOutcome(run(verdict));
      expect(outcome.handled).toBe(true);
      expect('error' in outcome && outcome.error).toContain(reason);
    }
  });

  it('WorktreeRemove: handled when a hook ran, with its failure', () => {
    const remove = (...verdicts: HookVerdict[]) =>
      worktreeRemoveOutcome(combineVerdicts('WorktreeRemove', 'WorktreeRemove', verdicts), folder);
    expect(remove()).toEqual({ handled: false });
    expect(remove({ hookName: 'h' })).toEqual({ handled: true, path: folder });
    expect(remove({ hookName: 'h', error: 'it broke' })).toEqual({
      handled: true,
      error: 'the WorktreeRemove hook failed: it broke',
    });
  });
});
