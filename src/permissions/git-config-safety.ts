/**
 * Whether git, run from a directory, would use a repository whose own configuration can make a
 * read-only command (`git status`, `log`, `diff`, `show`, `grep`) run a program: `core.fsmonitor`,
 * a pager, a diff driver, a textconv or clean filter, an include, hooks that `git status` triggers
 * when it refreshes the index — in the repository itself or in a submodule it descends into. The
 * repository may be planted: unpacked from a tarball, committed as plain files (an embedded bare
 * repository git discovers from inside it), or made by the model.
 *
 * The check asks git itself which repository and which settings apply (`git rev-parse`, `git config
 * --list --show-scope`: reading configuration runs nothing) and accepts only repository-level keys
 * on a list of known-harmless ones; system, global and command-line settings are the user's own.
 * Embedded bare repositories are judged like any other here; the Bash tool also runs read-only
 * commands with `safe.bareRepository=explicit`, so git refuses them outright (see git-neutral-env).
 *
 * A verdict is cached per directory in this object (one per session), keyed by the status of every
 * file and directory that decides it: the directories git's discovery looks at, the config files,
 * the index, the hooks. Any change there, or a change while the probe ran, means probing again.
 */
import { existsSync, realpathSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { HOOKS_PATH_KEY, isHarmlessRepositoryKey } from './git-config-keys';
import { GitLineConfig, keyAndValue } from './git-line-config';
import { type GitResult, runGit, withGitConfig } from './git-neutral-env';
import { TrackedFileLists } from './git-tracked-files';

export type GitConfigVerdict = { harmless: true } | { harmless: false; reason: string };

export type GitConfigSafetyOptions = {
  /** The environment git will run with (GIT_DIR, GIT_CONFIG_GLOBAL, … are honoured). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Bound on each git call; a planted `include.path` may name a FIFO. */
  timeoutMs?: number;
  /**
   * A file changed this close to a probe may have been read in its old state, so the answer is
   * not cached. File times come from a coarse kernel clock; the default leaves a wide margin.
   */
  changeSlackMs?: number;
};

const HARMLESS: GitConfigVerdict = { harmless: true };
const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_OUTPUT = 16 * 1024 * 1024;
/** Submodules `git status` descends into are checked too, up to these bounds. */
const MAX_NESTED_DEPTH = 3;
const MAX_NESTED_REPOSITORIES = 32;
const DEFAULT_CHANGE_SLACK_MS = 100;

/**
 * Hooks a read-only command can run: `git status`, `diff` and `describe --dirty` refresh the index
 * and write it back, which runs post-index-change (calibrated); the other two cover ref updates
 * and automatic maintenance that a lazy fetch of a partial clone may start.
 */
const READ_ONLY_REACHABLE_HOOKS = ['post-index-change', 'reference-transaction', 'pre-auto-gc'];

/** Scopes whose settings the user controls; `local` and `worktree` come from the repository. */
const TRUSTED_SCOPES = new Set(['system', 'global', 'command']);
const REPOSITORY_SCOPES = new Set(['local', 'worktree']);

type ConfigEntry = { scope: string; origin: string; key: string; value: string | undefined };

type Probe = { verdict: GitConfigVerdict; paths: string[] };

type CacheEntry = { paths: string[]; states: string[]; verdict: GitConfigVerdict };

/**
 * What identifies a path's state. A file: identity, size and both times (ctime cannot be set
 * back). A directory: identity only — what matters inside it is listed path by path, and its own
 * times change with every file created next to what matters (`/tmp`, a project root).
 */
function fileState(path: string): string {
  const stat = statOf(path);
  if (!stat) return '-';
  if (stat.isDirectory()) return `d${stat.ino}`;
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR (`.git/HEAD` where `.git` is a file), EACCES: nothing git could use either.
    return undefined;
  }
}

const statesOf = (paths: readonly string[]): string[] => paths.map(fileState);

function sameStates(paths: readonly string[], states: readonly string[]): boolean {
  for (let i = 0; i < paths.length; i++) if (fileState(paths[i] as string) !== states[i]) return false;
  return true;
}

/** True when one of the files changed so recently that the probe may have read an older state. */
function changedSince(paths: readonly string[], sinceMs: number): boolean {
  return paths.some((path) => {
    const stat = statOf(path);
    return stat?.isFile() === true && Math.max(stat.ctimeMs, stat.mtimeMs) >= sinceMs;
  });
}

/** The directory itself and every parent up to `/`. */
function ancestors(directory: string): string[] {
  const out = [directory];
  for (let current = directory; dirname(current) !== current; current = dirname(current))
    out.push(dirname(current));
  return out;
}

/**
 * What git's discovery looks at on each level, from `directory` up to the level where it found
 * the repository (`stop`) or to `/`: a `.git` file or directory, and the parts that make a folder
 * a repository (`HEAD`, `objects`, `refs`, `commondir`) in `.git` and in the level itself.
 */
