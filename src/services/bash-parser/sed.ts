/**
 * GNU sed 4.9, read the way its compiler reads a script (calibrated against sed 4.9 on Debian 12):
 * every command in any position — after `;`, a newline, `{`, addresses (`0,/re/`, `first~step`,
 * `addr,+N`, `addr,~N`, `$`, `/re/I`, `\%re%`), `!`, labels and `v` — with `r`/`R FILE` reading a
 * path, `w`/`W FILE` and `s///w FILE` writing one (sed creates it while compiling, even if the
 * script later fails), and `e`, `s///e` running the shell. File names and `a`/`i`/`c` text run to
 * the end of the line, `;` included; labels end at `;` or a blank.
 */
import { applyOperands, applyOptions, type CommandEffects, noEffects, refuse } from './command-effects';
import { isUnknownWord, parseArgs } from './option-parse';
import { compileTable, FLAG, mode, OPTIONAL, scriptFile, VALUE } from './option-table';
import type { ShellWord } from './types';
import { literalWord } from './words';

export type SedScriptEffects = {
  /** The command letters the script uses (`s`, `p`, `w`, `{`, …). */
  commands: Set<string>;
  /** `e` or `s///e`: runs the shell. */
  runs: boolean;
  /** `r`/`R` file names. */
  reads: string[];
  /** `w`/`W`/`s///w` file names (`/dev/stdout` and `/dev/stderr` are sed's own streams, not files). */
  writes: string[];
  /** Set when sed would reject the script; what was found up to there still counts. */
  error?: string;
};

/** True when the script only prints: nothing run, read or written beyond the input. */
export const sedPrintsOnly = (script: SedScriptEffects): boolean =>
  !script.error && !script.runs && script.reads.length === 0 && script.writes.length === 0;

/** True when the script only substitutes (what an in-place edit may do without running anything). */
export const isPureSubstitution = (script: SedScriptEffects): boolean =>
  sedPrintsOnly(script) &&
  [...script.commands].every((c) => c === 's' || c === '{' || c === '}' || c === '#');

