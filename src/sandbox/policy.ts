/**
 * The sandbox policy of a session, built from data: the folders the command may write (the
 * project, `--add-dir` folders, the session's temp folder, `sandbox.filesystem.allowWrite`), the
 * protected files inside them that stay read-only, the secrets that are masked, and the way out to
 * the network. Paths are real paths (symlinks resolved), because a mount follows links: masking
 * `~/.ssh` when it links to `/data/keys` must mask `/data/keys`.
 *
 * The policy is fixed for the session; which of its paths exist is looked at per command
 * (mount-plan.ts), so a `.git` created later is protected from then on.
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
import type { SandboxConfig, SettingsPath } from './settings';

/** A path with the one-line reason the sandbox treats it specially. */
export type PolicyPath = { path: string; why: string };

export type NetworkPolicy =
  | { kind: 'none' }
  /** Only through Yoke's filtering proxy, reached over this Unix socket. */
  | { kind: 'proxy'; socketPath: string };

export type SandboxPolicy = {
  /** Writable folders, real paths. */
  writable: readonly PolicyPath[];
  /** Inside a writable folder, bound read-only — or blocked from being created when missing. */
  readOnly: readonly PolicyPath[];
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
 * Inside a project, what git, Yoke and other tools read as configuration or run as code.
 * In `.git` only what runs code is read-only (hooks, config, a `commondir` that redirects them,
 * submodule repositories), so `git add` and `git commit` still work sandboxed.
 */
const PROJECT_PROTECTED: readonly { name: string; why: string }[] = [
  { name: '.git/hooks', why: 'git runs its hooks' },
  { name: '.git/config', why: 'git config can make git run programs' },
  { name: '.git/config.worktree', why: 'git config can make git run programs' },
  { name: '.git/commondir', why: 'it moves where git reads its hooks and config' },
  { name: '.git/modules', why: 'submodule repositories have hooks and config of their own' },
  { name: '.yoke', why: "Yoke's project settings, commands and agents live there" },
  { name: '.claude/settings.json', why: 'settings decide permission rules and hooks' },
  { name: '.claude/settings.local.json', why: 'settings decide permission rules and hooks' },
  { name: '.mcp.json', why: 'it names the MCP servers Yoke starts' },
  { name: '.gitattributes', why: 'it chooses git filters and diff drivers, which run programs' },
  { name: '.gitmodules', why: 'it decides which repositories git fetches into the tree' },
  { name: '.envrc', why: 'direnv runs it when a shell enters the folder' },
  { name: '.husky', why: 'husky installs it as a git hook' },
  { name: '.vscode/tasks.json', why: 'VS Code runs its tasks, some when the folder opens' },
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

  const readOnly: PolicyPath[] = [];
  const addReadOnly = (path: string, why: string) => {
    if (insideWritable(path) && !readOnly.some((entry) => entry.path === path)) readOnly.push({ path, why });
  };
  // The project folders themselves, then every added folder: each can be a repository.
  for (const root of writable.slice(0, 1 + input.additionalDirs.length)) {
    for (const { name, why } of PROJECT_PROTECTED) addReadOnly(join(root.path, name), why);
  }
  for (const { path, why } of input.protectedPaths) addReadOnly(realOrLexical(path), why);
  for (const entry of config.denyWrite)
    addReadOnly(settingsPath(entry, projectRoot, home), 'sandbox.filesystem.denyWrite');
  for (const rule of input.rules) {
    if (rule.behavior !== 'deny' || rule.toolName !== 'Edit' || !rule.ruleContent) continue;
    const resolved = resolvePathPattern(rule.ruleContent, rule.source, roots);
    // Only literal paths can be bound; a glob deny on edits stays with the permission rules.
    if (resolved.anchored && !/[*?[]/.test(resolved.pattern))
      addReadOnly(
        realOrLexical(join(resolved.base, resolved.pattern)),
        `the deny rule Edit(${rule.ruleContent})`,
      );
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
    hidden,
    readableAgain: config.allowRead.map((entry) => settingsPath(entry, projectRoot, home)),
    unixSockets: config.allowUnixSockets.map((path) =>
      realOrLexical(resolveUserPath(path, projectRoot, home)),
    ),
    network: input.network,
    tempDir: realOrLexical(input.tempDir),
  };
}
