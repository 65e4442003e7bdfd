/**
 * The paths a shell word touches: expanded as bash would (braces, `~`, globs), against every
 * folder its command may run in, each resolved through symlinks the way the kernel resolves it
 * from that folder; and which of a search's paths are read recursively.
 */
import { resolve } from 'node:path';
import { literalWord, type ShellWord } from '../services/bash-parser';
import type { SpelledPath } from './path-policy';
import type { PathFs, RealPath, RealPaths } from './real-paths';
import { recursiveSearch } from './recursive-search';
import type { ShellCwd } from './shell-cd';
import { type ExpansionEnv, expandWord } from './shell-expansion';

/**
 * A path a unit touches. `path` is absolute (as written, normalized), or undefined when only
 * the running shell knows it; `resolved` is where it really leads (symlinks followed the way
 * the kernel follows them), undefined when that lookup fails. A word with a glob or brace
 * expansion touches one path per word it expands to.
 */
export type TouchedPath = {
  path?: string;
  resolved?: RealPath;
  text: string;
  viaRedirect: boolean;
  /** A folder read with everything below it (`grep -r KEY .`, `rg KEY`). */
  recursive: boolean;
  /** For a recursive read: symlinks below it are followed (`grep -R`). Absent means they may be. */
  followsLinks?: boolean;
  /** For a recursive read: only names and metadata are read (`find`, `ls -R`), no file's content. */
  namesOnly?: boolean;
  /**
   * A recursive read only guessed: a folder given to a command without an option table, which may
   * or may not read what is below it. Checked against Read deny and ask rules only.
   */
  mayRecurse?: boolean;
  /** Why a path that looks known is only known when the line runs (another command may link it). */
  unknownBecause?: string;
};

/** The line names the variable other than to read it as `$NAME` (it may assign, export, read it). */
const mentions = (source: string, name: string) => new RegExp(`(^|[^$\\w{])${name}\\b`).test(source);

/** How this line's words expand: what the line may change (`HOME`, `PWD`, glob options) is unknown. */
export function expansionEnv(source: string, fs: PathFs, home: string): ExpansionEnv {
  return {
    fs,
    home: mentions(source, 'HOME') ? undefined : home,
    pwdKnown: !mentions(source, 'PWD'),
    globsKnown: !/\bshopt\b|GLOBIGNORE/.test(source),
  };
}

/** A touched path as the path policy judges it (undefined: only the running shell knows it). */
export function spelledPath(touched: TouchedPath): SpelledPath | undefined {
  if (touched.path === undefined) return undefined;
  return touched.resolved ? { path: touched.path, resolved: touched.resolved } : { path: touched.path };
}

const literalDot: ShellWord = { text: '.', value: '.', dynamic: false, glob: false, tilde: false };

export class ShellPaths {
  constructor(
    private readonly paths: RealPaths,
    readonly expansion: ExpansionEnv,
  ) {}

