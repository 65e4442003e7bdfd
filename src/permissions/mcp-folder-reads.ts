/**
 * Folders an MCP call's arguments name, against the Read deny rules. Yoke's Grep and Glob leave
 * out every file a `Read(...)` deny rule covers, its name included (search-exclusions.ts); a
 * server's listing, tree or search cannot be made to. So a call naming a folder that holds such a
 * file — found by the bounded walk recursive shell searches use (folder-walks.ts) — asks in every
 * mode, naming the rule and the folder but not the file: its name is what the rule hides. A
 * folder too big to walk asks too. A folder the rule covers itself is denied before this
 * (`mcpDeniedPath` in tool-rules.ts).
 */
import { describeRule, type Evaluation, type EvaluationEnv, pathRules } from './evaluation';
import { FolderWalks, firstGuarded, MAX_WALK_ENTRIES } from './folder-walks';
import { pathLikeStrings } from './mcp-path-arguments';
import { PathPolicy } from './path-policy';
import { resolveUserPath } from './path-rules';

export async function checkMcpFolderReads(
  toolName: string,
  input: Record<string, unknown>,
  env: EvaluationEnv,
  evaluation: Evaluation,
): Promise<void> {
  const denies = pathRules(env.rules, 'Read', 'deny');
  // Arguments past the bounds already ask (tool-rules.ts).
  const strings = denies.length > 0 ? pathLikeStrings(input) : undefined;
  if (evaluation.denied || strings === undefined) return;
  const policy = new PathPolicy(env, env.paths);
  const walks = env.walks ?? new FolderWalks();
  for (const text of new Set(strings)) {
    const folder = policy.spell(resolveUserPath(text, env.roots.cwd, env.roots.home));
    const real = folder.resolved?.real;
    if (real === undefined || env.paths.fs.kind(real) !== 'dir') continue;
    const listing = await walks.list(real, true, env.paths);
    // Through a symlink below, any rule may cover what the server shows under the link's name.
    const guards =
      listing.links.length > 0 ? denies : denies.filter((rule) => policy.mayCoverBelow(rule, folder));
    if (guards.length === 0) continue;
    const found = firstGuarded(listing, folder, guards, policy);
    const rule = found?.rule ?? (listing.complete ? undefined : guards[0]);
    if (!rule) continue;
    const reason = found
      ? `${toolName} names ${text}, a folder holding files ${describeRule(rule)} denies: the server may list or read them, and their names cannot be left out of what it returns as Grep and Glob leave them out`
      : `${toolName} names ${text}, a folder of more than ${MAX_WALK_ENTRIES} entries, too many to check against ${describeRule(rule)}`;
    evaluation.askRule ??= rule;
    evaluation.hardReasons.push(reason);
    evaluation.reasons.push(reason);
  }
}
