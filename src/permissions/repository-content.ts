/**
 * Read deny and ask rules for git commands that print tracked content no argument names: `git
 * log -p`, `git show HEAD`, `git diff HEAD~3`, `git cat-file -p SHA` may show any file git tracks,
 * so where a rule covers a tracked file the line asks and names both. An untracked file (a
 * gitignored `.env`) cannot be shown and asks nothing. Files only past commits hold are not
 * looked for: git's history is not walked.
 */
import { describeRule } from './evaluation';
import type { GitConfigSafety } from './git-config-safety';
import type { PathPolicy } from './path-policy';
import { allUnits, type ShellUnit } from './shell-unit';
import type { PermissionRule } from './types';

export type RepositoryContentFinding = { rule: PermissionRule; reason: string };

/** The first guarded tracked file a content-printing git unit of the line may show. */
export async function checkRepositoryContent(
  units: readonly ShellUnit[],
  check: { policy: PathPolicy; guards: readonly PermissionRule[]; gitConfig?: GitConfigSafety },
): Promise<RepositoryContentFinding | undefined> {
  const { policy, guards, gitConfig } = check;
  const first = guards[0];
  if (!first) return undefined;
  for (const unit of allUnits(units)) {
    if (!unit.showsRepositoryContent) continue;
    const unknown = (why: string) => ({
      rule: first,
      reason: `\`${unit.text}\` prints tracked files' content, and ${why}, so it may show a file ${describeRule(first)} guards`,
    });
    if ('unknown' in unit.cwd) return unknown('the folder it runs in is only known when it runs');
    if (!gitConfig) return unknown("the repository's files were not listed");
    for (const dir of unit.cwd.dirs) {
      const tracked = await gitConfig.tracked.of(dir);
      if ('unknown' in tracked) return unknown(tracked.unknown);
      const top = policy.spell(tracked.topLevel);
      const testers = guards.map((rule) => ({ rule, test: policy.belowTester(rule, top) }));
      for (const file of tracked.files) {
        const hit = testers.find(({ test }) => test(file));
        if (hit) {
          const verb = hit.rule.behavior === 'deny' ? 'denies' : 'asks for';
          return {
            rule: hit.rule,
            reason: `\`${unit.text}\` may print ${file}, which git tracks and ${describeRule(hit.rule)} ${verb}`,
          };
        }
      }
    }
  }
  return undefined;
}
