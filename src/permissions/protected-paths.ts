/**
 * The files that decide what Yoke, git or the shell will run. A write to one of them always asks
 * (every mode but `bypassPermissions`), whether by Write/Edit or by the shell, because writing it
 * is running code later without anyone seeing that code: a `.git/hooks/pre-commit` runs on the next
 * commit, a `core.fsmonitor` in `.git/config` on the next `git status`, a hook script on the next
 * tool call. Each entry below was checked for real in a scratch folder (see the corpus test).
 *
 * Who may lift the protection: a rule the model cannot have written. User settings, managed
 * policy and the `--settings` file (their files are on the list, so writing them asks),
 * `--allowedTools` (typed by the user or the SDK host) and session rules (an "always allow" the person answered, for exactly what was
 * shown) lift it; project and local settings do not — both live in the folder the model edits and
 * a repository may ship them. The rule must name the file: `Edit(//abs/path)`, `Edit(~/.bashrc)`,
 * or an exact `Bash(…)` rule that spells out the command that writes it. A bare `Edit` or a prefix
 * rule like `Bash(cp:*)` allows ordinary edits, not these. A hook's `allow` (PreToolUse or
 * PermissionRequest) still counts: a hook that runs is code that could write the file itself.
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { isWithin } from './path-rules';
import type { PermissionRule, RuleSource } from './types';
import { hasPattern, writeCandidates } from './write-candidates';

/** A protected file a call writes (as shown to the user), and the one-line reason it asks. */
export type ProtectedWrite = { target: string; reason: string };

/** The session's fixed facts: where the user-level config lives and what the settings name. */
export type ProtectedPathsConfig = {
  home: string;
  /** `$YOKE_HOME` (when set) besides `~/.yoke`. */
  yokeHome?: string;
  /** `$CLAUDE_CONFIG_DIR` (when set) besides `~/.claude`. */
  claudeHome?: string;
  /** `$XDG_CONFIG_HOME` (when set) besides `~/.config`. */
  xdgConfigHome?: string;
  /** Absolute paths of the scripts configured hooks run (see hook-scripts.ts). */
  hookScripts?: readonly string[];
  /** Other files that configure this session (`--settings <file>`), absolute. */
  settingsFiles?: readonly string[];
  /** The managed policy file. */
  policyFile?: string;
};

const SETTINGS_WHY = "settings decide Yoke's permission rules and hooks";

const LIFTING_SOURCES: ReadonlySet<RuleSource> = new Set([
  'policySettings',
  'userSettings',
  'flagSettings',
  'cliArg',
  'session',
]);

/** Whether an allow rule from this source may lift the protection (see the header). */
export const liftsProtection = (rule: PermissionRule): boolean => LIFTING_SOURCES.has(rule.source);

/** Shell start-up files, relative to the home directory: each shell runs them as code. */
const SHELL_STARTUP_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.mkshrc',
  '.cshrc',
  '.tcshrc',
  '.login',
  '.logout',
];

/**
 * Project-defined scripts: when an allow rule lets one of these commands run, the files that
 * define what it runs are protected (an edit to `package.json` plus an allowed `npm test` runs
 * anything). Names are compared in lower case.
 */
const SCRIPT_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  npm: ['package.json', '.npmrc'],
  pnpm: ['package.json', '.npmrc', 'pnpm-workspace.yaml', '.pnpmfile.cjs'],
  yarn: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml'],
  bun: ['package.json', '.npmrc', 'bunfig.toml'],
  deno: ['deno.json', 'deno.jsonc'],
  make: ['makefile', 'gnumakefile'],
  gmake: ['makefile', 'gnumakefile'],
  just: ['justfile', '.justfile'],
  task: ['taskfile.yml', 'taskfile.yaml', 'taskfile.dist.yml', 'taskfile.dist.yaml'],
  tox: ['tox.ini', 'tox.toml', 'setup.cfg', 'pyproject.toml'],
  nox: ['noxfile.py'],
};

