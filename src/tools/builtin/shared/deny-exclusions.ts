/**
 * Read deny rules inside the search tools: Grep and Glob leave out every file a `Read(...)` deny
 * rule covers (ripgrep never opens it) and tell the model how many they skipped, so a search
 * result is never mistaken for the whole picture.
 */
import { homedir } from 'node:os';
import { describeRule } from '../../../permissions/evaluation';
import { diskPathFs } from '../../../permissions/real-paths';
import { type SearchExclusions, searchExclusions } from '../../../permissions/search-exclusions';
import { withWorktreeCopies } from '../../../permissions/worktree-copies';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';

/** The exclusions for searching `root`, given to ripgrep as `searchPath`. */
export function denyExclusions(context: ToolUseContext, root: string, searchPath: string): SearchExclusions {
  const home = homedir();
  const exclusions = searchExclusions({
    // In a git worktree, absolute deny rules leave out its copies too.
    rules: withWorktreeCopies(context.getPermissionContext().rules, {
      projectRoot: context.projectRoot,
      home,
      copies: context.services.copies,
    }),
    roots: { projectRoot: context.projectRoot, cwd: context.cwd, home },
    root,
    searchPath,
    fs: diskPathFs,
  });
  if (exclusions.everything) {
    throw new ToolError(
      `${root} is covered by the deny rule ${describeRule(exclusions.everything)}, so it cannot be searched.`,
    );
  }
  return exclusions;
}

/** The line that tells the model files were left out; undefined when none were. */
export function skippedNote(skipped: number | undefined): string | undefined {
  if (skipped === 0) return undefined;
  if (skipped === undefined) return '(Files covered by Read deny rules were left out of the search.)';
  return `(${skipped} file${skipped === 1 ? ' was' : 's were'} left out: Read deny rules cover ${skipped === 1 ? 'it' : 'them'}.)`;
}
