/**
 * The unit a Bash permission decision is made on: one simple command the shell would run, with
 * what it reads and writes, why it may run other code, and the commands it runs in turn.
 * `shell-unit-analyzer.ts` builds them from the parse; the checks walk them with `allUnits`.
 */
import type { SegmentKind, ShellRedirect, ShellWord } from '../services/bash-parser';
import type { ShellCwd } from './shell-cd';
import type { TouchedPath } from './shell-paths';

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
  /**
   * Why the unit's own syntax evaluates a value as code (`$((x))`, `${x@P}`, `printf -v "$n"`):
   * with x='a[$(cmd)]' it runs cmd, which no rule sees (evaluation-sites.ts).
   */
  evaluation?: string;
  /** Why an option of the command runs a program it names (`sort --compress-program`, sed's `e`, `git -c`). */
  runsProgram?: string;
  /**
   * Why the unit runs code no rule can be checked against: a script file, a shell reading its
   * input, a code string only known when it runs (`bash x.sh`, `echo … | sh`, `eval "$x"`).
   */
  hiddenCode?: string;
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

/** Wrappers whose own behaviour adds nothing: the unit is allowed when what they run is. */
export const TRANSPARENT_WRAPPERS: ReadonlySet<string> = new Set([
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

/** Every unit, wrapped and code-string ones included: what deny rules are checked against. */
export function* allUnits(units: readonly ShellUnit[]): Generator<ShellUnit> {
  for (const unit of units) {
    yield unit;
    yield* allUnits(unit.children);
    yield* allUnits(unit.scriptChildren);
  }
}