/** Which runners an allow rule may start, from the words of its specifier (over-approximated). */
function runnersAllowedBy(rule: PermissionRule): string[] {
  if (rule.behavior !== 'allow' || rule.toolName !== 'Bash') return [];
  const runners = Object.keys(SCRIPT_RUNNERS);
  if (rule.ruleContent === undefined) return runners;
  const words = rule.ruleContent.split(/\s+/).filter((w) => w !== '');
  const found = new Set<string>();
  // `node --run` runs package.json scripts like npm does.
  if (words.some((w) => /(^|\/)node$/.test(w)) && words.includes('--run')) found.add('npm');
  for (const word of words) {
    const bare = word.replace(/:\*$/, '*');
    const name = bare.slice(bare.lastIndexOf('/') + 1).toLowerCase();
    const star = name.indexOf('*');
    // Wrappers (`timeout 60 make`) are covered too: every word is looked at, and a wildcard
    // word may be any runner its literal start allows: `*`, `np*`, `ma*e`.
    for (const runner of runners) {
      if (star < 0 ? runner === name : runner.startsWith(name.slice(0, star))) found.add(runner);
    }
  }
  return [...found];
}

/** The script-definition files the current allow rules make dangerous, by lower-case name. */
function scriptDefinitions(rules: readonly PermissionRule[]): Map<string, PermissionRule> {
  const files = new Map<string, PermissionRule>();
  for (const rule of rules) {
    for (const runner of runnersAllowedBy(rule)) {
      for (const file of SCRIPT_RUNNERS[runner] ?? []) if (!files.has(file)) files.set(file, rule);
    }
  }
  return files;
}

/** Names a glob component is tried against: every protected name that is not a pattern itself. */
const FIXED_NAMES = [
  '.git',
  '.yoke',
  '.claude',
  'settings.json',
  'settings.local.json',
  'agents',
  'commands',
  'skills',
  '.mcp.json',
  '.gitattributes',
  '.gitmodules',
  '.envrc',
  '.husky',
  '.vscode',
  '.idea',
  '.devcontainer',
  '.pre-commit-config.yaml',
  '.gitconfig',
  '.claude.json',
  '.config',
  'fish',
  'git',
  ...SHELL_STARTUP_FILES,
  ...new Set(Object.values(SCRIPT_RUNNERS).flat()),
];

const describe = (rule: PermissionRule) =>
  `${rule.ruleContent === undefined ? rule.toolName : `${rule.toolName}(${rule.ruleContent})`}`;

/**
 * The folder of Yoke's and Claude Code's extensions a path lies in (`.claude/agents/…`,
 * `.yoke/skills/…`), if any. Their files decide what runs later as settings do: an agent's
 * `hooks` and `mcpServers` run when it starts (headless even in a folder not trusted), a command's
 * or skill's `allowed-tools` let its calls run unasked and its `hooks` run when it is used.
 */
function extensionFolder(parts: readonly string[]): 'agents' | 'commands' | 'skills' | undefined {
  for (let i = 0; i + 2 < parts.length; i++) {
    const folder = parts[i + 1];
    if (parts[i] !== '.yoke' && parts[i] !== '.claude') continue;
    if (folder === 'agents' || folder === 'commands' || folder === 'skills') return folder;
  }
  return undefined;
}

