/**
 * Turns a command line into the units a permission decision is made on: every simple command the
 * shell would run (across operators, subshells, substitutions, control flow), with wrappers
 * (`timeout`, `xargs`, `find -exec`, `env`, `sudo`) opened so the command they run is a unit too,
 * and code strings (`eval`, `sh -c`) parsed for deny checks. Built on the real tree-sitter parse.
 */
import { homedir, tmpdir } from 'node:os';
import {
  analyzeSed,
  argsWithInput,
  BASH_WRAPPER_COMMANDS,
  commandBaseName,
  commandEffects,
  hasWrapperTable,
  type InputWords,
  isFileWrite,
  isSafeEnvAssignment,
  nestedCommands,
  type ParsedCommand,
  parseCommand,
  type SegmentKind,
  type ShellRedirect,
  type ShellWord,
} from '../services/bash-parser';
import { resolveUserPath } from './path-rules';
import {
  destructiveWarning,
  FILE_WRITING_COMMANDS,
  hasNonAsciiName,
  isBlockDevice,
  isDangerousEnvVar,
  isForkBomb,
  writtenPathArgs,
} from './shell-danger';

/**
 * A path a unit touches; `path` is absolute, or undefined when only the running shell knows it.
 * `recursive`: everything below it is read too (`grep -r`, `rg`, `find`, `du`, `ls -R`).
 */
export type TouchedPath = { path?: string; text: string; viaRedirect: boolean; recursive: boolean };

export type TouchOptions = { recursive?: boolean };

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
  /** Why this unit runs code no prefix rule can vouch for (`eval`, `sh -c`, `exec`, `source`). */
  evalLike?: string;
  /** A word holds `$(…)`, backticks or `<(…)`: what runs depends on another command's output. */
  substitution: boolean;
  /** The command was named by a path (`/bin/rm`, `./x`): allow rules never match it by base name. */
  pathName: boolean;
  nonAsciiName: boolean;
  dangerousEnv?: string;
  destructive?: string;
  /** Why the command is not read-only by its option table (`sort -o out writes …`), when it is not. */
  notReadOnly?: string;
  /** Only searches, reads or lists (by the bash-parser's tables), with no file-writing redirect. */
  readOnly: boolean;
  /** The command itself only reads; its redirects may still write (`ls > out.txt`). */
  readOnlyCommand: boolean;
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

