/**
 * Turns a command line into the units a permission decision is made on: every simple command the
 * shell would run (across operators, subshells, substitutions, control flow), with wrappers
 * (`timeout`, `xargs`, `find -exec`, `env`, `sudo`) opened so the command they run is a unit too,
 * and code strings (`eval`, `sh -c`) parsed for deny checks. Built on the real tree-sitter parse.
 */
import { homedir, tmpdir } from 'node:os';
import {
  argsWithInput,
  BASH_WRAPPER_COMMANDS,
  builtinCodeStrings,
  builtinReason,
  commandBaseName,
  commandEffects,
  dangerousEnvReason,
  hasWrapperTable,
  type InputWords,
  isFileWrite,
  isSafeEnvAssignment,
  literalWord,
  nestedCommands,
  type ParsedCommand,
  parseCommand,
  readOnlyCategory,
  type SegmentKind,
  type ShellRedirect,
  type ShellWord,
} from '../services/bash-parser';
import { fileEditOf } from './file-edit-commands';
import type { GitConfigSafety, GitConfigVerdict } from './git-config-safety';
import { gitTargetDirectory } from './git-target';
import { resolveUserPath } from './path-rules';
import { diskPathFs, RealPaths } from './real-paths';
import { knownCwd, type ShellCwd } from './shell-cd';
import { cwdOfSegments } from './shell-cwd';
import {
  destructiveWarning,
  hasNonAsciiName,
  isBlockDevice,
  isForkBomb,
  writtenPathArgs,
} from './shell-danger';
import { expansionEnv, ShellPaths, type TouchedPath } from './shell-paths';
import { settingReason, variablesSetBy } from './shell-variables';

export type { ShellCwd } from './shell-cd';
export type { TouchedPath } from './shell-paths';

