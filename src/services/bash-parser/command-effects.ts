/**
 * What one invocation of a tabled command does: the paths it reads and writes, and — when it is
 * not read-only — one readable reason why. Built from the parse of its arguments against its
 * option table (`option-parse.ts`); commands with a grammar of their own (sed, find, git, jq)
 * produce the same shape from their own scanners.
 */

import { isUnknownWord, type Operand, type ParsedArgs, parseArgs } from './option-parse';
import { type OperandLayout, type OperandRole, type OptionTable, UNSAFE_EFFECTS } from './option-table';
import type { ShellWord } from './types';
import { literalWord } from './words';

export type PathUse = {
  word: ShellWord;
  recursive: boolean;
  /** A recursive read that only lists names and metadata (`find`, `ls -R`): no file's content. */
  namesOnly?: boolean;
  /** For a recursive read: whether symlinks below are followed; absent means they may be. */
  followsLinks?: boolean;
};

export type CommandEffects = {
  /** Why this invocation is not read-only (it writes, runs a program, or cannot be checked). */
  notReadOnly?: string;
  /**
   * Set when it runs another program (`sort --compress-program`, sed's `e`): a rule for the
   * command itself cannot vouch for that program.
   */
  runs?: string;
  reads: PathUse[];
  writes: PathUse[];
  /**
   * Prints the content of the repository's files beyond what its read paths name (`git log -p`,
   * `git show`, `git cat-file -p SHA`): any tracked file may be shown, a denied one included.
   */
  showsRepositoryContent?: true;
};

export const noEffects = (): CommandEffects => ({ reads: [], writes: [] });

