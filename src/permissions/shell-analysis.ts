/**
 * Turns a command line into the units a permission decision is made on: every simple command the
 * shell would run (across operators, subshells, substitutions, control flow), with wrappers
 * (`timeout`, `xargs`, `find -exec`, `env`, `sudo`) opened so the command they run is a unit too,
 * and code strings (`eval`, `sh -c`) parsed for deny checks. Built on the real tree-sitter parse.
 */
import { homedir, tmpdir } from 'node:os';
import {
  builtinCodeStrings,
  builtinReason,
  commandBaseName,
  dangerousEnvReason,
  isFileWrite,
  isReadOnlyInvocation,
  isSafeEnvAssignment,
  nestedCommands,
  type ParsedCommand,
  parseCommand,
  readOnlyCategory,
  type SegmentKind,
  type ShellRedirect,
  type ShellWord,
} from '../services/bash-parser';
import type { GitConfigSafety, GitConfigVerdict } from './git-config-safety';
import { gitTargetDirectory } from './git-target';
import { resolveUserPath } from './path-rules';
import {
  destructiveWarning,
  FILE_WRITING_COMMANDS,
  hasNonAsciiName,
  isBlockDevice,
  isForkBomb,
  writtenPathArgs,
} from './shell-danger';
import { settingReason, variablesSetBy } from './shell-variables';

/** A path a unit touches; `path` is absolute, or undefined when only the running shell knows it. */
export type TouchedPath = { path?: string; text: string; viaRedirect: boolean };

export type ShellUnit = {
  kind: SegmentKind;
  argv: ShellWord[];
  /** The name rules and tables use (`/usr/bin/ls` → `ls`; a local `./rm` has none). */
  name?: string;
  /** The name deny rules match: the last path component of any spelling, NFKC-folded. */
  denyName?: string;
  /** The command as shown to the user and used for exact suggestions (env prefix removed). */
  text: string;
  env: Array<{ name: string; value: ShellWord }>;
  redirects: ShellRedirect[];
  /**
   * Why this unit runs code no prefix rule can vouch for (`eval`, `sh -c`, `exec`, `source`, or
   * a value evaluated as code: `[[ $x -eq 1 ]]`, `${a[$i]}`, `printf -v "$n"`).
   */
  evalLike?: string;
  /** A word holds `$(…)`, backticks or `<(…)`: what runs depends on another command's output. */
  substitution: boolean;
  /** The command was named by a path (`/bin/rm`, `./x`): allow rules never match it by base name. */
  pathName: boolean;
  nonAsciiName: boolean;
  /**
   * Why the environment this unit runs with (or sets for what follows: `export PAGER=…`,
   * `read LD_PRELOAD`) can change which code runs, as one readable line.
   */
  dangerousEnv?: string;
  destructive?: string;
  /** Only searches, reads or lists (by the bash-parser's tables), with no file-writing redirect. */
  readOnly: boolean;
  /** The command itself only reads; its redirects may still write (`ls > out.txt`). */
  readOnlyCommand: boolean;
  /**
   * Why a command whose arguments are read-only is not read-only here: git on a repository whose
   * own configuration can run programs (or whose configuration could not be checked).
   */
  readOnlyBlocker?: string;
  /** mkdir/touch/mv/cp/… or `sed -i`: what acceptEdits treats as a file edit. */
  fileWriting: boolean;
  reads: TouchedPath[];
  writes: TouchedPath[];
  /** Commands this wrapper runs directly; they must be allowed too. */
  children: ShellUnit[];
  /** Commands inside a code string (`bash -c '…'`); looked at for deny rules only. */
  scriptChildren: ShellUnit[];
};

export type ShellAnalysis = {
  source: string;
  parseError: boolean;
  units: ShellUnit[];
  hasSubstitution: boolean;
  forkBomb: boolean;
};

export type ShellAnalysisOptions = {
  cwd: string;
  home?: string;
  tempDirs?: readonly string[];
  /** The session's check of git repository configuration; without it git is never read-only. */
  gitConfig?: GitConfigSafety;
};

const MAX_DEPTH = 4;
const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas', 'pkexec']);
const SUDO_WITH_VALUE = new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U']);
/** Wrappers whose own behaviour adds nothing: the unit is allowed when what they run is. */
const TRANSPARENT_WRAPPERS = new Set([
  'timeout',
  'nice',
  'time',
  'stdbuf',
  'nohup',
  'command',
  'builtin',
  'env',
  'xargs',
]);

export const defaultTempDirs = (): string[] => [...new Set(['/tmp', '/var/tmp', tmpdir()])];

class Analyzer {
  private readonly home: string;
  private readonly tempDirs: readonly string[];
  /** One answer per directory for the whole line: `git status && git log` asks git once. */
  private readonly gitVerdicts = new Map<string, Promise<GitConfigVerdict>>();
  constructor(private readonly options: ShellAnalysisOptions) {
    this.home = options.home ?? homedir();
    this.tempDirs = options.tempDirs ?? defaultTempDirs();
  }

