/**
 * Recursive reads (`grep -r KEY .`, `rg KEY`) against the files below their folders: a bounded
 * walk, kept for the turn, finds a file a Read deny or ask rule covers (the line then asks and
 * says which file and rule), a folder too big to check, or — when the search follows symlinks —
 * a link leading out of the project.
 */
import { join } from 'node:path';
import { describeRule } from './evaluation';
import { type FolderListing, type FolderWalks, MAX_WALK_ENTRIES } from './folder-walks';
import type { PathPolicy, SpelledPath } from './path-policy';
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

/**
 * The first file below `folder` a rule covers. The answer is kept on the listing for the rest of
 * the turn: the same search again costs a lookup, not a pass over 10 000 entries.
 */
function firstGuarded(
  listing: FolderListing,
  folder: SpelledPath,
  guards: readonly PermissionRule[],
  policy: PathPolicy,
): { rel: string; rule: PermissionRule } | undefined {
  if (guards.length === 0) return undefined;
  const key = `${folder.path}\0${guards.map(describeRule).join('\0')}`;
  const known = listing.verdicts.get(key) as { rel: string; index: number } | null | undefined;
  if (known !== undefined)
    return known ? { rel: known.rel, rule: guards[known.index] as PermissionRule } : undefined;
  const real = folder.resolved?.real ?? folder.path;
  const testers = guards.map((rule) => policy.belowTester(rule, folder));
  let found: { rel: string; index: number } | null = null;
  for (const entry of listing.entries) {
    // Below a followed link the real path is elsewhere: the full check takes every spelling.
    const plain = entry.real === join(real, entry.rel);
    const index = plain
      ? testers.findIndex((test) => test(entry.rel))
      : guards.findIndex((rule) =>
          policy.coversAnySpelling(rule, {
            path: join(folder.path, entry.rel),
            resolved: { real: entry.real, links: [] },
          }),
        );
    if (index >= 0) {
      found = { rel: entry.rel, index };
      break;
    }
  }
  listing.verdicts.set(key, found);
  return found ? { rel: found.rel, rule: guards[found.index] as PermissionRule } : undefined;
}

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
      const guards = touched.namesOnly
        ? []
        : check.guards.filter((rule) => policy.mayCoverBelow(rule, spelled));
      if (guards.length === 0 && (!follows || touched.mayRecurse)) continue;
      const listing = await check.walks.list(spelled.resolved.real, follows, policy.paths);
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
