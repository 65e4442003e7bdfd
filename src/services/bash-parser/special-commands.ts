/**
 * Commands whose argument grammar is not getopt's: `jq` (filter, then files or `--args`
 * strings), `xxd` (single-dash long options matched by their first letter), the `printf` builtin
 * (`-v NAME` assigns a variable) and binutils `strings` (`@FILE` reads more arguments from FILE).
 */
import {
  applyOperands,
  applyOptions,
  type CommandEffects,
  noEffects,
  refuse,
  tableEffects,
} from './command-effects';
import { isUnknownWord, mayStartWithDash, type Operand, parseArgs } from './option-parse';
import {
  compileTable,
  FILES,
  FLAG,
  mode,
  type OptionSpec,
  type OptionTable,
  READ,
  scriptFile,
  type TableSource,
  VALUE,
} from './option-table';
import { fileTables } from './tables/files';
import type { ShellWord } from './types';

const pair = (spec: OptionSpec): OptionSpec => ({ ...spec, arity: 'pair' });

/** jq 1.6 (Debian 12) and 1.7: `jq --help`, jq(1), and main.c's option loop. */
export const JQ_TABLE = compileTable({
  manual: 'jq 1.6 / 1.7, jq --help and jq(1)',
  options: {
    's slurp': FLAG,
    'r raw-output': FLAG,
    'raw-output0': FLAG,
    'j join-output': FLAG,
    'a ascii-output': FLAG,
    'n null-input': FLAG,
    'R raw-input': FLAG,
    'C color-output': FLAG,
    'M monochrome-output': FLAG,
    'S sort-keys': FLAG,
    'c compact-output': FLAG,
    'e exit-status': FLAG,
    'b binary': FLAG,
    // The filter operand names a file holding the program.
    'f from-file': mode('fromFile'),
    tab: FLAG,
    indent: VALUE,
    seq: FLAG,
    stream: FLAG,
    'stream-errors': FLAG,
    unbuffered: FLAG,
    'h help': FLAG,
    'V version': FLAG,
    arg: pair(VALUE),
    argjson: pair(VALUE),
    slurpfile: pair(READ),
    rawfile: pair(READ),
    'args jsonargs': mode('args'),
    'L library-path': { ...READ, recursive: true },
    'debug-dump-disasm': FLAG,
    'debug-trace': FLAG,
    'run-tests': scriptFile('runs the jq programs of a test file', 'none'),
  },
  operands: FILES,
});

/** Filter words that load jq modules from the search path (`~/.jq`, `-L`, or any relative path). */
const LOADS_MODULES = /\b(import|include|modulemeta|get_search_list)\b/;

export function jqEffects(args: readonly ShellWord[]): CommandEffects {
  const effects = noEffects();
  const parsed = parseArgs(JQ_TABLE, args);
  applyOptions('jq', JQ_TABLE, parsed, effects);
  const [filter, ...rest] = parsed.operands;
  if (!filter) return effects;
  if (parsed.modes.has('fromFile')) {
    effects.reads.push({ word: filter.word, recursive: false });
    refuse(effects, `jq -f reads its program from ${filter.word.text}, which cannot be checked`);
  } else if (filter.mayBeMany || isUnknownWord(filter.word)) {
    refuse(effects, `jq: the filter ${filter.word.text} is only known when it runs`);
  } else if (LOADS_MODULES.test(filter.word.value)) {
    refuse(effects, 'jq: the filter loads modules, which can read files anywhere');
  }
  // After `--args`/`--jsonargs`, operands are strings for $ARGS, not files.
  const argsAt = parsed.options.find((o) => o.name === '--args' || o.name === '--jsonargs')?.at ?? Infinity;
  const files: Operand[] = rest.filter((o) => o.at < argsAt).map((o, index) => ({ ...o, index }));
  applyOperands('jq', { leading: [], rest: 'read' }, files, effects);
  return effects;
}

/** xxd options whose value may be glued (`-c8`) or spelt out (`-cols 8`): the long spelling after the letter. */
const XXD_VALUE_OPTIONS: Readonly<Record<string, string>> = {
  c: 'ols',
  g: 'roupsize',
  l: 'en',
  n: 'ame',
  o: 'ffset',
  s: 'eek',
  R: '',
};
const XXD_FLAGS = new Set(['a', 'b', 'C', 'E', 'e', 'h', 'i', 'p', 'r', 'd', 'u', 'v']);

/**
 * xxd (vim 9.0, `xxd -h` and xxd.c): options are matched by their first letter (`-ps`, `-postscript`,
 * `--revert`), stop at the first operand; `xxd [options] [infile [outfile]]` writes outfile.
 */
export function xxdEffects(args: readonly ShellWord[]): CommandEffects {
  const effects = noEffects();
  const operands: Operand[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (isUnknownWord(word)) break;
    const value = word.value.startsWith('--') && word.value.length > 2 ? word.value.slice(1) : word.value;
    if (value === '-') break;
    if (value === '--') {
      i++;
      break;
    }
    if (!value.startsWith('-')) break;
    const letter = value[1] as string;
    const tail = value.slice(2);
    const spelled = XXD_VALUE_OPTIONS[letter];
    if (spelled !== undefined) {
      if (letter === 'c' && tail !== '' && 'apitalize'.startsWith(tail)) continue;
      // Spelt out (or bare): the value is the next word; otherwise it is glued on.
      if (tail === '' || (spelled !== '' && spelled.startsWith(tail))) i++;
      continue;
    }
    if (!XXD_FLAGS.has(letter)) refuse(effects, `xxd: ${value} is not an option this table knows`);
  }
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    operands.push({ word, index: operands.length, mayBeMany: isUnknownWord(word), at: i });
  }
  applyOperands('xxd', { leading: ['read'], rest: 'write' }, operands, effects);
  return effects;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The bash `printf` builtin: `printf [-v NAME] FORMAT [ARGUMENTS…]`; only `-v` writes anything. */
export function printfEffects(args: readonly ShellWord[]): CommandEffects {
  const effects = noEffects();
  const first = args[0];
  if (!first) return effects;
  if (isUnknownWord(first) && mayStartWithDash(first)) {
    refuse(effects, `printf: ${first.text} may expand to -v, which assigns a variable`);
    return effects;
  }
  let name: ShellWord | undefined;
  if (first.value === '-v') name = args[1];
  else if (first.value.startsWith('-v')) name = { ...first, value: first.value.slice(2) };
  else if (first.value.startsWith('-') && first.value !== '--' && first.value !== '-')
    refuse(effects, `printf: ${first.value} is not an option of printf`);
  if (first.value.startsWith('-v') && (!name || isUnknownWord(name) || !IDENTIFIER.test(name.value)))
    refuse(effects, `printf -v assigns ${name?.text ?? 'nothing'}, which is not a plain variable name`);
  return effects;
}

let stringsTable: OptionTable | undefined;

/** binutils `strings`: getopt, plus `@FILE`, which reads more options and file names from FILE. */
export function stringsEffects(args: readonly ShellWord[]): CommandEffects {
  stringsTable ??= compileTable(fileTables().strings as TableSource);
  const effects = tableEffects('strings', stringsTable, args);
  const response = args.find((w) => w.value.startsWith('@') || (isUnknownWord(w) && mayStartWithDash(w)));
  if (response)
    refuse(
      effects,
      `strings ${response.text} may read more arguments from a file, so what it reads cannot be checked`,
    );
  return effects;
}
