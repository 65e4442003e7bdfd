/**
 * What inside a repository's `.git` folder stays read-only in the sandbox, decided from what a
 * planted or changed file there makes git do later, outside the sandbox. Each protected entry was
 * checked with a real git run (git-protection.test.ts plants each one outside the sandbox and shows
 * the code it runs or the redirection it causes). The rest of `.git` stays writable so a sandboxed
 * `git add`, `commit`, `branch`, `merge`, `stash`, `gc` keep working:
 * - `objects/`, `refs/`, `packed-refs`, `logs/`, `index`, `HEAD` and the other state files: data
 *   git reads, never runs; `objects/info/alternates` only adds places objects are read from.
 * - `info/attributes` (like `.gitattributes`): it only picks among the filter, diff and merge
 *   drivers a config defines; with no driver configured, `* filter=x diff=x` runs nothing.
 * - `info/exclude`, `description`: data.
 * Left open on purpose: a paused interactive rebase keeps its to-do list in `rebase-merge/`; a
 * sandboxed command can add `exec` lines to it, which a later `git rebase --continue` outside runs.
 * Protecting it would stop rebases inside the sandbox; the lines show in `git rebase --edit-todo`.
 * A new nested repository (`sub/.git` with its own config) is beyond any list: git runs its config
 * only when someone runs git inside that folder.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { readRegularTextSync } from '../lib/regular-file-text';

/**
 * What keeps a protected path that does not exist yet from being planted:
 * - `block`: its first missing component becomes a read-only empty folder for the command;
 * - `empty-file`: an empty file, for a path git reads as config (a folder there stops git, and an
 *   empty config is valid); it is listed as untracked while the command runs when it lies in the
 *   worktree — only a config `include` of a file that does not exist does that;
 * - `self-commondir`: `.git/commondir` is written as `.` (the repository itself, which git treats
 *   exactly like no commondir) and bound read-only — an empty file or folder there stops git;
 * - `if-worktree-config`: blocked only when the config enables `extensions.worktreeConfig`, since
 *   git reads `config.worktree` only then;
 * - `nothing`: a new one is used by nothing (the reason is with the entry).
 */
export type WhenMissing = 'block' | 'empty-file' | 'self-commondir' | 'if-worktree-config' | 'nothing';

export type GitProtectedEntry = { name: string; why: string; whenMissing: WhenMissing };

export const GIT_PROTECTED: readonly GitProtectedEntry[] = [
  { name: 'hooks', why: 'git runs its hooks', whenMissing: 'block' },
  { name: 'config', why: 'git config can make git run programs', whenMissing: 'block' },
  {
    name: 'config.worktree',
    why: 'git config can make git run programs',
    whenMissing: 'if-worktree-config',
  },
  {
    name: 'commondir',
    why: 'it moves where git reads its config and hooks from',
    whenMissing: 'self-commondir',
  },
  // A submodule's or linked worktree's git folder is used only by a checkout whose `.git` file
  // names it; a new one is named by nothing (a new checkout could as well carry its own `.git`).
  {
    name: 'modules',
    why: 'submodule repositories have hooks and config of their own',
    whenMissing: 'nothing',
  },
  {
    name: 'worktrees',
    why: "a linked worktree's commondir and config decide what git runs there",
    whenMissing: 'nothing',
  },
];

/** What a repository's config says that moves protection elsewhere. */
export type GitConfigFacts = {
  /** `core.hooksPath` values, as written. */
  hooksPaths: string[];
  /** `include.path` / `includeIf.*.path` values: those files are config too. */
  includes: string[];
  /** `extensions.worktreeConfig` is on, so `config.worktree` is read. */
  worktreeConfig: boolean;
};

const TRUE_VALUES: ReadonlySet<string> = new Set(['', 'true', 'yes', 'on', '1']);

/** Reads the few keys that matter from git config text (sections and keys are case-insensitive). */
export function gitConfigFacts(text: string): GitConfigFacts {
  const facts: GitConfigFacts = { hooksPaths: [], includes: [], worktreeConfig: false };
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/(^|\s)[#;].*$/, '').trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    let rest = line;
    if (header) {
      section = (header[1] ?? '').toLowerCase();
      rest = header[2] ?? '';
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(rest);
    if (!entry) continue;
    const key = (entry[1] ?? '').toLowerCase();
    const value = (entry[2] ?? '').replace(/^"(.*)"$/, '$1');
    if (section === 'core' && key === 'hookspath') facts.hooksPaths.push(value);
    else if ((section === 'include' || section === 'includeif') && key === 'path') facts.includes.push(value);
    else if (section === 'extensions' && key === 'worktreeconfig')
      facts.worktreeConfig = TRUE_VALUES.has(value.toLowerCase());
  }
  return facts;
}

/** A path as git config writes it: `~/` is the home folder, relative is from `base`. */
function configPath(value: string, base: string): string {
  const home = homedir();
  if (value === '~' || value.startsWith('~/')) return join(home, value.slice(1));
  return isAbsolute(value) ? value : resolve(base, value);
}

export type GitDerivedPath = { path: string; why: string; whenMissing: WhenMissing };

/**
 * One repository's config, read again only when the file changed (size and mtime): the paths it
 * makes dangerous (a hooks folder or included config inside the project) and whether
 * `config.worktree` is read.
 */
export class GitConfigReader {
  private readonly cache = new Map<string, { stamp: string; facts: GitConfigFacts }>();

  facts(gitDir: string): GitConfigFacts | undefined {
    const file = join(gitDir, 'config');
    let stamp: string;
    try {
      const stat = statSync(file);
      stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return undefined;
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.facts;
    let facts: GitConfigFacts;
    try {
      // A FIFO planted as the config would hang every sandboxed command (git itself waits on it,
      // so no git runs what it would name); a config of any size git reads is read whole.
      facts = gitConfigFacts(readRegularTextSync(file, Number.MAX_SAFE_INTEGER));
    } catch {
      return undefined;
    }
    this.cache.set(file, { stamp, facts });
    return facts;
  }

  /** The hooks folders and included config files `worktree`'s config names. */
  derived(worktree: string): GitDerivedPath[] {
    const gitDir = join(worktree, '.git');
    const facts = this.facts(gitDir);
    if (!facts) return [];
    return [
      // Relative to the worktree, as git resolves it for hooks.
      ...facts.hooksPaths.map((value) => ({
        path: configPath(value, worktree),
        why: 'git runs the hooks in core.hooksPath',
        whenMissing: 'block' as const,
      })),
      // Relative to the file that includes it.
      ...facts.includes.map((value) => ({
        path: configPath(value, gitDir),
        why: 'git config includes it, and config can make git run programs',
        whenMissing: 'empty-file' as const,
      })),
    ];
  }
}