function discoveryPaths(directory: string, stop: string | undefined): string[] {
  const paths: string[] = [];
  for (const level of ancestors(directory)) {
    for (const base of [join(level, '.git'), level]) {
      paths.push(base, ...['HEAD', 'objects', 'refs', 'commondir'].map((part) => join(base, part)));
    }
    if (level === stop) break;
  }
  return paths;
}

/** The level at which discovery from `directory` found `gitDir`: a `.git` holder or the bare folder. */
function discoveryStop(directory: string, gitDir: string): string | undefined {
  return ancestors(directory).find((level) => level === gitDir || existsSync(join(level, '.git')));
}

/** The directory, or its nearest parent that exists, on its real path. */
export function nearestExisting(directory: string): string {
  let current = resolve(directory);
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return realpathSync(current);
}

/** `git config --list --show-scope --show-origin -z`: `scope\0origin\0key\nvalue\0` per entry. */
function parseConfigList(output: string): ConfigEntry[] {
  const fields = output.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3)
    entries.push({
      scope: fields[i] as string,
      origin: fields[i + 1] as string,
      ...keyAndValue(fields[i + 2] as string),
    });
  return entries;
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';

export class GitConfigSafety {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly env: NodeJS.ProcessEnv;
  /** For reading the index: `git ls-files` starts `core.fsmonitor` otherwise (calibrated). */
  private readonly indexEnv: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  private readonly changeSlackMs: number;
  private probeCount = 0;
  /** The tracked files per repository, for deny rules on git commands that print content. */
  readonly tracked: TrackedFileLists;
  /** The aliases and push settings a git line would use, for deny rules on git commands. */
  readonly lineConfig: GitLineConfig;

