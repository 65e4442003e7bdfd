/**
 * The shell variables a segment sets for the rest of its line, and why setting one can change
 * which code the commands after it run: an exported `PAGER`, `LD_PRELOAD` or `GIT_DIR` reaches
 * every program started later in the line (`export PAGER=…; git log`).
 */
import {
  builtinAssignedNames,
  dangerousEnvReason,
  hasWrittenName,
  type SegmentKind,
  type ShellWord,
} from '../services/bash-parser';

/** `name` is the source text when the name itself is computed (`export "$v"`). */
type VariableSet = { name: string; value?: ShellWord; computed?: boolean };

export function settingReason(set: VariableSet): string | undefined {
  if (set.computed) return `${set.name} sets a variable whose name is only known when it runs`;
  return dangerousEnvReason(set.name, set.value);
}

/**
 * The shell variables a segment sets for the rest of the line: plain assignments, declarations
 * (`export`, `declare -x`, `readonly`), a loop variable, and builtins such as `read NAME` and
 * `printf -v NAME`. A name computed at run time comes back as its source text.
 */
export function variablesSetBy(
  kind: SegmentKind,
  argv: readonly ShellWord[],
  assignments: ReadonlyArray<{ name: string; value: ShellWord }>,
  loopVariable: string | undefined,
): VariableSet[] {
  if (kind === 'assignment') return assignments.map(({ name, value }) => ({ name, value }));
  if (kind === 'compound') return loopVariable === undefined ? [] : [{ name: loopVariable }];
  if (kind === 'declaration') {
    return argv.slice(1).flatMap((word): VariableSet[] => {
      if (!word.dynamic && /^[-+]/.test(word.value)) return [];
      const eq = word.value.indexOf('=');
      if (!hasWrittenName(word)) return [{ name: word.text, computed: true }];
      if (eq < 0) return [{ name: word.value }];
      return [{ name: word.value.slice(0, eq), value: { ...word, value: word.value.slice(eq + 1) } }];
    });
  }
  if (kind === 'command')
    return builtinAssignedNames(argv).map(({ name, computed }) => (computed ? { name, computed } : { name }));
  return [];
}