/** Why the folder-independent names are protected: any `.git`, settings, hooks of other tools. */
function projectNameReason(parts: readonly string[]): string | undefined {
  const name = parts.at(-1) ?? '';
  const parent = parts.at(-2) ?? '';
  if (parts.includes('.git')) return 'git runs the hooks and config kept under .git';
  if ((parent === '.yoke' || parent === '.claude') && /^settings.*\.json$/.test(name)) return SETTINGS_WHY;
  if (name === '.mcp.json') return 'it names the MCP servers Yoke starts';
  const extension = extensionFolder(parts);
  if (extension === 'agents')
    return 'an agent file names hooks and MCP servers that run when the agent starts, and its permission mode';
  if (extension)
    return `a ${extension === 'skills' ? 'skill' : 'command'} file grants tools (allowed-tools) and names hooks that run when it is used`;
  if (name === '.gitattributes') return 'it chooses git filters and diff drivers, which run programs';
  if (name === '.gitmodules') return 'it decides which repositories git fetches into the tree';
  if (name === '.envrc') return 'direnv runs it when a shell enters the folder';
  if (parts.includes('.husky')) return 'husky installs it as a git hook';
  if (name === '.pre-commit-config.yaml') return 'pre-commit runs the hooks it names on the next git commit';
  // Editors' project folders: what they hold runs when the folder opens or a task starts, unseen.
  if (parts.includes('.vscode'))
    return 'VS Code runs the tasks, launch configurations and tool paths kept there, some when the folder opens';
  if (parts.includes('.idea'))
    return 'JetBrains IDEs run the run configurations and startup tasks kept there';
  if (parts.includes('.devcontainer'))
    return 'a dev container runs the commands its configuration names, on this machine too';
  return undefined;
}

/** Project-level entries a link may point elsewhere: their targets are protected as well. */
const PROJECT_LINKS: readonly { name: string; kind: 'dir' | 'settingsDir' | 'file' }[] = [
  { name: '.git', kind: 'dir' },
  { name: '.husky', kind: 'dir' },
  { name: '.yoke', kind: 'settingsDir' },
  { name: '.claude', kind: 'settingsDir' },
  { name: '.vscode', kind: 'dir' },
  { name: '.idea', kind: 'dir' },
  { name: '.devcontainer', kind: 'dir' },
  { name: '.pre-commit-config.yaml', kind: 'file' },
  { name: '.mcp.json', kind: 'file' },
  { name: '.gitattributes', kind: 'file' },
  { name: '.gitmodules', kind: 'file' },
  { name: '.envrc', kind: 'file' },
];

/**
 * The protected-file list of one session. `why(path, rules)` says why writing `path` needs the
 * user's consent, or undefined. `rules` are the rules in force (session rules included), since an
 * allowed `npm test` is what makes `package.json` dangerous.
 */
export class ProtectedPaths {
  private readonly files = new Map<string, string>();
  private readonly dirs: { dir: string; why: string }[] = [];
  /** Folders whose `settings*.json` are settings: Claude Code's user folder, linked `.yoke`/`.claude`. */
  private readonly settingsDirs: { dir: string; why: string }[] = [];

  constructor(config: ProtectedPathsConfig) {
    const home = config.home;
    for (const dir of unique([join(home, '.yoke'), config.yokeHome]))
      this.dirs.push({ dir, why: "Yoke's user settings and state live there" });
    for (const dir of unique([join(home, '.claude'), config.claudeHome]))
      this.settingsDirs.push({ dir, why: "Claude Code's user settings decide permission rules and hooks" });
    for (const dir of unique([join(home, '.config'), config.xdgConfigHome])) {
      this.dirs.push({ dir: join(dir, 'fish'), why: 'fish runs its config at start-up' });
      this.dirs.push({ dir: join(dir, 'git'), why: "git's user config can make git run programs" });
    }
    for (const file of SHELL_STARTUP_FILES) this.files.set(join(home, file), 'the shell runs it at start-up');
    this.files.set(join(home, '.gitconfig'), "git's user config can make git run programs");
    for (const dir of unique([home, config.claudeHome]))
      this.files.set(join(dir, '.claude.json'), 'it records which folders are trusted');
    for (const file of config.hookScripts ?? []) this.files.set(file, 'a configured hook runs it');
    for (const file of config.settingsFiles ?? [])
      this.files.set(file, 'it is a settings file this session loaded');
    if (config.policyFile)
      this.dirs.push({ dir: dirname(config.policyFile), why: 'managed policy settings live there' });
  }

