/**
 * Reads a command's arguments against its option table the way getopt_long does: `--name=value`
 * and `--name value` for required values, optional values only with `=` (or glued to a short
 * option), unique-prefix abbreviations, `-abc` clusters, glued short values (`-fFILE`), `--` ends
 * the options, and options may follow operands (GNU permutation) unless the table stops at the
 * first operand. Anything the table does not know is a `problem`: the caller treats it as "not
 * read-only". Words only the running shell knows (`$x`, `*.txt`) may turn into options; they are
 * reported so the caller can assume the worst option of the table.
 */
import { effectRank, type OptionSpec, type OptionTable, UNSAFE_EFFECTS } from './option-table';
import type { ShellWord } from './types';

export type MatchedOption = {
  /** As written: `--compress-p`, `-o`. */
  spelling: string;
  /** The table's name for it: `--compress-program`. */
  name: string;
  spec: OptionSpec;
  value?: ShellWord;
  /** For a `pair` option: the first word (a variable name). */
  pairName?: ShellWord;
  /** Index of the option's word in the arguments. */
  at: number;
};

export type Operand = {
  word: ShellWord;
  /** Position among the operands as written. */
  index: number;
  /** A glob or an expansion: may become no word or several. */
  mayBeMany: boolean;
  /** Index of the word in the arguments. */
  at: number;
};

export type ParsedArgs = {
  options: MatchedOption[];
  operands: Operand[];
  modes: Set<string>;
  /** Words in option position that only the shell can resolve: they may be any option. */
  anyOption: ShellWord[];
  /** The first thing the table cannot account for (unknown option, missing value, …). */
  problem?: string;
  /** Index (in the arguments) of the first operand; the arguments' length when there is none. */
  firstOperand: number;
};

/** A word whose value is not known until the shell runs it (expansion, glob, brace). */
export const isUnknownWord = (word: ShellWord): boolean => word.dynamic || word.glob;

/** Characters that, leading a word, rule out a `-` after expansion. */
const LITERAL_START = /^[A-Za-z0-9_./+:=@%,~^]/;

/** True when the word, as the shell will expand it, may begin with `-`. */
export function mayStartWithDash(word: ShellWord): boolean {
  if (word.value.startsWith('-')) return true;
  return isUnknownWord(word) && !LITERAL_START.test(word.value);
}