export type ShellAnalysisOptions = { cwd: string; home?: string; tempDirs?: readonly string[] };

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
const SUBSTITUTION = /\$\(|`|[<>]\(/;

export const defaultTempDirs = (): string[] => [...new Set(['/tmp', '/var/tmp', tmpdir()])];

class Analyzer {
  private readonly home: string;
  private readonly tempDirs: readonly string[];
  constructor(private readonly options: ShellAnalysisOptions) {
    this.home = options.home ?? homedir();
    this.tempDirs = options.tempDirs ?? defaultTempDirs();
  }

  private resolve = (path: string) => resolveUserPath(path, this.options.cwd, this.home);

  private touched(word: ShellWord, viaRedirect: boolean, options: TouchOptions = {}): TouchedPath {
    const recursive = options.recursive === true;
    if (word.dynamic || (word.tilde && !/^~(\/|$)/.test(word.value)))
      return { text: word.text, viaRedirect, recursive };
    return { path: this.resolve(word.value), text: word.text, viaRedirect, recursive };
  }

  async units(parsed: ParsedCommand, depth: number): Promise<ShellUnit[]> {
    const out: ShellUnit[] = [];
    for (const segment of parsed.segments) {
      out.push(await this.unit(segment.kind, segment.argv, segment.assignments, segment.redirects, depth));
    }
    return out;
  }

  async unit(
    kind: SegmentKind,
    argv: ShellWord[],
    env: Array<{ name: string; value: ShellWord }>,
    redirects: ShellRedirect[],
    depth: number,
    /** Words `xargs` adds from its input. */
    input?: InputWords,
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
      substitution:
        argv.some((w) => SUBSTITUTION.test(w.text)) || env.some((e) => SUBSTITUTION.test(e.value.text)),
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
    const assignedInDeclaration =
      kind === 'declaration' ? args.map((w) => w.value.split('=')[0] as string) : [];
    const risky = [...env.map((e) => e.name), ...assignedInDeclaration].find(isDangerousEnvVar);
    if (risky) unit.dangerousEnv = risky;

    for (const redirect of redirects) {
      if (!redirect.target || redirect.kind === 'dup' || redirect.kind === 'close') continue;
      if (isFileWrite(redirect)) unit.writes.push(this.touched(redirect.target, true));
      else if (redirect.kind === 'read') unit.reads.push(this.touched(redirect.target, true));
    }
    if (kind !== 'command' || !first) {
      unit.readOnlyCommand = env.every((e) => isSafeEnvAssignment(e.name, e.value)) && !risky;
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
    // What the command does by its option table; the command as run includes any `xargs` input.
    const effectArgs = input ? argsWithInput(argv, input).slice(1) : args;
    const effects = name ? commandEffects(name, effectArgs) : undefined;
    let fileWriting = FILE_WRITING_COMMANDS.has(warnName);
    if (effects) {
      for (const use of effects.writes) unit.writes.push(this.touched(use.word, false));
      for (const use of effects.reads)
        unit.reads.push(this.touched(use.word, false, { recursive: use.recursive }));
      if (effects.notReadOnly) unit.notReadOnly = effects.notReadOnly;
      if (effects.runs) unit.evalLike ??= effects.runs;
      if (name === 'sed' && analyzeSed(effectArgs).inPlace) fileWriting = true;
    } else {
      const written = new Set(writtenPathArgs(warnName, values));
      for (const word of args) {
        if (written.has(word.value)) unit.writes.push(this.touched(word, false));
      }
      if (written.size > 0 && (warnName === 'sed' || warnName === 'perl')) fileWriting = true;
      // A command without a table: any argument may be a path it reads. A wrapper's arguments
      // belong to the command it runs, which is a unit of its own.
      if (!(name && hasWrapperTable(name))) {
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
    }
    if (unit.writes.some((w) => w.path !== undefined && isBlockDevice(w.path)))
      unit.destructive ??= 'writes to a block device, which can destroy a disk';
    unit.fileWriting = fileWriting;

    if (name && PRIVILEGE_WRAPPERS.has(name)) {
      unit.evalLike = `${name} runs a command as another user`;
      let i = 0;
      while (i < args.length && (args[i] as ShellWord).value.startsWith('-'))
        i += SUDO_WITH_VALUE.has((args[i] as ShellWord).value) ? 2 : 1;
      if (i < args.length && depth < MAX_DEPTH)
        unit.scriptChildren.push(await this.unit('command', args.slice(i), [], [], depth + 1));
    }
    if (name === 'exec') unit.evalLike = 'exec replaces the shell with another program';
    const nestedList = name ? nestedCommands(input ? argsWithInput(argv, input) : argv, redirects) : [];
    for (const nested of nestedList) {
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
      if (nested.own) {
        for (const use of nested.own.reads)
          unit.reads.push(this.touched(use.word, false, { recursive: use.recursive }));
        for (const use of nested.own.writes) unit.writes.push(this.touched(use.word, false));
        if (nested.own.notReadOnly) unit.notReadOnly ??= nested.own.notReadOnly;
      }
      // `env -C DIR cmd`: cmd's relative paths are relative to DIR.
      let analyzer: Analyzer = this;
      if (nested.chdir) {
        const dir = this.touched(nested.chdir, false).path;
        if (dir === undefined)
          unit.evalLike ??= `${nested.via} runs a command in a folder only known at run time`;
        else analyzer = new Analyzer({ ...this.options, cwd: dir });
      }
      const child = await analyzer.unit('command', nested.argv, nested.env, [], depth + 1, nested.input);
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
