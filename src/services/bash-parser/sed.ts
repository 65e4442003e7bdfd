/**
 * Decides whether a `sed` invocation only prints. `sed -i` edits files and the `w`/`W` commands,
 * the `s///w` flag and the GNU `e` command/flag write files or run programs; anything this
 * scanner does not understand counts as not read-only.
 */

const FLAG_LETTERS = new Set(['n', 'E', 'r', 's', 'u', 'z', 'b']);
const LONG_FLAGS = new Set([
  '--quiet',
  '--silent',
  '--regexp-extended',
  '--separate',
  '--unbuffered',
  '--null-data',
  '--posix',
  '--debug',
  '--sandbox',
  '--follow-symlinks',
]);

/** Splits sed's arguments into scripts; undefined when an option makes it unsafe or unknown. */
function sedScripts(args: readonly string[]): string[] | undefined {
  const scripts: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      if (LONG_FLAGS.has(arg) || arg.startsWith('--line-length=')) continue;
      if (arg.startsWith('--expression=')) scripts.push(arg.slice('--expression='.length));
      else if (arg === '--expression' && i + 1 < args.length) scripts.push(args[++i] as string);
      else return undefined; // --in-place, --file and unknown options
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (FLAG_LETTERS.has(letter)) continue;
      if (letter === 'e' || letter === 'l') {
        const rest = arg.slice(j + 1);
        const value = rest !== '' ? rest : args[++i];
        if (value === undefined) return undefined;
        if (letter === 'e') scripts.push(value);
        break;
      }
      return undefined; // -i, -I, -f and unknown letters
    }
  }
  if (scripts.length === 0) {
    const first = positionals[0];
    if (first === undefined) return undefined;
    scripts.push(first);
  }
  return scripts;
}

/** Reads a delimited part (`/re/`, the parts of `s///`); returns the index after the delimiter. */
function skipDelimited(script: string, start: number, delimiter: string, brackets = true): number {
  let inBracket = false;
  for (let i = start; i < script.length; i++) {
    const ch = script[i];
    if (ch === '\\') i++;
    else if (inBracket) {
      if (ch === ']') inBracket = false;
    } else if (brackets && ch === '[' && delimiter !== '[') inBracket = true;
    else if (ch === delimiter) return i + 1;
  }
  return -1;
}

function skipAddress(script: string, start: number): number {
  let i = start;
  const ch = script[i];
  if (ch === '/' || ch === '\\') {
    const delimiter = ch === '/' ? '/' : script[i + 1];
    if (delimiter === undefined) return -1;
    i = skipDelimited(script, ch === '/' ? i + 1 : i + 2, delimiter);
    if (i < 0) return -1;
    while (script[i] === 'I' || script[i] === 'M') i++;
    return i;
  }
  if (ch === '$') return i + 1;
  const digits = /^[0-9]+(~[0-9]+)?/.exec(script.slice(i));
  return digits ? i + digits[0].length : i;
}

const SIMPLE_COMMANDS = new Set([
  'p',
  'P',
  'd',
  'D',
  'q',
  'Q',
  '=',
  'n',
  'N',
  'g',
  'G',
  'h',
  'H',
  'x',
  'l',
  'z',
  'F',
  '{',
  '}',
]);
const TO_LINE_END = new Set(['a', 'i', 'c', 'r', 'R', ':', 'b', 't', 'T', '#', 'v']);

/** `fileReads: false` also refuses `r`/`R`, which copy another file into the output. */
export type SedScriptOptions = { fileReads?: boolean };

/** True when every command of the script only reads input and prints. */
export function isSafeSedScript(script: string, options: SedScriptOptions = {}): boolean {
  let i = 0;
  while (i < script.length) {
    while (i < script.length && /[\s;]/.test(script[i] as string)) i++;
    if (i >= script.length) return true;
    i = skipAddress(script, i);
    if (i < 0) return false;
    if (script[i] === ',') {
      const next = script[i + 1] === '+' || script[i + 1] === '~' ? i + 2 : i + 1;
      const end = skipAddress(script, next);
      if (end <= next && !/[0-9]/.test(script[next] ?? '')) return false;
      i = end;
    }
    while (script[i] === ' ' || script[i] === '!') i++;
    const command = script[i];
    if (command === undefined) return false;
    i++;
    if (SIMPLE_COMMANDS.has(command)) {
      while (/[0-9 ]/.test(script[i] ?? '')) i++; // `q5`, `l 70`
      continue;
    }
    if (TO_LINE_END.has(command)) {
      if (options.fileReads === false && (command === 'r' || command === 'R')) return false;
      // Labels and branches end at `;` too; text and file names run to the end of the line.
      const stopAtSemicolon = command === ':' || command === 'b' || command === 't' || command === 'T';
      while (i < script.length && script[i] !== '\n' && !(stopAtSemicolon && script[i] === ';')) i++;
      continue;
    }
    if (command === 's' || command === 'y') {
      const delimiter = script[i];
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
      i = skipDelimited(script, i + 1, delimiter);
      if (i < 0) return false;
      // A replacement is not a regex: `[` in it is literal.
      i = skipDelimited(script, i, delimiter, command === 'y');
      if (i < 0) return false;
      if (command === 's') {
        const flags = /^[gpiImM0-9]*/.exec(script.slice(i))?.[0] ?? '';
        i += flags.length;
        // Any other flag letter (`w file`, `e`) writes a file or runs a command.
        if (/[A-Za-z]/.test(script[i] ?? '')) return false;
      }
      continue;
    }
    return false; // w, W, e and anything unknown
  }
  return true;
}

/** True when `sed` with these (static) arguments only prints: no -i, no -f, only safe scripts. */
export function isReadOnlySed(args: readonly string[], options: SedScriptOptions = {}): boolean {
  return sedScripts(args)?.every((script) => isSafeSedScript(script, options)) === true;
}