  private resolve = (path: string) => resolveUserPath(path, this.options.cwd, this.home);

  /**
   * Why `git <args>`, run in `directory`, is not read-only although its arguments are: the
   * repository it would use has configuration that can run a program. An unknown directory, or
   * one git is pointed away from with `--git-dir`/`--work-tree`, cannot be checked.
   */
  private async gitRepositoryBlocker(
    args: readonly ShellWord[],
    directory: string | undefined,
  ): Promise<string | undefined> {
    const target = gitTargetDirectory(args, directory, this.resolve);
    if (typeof target !== 'string') return target.unknown;
    const check = this.options.gitConfig;
    if (!check)
      return 'git is not read-only here: its repository was not checked for settings that run programs';
    let verdict = this.gitVerdicts.get(target);
    if (!verdict) {
      verdict = check.check(target);
      this.gitVerdicts.set(target, verdict);
    }
    const result = await verdict;
    return result.harmless ? undefined : `git is not read-only here: ${result.reason}`;
  }

  private touched(word: ShellWord, viaRedirect: boolean): TouchedPath {
    if (word.dynamic || (word.tilde && !/^~(\/|$)/.test(word.value))) return { text: word.text, viaRedirect };
    return { path: this.resolve(word.value), text: word.text, viaRedirect };
  }

  async units(parsed: ParsedCommand, depth: number): Promise<ShellUnit[]> {
    const out: ShellUnit[] = [];
    // A variable set earlier in the line (`export PAGER=…; git log`) reaches what runs after it.
    let taint: string | undefined;
    for (const segment of parsed.segments) {
      const unit = await this.unit(
        segment.kind,
        segment.argv,
        segment.assignments,
        segment.redirects,
        depth,
        segment.evaluates,
      );
      const sets = variablesSetBy(segment.kind, segment.argv, segment.assignments, segment.loopVariable);
      const setsDangerous = sets.map(settingReason).find(Boolean);
      if (setsDangerous) unit.dangerousEnv ??= setsDangerous;
      if (taint && unit.kind === 'command') unit.dangerousEnv ??= `${taint}, set earlier in the line`;
      taint ??= setsDangerous;
      if (unit.dangerousEnv) unit.readOnly = unit.readOnlyCommand = false;
      out.push(unit);
    }
    return out;
  }

