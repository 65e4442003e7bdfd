/**
 * `find` (GNU findutils 4.9, `find --help` and find(1)): `find [-H|-L|-P] [-D opts] [-Olevel]
 * [START…] [EXPRESSION]`. The expression is a predicate language of its own, so it gets its own
 * table: which predicates take values, which read metadata of another path (`-newer`), which
 * write (`-fprint`, `-delete`) and which run programs (`-exec`).
 */
import { type CommandEffects, noEffects, refuse } from './command-effects';
import { isUnknownWord, mayStartWithDash } from './option-parse';
import type { ShellWord } from './types';
import { literalWord } from './words';

type Predicate =
  | { kind: 'flag' }
  | { kind: 'value' }
  /** The value is a path whose metadata is compared (`-newer FILE`). */
  | { kind: 'read' }
  | { kind: 'readList'; why: string }
  /** Writes its value (a file), with `extra` more values after it (`-fprintf FILE FORMAT`). */
  | { kind: 'write'; why: string; extra?: number }
  | { kind: 'delete' }
  /** `-exec CMD… ;` and friends: runs a command. */
  | { kind: 'exec' };

const table = (kind: Predicate, names: string): Array<[string, Predicate]> =>
  names.split(/\s+/).map((name) => [name, kind]);

export const FIND_PREDICATES: ReadonlyMap<string, Predicate> = new Map<string, Predicate>([
  // Options, tests and actions without a value.
  ...table(
    { kind: 'flag' },
    `-d -depth -follow -ignore_readdir_race -noignore_readdir_race -mount -xdev -noleaf -daystart
     -warn -nowarn -help --help -version --version -empty -executable -false -true -nogroup
     -nouser -readable -writable -print -print0 -ls -prune -quit -not -a -and -o -or ( ) ! ,`,
  ),
  // Tests and options with a harmless value.
  ...table(
    { kind: 'value' },
    `-amin -atime -cmin -ctime -mmin -mtime -used -fstype -gid -uid -group -user -ilname -iname
     -inum -ipath -iregex -iwholename -links -lname -name -path -perm -regex -size -type -xtype
     -wholename -maxdepth -mindepth -regextype -context -printf`,
  ),
  ...table({ kind: 'read' }, '-newer -anewer -cnewer -samefile'),
  [
    '-files0-from',
    { kind: 'readList', why: 'reads the folders to search from a file, so what it reads cannot be checked' },
  ],
  ['-fprint', { kind: 'write', why: 'writes the names it finds to a file' }],
  ['-fprint0', { kind: 'write', why: 'writes the names it finds to a file' }],
  ['-fls', { kind: 'write', why: 'writes a listing to a file' }],
  ['-fprintf', { kind: 'write', why: 'writes formatted output to a file', extra: 1 }],
  ['-delete', { kind: 'delete' }],
  ...table({ kind: 'exec' }, '-exec -execdir -ok -okdir'),
]);

/** `-newerXY REF`: X and Y name timestamps; when Y is `t` the reference is a date, else a file. */
const NEWER_XY = /^-newer[aBcm]([aBcmt])$/;

function predicate(name: string): Predicate | undefined {
  const known = FIND_PREDICATES.get(name);
  if (known) return known;
  const newer = NEWER_XY.exec(name);
  if (newer) return newer[1] === 't' ? { kind: 'value' } : { kind: 'read' };
  return undefined;
}

/** Index of the first word after find's own leading options (`-H -L -P -D opts -O3`), or -1. */
function skipLeadingOptions(args: readonly ShellWord[]): number {
  let i = 0;
  while (i < args.length) {
    const word = args[i] as ShellWord;
    if (isUnknownWord(word)) return i;
    const value = word.value;
    if (value === '-H' || value === '-L' || value === '-P' || /^-O[0-9]*$/.test(value)) i++;
    else if (value === '-D') i += 2;
    else if (value === '--') return i + 1;
    else return i;
  }
  return i;
}

const isExpressionStart = (word: ShellWord) =>
  !isUnknownWord(word) && (word.value.startsWith('-') || word.value === '(' || word.value === '!');

/** `-L` (the last of `-H`/`-L`/`-P` before the start points wins) or `-follow`: links below are followed. */
function followsLinks(args: readonly ShellWord[], start: number): boolean {
  const leading = args
    .slice(0, start)
    .map((w) => w.value)
    .filter((v) => v === '-H' || v === '-L' || v === '-P');
  return leading.at(-1) === '-L' || args.some((w, i) => i >= start && w.value === '-follow');
}

export function findEffects(args: readonly ShellWord[]): CommandEffects {
  const effects = noEffects();
  let i = skipLeadingOptions(args);
  // find lists names and metadata; it reads no file's content.
  const below = { recursive: true, namesOnly: true, followsLinks: followsLinks(args, i) };
  let starts = 0;
  // Start points run until the first word that begins an expression.
  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (isExpressionStart(word) && word.value !== '-') break;
    // `find "$d"` or `find *` may expand to `-delete` or `-exec …`: an expression, not a folder.
    if (isUnknownWord(word) && mayStartWithDash(word))
      refuse(effects, `find: ${word.text} may expand to an action such as -exec or -delete`);
    effects.reads.push({ word, ...below });
    starts++;
  }
  if (starts === 0) effects.reads.push({ word: literalWord('.'), ...below });

  for (; i < args.length; i++) {
    const word = args[i] as ShellWord;
    if (isUnknownWord(word)) {
      refuse(effects, `find: ${word.text} may expand to an action such as -exec or -delete`);
      continue;
    }
    const name = word.value;
    const found = predicate(name);
    if (!found) {
      refuse(effects, `find: ${name} is not a predicate this table knows`);
      continue;
    }
    const value = args[i + 1];
    switch (found.kind) {
      case 'flag':
        break;
      case 'value':
        i++;
        break;
      case 'read':
        if (value) effects.reads.push({ word: value, recursive: false });
        i++;
        break;
      case 'readList':
        if (value) effects.reads.push({ word: value, recursive: false });
        refuse(effects, `find ${name} ${found.why}`);
        i++;
        break;
      case 'write':
        if (value) effects.writes.push({ word: value, recursive: false });
        refuse(effects, `find ${name} ${found.why}`);
        i += 1 + (found.extra ?? 0);
        break;
      case 'delete':
        refuse(effects, 'find -delete deletes every file it matches');
        break;
      case 'exec': {
        refuse(effects, `find ${name} runs a command on what it finds`);
        // The command runs to `;`, or to `+` right after `{}`.
        for (i++; i < args.length; i++) {
          const part = (args[i] as ShellWord).value;
          if (part === ';' || (part === '+' && (args[i - 1] as ShellWord).value === '{}')) break;
        }
        break;
      }
    }
  }
  return effects;
}