  /**
   * Adds the targets of protected entries that are symbolic links (`~/.bashrc` kept in a dotfiles
   * folder, a `.claude` folder linked to a shared one), so the file is protected under the name
   * it really has too. `projectRoot`'s own entries (`.git`, `.yoke`, …) are looked at as well.
   */
  async addLinkTargets(projectRoot: string): Promise<void> {
    const real = (path: string) => realpath(path).catch(() => path);
    const project = PROJECT_LINKS.map((entry) => ({ ...entry, path: join(projectRoot, entry.name) }));
    const files = [...this.files].map(([path, why]) => ({ path, why }));
    await Promise.all([
      ...files.map(async ({ path, why }) => {
        const target = await real(path);
        if (target !== path) this.files.set(target, why);
      }),
      ...[...this.dirs].map(async ({ dir, why }) => {
        const target = await real(dir);
        if (target !== dir) this.dirs.push({ dir: target, why });
      }),
      ...[...this.settingsDirs].map(async ({ dir, why }) => {
        const target = await real(dir);
        if (target !== dir) this.settingsDirs.push({ dir: target, why });
      }),
      ...project.map(async ({ path, name, kind }) => {
        const target = await real(path);
        if (target === path) return;
        const why = projectNameReason(name.split('/')) ?? SETTINGS_WHY;
        if (kind === 'file') this.files.set(target, why);
        else if (kind === 'dir') this.dirs.push({ dir: target, why });
        else this.settingsDirs.push({ dir: target, why: SETTINGS_WHY });
      }),
    ]);
  }

  /**
   * The files and folders named outright (not the names matched anywhere), with their reasons:
   * what the shell sandbox binds read-only when they lie inside a writable folder.
   */
  listed(): { path: string; why: string }[] {
    return [
      ...[...this.files].map(([path, why]) => ({ path, why })),
      ...this.dirs.map(({ dir, why }) => ({ path: dir, why })),
      ...this.settingsDirs.flatMap(({ dir, why }) =>
        ['settings.json', 'settings.local.json'].map((name) => ({ path: join(dir, name), why })),
      ),
    ];
  }

  why(path: string, rules: readonly PermissionRule[] = []): string | undefined {
    const exact = this.files.get(path);
    if (exact) return exact;
    for (const { dir, why } of this.dirs) if (isWithin(path, dir)) return why;
    const name = basename(path).toLowerCase();
    if (/^settings.*\.json$/.test(name)) {
      const settingsDir = this.settingsDirs.find(({ dir }) => dirname(path) === dir);
      if (settingsDir) return settingsDir.why;
    }
    // Case-folded: on a case-insensitive disk `.GIT/hooks` is `.git/hooks`.
    const parts = path.split(sep).map((part) => part.toLowerCase());
    const reason = projectNameReason(parts);
    if (reason) return reason;
    const runnerRule = scriptDefinitions(rules).get(name);
    if (runnerRule) return `the allowed ${describe(runnerRule)} runs what it defines`;
    return undefined;
  }

  /**
   * Like `why`, for a target the shell expands (`src/{a,b}`, `.gi?/hooks/x`): protected when any
   * file it may name is. Too many possibilities to list counts as protected.
   */
  whyPattern(path: string, rules: readonly PermissionRule[] = []): string | undefined {
    if (!hasPattern(path)) return this.why(path, rules);
    const names = [
      ...FIXED_NAMES,
      ...[...this.files.keys(), ...this.dirs.map((d) => d.dir)].map((p) => basename(p)),
    ];
    const candidates = writeCandidates(path, names);
    if (!candidates) return 'it expands to too many files to check';
    for (const candidate of candidates) {
      const why = this.why(candidate, rules);
      if (why) return why;
    }
    return undefined;
  }
}

function unique(paths: readonly (string | undefined)[]): string[] {
  return [...new Set(paths.filter((p): p is string => p !== undefined && p !== ''))];
}

/** The list every evaluation falls back to: the user folders under `home`, no hooks known. */
export function defaultProtectedPaths(home: string = homedir()): ProtectedPaths {
  return new ProtectedPaths({ home });
}