export type TouchOptions = { recursive?: boolean; namesOnly?: boolean; followsLinks?: boolean };

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
  /** Why the command is not read-only by its option table (`sort -o out writes …`), when it is not. */
  notReadOnly?: string;
  /** Only searches, reads or lists (by the bash-parser's tables), with no file-writing redirect. */
  readOnly: boolean;
  /** The command itself only reads; its redirects may still write (`ls > out.txt`). */
  readOnlyCommand: boolean;
  /**
   * Why a command whose arguments are read-only is not read-only here: git on a repository whose
   * own configuration can run programs (or whose configuration could not be checked).
   */
  readOnlyBlocker?: string;
  /** git prints content of tracked files no read path names (`git log -p`, `git show SHA`). */
  showsRepositoryContent?: boolean;
  /** mkdir/touch/mv/cp/… or a pure `sed -i`: what acceptEdits treats as a file edit (file-edit-commands.ts). */
  fileWriting: boolean;
  reads: TouchedPath[];
  writes: TouchedPath[];
  /** Commands this wrapper runs directly; they must be allowed too. */
  children: ShellUnit[];
  /** Commands inside a code string (`bash -c '…'`); looked at for deny rules only. */
  scriptChildren: ShellUnit[];
  /** The folder(s) the unit runs in, as traced through the line's `cd`s; relative paths use it. */
  cwd: ShellCwd;
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
  /** Resolves symlinks and lists folders for globs (default: the disk). */
  paths?: RealPaths;
  /** The session's check of git repository configuration; without it git is never read-only. */
  gitConfig?: GitConfigSafety;
  /** Judge options against the words globs match on disk now (see `analyzeShellCommand`). */
  globsOnDisk?: boolean;
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
  private readonly paths: RealPaths;
  private readonly shellPaths: ShellPaths;
  private readonly cdpathMentioned: boolean;
  readonly startCwd: ShellCwd;
  /** One answer per directory for the whole line: `git status && git log` asks git once. */
  private readonly gitVerdicts = new Map<string, Promise<GitConfigVerdict>>();

  constructor(
    private readonly options: ShellAnalysisOptions,
    source: string,
  ) {
    this.home = options.home ?? homedir();
    this.tempDirs = options.tempDirs ?? defaultTempDirs();
    this.paths = options.paths ?? new RealPaths(diskPathFs);
    this.startCwd = knownCwd(options.cwd);
    this.cdpathMentioned = /CDPATH/.test(source);
    this.shellPaths = new ShellPaths(this.paths, expansionEnv(source, this.paths.fs, this.home));
  }

  /** The paths a word names from `cwd`; `recursive`: everything below them is read too. */
  private touched(
    word: ShellWord,
    viaRedirect: boolean,
    cwd: ShellCwd,
    options: TouchOptions = {},
  ): TouchedPath[] {
    const touched = this.shellPaths.touched(word, viaRedirect, cwd);
    if (options.recursive)
      for (const path of touched) {
        path.recursive = true;
        if (options.namesOnly) path.namesOnly = true;
        if (options.followsLinks !== undefined) path.followsLinks = options.followsLinks;
      }
    return touched;
  }

  /**
   * Why `git <args>`, run in `directory`, is not read-only although its arguments are: the
   * repository it would use has configuration that can run a program. An unknown directory, or
   * one git is pointed away from with `--git-dir`/`--work-tree`, cannot be checked.
   */
  private async gitRepositoryBlocker(
    args: readonly ShellWord[],
    directory: string | undefined,
  ): Promise<string | undefined> {
    const target = gitTargetDirectory(args, directory, (path) =>
      resolveUserPath(path, directory ?? this.options.cwd, this.home),
    );
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

  /** The blocker for git in every folder the line may have moved it to (`cd a || cd b`). */
  private async gitBlockerIn(args: readonly ShellWord[], cwd: ShellCwd): Promise<string | undefined> {
    if ('unknown' in cwd) return this.gitRepositoryBlocker(args, undefined);
    for (const dir of cwd.dirs) {
      const blocker = await this.gitRepositoryBlocker(args, dir);
      if (blocker) return blocker;
    }
    return undefined;
  }

  async units(parsed: ParsedCommand, depth: number, start: ShellCwd = this.startCwd): Promise<ShellUnit[]> {
    const cwdOf = await cwdOfSegments(parsed, start, {
      home: this.shellPaths.expansion.home,
      cdpathMentioned: this.cdpathMentioned,
      physicalMaybe: parsed.segments.some((segment) => segment.argv[0]?.value === 'set'),
      paths: this.paths,
    });
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
        cwdOf(segment),
        undefined,
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

  /** One unit; `cwd` is where it runs (a wrapper like `env -C DIR` passes DIR for its command). */
  async unit(
    kind: SegmentKind,
    argv: ShellWord[],
    env: Array<{ name: string; value: ShellWord }>,
    redirects: ShellRedirect[],
    depth: number,
    cwd: ShellCwd = this.startCwd,
    /** Words `xargs` adds from its input. */
    input?: InputWords,
    /** Why the segment's syntax evaluates a value as code (evaluation-sites.ts), when it does. */
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
      cwd,
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
      if (isFileWrite(redirect)) unit.writes.push(...this.touched(redirect.target, true, cwd));
      else if (redirect.kind === 'read') unit.reads.push(...this.touched(redirect.target, true, cwd));
    }
    // A command in an unknown folder (after `cd -`, a bare `cd`, …) works on whatever is there:
    // `ls` lists it, `git status` reads its repository. That folder is an unknown read.
    if (kind === 'command' && 'unknown' in cwd)
      unit.reads.push({
        text: `the folder \`${unit.text}\` runs in (${cwd.unknown})`,
        viaRedirect: false,
        recursive: false,
      });
    if (kind !== 'command' || !first) {
      unit.readOnlyCommand =
        env.every((e) => isSafeEnvAssignment(e.name, e.value)) && !risky && !unit.evalLike;
      unit.readOnly = unit.readOnlyCommand && unit.writes.length === 0;
      return unit;
    }

    const values = args.map((w) => w.value);
    const unknownArgs = args.some((w) => w.dynamic || w.glob);
    const warnName = name ?? unit.denyName ?? '';
    const here = 'unknown' in cwd ? this.options.cwd : (cwd.dirs[0] as string);
    const warning = destructiveWarning(warnName, values, unknownArgs, {
      cwd: here,
      tempDirs: this.tempDirs,
      resolve: (path) => resolveUserPath(path, here, this.home),
    });
    if (warning) unit.destructive = warning;
    // What the command does by its option table; the command as run includes any `xargs` input.
    const written = input ? argsWithInput(argv, input).slice(1) : args;
    const effectArgs = this.options.globsOnDisk ? this.shellPaths.wordsAsPassed(written, cwd) : written;
    const effects = name ? commandEffects(name, effectArgs) : undefined;
    let writtenValues: string[];
    if (effects) {
      for (const use of effects.writes) unit.writes.push(...this.touched(use.word, false, cwd));
      for (const use of effects.reads) unit.reads.push(...this.touched(use.word, false, cwd, use));
      if (effects.notReadOnly) unit.notReadOnly = effects.notReadOnly;
      if (effects.showsRepositoryContent) unit.showsRepositoryContent = true;
      if (effects.runs) unit.evalLike ??= effects.runs;
      writtenValues = effects.writes.filter((use) => !use.word.dynamic).map((use) => use.word.value);
      // `grep -r` and `rg` do not follow symlinks below their folders; `grep -R` and `rg -L` do.
      this.shellPaths.markRecursive(unit.reads, warnName, args, cwd);
    } else {
      const written = new Set(writtenPathArgs(warnName, values));
      for (const word of args) {
        if (written.has(word.value)) unit.writes.push(...this.touched(word, false, cwd));
      }
      writtenValues = args.filter((w) => !w.dynamic && written.has(w.value)).map((w) => w.value);
      // A command without a table: any argument may be a path it reads. A wrapper's arguments
      // belong to the command it runs, which is a unit of its own.
      if (!(name && hasWrapperTable(name)) && readOnlyCategory(warnName) !== 'neutral') {
        for (const word of args) {
          const eq = word.value.indexOf('=');
          const isOption = word.value.startsWith('-');
          if (isOption && !(eq > 0 && /^[~./]/.test(word.value.slice(eq + 1)))) continue;
          const target = isOption
            ? {
                ...word,
                value: word.value.slice(eq + 1),
                text: word.text.slice(word.text.indexOf('=') + 1),
                tilde: word.value[eq + 1] === '~',
              }
            : word;
          unit.reads.push(...this.touched(target, false, cwd));
        }
      }
    }
    // acceptEdits' plain edits (cp, mv, a text-only `sed -i`, …) and the backups they leave.
    const edit = fileEditOf(warnName, args, writtenValues);
    unit.fileWriting = edit.plainEdit;
    for (const backup of edit.backups) unit.writes.push(...this.touched(literalWord(backup), false, cwd));
    if (unit.writes.some((w) => w.path !== undefined && isBlockDevice(w.path)))
      unit.destructive ??= 'writes to a block device, which can destroy a disk';

    if (name && PRIVILEGE_WRAPPERS.has(name)) {
      unit.evalLike = `${name} runs a command as another user`;
      let i = 0;
      while (i < args.length && (args[i] as ShellWord).value.startsWith('-'))
        i += SUDO_WITH_VALUE.has((args[i] as ShellWord).value) ? 2 : 1;
      if (i < args.length && depth < MAX_DEPTH)
        unit.scriptChildren.push(await this.unit('command', args.slice(i), [], [], depth + 1, cwd));
    }
    if (name === 'exec') unit.evalLike = 'exec replaces the shell with another program';
    // `trap 'rm -rf x' EXIT`: the code runs later, but deny rules must see it now.
    for (const code of depth < MAX_DEPTH ? builtinCodeStrings(argv) : []) {
      unit.scriptChildren.push(...(await this.units(await parseCommand(code), depth + 1, cwd)));
    }
    const nestedList = name ? nestedCommands(input ? argsWithInput(argv, input) : argv, redirects) : [];
    for (const nested of nestedList) {
      if (nested.kind === 'script') {
        unit.evalLike ??= `${nested.via} runs a code string`;
        if (nested.script !== undefined && depth < MAX_DEPTH) {
          const inner = await parseCommand(nested.script);
          unit.scriptChildren.push(...(await this.units(inner, depth + 1, cwd)));
        }
        continue;
      }
      if (depth >= MAX_DEPTH || nested.argv.length === 0) {
        unit.evalLike ??= `${nested.via} nests too deeply to check`;
        continue;
      }
      if (nested.own) {
        for (const use of nested.own.reads) unit.reads.push(...this.touched(use.word, false, cwd, use));
        for (const use of nested.own.writes) unit.writes.push(...this.touched(use.word, false, cwd));
        if (nested.own.notReadOnly) unit.notReadOnly ??= nested.own.notReadOnly;
      }
      let childCwd: ShellCwd = cwd;
      // `find -execdir` runs its command in each folder it finds.
      if (/^find -(execdir|okdir)$/.test(nested.via))
        childCwd = { unknown: `${nested.via} runs in each folder find visits` };
      // `env -C DIR cmd`: cmd's relative paths are relative to DIR.
      if (nested.chdir) {
        const dirs = this.touched(nested.chdir, false, cwd);
        const dir = dirs.length === 1 ? dirs[0]?.path : undefined;
        if (dir === undefined) {
          unit.evalLike ??= `${nested.via} runs a command in a folder only known at run time`;
          childCwd = { unknown: `${nested.via} runs in a folder only known at run time` };
        } else childCwd = knownCwd(dir);
      }
      const child = await this.unit(
        'command',
        nested.argv,
        nested.env,
        [],
        depth + 1,
        childCwd,
        nested.input,
      );
      // `xargs sh -c …` and `env … sh -c` run code strings: the wrapper inherits that.
      if (child.evalLike) unit.evalLike ??= `${nested.via} runs ${child.evalLike}`;
      unit.children.push(child);
    }
    const transparent = name !== undefined && TRANSPARENT_WRAPPERS.has(name) && unit.children.length > 0;
    // `env`, `command -v x`, `nice`: a wrapper that runs nothing only prints.
    const runsNothing = name !== undefined && hasWrapperTable(name) && nestedList.length === 0;
    // The same wrappers as the Bash tool's verdict (`nohup` may write nohup.out).
    const readOnlyWrapper = name !== undefined && BASH_WRAPPER_COMMANDS.has(name);
    const envSafe = env.every((e) => isSafeEnvAssignment(e.name, e.value));
    unit.readOnlyCommand =
      envSafe &&
      !unit.evalLike &&
      !unit.notReadOnly &&
      unit.writes.every((w) => w.viaRedirect) &&
      name !== undefined &&
      ((readOnlyWrapper && (transparent || runsNothing)) ||
        (effects !== undefined && !effects.notReadOnly)) &&
      unit.children.every((c) => c.readOnly);
    if (name === 'git' && unit.readOnlyCommand) {
      const blocker = await this.gitBlockerIn(args, cwd);
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
    !unit.evalLike &&
    !unit.notReadOnly
  );
}

export async function analyzeShellCommand(
  source: string,
  options: ShellAnalysisOptions,
): Promise<ShellAnalysis> {
  const parsed = await parseCommand(source);
  let units = await new Analyzer(options, source).units(parsed, 0);
  // A glob may match a planted `-o` or `--files0-from=…`: each word of it may be any option. When
  // the line creates no file at all, the files on disk now are the ones the shell will match,
  // so options are judged against those words instead (`wc -l *.ts` is then only a read).
  const hasGlob = parsed.segments.some((segment) => segment.argv.some((word) => word.glob));
  if (hasGlob) {
    const onDisk = await new Analyzer({ ...options, globsOnDisk: true }, source).units(parsed, 0);
    if ([...allUnits(onDisk)].every((unit) => unit.readOnly)) units = onDisk;
  }
  return {
    source,
    parseError: parsed.parseError,
    units,
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
