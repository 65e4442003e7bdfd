/**
 * Which arguments of `grep -r` and `rg` are folders searched recursively, and whether the search
 * follows symlinks. A recursive search reads every file below its folders, so deny rules on any
 * of them apply (see deny-walk.ts). With no folder given, `grep -r` and `rg` search `.`.
 *
 * This reads only what it needs: the options that take a value (so an option's value is not
 * taken for a folder) and the ones that switch recursion or link-following on. Where an option
 * is not recognised, its next word might be its value, so the implicit `.` is assumed too —
 * the answer may be wider than the truth, never narrower. (The full per-command option tables
 * of the read-only commands are expected to supersede this for `recursive`.)
 */
import type { ShellWord } from '../services/bash-parser';

export type RecursiveSearch = {
  /** Argument indices (into `args`) that are searched recursively. */
  operands: number[];
  /** `.` is searched too (no folder was named, or the options could not all be read). */
  implicitDot: boolean;
  /** Symlinks met below a folder are followed (`grep -R`, `rg -L`). */
  followsLinks: boolean;
};

type Grammar = {
  /** Short options that take a value (glued, `-A3`, or as the next word). */
  shortWithValue: string;
  longWithValue: readonly string[];
  longFlags: readonly string[];
  /** Options naming the pattern, so every operand is a path. */
  patternOptions: readonly string[];
};

const GREP: Grammar = {
  shortWithValue: 'ABCDdefm',
  longWithValue: [
    '--after-context',
    '--before-context',
    '--context',
    '--devices',
    '--directories',
    '--regexp',
    '--file',
    '--max-count',
    '--label',
    '--include',
    '--exclude',
    '--exclude-from',
    '--exclude-dir',
    '--binary-files',
    '--group-separator',
  ],
  longFlags: [
    '--recursive',
    '--dereference-recursive',
    '--ignore-case',
    '--no-ignore-case',
    '--invert-match',
    '--word-regexp',
    '--line-regexp',
    '--count',
    '--files-with-matches',
    '--files-without-match',
    '--only-matching',
    '--quiet',
    '--silent',
    '--no-messages',
    '--byte-offset',
    '--with-filename',
    '--no-filename',
    '--line-number',
    '--no-line-number',
    '--initial-tab',
    '--null',
    '--null-data',
    '--text',
    '--extended-regexp',
    '--fixed-strings',
    '--basic-regexp',
    '--perl-regexp',
    '--line-buffered',
    '--color',
    '--colour',
    '--no-group-separator',
  ],
  patternOptions: ['-e', '-f', '--regexp', '--file'],
};

const RG: Grammar = {
  shortWithValue: 'ABCEefgjMmrTtd',
  longWithValue: [
    '--after-context',
    '--before-context',
    '--color',
    '--colors',
    '--context',
    '--context-separator',
    '--dfa-size-limit',
    '--encoding',
    '--engine',
    '--field-context-separator',
    '--field-match-separator',
    '--file',
    '--glob',
    '--iglob',
    '--ignore-file',
    '--max-columns',
    '--max-count',
    '--max-depth',
    '--max-filesize',
    '--path-separator',
    '--pre',
    '--pre-glob',
    '--regex-size-limit',
    '--regexp',
    '--replace',
    '--sort',
    '--sortr',
    '--threads',
    '--type',
    '--type-add',
    '--type-clear',
    '--type-not',
    '--hyperlink-format',
    '--hostname-bin',
    '--generate',
  ],
  longFlags: [
    '--hidden',
    '--no-hidden',
    '--no-ignore',
    '--ignore',
    '--files',
    '--files-with-matches',
    '--files-without-match',
    '--count',
    '--count-matches',
    '--ignore-case',
    '--smart-case',
    '--case-sensitive',
    '--fixed-strings',
    '--word-regexp',
    '--line-regexp',
    '--invert-match',
    '--line-number',
    '--no-line-number',
    '--with-filename',
    '--no-filename',
    '--heading',
    '--no-heading',
    '--vimgrep',
    '--json',
    '--multiline',
    '--multiline-dotall',
    '--only-matching',
    '--no-messages',
    '--quiet',
    '--follow',
    '--no-follow',
    '--text',
    '--binary',
    '--search-zip',
    '--pcre2',
    '--unrestricted',
    '--null',
    '--column',
    '--trim',
    '--stats',
    '--no-config',
    '--sort-files',
    '--passthru',
    '--crlf',
    '--byte-offset',
    '--no-ignore-vcs',
    '--no-ignore-parent',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-files',
    '--no-ignore-exclude',
    '--one-file-system',
    '--max-columns-preview',
    '--no-unicode',
    '--glob-case-insensitive',
    '--no-require-git',
    '--include-zero',
    '--pretty',
  ],
  patternOptions: ['-e', '-f', '--regexp', '--file'],
};

