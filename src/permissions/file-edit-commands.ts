/**
 * Which shell commands `acceptEdits` may take as plain file edits: they create, copy, move or
 * rewrite files and run nothing. In-place editors are scripting languages, so only a `sed -i`
 * whose script is proven to be pure text editing qualifies — never `perl -i` (`perl -pi -e
 * 'system(…)'` runs anything), `ruby -i` or `awk -i inplace` (`system()`). Each class was run for
 * real in a scratch folder: `sed -i 's/x/cmd/e'`, `sed -i '1e cmd'`, `sed -i 's/x/y/w /tmp/f'`,
 * `sed -i '1r /etc/x'` (copies another file in), `sed -i'/tmp/*'` (backup to /tmp/<name>),
 * `perl -pi -e 'system(…)'`, `install -s --strip-program=prog` (runs prog) and `cp -t dir f`
 * (writes into `dir`, not `f`) all did what they say.
 */
import { basename, dirname, join } from 'node:path';
import { analyzeSed, literalWord, type ShellWord, sedPrintsOnly } from '../services/bash-parser';
import { FILE_WRITING_COMMANDS } from './shell-danger';

/** What a command does as a file edit: whether acceptEdits may take it, and backup files it writes. */
export type FileEdit = { plainEdit: boolean; backups: string[] };

const NOT_AN_EDIT: FileEdit = { plainEdit: false, backups: [] };

/** `sed -i`'s options apart, so the rest can go through the read-only sed check unchanged. */
type InPlaceSplit = { inPlace: boolean; suffix: string; rest: string[] };

const SED_VALUE_LETTERS = new Set(['e', 'f', 'l']);
const SED_VALUE_LONG = new Set(['--expression', '--file', '--line-length']);

/**
 * Separates `-i[SUFFIX]` / `--in-place[=SUFFIX]` from sed's other arguments, as getopt reads them:
 * `-ni` is `-n -i`, but `-in` is `-i` with the suffix `n`, and the word after `-e` is a script
 * even when it looks like `-i`.
 */
function splitInPlace(args: readonly string[]): InPlaceSplit {
  const split: InPlaceSplit = { inPlace: false, suffix: '', rest: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      split.rest.push(...args.slice(i));
      break;
    }
    if (arg === '--in-place' || arg.startsWith('--in-place=')) {
      split.inPlace = true;
      split.suffix = arg.slice('--in-place='.length);
      continue;
    }
    if (SED_VALUE_LONG.has(arg)) {
      split.rest.push(arg, ...args.slice(i + 1, i + 2));
      i++;
      continue;
    }
    if (!/^-[^-]/.test(arg)) {
      split.rest.push(arg);
      continue;
    }
    let kept = '-';
    let valueFollows = false;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (letter === 'i') {
        split.inPlace = true;
        split.suffix = arg.slice(j + 1);
        break;
      }
      kept += letter;
      if (SED_VALUE_LETTERS.has(letter)) {
        kept += arg.slice(j + 1);
        valueFollows = j + 1 === arg.length;
        break;
      }
    }
    if (kept !== '-') split.rest.push(kept);
    if (valueFollows && i + 1 < args.length) split.rest.push(args[++i] as string);
  }
  return split;
}

/**
 * GNU sed's backup name: a `*` in the suffix stands for the file's name (and a suffix with a `/`
 * then names a path of its own, from the working directory); otherwise the suffix is appended.
 */
function backupName(file: string, suffix: string): string {
  if (!suffix.includes('*')) return `${file}${suffix}`;
  const name = suffix.replaceAll('*', basename(file));
  return name.includes('/') ? name : join(dirname(file), name);
}

/**
 * `sed -i` edits its files and nothing else when every script only edits text (no `e`, `w`, `W`,
 * `r`, `R`, no `s///e` or `s///w`) and no option is unknown. Its backups (`-i.bak`) are written
 * files either way, checked like the others.
 */
function sedEdit(args: readonly string[], files: readonly string[]): FileEdit {
  const { inPlace, suffix, rest } = splitInPlace(args);
  if (!inPlace) return NOT_AN_EDIT;
  const backups = suffix === '' ? [] : files.map((file) => backupName(file, suffix));
  // The one call into sed's script scanner (bash-parser/sed.ts): text editing only — no `e`,
  // `r`, `R`, `w`, `W`, no unknown option, and a script that can be seen.
  const sed = analyzeSed(rest.map(literalWord));
  const plainEdit = sed.script !== undefined && sedPrintsOnly(sed.script) && !sed.effects.notReadOnly;
  return { plainEdit, backups };
}

/** Options of the copy-like commands that run a program or write somewhere not in their arguments. */
function runsOrRedirects(name: string, args: readonly string[]): boolean {
  return args.some((arg) => {
    if (arg === '--') return false;
    // `install -s` runs `strip` (or `--strip-program`); `-t DIR` writes into DIR, `-S`/`--suffix`
    // names backup files.
    if (/^--(strip|strip-program|target-directory|suffix)(=|$)/.test(arg)) return true;
    if (!/^-[^-]/.test(arg)) return false;
    const letters = name === 'install' ? /[stS]/ : /[tS]/;
    return name !== 'touch' && name !== 'mkdir' && name !== 'tee' && letters.test(arg.slice(1));
  });
}

/**
 * A word the shell may turn into an option: it starts with an expansion or a glob (`$OPT`, `*`
 * matching a planted file named `-t.git`), or a brace alternative starts with a dash.
 */
const mayBecomeOption = (word: ShellWord) =>
  (word.dynamic || word.glob) && (/^[$`*?[]/.test(word.value) || /^\{(?:[^}]*,)?-/.test(word.value));

/**
 * Whether acceptEdits may take `name args` as a file edit. `written` are the files the command
 * writes as the shell analysis found them, static ones only (for backup names).
 */
export function fileEditOf(name: string, args: readonly ShellWord[], written: readonly string[]): FileEdit {
  const values = args.map((word) => word.value);
  if (name === 'sed') {
    const edit = sedEdit(values, written);
    // A script or option only known at run time proves nothing.
    return args.some((word) => word.dynamic || word.glob) ? { ...edit, plainEdit: false } : edit;
  }
  if (!FILE_WRITING_COMMANDS.has(name)) return NOT_AN_EDIT;
  return { plainEdit: !runsOrRedirects(name, values) && !args.some(mayBecomeOption), backups: [] };
}
