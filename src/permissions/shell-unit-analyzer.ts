/**
 * Builds the ShellUnits of one command line from its parse: each simple command with the paths
 * its redirects and option table say it reads and writes, the commands wrappers run (`timeout`,
 * `xargs`, `find -exec`, `env`, `sudo`) as units of their own, code strings (`eval`, `sh -c`,
 * `trap`) parsed for deny checks, and whether the unit is read-only.
 */
import { homedir, tmpdir } from 'node:os';
import {
  argsWithInput,
  BASH_WRAPPER_COMMANDS,
  builtinCodeStrings,
  builtinReason,
  type CommandEffects,
  commandBaseName,
  commandEffects,
  commandOptionRuns,
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
import { readsOfFoundFiles } from './found-files';
import type { GitConfigSafety } from './git-config-safety';
import { GitReadOnlyBlocker } from './git-read-only-blocker';
import { LAUNCHERS, launchedCommands } from './launchers';
import { resolveUserPath } from './path-rules';
import { isPrivilegeWrapper, wrappedCommandStart } from './privilege-wrappers';
import { diskPathFs, RealPaths } from './real-paths';
import { knownCwd, type ShellCwd } from './shell-cd';
import { cwdOfSegments } from './shell-cwd';
import { destructiveWarning, hasNonAsciiName, isBlockDevice, writtenPathArgs } from './shell-danger';
import { expansionEnv, pathOfArgument, ShellPaths, type TouchedPath } from './shell-paths';
import { type ShellUnit, TRANSPARENT_WRAPPERS } from './shell-unit';
import { settingReason, variablesSetBy } from './shell-variables';

export type ShellAnalysisOptions = {
  cwd: string;
  /** The project's root, when it is not `cwd`: no temp-folder leniency applies inside it. */
  projectRoot?: string;
  home?: string;
  tempDirs?: readonly string[];
  /** Resolves symlinks and lists folders for globs (default: the disk). */
  paths?: RealPaths;
  /** The session's check of git repository configuration; without it git is never read-only. */
  gitConfig?: GitConfigSafety;
  /** Judge options against the words globs match on disk now (see `analyzeShellCommand`). */
  globsOnDisk?: boolean;
};

type TouchOptions = Partial<Record<'recursive' | 'mayRecurse' | 'namesOnly' | 'followsLinks', boolean>>;
type EnvAssignment = { name: string; value: ShellWord };

const MAX_DEPTH = 4;

const defaultTempDirs = (): string[] => [...new Set(['/tmp', '/var/tmp', tmpdir()])];

export class ShellUnitAnalyzer {
  private readonly home: string;
  private readonly tempDirs: readonly string[];
  private readonly paths: RealPaths;
  private readonly shellPaths: ShellPaths;
  private readonly cdpathMentioned: boolean;
  private readonly git: GitReadOnlyBlocker;
  readonly startCwd: ShellCwd;

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
    this.git = new GitReadOnlyBlocker({ gitConfig: options.gitConfig, cwd: options.cwd, home: this.home });
  }

  /** The paths a word names from `cwd`; `recursive`: everything below them is read too. */
  private touched(
    word: ShellWord,
    viaRedirect: boolean,
    cwd: ShellCwd,
    options: TouchOptions = {},
  ): TouchedPath[] {
    const touched = this.shellPaths.touched(word, viaRedirect, cwd);
    if (options.recursive || options.mayRecurse)
      for (const path of touched) {
        path.recursive = true;
        if (options.mayRecurse) path.mayRecurse = true;
        if (options.namesOnly) path.namesOnly = true;
        if (options.followsLinks !== undefined) path.followsLinks = options.followsLinks;
      }
    return touched;
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
    env: EnvAssignment[],
    redirects: ShellRedirect[],
    depth: number,
    cwd: ShellCwd = this.startCwd,
    /** Words `xargs` adds from its input. */
    input?: InputWords,
    /** Why the segment's syntax evaluates a value as code (evaluation-sites.ts), when it does. */
    evaluates?: string,
  ): Promise<ShellUnit> {
    const unit = this.baseUnit(kind, argv, env, redirects, cwd, evaluates);
    if (kind !== 'command' || !argv[0]) {
      unit.readOnlyCommand =
        env.every((e) => isSafeEnvAssignment(e.name, e.value)) && !unit.dangerousEnv && !unit.evalLike;
      unit.readOnly = unit.readOnlyCommand && unit.writes.length === 0;
      return unit;
    }
    // Not `unit.name`: a name that is empty (`/usr/bin/`) still counts as a name below.
    const name = commandBaseName(argv[0]);
    const effects = this.addEffects(unit, name, input);
    const nestedCount = await this.addNested(unit, name, depth, input);
    await this.settleReadOnly(unit, name, effects, nestedCount);
    return unit;
  }

  /** The unit as its words and redirects show it, before any table is consulted. */
  private baseUnit(
    kind: SegmentKind,
    argv: ShellWord[],
    env: EnvAssignment[],
    redirects: ShellRedirect[],
    cwd: ShellCwd,
    evaluates: string | undefined,
  ): ShellUnit {
    const first = argv[0];
    const name = kind === 'command' ? commandBaseName(first) : undefined;
    const raw = first?.value ?? '';
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
    if (evaluated) unit.evalLike = unit.evaluation = evaluated;

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
    return unit;
  }

  /**
   * What the command does to files by its option table (or, without one, by its arguments): its
   * reads and writes, a destructive warning, whether acceptEdits sees a plain file edit.
   */
  private addEffects(
    unit: ShellUnit,
    name: string | undefined,
    input: InputWords | undefined,
  ): CommandEffects | undefined {
    const { argv, cwd } = unit;
    const args = argv.slice(1);
    const values = args.map((w) => w.value);
    const unknownArgs = args.some((w) => w.dynamic || w.glob);
    const warnName = name ?? unit.denyName ?? '';
    const here = 'unknown' in cwd ? this.options.cwd : (cwd.dirs[0] as string);
    unit.destructive = destructiveWarning(warnName, values, unknownArgs, {
      cwd: here,
      tempDirs: this.tempDirs,
      workspace: [this.options.cwd, ...(this.options.projectRoot ? [this.options.projectRoot] : [])],
      resolve: (path) => resolveUserPath(path, here, this.home),
    });
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
      writtenValues = effects.writes.filter((use) => !use.word.dynamic).map((use) => use.word.value);
      // `grep -r` and `rg` do not follow symlinks below their folders; `grep -R` and `rg -L` do.
      this.shellPaths.markRecursive(unit.reads, warnName, args, cwd);
    } else {
      const written = new Set(writtenPathArgs(warnName, values));
      for (const word of args) {
        // `dd of=FILE` writes FILE (calibrated: `dd of=f` replaced f with its input).
        const target = written.has(word.value) ? word : pathOfArgument(word, warnName);
        if (target && written.has(target.value)) unit.writes.push(...this.touched(target, false, cwd));
      }
      writtenValues = args.filter((w) => !w.dynamic && written.has(w.value)).map((w) => w.value);
      // A command without a table: any argument may be a path it reads, and a folder other than
      // where it writes may be read whole (`cp -r`, `tar c`, `zip -r`, `rsync -a`). A wrapper's
      // arguments belong to the command it runs, which is a unit of its own.
      if (!(name && hasWrapperTable(name)) && readOnlyCategory(warnName) !== 'neutral') {
        for (const word of args) {
          const target = pathOfArgument(word, warnName);
          if (target)
            unit.reads.push(...this.touched(target, false, cwd, { mayRecurse: !written.has(word.value) }));
        }
      }
    }
    // `sort --compress-program=P`, `tar --to-command=P`: no rule for the command vouches for P.
    const runs = effects ? effects.runs : name && commandOptionRuns(name, values);
    if (runs) unit.evalLike = unit.runsProgram = unit.evalLike ?? runs;
    // acceptEdits' plain edits (cp, mv, a text-only `sed -i`, …) and the backups they leave.
    const edit = fileEditOf(warnName, args, writtenValues);
    unit.fileWriting = edit.plainEdit;
    for (const backup of edit.backups) unit.writes.push(...this.touched(literalWord(backup), false, cwd));
    if (unit.writes.some((w) => w.path !== undefined && isBlockDevice(w.path)))
      unit.destructive ??= 'writes to a block device, which can destroy a disk';
    return effects;
  }

  /**
   * The commands the unit runs: as another user (`sudo`), later (`trap`), from code strings, or
   * as a wrapper (`xargs`, `find -exec`, `env -C`). Returns how many nested commands it names.
   */
  private async addNested(
    unit: ShellUnit,
    name: string | undefined,
    depth: number,
    input: InputWords | undefined,
  ): Promise<number> {
    const { argv, cwd, redirects } = unit;
    const args = argv.slice(1);
    if (name && isPrivilegeWrapper(name)) {
      unit.evalLike = `${name} runs a command as another user`;
      const i = wrappedCommandStart(args.map((arg) => arg.value));
      if (i < args.length && depth < MAX_DEPTH)
        unit.scriptChildren.push(await this.unit('command', args.slice(i), [], [], depth + 1, cwd));
    }
    if (name === 'exec') unit.evalLike = 'exec replaces the shell with another program';
    // `setsid rm x`, `su -c 'rm x'`: what a launcher may run is looked at for deny rules.
    if (name && LAUNCHERS.has(name) && depth < MAX_DEPTH) {
      const launched = launchedCommands(args);
      for (const start of launched.argvs)
        unit.scriptChildren.push(await this.unit('command', start, [], [], depth + 1, cwd));
      for (const code of launched.code)
        unit.scriptChildren.push(...(await this.units(await parseCommand(code), depth + 1, cwd)));
    }
    // `trap 'rm -rf x' EXIT`: the code runs later, but deny rules must see it now.
    for (const code of depth < MAX_DEPTH ? builtinCodeStrings(argv) : [])
      unit.scriptChildren.push(...(await this.units(await parseCommand(code), depth + 1, cwd)));
    const nestedList = name ? nestedCommands(input ? argsWithInput(argv, input) : argv, redirects) : [];
    for (const nested of nestedList) {
      if (nested.kind === 'script') {
        unit.evalLike ??= `${nested.via} runs a code string`;
        if (nested.script === undefined || depth >= MAX_DEPTH)
          unit.hiddenCode ??= `${nested.via} runs code only known when it runs`;
        if (nested.script !== undefined && depth < MAX_DEPTH) {
          const inner = await parseCommand(nested.script);
          unit.scriptChildren.push(...(await this.units(inner, depth + 1, cwd)));
        }
        continue;
      }
      if (depth >= MAX_DEPTH || nested.argv.length === 0) {
        unit.evalLike ??= `${nested.via} nests too deeply to check`;
        if (depth >= MAX_DEPTH) unit.hiddenCode ??= unit.evalLike;
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
      const { argv: childArgv, env: childEnv, input: childInput } = nested;
      const child = await this.unit('command', childArgv, childEnv, [], depth + 1, childCwd, childInput);
      if (/^(find|fd|fdfind) -/.test(nested.via)) child.reads = readsOfFoundFiles(child, unit);
      // `xargs sh -c …` and `env … sh -c` run code strings: the wrapper inherits that.
      if (child.evalLike) unit.evalLike ??= `${nested.via} runs ${child.evalLike}`;
      unit.children.push(child);
    }
    return nestedList.length;
  }

  /** Whether the command only reads: by its table or as a wrapper of read-only commands, and git's repository. */
  private async settleReadOnly(
    unit: ShellUnit,
    name: string | undefined,
    effects: CommandEffects | undefined,
    nestedCount: number,
  ): Promise<void> {
    const { env } = unit;
    const transparent = name !== undefined && TRANSPARENT_WRAPPERS.has(name) && unit.children.length > 0;
    // `env`, `command -v x`, `nice`: a wrapper that runs nothing only prints.
    const runsNothing = name !== undefined && hasWrapperTable(name) && nestedCount === 0;
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
      const blocker = await this.git.in(unit.argv.slice(1), unit.cwd);
      if (blocker) {
        unit.readOnlyCommand = false;
        unit.readOnlyBlocker = blocker;
      }
    }
    unit.readOnly = unit.readOnlyCommand && unit.writes.length === 0;
  }
}