  /**
   * The paths a word names when its command runs in `cwd`: one per word it expands to and per
   * folder it may run in, each resolved the way the kernel resolves it from that folder.
   */
  touched(word: ShellWord, viaRedirect: boolean, cwd: ShellCwd): TouchedPath[] {
    const unknown = (): TouchedPath[] => [{ text: word.text, viaRedirect, recursive: false }];
    if (word.dynamic) return unknown();
    let words: string[];
    // The parser's `glob` flag misses braces inside a word (`../{a,b}/x`): look at the text.
    if (!word.glob && !word.tilde && !/[{*?[~]/.test(word.text)) words = [word.value];
    else {
      const dirs = 'unknown' in cwd ? [undefined] : cwd.dirs;
      words = [];
      for (const dir of dirs) {
        const expanded = expandWord(word.text, dir, this.expansion);
        if ('unknown' in expanded) return unknown();
        words.push(...expanded.words);
      }
      words = [...new Set(words)];
    }
    const out: TouchedPath[] = [];
    for (const value of words) {
      if (value.startsWith('/')) {
        out.push(this.spelled(word.text, viaRedirect, '/', value));
        continue;
      }
      if ('unknown' in cwd) return unknown();
      for (const dir of cwd.dirs) out.push(this.spelled(word.text, viaRedirect, dir, value));
    }
    return out;
  }

  private spelled(text: string, viaRedirect: boolean, dir: string, value: string): TouchedPath {
    const touched: TouchedPath = { path: resolve(dir, value), text, viaRedirect, recursive: false };
    const resolved = this.paths.from(dir, value);
    if (resolved) touched.resolved = resolved;
    // As written too: `/proc/self/cwd/../x` normalizes to no `cwd` at all.
    const written = `${value.startsWith('/') ? '' : dir}/${value}`.replace(/\/(\.?\/)+/g, '/');
    if ([written, touched.path as string, ...(resolved?.links ?? [])].some((p) => PER_PROCESS.test(p)))
      return { text, viaRedirect, recursive: false, unknownBecause: PER_PROCESS_WHY };
    return touched;
  }

  /**
   * The words bash passes for `args` in `cwd`, globs and braces matched against the disk as it
   * is now (`*.ts` → `a.ts b.ts`, or `*.ts` itself when nothing matches). Only for a line that
   * creates no file, so what is on disk now is what the shell will see. A word whose expansion
   * is not known stays as it is.
   */
  wordsAsPassed(args: readonly ShellWord[], cwd: ShellCwd): ShellWord[] {
    const dir = 'unknown' in cwd || cwd.dirs.length !== 1 ? undefined : cwd.dirs[0];
    return args.flatMap((word) => {
      if (dir === undefined || word.dynamic || !(word.glob || /[{*?[]/.test(word.text))) return [word];
      const expanded = expandWord(word.text, dir, this.expansion);
      return 'unknown' in expanded ? [word] : expanded.words.map(literalWord);
    });
  }

  /** `grep -r`, `rg`: their folders are read with everything below them (`.` when none is named). */
  markRecursive(reads: TouchedPath[], name: string, args: readonly ShellWord[], cwd: ShellCwd): void {
    const search = recursiveSearch(name, args);
    if (!search) return;
    const operandTexts = new Set(search.operands.map((i) => (args[i] as ShellWord).text));
    const mark = (touched: TouchedPath) => {
      touched.recursive = true;
      touched.followsLinks = search.followsLinks;
    };
    for (const touched of reads) {
      // Unsure which words are folders: every argument counts as one.
      if (!touched.viaRedirect && (search.implicitDot || operandTexts.has(touched.text))) mark(touched);
    }
    if (search.implicitDot) {
      for (const touched of this.touched(literalDot, false, cwd)) {
        // The option tables may have named the implied `.` already.
        const known = reads.find((read) => read.recursive && read.path === touched.path);
        if (known) mark(known);
        else {
          mark(touched);
          reads.push(touched);
        }
      }
    }
  }
}

/**
 * A process's own folder and open files under /proc (`/proc/self/cwd`, `/proc/<pid>/fd/3`, also
 * reached through `/dev/fd` and links): looked up here they are Yoke's, but the command that opens
 * them gets its own (calibrated: `cat /proc/self/cwd/.env` printed the file of the folder cat ran in).
 */
const PER_PROCESS = /^\/proc\/(self|thread-self|\d+)(\/task\/\d+)?\/(cwd|fd|map_files)(\/|$)/;
const PER_PROCESS_WHY = 'a /proc entry of the process that opens it';

/** `dd`'s operands that name files: `if=FILE` is read, `of=FILE` written (shell-danger.ts). */
const DD_FILE_OPERAND = /^[io]f=/;

/**
 * The path an argument of a command without a table may name: the word itself, the value of a
 * `--opt=./path` option (other options name no path), or the file of `dd if=FILE`.
 */
export function pathOfArgument(word: ShellWord, name?: string): ShellWord | undefined {
  if (name === 'dd' && DD_FILE_OPERAND.test(word.value))
    return {
      ...word,
      value: word.value.slice(3),
      text: word.text.slice(word.text.indexOf('=') + 1),
      tilde: word.value[3] === '~',
    };
  if (!word.value.startsWith('-')) return word;
  const eq = word.value.indexOf('=');
  if (!(eq > 0 && /^[~./]/.test(word.value.slice(eq + 1)))) return undefined;
  return {
    ...word,
    value: word.value.slice(eq + 1),
    text: word.text.slice(word.text.indexOf('=') + 1),
    tilde: word.value[eq + 1] === '~',
  };
}
