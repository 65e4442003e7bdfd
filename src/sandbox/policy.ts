/**
 * The sandbox policy of a session, built from data: the folders the command may write (the
 * project, `--add-dir` folders, the session's temp folder, `sandbox.filesystem.allowWrite`), the
 * protected files inside them that stay read-only, the secrets that are masked, and the way out to
 * the network. Paths are real paths (symlinks resolved), because a mount follows links: masking
 * `~/.ssh` when it links to `/data/keys` must mask `/data/keys`.
 *
 * The policy is fixed for the session; which of its paths exist is looked at per command
 * (bwrap-args.ts), so a `.git` created later is protected from then on.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionRule } from '../lib/permission-vocabulary';
import {
  isWithin,
  type ResolvedPattern,
  resolvePathPattern,
  resolveUserPath,
  withLiteralBase,
} from '../permissions/path-rules';
import { GIT_PROTECTED, type WhenMissing } from './git-protection';
import type { SandboxConfig, SettingsPath } from './settings';

/** A path with the one-line reason the sandbox treats it specially. */
export type PolicyPath = { path: string; why: string };

/** A read-only path, and what stops it from being planted while it does not exist. */
export type ReadOnlyPath = PolicyPath & { whenMissing: WhenMissing };

export type NetworkPolicy =
  | { kind: 'none' }
  /** Only through Yoke's filtering proxy, reached over this Unix socket. */
  | { kind: 'proxy'; socketPath: string };

export type SandboxPolicy = {
  /** Writable folders, real paths. */
  writable: readonly PolicyPath[];
  /** Inside a writable folder, bound read-only — or blocked from being created when missing. */
  readOnly: readonly ReadOnlyPath[];
  /** The writable folders that may be repositories (the project, added folders): their `.git`. */
  repositories: readonly string[];
  /** The literal paths Edit deny rules name, writable or not: their copies' twins are read-only. */
  editDenied: readonly PolicyPath[];
  /** Patterns whose matches are masked (empty folder or empty file). */
  hidden: readonly (ResolvedPattern & { why: string })[];
  /** Inside a masked folder, readable again (`sandbox.filesystem.allowRead`). */
  readableAgain: readonly string[];
  /** Unix sockets bound into the private /run, /var/run, /tmp; the seccomp filter is off when set. */
  unixSockets: readonly string[];
  network: NetworkPolicy;
  /** The session's temp folder: writable, and TMPDIR inside. */
  tempDir: string;
};

export type PolicyInput = {
  projectRoot: string;
  additionalDirs: readonly string[];
  tempDir: string;
  home: string;
  config: SandboxConfig;
  /** The permission rules in force: deny `Read(…)` rules mask, deny `Edit(…)` rules make read-only. */
  rules: readonly PermissionRule[];
  /** Files and folders whose writes decide what runs later (protected-paths.ts). */
  protectedPaths: readonly PolicyPath[];
  network: NetworkPolicy;
};

/**
 * Inside a project folder, what Yoke and other tools read as configuration or run as code (the
 * `.git` entries are in git-protection.ts). Left out after a real run showed a planted one runs
 * nothing by itself: `.gitattributes` (it only picks among drivers a config defines — with none,
 * `* filter=x diff=x` runs nothing), `.gitmodules` (git refuses `update = !command` from it) and
 * `.envrc` (direnv refuses a new or changed file until `direnv allow`, kept outside the project).
 */
export const PROJECT_PROTECTED: readonly { name: string; why: string; whenMissing: WhenMissing }[] = [
  { name: '.yoke', why: "Yoke's project settings, commands and agents live there", whenMissing: 'block' },
  {
    name: '.claude',
    why: 'its settings decide permission rules and hooks; its commands, agents and skills run later',
    whenMissing: 'block',
  },
  { name: '.mcp.json', why: 'it names the MCP servers Yoke starts', whenMissing: 'block' },
  // Husky's hooks run only through a core.hooksPath the (protected) git config names, which is
  // protected as it is named; a new `.husky` folder is used by nothing.
  { name: '.husky', why: 'husky installs it as a git hook', whenMissing: 'nothing' },
  { name: '.vscode', why: 'VS Code runs its tasks and launch configurations', whenMissing: 'block' },
];