/** Records the first reason only: the refusal names one cause. */
export function refuse(effects: CommandEffects, reason: string): void {
  effects.notReadOnly ??= reason;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A word standing for whatever the shell produced at run time (`cd -`, words from stdin). */
export const unknownWord = (text: string): ShellWord => ({
  text,
  value: text,
  dynamic: true,
  glob: false,
  tilde: false,
});

/** Adds what the matched options do. */
export function applyOptions(
  cmd: string,
  table: OptionTable,
  parsed: ParsedArgs,
  effects: CommandEffects,
): void {
  for (const option of parsed.options) {
    const { spec, value } = option;
    const label = option.spelling === option.name ? option.spelling : `${option.spelling} (${option.name})`;
    const say = (fallback: string) => refuse(effects, `${cmd} ${label} ${spec.why ?? fallback}`);
    switch (spec.effect) {
      case 'flag':
      case 'value':
        break;
      case 'read':
        if (value) effects.reads.push({ word: value, recursive: spec.recursive === true });
        break;
      case 'readList':
        if (value) effects.reads.push({ word: value, recursive: false });
        say('reads the names of the files to read from a file, so what it reads cannot be checked');
        break;
      case 'scriptFile':
        if (value) effects.reads.push({ word: value, recursive: false });
        say('runs a script kept in a file, which cannot be checked');
        break;
      case 'write':
        if (value) effects.writes.push({ word: value, recursive: false });
        say(value ? `writes ${value.text}` : 'writes files');
        break;
      case 'run':
        say('runs another program');
        effects.runs ??= `${cmd} ${label} ${spec.why ?? 'runs another program'}`;
        break;
      case 'changes':
        say('changes the system');
        break;
      case 'chdir':
        say('changes the directory its paths are relative to');
        break;
      case 'setVar':
        if (!value || isUnknownWord(value) || !IDENTIFIER.test(value.value))
          say(`assigns ${value?.text ?? 'a variable'}, which is not a plain variable name`);
        break;
    }
  }
  if (parsed.problem) refuse(effects, `${cmd}: ${parsed.problem}`);
  const worst = table.worstOption;
  for (const word of parsed.anyOption) {
    if (!worst) break;
    if (UNSAFE_EFFECTS.has(worst.spec.effect)) {
      // A planted file named `--output=x` is what a glob would pass: say how to pass files only.
      const fix = word.dynamic ? 'put -- before it' : `write ./${word.text} or put -- before it`;
      const reason = `${cmd}: ${word.text} may expand to an option such as ${worst.name}, which ${worst.spec.why ?? 'is not read-only'} (${fix})`;
      refuse(effects, reason);
      if (worst.spec.effect === 'run') effects.runs ??= reason;
    } else if (worst.spec.effect === 'read') effects.reads.push({ word, recursive: false });
  }
}

const roleAt = (layout: OperandLayout, index: number): OperandRole => layout.leading[index] ?? layout.rest;

/**
 * The roles an operand may take. After a word that may expand to several words (or none), the
 * positions of the later operands are unknown: each may take any role from its earliest place on.
 */
export function operandRoles(layout: OperandLayout, operands: readonly Operand[]): Set<OperandRole>[] {
  let uncertain = 0;
  return operands.map((operand) => {
    const roles = new Set<OperandRole>();
    if (operand.mayBeMany || uncertain > 0) {
      const from = Math.max(0, operand.index - uncertain);
      for (let j = from; j < layout.leading.length; j++) roles.add(roleAt(layout, j));
      roles.add(layout.rest);
    } else roles.add(roleAt(layout, operand.index));
    if (operand.mayBeMany) uncertain++;
    return roles;
  });
}

/** Adds what the operands do under `layout`. */
export function applyOperands(
  cmd: string,
  layout: OperandLayout,
  operands: readonly Operand[],
  effects: CommandEffects,
): void {
  const recursive = layout.recursive === true;
  // How a recursive read treats what is below: names only, links followed or not (from the table).
  const below = recursive
    ? {
        ...(layout.namesOnly ? { namesOnly: true } : {}),
        ...(layout.followsLinks === undefined ? {} : { followsLinks: layout.followsLinks }),
      }
    : {};
  let certainRead = false;
  const roles = operandRoles(layout, operands);
  operands.forEach((operand, k) => {
    const { word } = operand;
    for (const role of roles[k] as Set<OperandRole>) {
      switch (role) {
        case 'data':
          break;
        case 'read':
          if (!isUnknownWord(word) && word.value === '-') {
            if (layout.dash === 'unknown')
              effects.reads.push({ word: unknownWord(word.text), recursive, ...below });
          } else effects.reads.push({ word, recursive, ...below });
          if (!operand.mayBeMany) certainRead = true;
          break;
        case 'readList':
          effects.reads.push({ word, recursive: false });
          refuse(
            effects,
            `${cmd} reads the names of the files to read from ${word.text}, so what it reads cannot be checked`,
          );
          break;
        case 'write':
          effects.writes.push({ word, recursive: false });
          refuse(effects, `${cmd} writes ${word.text}`);
          break;
        case 'changes':
          refuse(effects, `${cmd} ${word.text} ${layout.why ?? 'changes the system'}`);
          break;
        case 'dateOperand':
          if (isUnknownWord(word) || !word.value.startsWith('+'))
            refuse(effects, `${cmd} ${word.text} sets the clock (only +FORMAT prints)`);
          break;
      }
    }
  });
  if (!certainRead)
    for (const path of layout.whenNone ?? [])
      effects.reads.push({
        word: { ...literalWord(path), tilde: path.startsWith('~') },
        recursive,
        ...below,
      });
}

/**
 * Adds what the operands do under the modes the options set — and, when a word may be any
 * option, under every mode one could set (`md5sum *` with a file named `-c` checks lists).
 */
export function applyTableOperands(
  cmd: string,
  table: OptionTable,
  parsed: ParsedArgs,
  effects: CommandEffects,
): void {
  applyOperands(cmd, table.operands(parsed.modes), parsed.operands, effects);
  if (parsed.anyOption.length === 0) return;
  // Every combination of the modes (a table has at most a few).
  const modes = [...table.allModes];
  for (let mask = 1; mask < 1 << modes.length; mask++) {
    const set = new Set(parsed.modes);
    modes.forEach((mode, bit) => {
      if (mask & (1 << bit)) set.add(mode);
    });
    applyOperands(cmd, table.operands(set), parsed.operands, effects);
  }
}

/** Effects of a command whose grammar is fully described by its table. */
export function tableEffects(cmd: string, table: OptionTable, args: readonly ShellWord[]): CommandEffects {
  const effects = noEffects();
  const parsed = parseArgs(table, args);
  applyOptions(cmd, table, parsed, effects);
  applyTableOperands(cmd, table, parsed, effects);
  return effects;
}