  async unit(
    kind: SegmentKind,
    argv: ShellWord[],
    env: Array<{ name: string; value: ShellWord }>,
    redirects: ShellRedirect[],
    depth: number,
    evaluates?: string,
  ): Promise<ShellUnit> {
    const first = argv[0];
    const name = kind === 'command' ? commandBaseName(first) : undefined;
    const raw = first?.value ?? '';
    const args = argv.slice(1);
    const unit: ShellUnit = {
      kind,
      argv,
      text: argv.map((w) => w.text).join(' '),
      env,
      redirects,
      substitution: argv.some((w) => w.substitution) || env.some((e) => e.value.substitution === true),
      pathName: raw.includes('/'),
      nonAsciiName: hasNonAsciiName(raw),
      readOnly: false,
      readOnlyCommand: false,
      fileWriting: false,
      reads: [],
      writes: [],
      children: [],
      scriptChildren: [],
    };
    if (kind === 'command' && first && !first.dynamic)
      unit.denyName = raw.slice(raw.lastIndexOf('/') + 1).normalize('NFKC');
    if (name) unit.name = name;
    const risky = env.map((e) => dangerousEnvReason(e.name, e.value)).find(Boolean);
    if (risky) unit.dangerousEnv = risky;
    const evaluated =
      evaluates ?? (kind === 'command' || kind === 'declaration' ? builtinReason(argv) : undefined);
    if (evaluated) unit.evalLike = evaluated;

    for (const redirect of redirects) {
      if (!redirect.target || redirect.kind === 'dup' || redirect.kind === 'close') continue;
      if (isFileWrite(redirect)) unit.writes.push(this.touched(redirect.target, true));
      else if (redirect.kind === 'read') unit.reads.push(this.touched(redirect.target, true));
    }
    if (kind !== 'command' || !first) {
      unit.readOnlyCommand =
        env.every((e) => isSafeEnvAssignment(e.name, e.value)) && !risky && !unit.evalLike;
      unit.readOnly = unit.readOnlyCommand && unit.writes.length === 0;
      return unit;
    }

    const values = args.map((w) => w.value);
    const unknownArgs = args.some((w) => w.dynamic || w.glob);
    const warnName = name ?? unit.denyName ?? '';
    const warning = destructiveWarning(warnName, values, unknownArgs, {
      cwd: this.options.cwd,
      tempDirs: this.tempDirs,
      resolve: this.resolve,
    });
    if (warning) unit.destructive = warning;
    const written = new Set(writtenPathArgs(warnName, values));
    for (const word of args) {
      if (written.has(word.value)) unit.writes.push(this.touched(word, false));
    }
    if (unit.writes.some((w) => w.path !== undefined && isBlockDevice(w.path)))
      unit.destructive ??= 'writes to a block device, which can destroy a disk';
    unit.fileWriting =
      FILE_WRITING_COMMANDS.has(warnName) ||
      (written.size > 0 && (warnName === 'sed' || warnName === 'perl'));
    if (readOnlyCategory(warnName) !== 'neutral') {
      for (const word of args) {
        const eq = word.value.indexOf('=');
        const isOption = word.value.startsWith('-');
        if (isOption && !(eq > 0 && /^[~./]/.test(word.value.slice(eq + 1)))) continue;
        const target = isOption
          ? { ...word, value: word.value.slice(eq + 1), tilde: word.value[eq + 1] === '~' }
          : word;
        unit.reads.push(this.touched(target, false));
      }
    }

    if (name && PRIVILEGE_WRAPPERS.has(name)) {
      unit.evalLike = `${name} runs a command as another user`;
      let i = 0;
      while (i < args.length && (args[i] as ShellWord).value.startsWith('-'))
        i += SUDO_WITH_VALUE.has((args[i] as ShellWord).value) ? 2 : 1;
      if (i < args.length && depth < MAX_DEPTH)
        unit.scriptChildren.push(await this.unit('command', args.slice(i), [], [], depth + 1));
    }
    if (name === 'exec') unit.evalLike = 'exec replaces the shell with another program';
    // `trap 'rm -rf x' EXIT`: the code runs later, but deny rules must see it now.
    for (const code of depth < MAX_DEPTH ? builtinCodeStrings(argv) : []) {
      unit.scriptChildren.push(...(await this.units(await parseCommand(code), depth + 1)));
    }
    for (const nested of name ? nestedCommands(argv, redirects) : []) {
      if (nested.kind === 'script') {
        unit.evalLike ??= `${nested.via} runs a code string`;
        if (nested.script !== undefined && depth < MAX_DEPTH) {
          const inner = await parseCommand(nested.script);
          unit.scriptChildren.push(...(await this.units(inner, depth + 1)));
        }
        continue;
      }
      if (depth >= MAX_DEPTH || nested.argv.length === 0) {
        unit.evalLike ??= `${nested.via} nests too deeply to check`;
        continue;
      }
      const child = await this.unit('command', nested.argv, nested.env, [], depth + 1);
      // `xargs sh -c …` and `env … sh -c` run code strings: the wrapper inherits that.
      if (child.evalLike) unit.evalLike ??= `${nested.via} runs ${child.evalLike}`;
      unit.children.push(child);
    }
    const transparent = name !== undefined && TRANSPARENT_WRAPPERS.has(name) && unit.children.length > 0;
    const envSafe = env.every((e) => isSafeEnvAssignment(e.name, e.value));
    unit.readOnlyCommand =
      envSafe &&
      !unit.evalLike &&
      unit.writes.every((w) => w.viaRedirect) &&
      name !== undefined &&
      (transparent
        ? unit.children.every((c) => c.readOnly)
        : isReadOnlyInvocation(name, args) && unit.children.every((c) => c.readOnly));
    if (name === 'git' && unit.readOnlyCommand) {
      const blocker = await this.gitRepositoryBlocker(args, this.options.cwd);
      if (blocker) {
        unit.readOnlyCommand = false;
        unit.readOnlyBlocker = blocker;
      }
    }
    unit.readOnly = unit.readOnlyCommand && unit.writes.length === 0;
    return unit;
  }
}

/** Wrappers like `timeout`/`xargs` add nothing of their own: rules are checked on what they run. */
export function isTransparentWrapper(unit: ShellUnit): boolean {
  return (
    unit.name !== undefined &&
    TRANSPARENT_WRAPPERS.has(unit.name) &&
    unit.children.length > 0 &&
    !unit.evalLike
  );
}

export async function analyzeShellCommand(
  source: string,
  options: ShellAnalysisOptions,
): Promise<ShellAnalysis> {
  const parsed = await parseCommand(source);
  const analyzer = new Analyzer(options);
  return {
    source,
    parseError: parsed.parseError,
    units: await analyzer.units(parsed, 0),
    hasSubstitution: parsed.hasCommandSubstitution || parsed.hasProcessSubstitution,
    forkBomb: isForkBomb(source),
  };
}

/** Every unit, wrapped and code-string ones included: what deny rules are checked against. */
export function* allUnits(units: readonly ShellUnit[]): Generator<ShellUnit> {
  for (const unit of units) {
    yield unit;
    yield* allUnits(unit.children);
    yield* allUnits(unit.scriptChildren);
  }
}