const GREP_NAMES = new Set(['grep', 'egrep', 'fgrep']);

/** The full long option an abbreviation stands for (GNU and rg accept unique prefixes). */
function longName(option: string, grammar: Grammar): string | undefined {
  const all = [...grammar.longWithValue, ...grammar.longFlags];
  if (all.includes(option)) return option;
  const candidates = all.filter((name) => name.startsWith(option));
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** Undefined when `name` is not a recursive search with these arguments. */
export function recursiveSearch(name: string, args: readonly ShellWord[]): RecursiveSearch | undefined {
  const isRg = name === 'rg';
  if (!isRg && !GREP_NAMES.has(name)) return undefined;
  const grammar = isRg ? RG : GREP;
  let recursive = isRg;
  let follows = false;
  let unsure = false;
  let patternGiven = false;
  let listsFiles = false;
  const positionals: number[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    const value = word.value;
    if (!options || word.dynamic || !value.startsWith('-') || value === '-') {
      // A dynamic word may be an option as well as a path: it counts as both.
      if (word.dynamic) unsure = true;
      positionals.push(i);
      continue;
    }
    if (value === '--') {
      options = false;
      continue;
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const long = longName(eq > 0 ? value.slice(0, eq) : value, grammar);
      const inline = eq > 0 ? value.slice(eq + 1) : undefined;
      if (!long) {
        unsure = true;
        continue;
      }
      if (grammar.patternOptions.includes(long)) patternGiven = true;
      if (long === '--recursive') recursive = true;
      if (long === '--dereference-recursive' || long === '--follow') {
        recursive = true;
        follows = true;
      }
      if (long === '--no-follow') follows = false;
      if (long === '--files') listsFiles = true;
      if (grammar.longWithValue.includes(long)) {
        const optionValue = inline ?? args[i + 1]?.value;
        if (long === '--directories' && optionValue === 'recurse') recursive = true;
        if (inline === undefined) i++;
      }
      continue;
    }
    // A cluster of short options: a value-taking letter ends it, with the rest as its value.
    for (let j = 1; j < value.length; j++) {
      const letter = value[j] as string;
      // (rg's -r is --replace, which takes a value: the table below has it.)
      if (letter === 'r' && !isRg) recursive = true;
      if (letter === 'R' && !isRg) {
        recursive = true;
        follows = true;
      }
      if (letter === 'L' && isRg) follows = true;
      if (grammar.shortWithValue.includes(letter)) {
        const inline = value.slice(j + 1);
        const optionValue = inline === '' ? args[i + 1]?.value : inline;
        if (letter === 'e' || letter === 'f') patternGiven = true;
        if (!isRg && letter === 'd' && optionValue === 'recurse') recursive = true;
        if (inline === '') i++;
        break;
      }
    }
  }
  if (!recursive) return undefined;
  const operands = patternGiven || listsFiles ? positionals : positionals.slice(1);
  return { operands, implicitDot: operands.length === 0 || unsure, followsLinks: follows };
}