/** The part of a word's value that is the same however the shell expands it. */
function staticPrefix(word: ShellWord): string {
  if (!isUnknownWord(word)) return word.value;
  const cut = word.value.search(/[$`*?[{<>]/);
  return cut < 0 ? word.value : word.value.slice(0, cut);
}

/** The word for a value cut out of a larger word (`--file=x` → `x`, `-fx` → `x`). */
export function sliceWord(word: ShellWord, start: number): ShellWord {
  const value = word.value.slice(start);
  return {
    text: value,
    value,
    dynamic: word.dynamic && /[$`]/.test(value),
    glob: word.glob && /[*?[{]/.test(value),
    // The shell does not expand `~` inside `--opt=~/x`; assume it might, which reads outside.
    tilde: value.startsWith('~'),
  };
}

type LongMatch = { name: string; spec: OptionSpec } | { problem: string };

/**
 * An exact name wins; otherwise a prefix must name one option. A prefix of any unsafe option is
 * that option, whether or not the tool accepts abbreviations (`--ou` is `--output`).
 */
function matchLong(table: OptionTable, written: string): LongMatch {
  const exact = table.long.get(written);
  if (exact) return { name: written, spec: exact };
  const candidates = table.longNames.filter((name) => name.startsWith(written));
  let unsafe: string | undefined;
  for (const name of candidates) {
    const spec = table.long.get(name) as OptionSpec;
    if (
      UNSAFE_EFFECTS.has(spec.effect) &&
      (!unsafe || effectRank(spec.effect) > effectRank((table.long.get(unsafe) as OptionSpec).effect))
    )
      unsafe = name;
  }
  if (unsafe) return { name: unsafe, spec: table.long.get(unsafe) as OptionSpec };
  const specs = new Set(candidates.map((name) => table.long.get(name)));
  if (candidates.length > 0 && specs.size === 1)
    return { name: candidates[0] as string, spec: [...specs][0] as OptionSpec };
  if (table.negatable && written.startsWith('no-')) {
    const positive = matchLong({ ...table, negatable: false }, written.slice(3));
    // Turning an option off is harmless, whatever the option does when on.
    if (!('problem' in positive))
      return { name: `no-${positive.name}`, spec: { arity: 'none', effect: 'flag' } };
  }
  if (candidates.length > 1)
    return { problem: `--${written} is ambiguous (${candidates.map((c) => `--${c}`).join(', ')})` };
  return { problem: `--${written} is not an option this table knows` };
}

function applyModes(spec: OptionSpec, value: ShellWord | undefined, modes: Set<string>): void {
  if (spec.mode) modes.add(spec.mode);
  if (!spec.valueModes || !value) return;
  for (const [word, name] of Object.entries(spec.valueModes)) {
    // argmatch accepts a unique prefix; an unknown value may be any of them.
    if (isUnknownWord(value) || (value.value !== '' && word.startsWith(value.value))) modes.add(name);
  }
}

/** Parses `args` against `table`. */
export function parseArgs(table: OptionTable, args: readonly ShellWord[]): ParsedArgs {
  const out: ParsedArgs = {
    options: [],
    operands: [],
    modes: new Set(),
    anyOption: [],
    firstOperand: args.length,
  };
  let optionsEnded = table.noOptions;
  const canonical = (name: string) =>
    table.primary.get(name) ?? (name.length === 1 ? `-${name}` : `--${name}`);
  const fail = (problem: string) => {
    out.problem ??= problem;
  };
  const operand = (word: ShellWord, index: number) => {
    if (out.operands.length === 0) out.firstOperand = index;
    out.operands.push({ word, index: out.operands.length, mayBeMany: isUnknownWord(word), at: index });
    if (table.order === 'stop') optionsEnded = true;
  };
  let at = 0;
  const add = (spelling: string, name: string, spec: OptionSpec, value?: ShellWord, pairName?: ShellWord) => {
    out.options.push({
      spelling,
      name,
      spec,
      at,
      ...(value ? { value } : {}),
      ...(pairName ? { pairName } : {}),
    });
    applyModes(spec, value, out.modes);
  };

  // Set once a word that might be `--` was seen: later options might be operands instead.
  let maybeEnded = false;
  for (let i = 0; i < args.length; i++) {
    at = i;
    const word = args[i] as ShellWord;
    const known = !isUnknownWord(word);
    if (optionsEnded || !mayStartWithDash(word) || (known && word.value === '-')) {
      operand(word, i);
      continue;
    }
    if (known && word.value === '--') {
      optionsEnded = true;
      continue;
    }
    const prefix = staticPrefix(word);
    if (!known && !prefix.startsWith('-')) {
      // `$x`, `*.txt`, `{-o,x}`: an option, an operand, `--`, or nothing at all.
      out.anyOption.push(word);
      maybeEnded = true;
      operand(word, i);
      continue;
    }
    // After a possible `--`, or after an operand when POSIXLY_CORRECT stops getopt there, this
    // option and its value may be operands instead: they take part in the operand roles too.
    const maybeOperand = maybeEnded || (table.order === 'permute' && out.operands.length > 0);
    if (maybeOperand) out.operands.push({ word, index: out.operands.length, mayBeMany: true, at: i });
    const takeNext = (): ShellWord | undefined => {
      const next = args[i + 1];
      if (!next) return undefined;
      i++;
      if (maybeOperand) out.operands.push({ word: next, index: out.operands.length, mayBeMany: true, at: i });
      return next;
    };

    if (prefix.startsWith('--')) {
      const eq = prefix.indexOf('=');
      if (!known && eq < 0) {
        // `--fi$x`: the name itself is only known at run time (and `--$x` may be `--`).
        out.anyOption.push(word);
        maybeEnded = true;
        continue;
      }
      const written = eq < 0 ? prefix.slice(2) : prefix.slice(2, eq);
      const match = matchLong(table, written);
      if ('problem' in match) {
        fail(match.problem);
        continue;
      }
      const spelling = `--${written}`;
      const inline = eq < 0 ? undefined : sliceWord(word, eq + 1);
      const { spec } = match;
      if (spec.arity === 'none') {
        if (inline) fail(`${spelling} takes no value`);
        add(spelling, canonical(match.name), spec);
      } else if (spec.arity === 'optional') {
        add(spelling, canonical(match.name), spec, inline);
      } else if (spec.arity === 'pair') {
        const first = inline ?? takeNext();
        const second = takeNext();
        if (!first || !second) fail(`${spelling} needs two values`);
        add(spelling, canonical(match.name), spec, second, first);
      } else {
        const value = inline ?? takeNext();
        if (!value) fail(`${spelling} needs a value`);
        add(spelling, canonical(match.name), spec, value);
      }
      continue;
    }

    if (table.numeric && /^-[0-9]+$/.test(prefix) && known) {
      add(prefix, '-NUM', { arity: 'none', effect: 'flag' });
      continue;
    }
    // A short cluster: `-abc`, `-fFILE`, `-n5`.
    let j = 1;
    for (; j < prefix.length; j++) {
      const letter = prefix[j] as string;
      const spec = table.short.get(letter);
      if (!spec) {
        fail(`-${letter} is not an option this table knows`);
        break;
      }
      if (spec.arity === 'none') {
        add(`-${letter}`, canonical(letter), spec);
        continue;
      }
      const glued = j + 1 < word.value.length ? sliceWord(word, j + 1) : undefined;
      if (spec.arity === 'optional') add(`-${letter}`, canonical(letter), spec, glued);
      else if (spec.arity === 'pair') {
        const first = glued ?? takeNext();
        const second = takeNext();
        if (!first || !second) fail(`-${letter} needs two values`);
        add(`-${letter}`, canonical(letter), spec, second, first);
      } else {
        const value = glued ?? takeNext();
        if (!value) fail(`-${letter} needs a value`);
        add(`-${letter}`, canonical(letter), spec, value);
      }
      j = word.value.length;
      break;
    }
    // `-a$x`: the letters after the known ones are only known at run time.
    if (!known && j >= prefix.length && j < word.value.length) {
      out.anyOption.push(word);
      maybeEnded = true;
    }
  }
  return out;
}
