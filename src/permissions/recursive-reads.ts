/**
 * Recursive reads (`grep -r KEY .`, `rg KEY`) against the files below their folders: a bounded
 * walk, kept for the turn, finds a file a Read deny or ask rule covers (the line then asks and
 * says which file and rule), a folder too big to check, or — when the search follows symlinks —
 * a link leading out of the project.
 */
import { join } from 'node:path';
import { describeRule } from './evaluation';
import { type FolderWalks, firstGuarded, MAX_WALK_ENTRIES } from './folder-walks';
import type { PathPolicy } from './path-policy';
import type { TouchedPath } from './shell-paths';
import { spelledPath } from './shell-paths';
import { allUnits, type ShellUnit } from './shell-unit';
import type { PermissionRule } from './types';

export type RecursiveFindings = {
  /** The rule that makes the line ask: it covers a file below, or one could not be checked. */
  askRule?: PermissionRule;
  reasons: string[];
  /** Folders whose reads are not proven (a link out of the project, a link loop, too big). */
  problems: Map<TouchedPath, string>;
};

export type RecursiveCheck = {
  policy: PathPolicy;
  /** Read deny and ask rules. */
  guards: readonly PermissionRule[];
  readAllows: readonly PermissionRule[];
  walks: FolderWalks;
};

export async function checkRecursiveReads(
  units: readonly ShellUnit[],
  check: RecursiveCheck,
): Promise<RecursiveFindings> {
  const { policy } = check;
  const findings: RecursiveFindings = { reasons: [], problems: new Map() };
  for (const unit of allUnits(units)) {
    for (const touched of unit.reads) {
      const spelled = spelledPath(touched);
      if (!touched.recursive || !spelled?.resolved) continue;
      const follows = touched.followsLinks !== false;
      // Listing a denied file's name is no read of it (as `ls` of its folder is not).
      const near = touched.namesOnly
        ? []
        : check.guards.filter((rule) => policy.mayCoverBelow(rule, spelled));
      if (near.length === 0 && (!follows || touched.mayRecurse)) continue;
      const listing = await check.walks.list(spelled.resolved.real, follows, policy.paths);
      // Through a followed link any rule may cover what is read under the link's name
      // (`grep -R KEY docs` with `docs/cfg -> ../config`).
      const guards = listing.links.length > 0 && !touched.namesOnly ? check.guards : near;
      const shown = (rel: string) => join(touched.text, rel);
      // A guarded file found before the bound is named even when the walk could not finish.
      const guarded = firstGuarded(listing, spelled, guards, policy);
      if (guarded) {
        findings.askRule ??= guarded.rule;
        const verb = guarded.rule.behavior === 'deny' ? 'denies' : 'asks for';
        const reads = touched.mayRecurse ? `may read what is below ${touched.text}, such as` : 'would read';
        findings.reasons.push(
          `\`${unit.text}\` ${reads} ${shown(guarded.rel)}, which ${describeRule(guarded.rule)} ${verb}`,
        );
      } else if (!listing.complete) {
        const rule = guards[0];
        const why = `${touched.text} holds more than ${MAX_WALK_ENTRIES} entries, too many to check`;
        if (rule) {
          findings.askRule ??= rule;
          findings.reasons.push(`${why} against ${describeRule(rule)}`);
        } else findings.problems.set(touched, `${why} for symlinks leading out of the project`);
        continue;
      }
      for (const link of listing.links) {
        if (link.target === undefined) {
          findings.problems.set(touched, `${shown(link.rel)} is a symlink loop`);
          break;
        }
        const target = policy.spell(link.target);
        if (policy.inside(target) || policy.find(check.readAllows, target, 'allow')) continue;
        findings.problems.set(touched, `${shown(link.rel)} leads to ${link.target}, outside the project`);
        break;
      }
    }
  }
  return findings;
}