const SED_STREAMS = new Set(['/dev/stdout', '/dev/stderr']);
const NO_ARGUMENT = new Set(['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);
const S_FLAGS = /[gpiImM0-9 \t]/;

class SedScanner {
  private i = 0;
  private depth = 0;
  readonly out: SedScriptEffects = { commands: new Set(), runs: false, reads: [], writes: [] };

  constructor(private readonly s: string) {}

  private get ch(): string | undefined {
    return this.s[this.i];
  }

  private fail(message: string): void {
    this.out.error ??= `${message} (at character ${this.i + 1})`;
  }

  private skipBlanks(): void {
    while (this.ch === ' ' || this.ch === '\t') this.i++;
  }

  private restOfLine(): string {
    const end = this.s.indexOf('\n', this.i);
    const stop = end < 0 ? this.s.length : end;
    const text = this.s.slice(this.i, stop);
    this.i = stop;
    return text;
  }

  /**
   * A part up to `delim`; `\\` escapes the next character. In a regex, bracket expressions
   * protect the delimiter (`s/[/]/x/`) and `\\` is literal inside them; a replacement and the
   * parts of `y` have no brackets.
   */
  private delimited(delim: string, brackets: boolean): boolean {
    while (this.i < this.s.length) {
      const c = this.s[this.i] as string;
      if (c === '\\') this.i += 2;
      else if (c === '\n') return false;
      else if (c === delim) {
        this.i++;
        return true;
      } else if (brackets && c === '[') {
        const end = this.bracketEnd(this.i);
        if (end < 0) return false;
        this.i = end + 1;
      } else this.i++;
    }
    return false;
  }

  /** Index of the `]` that closes the bracket expression opening at `start`, or -1. */
  private bracketEnd(start: number): number {
    let j = start + 1;
    if (this.s[j] === '^') j++;
    if (this.s[j] === ']') j++;
    while (j < this.s.length && this.s[j] !== ']') {
      const next = this.s[j + 1];
      if (this.s[j] === '[' && (next === ':' || next === '=' || next === '.')) {
        const close = this.s.indexOf(`${next}]`, j + 2);
        if (close < 0) return -1;
        j = close + 2;
      } else j++;
    }
    return j < this.s.length ? j : -1;
  }

  private address(second: boolean): boolean {
    const c = this.ch;
    if (c === undefined) return false;
    if (/[0-9]/.test(c) || (second && (c === '+' || c === '~'))) {
      this.i++;
      while (/[0-9]/.test(this.ch ?? '')) this.i++;
      if (this.ch === '~' && !second) {
        this.i++;
        while (/[0-9]/.test(this.ch ?? '')) this.i++;
      }
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      const delim = c === '/' ? '/' : this.s[this.i + 1];
      if (delim === undefined || delim === '\n' || delim === '\\') {
        this.fail('bad regex delimiter');
        return false;
      }
      this.i += c === '/' ? 1 : 2;
      if (!this.delimited(delim, true)) this.fail('unterminated address regex');
      while (this.ch === 'I' || this.ch === 'M') this.i++;
      return true;
    }
    return false;
  }

  /** After a command: blanks, then `;`, a newline, `}`, `#` or the end. */
  private endOfCommand(): void {
    this.skipBlanks();
    const c = this.ch;
    if (c === undefined || c === '\n' || c === ';' || c === '}' || c === '#') return;
    this.fail(`extra characters after command: ${c}`);
  }

  private fileName(kind: 'read' | 'write'): void {
    this.skipBlanks();
    const name = this.restOfLine();
    if (name === '') this.fail('missing file name');
    else if (kind === 'read') this.out.reads.push(name);
    else if (!SED_STREAMS.has(name)) this.out.writes.push(name);
  }

  private label(): void {
    this.skipBlanks();
    while (this.i < this.s.length && !/[\s;]/.test(this.s[this.i] as string)) this.i++;
  }

  private substitute(): void {
    const delim = this.ch;
    if (delim === undefined || delim === '\n' || delim === '\\') {
      this.fail('bad delimiter for s');
      return;
    }
    this.i++;
    if (!this.delimited(delim, true) || !this.delimited(delim, false)) {
      this.fail('unterminated s command');
      return;
    }
    while (this.ch !== undefined && S_FLAGS.test(this.ch)) this.i++;
    if (this.ch === 'e') {
      this.out.runs = true;
      this.i++;
      while (this.ch !== undefined && (S_FLAGS.test(this.ch) || this.ch === 'e')) this.i++;
    }
    if (this.ch === 'w') {
      this.i++;
      this.fileName('write');
      return;
    }
    this.endOfCommand();
  }

  scan(): SedScriptEffects {
    while (this.i < this.s.length && !this.out.error) {
      while (this.ch !== undefined && /[\s;]/.test(this.ch)) this.i++;
      if (this.ch === undefined) break;
      if (this.address(false)) {
        this.skipBlanks();
        if (this.ch === ',') {
          this.i++;
          this.skipBlanks();
          if (!this.address(true)) this.fail('missing second address');
        }
      }
      this.skipBlanks();
      if (this.ch === '!') {
        this.i++;
        this.skipBlanks();
        if (this.ch === '!') this.fail("multiple `!'s");
      }
      const command = this.ch;
      if (command === undefined) {
        this.fail('missing command');
        break;
      }
      this.i++;
      this.out.commands.add(command);
      this.command(command);
    }
    if (this.depth > 0) this.fail("unmatched `{'");
    return this.out;
  }

  private command(command: string): void {
    if (NO_ARGUMENT.has(command)) {
      this.endOfCommand();
      return;
    }
    switch (command) {
      case '{':
        this.depth++;
        break;
      case '}':
        if (this.depth === 0) this.fail("unexpected `}'");
        this.depth--;
        this.endOfCommand();
        break;
      case '#':
        this.restOfLine();
        break;
      // sed 4.9 ends a label at `;` or a blank and reads on: `:a w f` writes f.
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        this.label();
        break;
      case 'a':
      case 'i':
      case 'c':
        this.skipBlanks();
        if (this.ch === '\\') {
          this.i++;
          if (this.s[this.i] === '\n') this.i++;
        }
        // Text runs to an unescaped newline.
        while (this.i < this.s.length && this.s[this.i] !== '\n') this.i += this.s[this.i] === '\\' ? 2 : 1;
        break;
      case 'r':
      case 'R':
        this.fileName('read');
        break;
      case 'w':
      case 'W':
        this.fileName('write');
        break;
      case 'e':
        this.out.runs = true;
        this.restOfLine();
        break;
      case 'l':
      case 'q':
      case 'Q':
        this.skipBlanks();
        while (/[0-9]/.test(this.ch ?? '')) this.i++;
        this.endOfCommand();
        break;
      case 's':
        this.substitute();
        break;
      case 'y':
        this.transliterate();
        break;
      default:
        this.fail(`unknown command: ${command}`);
    }
  }

  private transliterate(): void {
    const delim = this.ch;
    if (delim === undefined || delim === '\n' || delim === '\\') {
      this.fail('bad delimiter for y');
      return;
    }
    this.i++;
    if (!this.delimited(delim, false) || !this.delimited(delim, false)) this.fail('unterminated y command');
    else this.endOfCommand();
  }
}

/** What a sed script does. Several `-e` scripts are joined with newlines, as sed does. */
export function sedScriptEffects(script: string): SedScriptEffects {
  return new SedScanner(script).scan();
}

export const SED_TABLE = compileTable({
  manual: 'GNU sed 4.9, sed --help',
  options: {
    'n quiet silent': FLAG,
    debug: FLAG,
    'e expression': VALUE,
    'f file': scriptFile('runs a sed script kept in a file, which cannot be checked'),
    'follow-symlinks': FLAG,
    'i in-place': { ...OPTIONAL, mode: 'inPlace' },
    'l line-length': VALUE,
    posix: FLAG,
    'E r regexp-extended': FLAG,
    's separate': FLAG,
    sandbox: mode('sandbox'),
    'u unbuffered': FLAG,
    'z null-data': FLAG,
    'b binary': FLAG,
    help: FLAG,
    version: FLAG,
  },
  operands: { leading: [], rest: 'read' },
});

export type SedInvocation = {
  /** `-i`/`--in-place`: the input files are rewritten. */
  inPlace: boolean;
  /** The script's effects, or undefined when part of it cannot be seen (`-f FILE`, `$x`). */
  script?: SedScriptEffects;
  /** The input files. */
  files: ShellWord[];
  effects: CommandEffects;
};

/** Reads a whole `sed` command line: its options, its script and its files. */
export function analyzeSed(args: readonly ShellWord[]): SedInvocation {
  const effects = noEffects();
  const parsed = parseArgs(SED_TABLE, args);
  applyOptions('sed', SED_TABLE, parsed, effects);
  const parts: ShellWord[] = parsed.options
    .filter((o) => o.name === '--expression' && o.value)
    .map((o) => o.value as ShellWord);
  const fromFile = parsed.options.some((o) => o.name === '--file');
  let operands = parsed.operands;
  if (parts.length === 0 && !fromFile) {
    const first = operands[0];
    if (first && !first.mayBeMany) {
      parts.push(first.word);
      operands = operands.slice(1).map((o) => ({ ...o, index: o.index - 1 }));
    } else if (first) {
      refuse(effects, `sed: the script ${first.word.text} is only known when it runs`);
      effects.runs = effects.notReadOnly;
    } else refuse(effects, 'sed: no script');
  }
  // A script from a file may hold `e`: it runs whatever it says.
  if (fromFile) effects.runs = 'sed -f runs a script kept in a file, which cannot be checked';
  const inPlace = parsed.modes.has('inPlace');
  const files = operands.map((o) => o.word);
  applyOperands('sed', { leading: [], rest: 'read' }, operands, effects);
  if (inPlace) {
    for (const word of files) effects.writes.push({ word, recursive: false });
    refuse(effects, 'sed -i edits its files in place');
  }

  let script: SedScriptEffects | undefined;
  const hidden = parts.find((p) => isUnknownWord(p));
  if (hidden) {
    refuse(effects, `sed: the script ${hidden.text} is only known when it runs`);
    effects.runs ??= `sed: the script ${hidden.text} is only known when it runs`;
  } else if (!fromFile && parts.length > 0) {
    script = sedScriptEffects(parts.map((p) => p.value).join('\n'));
    // --sandbox makes sed refuse a script with e/r/w before it does anything.
    if (!parsed.modes.has('sandbox')) {
      for (const name of script.reads) effects.reads.push({ word: literalWord(name), recursive: false });
      for (const name of script.writes) effects.writes.push({ word: literalWord(name), recursive: false });
      if (script.runs) {
        refuse(effects, 'sed: the script runs a shell command (`e` or s///e)');
        effects.runs = 'sed: the script runs a shell command (`e` or s///e)';
      }
      if (script.writes.length > 0) refuse(effects, `sed: the script writes ${script.writes.join(', ')}`);
    }
    if (script.error) refuse(effects, `sed would reject the script: ${script.error}`);
  }
  return { inPlace, ...(script ? { script } : {}), files, effects };
}

export function sedEffects(args: readonly ShellWord[]): CommandEffects {
  return analyzeSed(args).effects;
}