/** The real path, or for a path that does not exist yet, its real parent joined with the rest. */
export function realOrLexical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = join(path, '..');
    if (parent === path) return path;
    return join(realOrLexical(parent), path.slice(parent.length + (parent.endsWith('/') ? 0 : 1)));
  }
}

function settingsPath(entry: SettingsPath, projectRoot: string, home: string): string {
  const path = entry.path.startsWith('//') ? entry.path.slice(1) : entry.path;
  return realOrLexical(resolveUserPath(path, projectRoot, home));
}

export function buildPolicy(input: PolicyInput): SandboxPolicy {
  const { projectRoot, home, config } = input;
  const roots = { projectRoot, cwd: projectRoot, home };
  const writable: PolicyPath[] = [
    { path: realOrLexical(projectRoot), why: 'the project' },
    ...input.additionalDirs.map((dir) => ({ path: realOrLexical(dir), why: 'an added directory' })),
    { path: realOrLexical(input.tempDir), why: "the session's temp folder" },
    ...config.allowWrite.map((entry) => ({
      path: settingsPath(entry, projectRoot, home),
      why: 'sandbox.filesystem.allowWrite',
    })),
  ];
  const insideWritable = (path: string) => writable.some((root) => isWithin(path, root.path));

  const readOnly: ReadOnlyPath[] = [];
  const addReadOnly = (path: string, why: string, whenMissing: WhenMissing = 'block') => {
    if (insideWritable(path) && !readOnly.some((entry) => entry.path === path))
      readOnly.push({ path, why, whenMissing });
  };
  // The project folders themselves, then every added folder: each can be a repository.
  const repositories = writable.slice(0, 1 + input.additionalDirs.length).map((root) => root.path);
  for (const root of repositories) {
    for (const { name, why, whenMissing } of GIT_PROTECTED)
      addReadOnly(join(root, '.git', name), why, whenMissing);
    for (const { name, why, whenMissing } of PROJECT_PROTECTED)
      addReadOnly(join(root, name), why, whenMissing);
  }
  for (const { path, why } of input.protectedPaths) addReadOnly(realOrLexical(path), why);
  for (const entry of config.denyWrite)
    addReadOnly(settingsPath(entry, projectRoot, home), 'sandbox.filesystem.denyWrite');
  const editDenied: PolicyPath[] = [];
  for (const rule of input.rules) {
    if (rule.behavior !== 'deny' || rule.toolName !== 'Edit' || !rule.ruleContent) continue;
    const resolved = resolvePathPattern(rule.ruleContent, rule.source, roots);
    // Only literal paths can be bound; a glob deny on edits stays with the permission rules.
    if (resolved.anchored && !/[*?[]/.test(resolved.pattern)) {
      const path = realOrLexical(join(resolved.base, resolved.pattern));
      const why = `the deny rule Edit(${rule.ruleContent})`;
      editDenied.push({ path, why });
      addReadOnly(path, why);
    }
  }

  const hidden: SandboxPolicy['hidden'][number][] = [];
  const hide = (resolved: ResolvedPattern, why: string) => {
    // The literal folders of the pattern become its base, so the base can be a real path.
    const literal = withLiteralBase(resolved);
    hidden.push({ ...literal, base: realOrLexical(literal.base), why });
  };
  for (const rule of input.rules) {
    if (rule.behavior !== 'deny' || rule.toolName !== 'Read' || !rule.ruleContent) continue;
    hide(resolvePathPattern(rule.ruleContent, rule.source, roots), `the deny rule Read(${rule.ruleContent})`);
  }
  for (const entry of config.denyRead) {
    // Settings paths are absolute, `~/…`, or relative to the project (not rule syntax).
    const content = entry.path.startsWith('/')
      ? `//${entry.path.replace(/^\/+/, '')}`
      : entry.path.startsWith('~')
        ? entry.path
        : `./${entry.path}`;
    hide(resolvePathPattern(content, entry.source, roots), 'sandbox.filesystem.denyRead');
  }

  return {
    writable,
    readOnly,
    repositories,
    editDenied,
    hidden,
    readableAgain: config.allowRead.map((entry) => settingsPath(entry, projectRoot, home)),
    unixSockets: config.allowUnixSockets.map((path) =>
      realOrLexical(resolveUserPath(path, projectRoot, home)),
    ),
    network: input.network,
    tempDir: realOrLexical(input.tempDir),
  };
}
