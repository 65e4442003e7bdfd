/**
 * The file-completion source for `@path` mentions: the project's files as ripgrep lists them
 * (so `.gitignore`, `.ignore` and `.git/` are respected), without any file a `Read(...)` deny
 * rule covers, plus the folders they are in. Listed once and refreshed on demand; each query is
 * one pass over precomputed lowercase paths, quick enough per keystroke on a 50,000-file tree.
 */
import { homedir } from 'node:os';
import type { PermissionRule } from '../lib/permission-vocabulary';
import { isSubsequence } from '../lib/subsequence';
import { diskPathFs } from '../permissions/real-paths';
import { searchExclusions } from '../permissions/search-exclusions';
import { type KnownCopies, withWorktreeCopies } from '../permissions/worktree-copies';
import { runRipgrep } from '../tools/builtin/shared/ripgrep';

type Env = Readonly<Record<string, string | undefined>>;

/** More than this is not listed: a completion list over a whole disk would help nobody. */
export const MAX_INDEXED_FILES = 200_000;

export type FileSuggestion = { path: string; kind: 'file' | 'dir' };

type Entry = { path: string; lower: string; base: string; kind: 'file' | 'dir'; depth: number };

export type FileIndexOptions = {
  projectRoot: string;
  env: Env;
  /** The session's rules in force; Read deny rules keep files out of the list. */
  rules: () => readonly PermissionRule[];
  home?: string;
  /** The session's known copies of the project (a WorktreeCreate hook's), for the rules' twins. */
  copies?: () => KnownCopies | undefined;
};

export class FileIndex {
  private entries: Entry[] = [];
  private loading: Promise<void> | undefined;
  /** Set when the last listing stopped at MAX_INDEXED_FILES. */
  truncated = false;
  /** Why the last listing failed (ripgrep missing, a deny rule covering the project). */
  problem: string | undefined;

  constructor(private readonly options: FileIndexOptions) {}

  /** Lists the files again (at most one listing runs at a time). */
  refresh(signal: AbortSignal): Promise<void> {
    this.loading ??= this.list(signal).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async list(signal: AbortSignal): Promise<void> {
    const { projectRoot, env } = this.options;
    const home = this.options.home ?? homedir();
    const exclusions = searchExclusions({
      // In a git worktree, absolute deny rules hold for its copies too.
      rules: withWorktreeCopies(this.options.rules(), { projectRoot, home, copies: this.options.copies?.() }),
      roots: { projectRoot, cwd: projectRoot, home },
      root: projectRoot,
      searchPath: '.',
      fs: diskPathFs,
    });
    if (exclusions.everything) {
      this.entries = [];
      this.problem = `a Read deny rule covers ${projectRoot}, so no file is offered`;
      return;
    }
    const args = ['--files', '--hidden', '--glob', '!.git', '--color', 'never'];
    for (const glob of exclusions.globs) args.push('--glob', glob);
    let result: Awaited<ReturnType<typeof runRipgrep>>;
    try {
      result = await runRipgrep([...args, '.'], {
        cwd: projectRoot,
        env,
        signal,
        maxLines: MAX_INDEXED_FILES,
      });
    } catch (error) {
      this.problem = (error as Error).message;
      return;
    }
    const checkEach = this.options.rules().some((r) => r.toolName === 'Read' && r.behavior === 'deny');
    const files = new Set<string>();
    const dirs = new Set<string>();
    for (const line of result.lines) {
      if (!line) continue;
      const rel = line.startsWith('./') ? line.slice(2) : line;
      // The globs are the fast path; the matcher is the rule (it also knows the real paths).
      if (checkEach && exclusions.deniedBy(rel)) continue;
      files.add(rel);
      for (let i = rel.indexOf('/'); i > 0; i = rel.indexOf('/', i + 1)) dirs.add(`${rel.slice(0, i)}/`);
    }
    const entry = (path: string, kind: Entry['kind']): Entry => {
      const trimmed = kind === 'dir' ? path.slice(0, -1) : path;
      return {
        path,
        lower: path.toLowerCase(),
        base: trimmed.slice(trimmed.lastIndexOf('/') + 1).toLowerCase(),
        kind,
        depth: trimmed.split('/').length,
      };
    };
    this.entries = [...[...dirs].map((d) => entry(d, 'dir')), ...[...files].map((f) => entry(f, 'file'))];
    this.truncated = result.stoppedEarly;
    this.problem = undefined;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * The best entries for what follows the `@`: a name starting with the query first, then a path
   * starting with it, then names and paths containing it, then paths holding its characters in
   * order. Shallow and short paths first within a rank. An empty query lists the top level.
   */
  complete(query: string, limit = 15): FileSuggestion[] {
    const q = query.replace(/^\.\//, '').toLowerCase();
    // The best `limit` kept in order as the pass goes: no sort of every match (`@f` matches all).
    const best: { entry: Entry; rank: number }[] = [];
    for (const entry of this.entries) {
      const rank = rankOf(entry, q);
      if (rank < 0) continue;
      const candidate = { entry, rank };
      if (best.length === limit && !before(candidate, best[limit - 1] as typeof candidate)) continue;
      let i = best.length;
      while (i > 0 && before(candidate, best[i - 1] as typeof candidate)) i--;
      best.splice(i, 0, candidate);
      if (best.length > limit) best.pop();
    }
    return best.map(({ entry }) => ({ path: entry.path, kind: entry.kind }));
  }
}

/** Better rank, then shallower, then shorter, then by name. */
function before(a: { entry: Entry; rank: number }, b: { entry: Entry; rank: number }): boolean {
  if (a.rank !== b.rank) return a.rank < b.rank;
  if (a.entry.depth !== b.entry.depth) return a.entry.depth < b.entry.depth;
  if (a.entry.path.length !== b.entry.path.length) return a.entry.path.length < b.entry.path.length;
  return a.entry.path < b.entry.path;
}

function rankOf(entry: Entry, q: string): number {
  if (q === '') return entry.depth === 1 ? 0 : -1;
  // `@src/` asks for what is inside src/, not for src/ again.
  if (entry.kind === 'dir' && entry.lower === q) return -1;
  if (entry.base.startsWith(q)) return 0;
  if (entry.lower.startsWith(q)) return 1;
  if (entry.base.includes(q)) return 2;
  if (entry.lower.includes(q)) return 3;
  return isSubsequence(q, entry.lower) ? 4 : -1;
}
