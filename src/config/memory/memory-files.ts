/**
 * Finds and reads the memory files (instructions the user keeps for the agent): user-level files,
 * then every folder from the repository root down to the working directory, each folder's shared
 * files before its `*.local.md` ones, each file followed by its `@path` imports. All candidate
 * paths are read in one parallel batch; a missing file costs one existsSync, nothing more.
 */
import { dirname, join, parse, resolve } from 'node:path';
import { findGitRoot } from '../git-root';
import {
  claudeHome,
  type Env,
  homeDir,
  PROJECT_CLAUDE_DIR,
  PROJECT_YOKE_DIR,
  type SettingsFileSource,
  yokeHome,
} from '../paths';
import {
  type ImportScope,
  type MemoryFile,
  type MemoryKind,
  readIfPresent,
  withImports,
} from './memory-imports';

export type { ImportScope, MemoryFile, MemoryKind } from './memory-imports';

/** The shared memory files a folder may hold, in load order. */
export function folderMemoryPaths(dir: string): { path: string; kind: 'project' | 'local' }[] {
  return [
    { path: join(dir, 'AGENTS.md'), kind: 'project' },
    { path: join(dir, 'CLAUDE.md'), kind: 'project' },
    { path: join(dir, PROJECT_CLAUDE_DIR, 'CLAUDE.md'), kind: 'project' },
    { path: join(dir, PROJECT_YOKE_DIR, 'YOKE.md'), kind: 'project' },
    { path: join(dir, 'AGENTS.local.md'), kind: 'local' },
    { path: join(dir, 'CLAUDE.local.md'), kind: 'local' },
  ];
}

export function userMemoryPaths(env: Env): { path: string; kind: 'user' }[] {
  return [
    { path: join(claudeHome(env), 'CLAUDE.md'), kind: 'user' },
    { path: join(yokeHome(env), 'AGENTS.md'), kind: 'user' },
    { path: join(yokeHome(env), 'YOKE.md'), kind: 'user' },
  ];
}

export function homeOf(env: Env): string {
  return homeDir(env);
}

/**
 * The folders whose memory files apply to `cwd`, outermost first: from the repository root (the
 * nearest folder holding `.git`) down to cwd. Outside a repository the walk stops below the home
 * folder (whose files are the user's own) or at the filesystem root.
 */
export async function memoryFolders(cwd: string, env: Env): Promise<string[]> {
  const start = resolve(cwd);
  const chain: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    chain.push(dir);
    if (dir === parse(dir).root) break;
  }
  const gitRoot = findGitRoot(start);
  const repoIndex = gitRoot === undefined ? -1 : chain.indexOf(gitRoot);
  if (repoIndex >= 0) return chain.slice(0, repoIndex + 1).reverse();
  const home = resolve(homeOf(env));
  const homeIndex = chain.indexOf(home);
  // cwd = home: home is the project; cwd below home: stop short of it; elsewhere: up to the root.
  const top = homeIndex === 0 ? 1 : homeIndex > 0 ? homeIndex : chain.length;
  return chain.slice(0, top).reverse();
}

/** Reads the given candidates in parallel and expands the imports of those that exist. */
export async function readMemoryCandidates(
  candidates: readonly { path: string; kind: MemoryKind }[],
  scope: ImportScope,
  seen: Set<string>,
): Promise<MemoryFile[]> {
  const fresh = candidates.filter((c) => !seen.has(c.path));
  for (const c of fresh) seen.add(c.path);
  const contents = await Promise.all(
    fresh.map((c) => readIfPresent(c.path, (reason) => scope.refused?.(`memory file not loaded: ${reason}`))),
  );
  const roots: MemoryFile[] = [];
  fresh.forEach((c, i) => {
    const content = contents[i];
    if (content !== undefined && content.trim() !== '') roots.push({ path: c.path, content, kind: c.kind });
  });
  const expanded = await Promise.all(roots.map((file) => withImports(file, scope, seen)));
  return expanded.flat();
}

/**
 * Whether a memory file of this kind loads under `--setting-sources`, which selects memory files
 * as it selects settings files (as in Claude Code): `user` the user's own files, `project` the
 * shared files of the project and its parents, `local` the `*.local.md` ones. Undefined: all.
 */
export function memoryKindSelected(
  kind: Exclude<MemoryKind, 'nested'>,
  sources: readonly SettingsFileSource[] | undefined,
): boolean {
  return sources === undefined || sources.includes(kind);
}

/** Every memory file that applies at start-up, in the order they go into the prompt. */
export async function loadMemoryFiles(options: {
  cwd: string;
  env: Env;
  sources?: readonly SettingsFileSource[];
  /** The folder is trusted: a project's memory file may import from outside it (memory-imports.ts). */
  trusted: boolean;
  /** Hears one line for each import left out. */
  refused?: (line: string) => void;
  /** The Read deny rule that covers a path, described (imports of such a file are left out). */
  denied?: (path: string) => string | undefined;
}): Promise<MemoryFile[]> {
  const { cwd, env, sources } = options;
  const folders = await memoryFolders(cwd, env);
  const candidates = [...userMemoryPaths(env), ...folders.flatMap(folderMemoryPaths)].filter((c) =>
    memoryKindSelected(c.kind, sources),
  );
  const scope: ImportScope = {
    home: homeOf(env),
    project: [projectFolder(cwd)],
    outside: options.trusted,
    ...(options.refused ? { refused: options.refused } : {}),
    ...(options.denied ? { denied: options.denied } : {}),
  };
  return readMemoryCandidates(candidates, scope, new Set());
}

/**
 * Where a project's memory files may import from: the repository root, or outside a repository
 * the project folder itself (the folders above it may be anyone's: `/tmp`, `/`).
 */
export function projectFolder(cwd: string): string {
  return findGitRoot(resolve(cwd)) ?? resolve(cwd);
}