  constructor(options: GitConfigSafetyOptions = {}) {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(options.env ?? process.env))
      if (value !== undefined) env[key] = value;
    // Messages in English for the one that matters ("not a git repository"); nothing else changes.
    env.LC_ALL = 'C';
    // The probe reads planted repositories: it must never write their index (which runs hooks).
    env.GIT_OPTIONAL_LOCKS = '0';
    this.env = env;
    this.indexEnv = withGitConfig(env, [['core.fsmonitor', 'false']]) as NodeJS.ProcessEnv;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.changeSlackMs = options.changeSlackMs ?? DEFAULT_CHANGE_SLACK_MS;
    this.tracked = new TrackedFileLists(env, this.timeoutMs);
    this.lineConfig = new GitLineConfig(env, this.timeoutMs);
  }

  /** How many times a repository was actually probed (the rest came from the cache). */
  get probes(): number {
    return this.probeCount;
  }

  /** The verdict for git run from `directory` (a missing directory counts as its nearest parent). */
  async check(directory: string): Promise<GitConfigVerdict> {
    let start: string;
    try {
      start = nearestExisting(directory);
    } catch (error) {
      return {
        harmless: false,
        reason: `the directory ${directory} cannot be read (${(error as Error).message})`,
      };
    }
    const cached = this.cache.get(start);
    if (cached && sameStates(cached.paths, cached.states)) return cached.verdict;
    const began = Date.now();
    const probe = await this.probe(start, 0, { count: 0 });
    const paths = [...new Set(probe.paths)];
    if (!changedSince(paths, began - this.changeSlackMs))
      this.cache.set(start, { paths, states: statesOf(paths), verdict: probe.verdict });
    else this.cache.delete(start);
    return probe.verdict;
  }

  private git(args: string[], cwd: string, env = this.env): Promise<GitResult> {
    return runGit(args, { cwd, env, timeoutMs: this.timeoutMs, maxBuffer: MAX_OUTPUT });
  }

  private async probe(directory: string, depth: number, nested: { count: number }): Promise<Probe> {
    this.probeCount++;
    // Three questions at once; the index is listed from the top (`:/`) wherever `directory` is.
    const [location, config, index] = await Promise.all([
      this.git(
        ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-toplevel'],
        directory,
      ),
      this.git(['config', '--list', '--show-scope', '--show-origin', '-z'], directory),
      this.git(['ls-files', '--stage', '-z', '--full-name', '--', ':/'], directory, this.indexEnv),
    ]);
    const [gitDir, commonDir, topLevel] = location.stdout.split('\n');
    const paths = discoveryPaths(directory, gitDir ? discoveryStop(directory, gitDir) : undefined);
    if (!gitDir) {
      if (/not a git repository/i.test(location.stderr)) return { verdict: HARMLESS, paths };
      return this.refuse(
        `git could not tell which repository it would use: ${firstLine(location.stderr)}`,
        paths,
      );
    }
    const common = commonDir || gitDir;
    paths.push(
      ...[gitDir, common].flatMap((dir) => [
        dir,
        join(dir, 'config'),
        join(dir, 'config.worktree'),
        join(dir, 'commondir'),
      ]),
      join(gitDir, 'index'),
    );
    if (config.code !== 0)
      return this.refuse(
        `git could not read the repository's configuration: ${firstLine(config.stderr)}`,
        paths,
      );
    const entries = parseConfigList(config.stdout);
    for (const entry of entries) {
      if (REPOSITORY_SCOPES.has(entry.scope) && entry.origin.startsWith('file:'))
        paths.push(resolve(directory, entry.origin.slice('file:'.length)));
    }
    const where = depth === 0 ? 'the repository' : `the nested repository at ${topLevel || gitDir}`;
    const keyProblem = this.keyProblem(entries, directory, gitDir);
    if (keyProblem) return this.refuse(`${where} sets ${keyProblem}`, paths);
    const hookProblem = this.hookProblem(entries, common, topLevel || gitDir, paths);
    if (hookProblem) return this.refuse(`${where} has ${hookProblem}`, paths);
    if (!topLevel) return { verdict: HARMLESS, paths };
    if (index.code !== 0)
      return this.refuse(`git could not list the repository's index: ${firstLine(index.stderr)}`, paths);
    return this.submodules(index.stdout, topLevel, depth, nested, paths);
  }

  private refuse(reason: string, paths: string[]): Probe {
    return { verdict: { harmless: false, reason }, paths };
  }

  /** The first repository-level setting not known to be harmless, as "`key` (in file)". */
  private keyProblem(entries: readonly ConfigEntry[], directory: string, gitDir: string): string | undefined {
    for (const entry of entries) {
      if (TRUSTED_SCOPES.has(entry.scope)) continue;
      const shown = `\`${entry.key}\` in ${entry.origin.replace(/^file:/, '')}`;
      if (!REPOSITORY_SCOPES.has(entry.scope)) return `${shown}, from a source git calls ${entry.scope}`;
      if (entry.key === HOOKS_PATH_KEY) continue;
      if (entry.key === 'core.worktree' && this.isOwnWorkTree(entry.value, directory, gitDir)) continue;
      if (!isHarmlessRepositoryKey(entry.key, entry.value))
        return `${shown}, a setting not known to be harmless (such settings can make git run programs)`;
    }
    return undefined;
  }

  /**
   * `core.worktree` as an absorbed submodule has it: pointing back at the folder that holds the
   * `.git` file git found anyway. Anywhere else it makes git read another tree.
   */
  private isOwnWorkTree(value: string | undefined, directory: string, gitDir: string): boolean {
    if (!value) return false;
    const holder = ancestors(directory).find((level) => existsSync(join(level, '.git')));
    try {
      return holder !== undefined && realpathSync(resolve(gitDir, value)) === holder;
    } catch {
      return false;
    }
  }

  /** A hook a read-only command can trigger, in the hooks folder git would use. */
  private hookProblem(
    entries: readonly ConfigEntry[],
    commonDir: string,
    base: string,
    paths: string[],
  ): string | undefined {
    const setting = entries.filter((e) => e.key === HOOKS_PATH_KEY).at(-1);
    // A hooks folder named by the user's own configuration holds the user's own hooks.
    if (setting && TRUSTED_SCOPES.has(setting.scope)) return undefined;
    let folder = join(commonDir, 'hooks');
    if (setting?.value) {
      const value = setting.value.replace(/^~(?=\/|$)/, homedir());
      folder = isAbsolute(value) ? value : resolve(base, value);
    }
    for (const hook of READ_ONLY_REACHABLE_HOOKS) {
      const path = join(folder, hook);
      paths.push(path);
      if (existsSync(path)) return `a ${hook} hook (${path}), which read-only git commands can run`;
    }
    return undefined;
  }

  /**
   * `git status` and `git diff` run `git status` inside every populated submodule (a gitlink in the
   * index whose folder holds a repository, `.gitmodules` or not): each one is checked the same way.
   */
  private async submodules(
    index: string,
    topLevel: string,
    depth: number,
    nested: { count: number },
    paths: string[],
  ): Promise<Probe> {
    for (const record of index.split('\0')) {
      if (!record.startsWith('160000 ')) continue;
      const folder = join(topLevel, record.slice(record.indexOf('\t') + 1));
      paths.push(folder, join(folder, '.git'));
      if (!existsSync(join(folder, '.git'))) continue;
      if (depth + 1 > MAX_NESTED_DEPTH || ++nested.count > MAX_NESTED_REPOSITORIES)
        return this.refuse(`too many nested repositories (submodules) under ${topLevel} to check`, paths);
      const inner = await this.probe(realpathSync(folder), depth + 1, nested);
      paths.push(...inner.paths);
      if (!inner.verdict.harmless) return { verdict: inner.verdict, paths };
    }
    return { verdict: HARMLESS, paths };
  }
}
