/**
 * The files a copy or move creates inside its destination folder, for the protected-file check:
 * `cp payload/.envrc .` writes `./.envrc`, `cp -t .git/hooks pre-commit` writes
 * `.git/hooks/pre-commit`, and `cp -r payload/. .` writes everything `payload` holds (a repository
 * may ship `payload/.husky/pre-commit`), and `mv -b -S ributes a .gitatt` keeps the old file as
 * `.gitattributes`. The shell analysis names the destination; this names what lands in it.
 * Calibrated in a scratch folder: each of these created the protected file.
 */
import { lstat, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ShellWord } from '../services/bash-parser';
import { globToRegExp, resolveUserPath } from './path-rules';
import type { ShellUnit } from './shell-unit';

/** Options that take a value, per command (short letters, long names without `=`). */
const VALUE_OPTIONS: Readonly<Record<string, { short: string; long: readonly string[] }>> = {
  cp: { short: 'tS', long: ['--target-directory', '--suffix'] },
  mv: { short: 'tS', long: ['--target-directory', '--suffix'] },
  ln: { short: 'tS', long: ['--target-directory', '--suffix'] },
  install: {
    short: 'tSmogC',
    long: ['--target-directory', '--suffix', '--mode', '--owner', '--group', '--strip-program'],
  },
};

/** A bounded walk: past this many entries the contents count as unknown. */
const MAX_WALK = 2000;

type CopyArgs = {
  sources: ShellWord[];
  dest?: ShellWord;
  recursive: boolean;
  /** `-b`/`--backup`: an existing destination is kept under its name plus this suffix. */
  backup: boolean;
  suffix?: ShellWord;
};

function copyArgs(name: string, args: readonly ShellWord[]): CopyArgs | undefined {
  const spec = VALUE_OPTIONS[name];
  if (!spec) return undefined;
  const positionals: ShellWord[] = [];
  let target: ShellWord | undefined;
  let recursive = name === 'mv';
  let backup = false;
  let suffix: ShellWord | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as ShellWord;
    const arg = word.value;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [option = '', value] = arg.split(/=(.*)/s);
      if (option === '--recursive' || option === '--archive') recursive = true;
      if (option === '--backup') backup = true;
      const takesValue = spec.long.includes(option);
      const valueWord = value !== undefined ? { ...word, value } : takesValue ? args[++i] : undefined;
      if (option === '--target-directory' && valueWord) target = valueWord;
      if (option === '--suffix' && valueWord) [backup, suffix] = [true, valueWord];
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j] as string;
        if (name === 'cp' && /[rRa]/.test(letter)) recursive = true;
        if (letter === 'b') backup = true;
        if (!spec.short.includes(letter)) continue;
        const rest = arg.slice(j + 1);
        const valueWord = rest !== '' ? { ...word, value: rest } : args[++i];
        if (letter === 't' && valueWord) target = valueWord;
        if (letter === 'S' && valueWord) [backup, suffix] = [true, valueWord];
        break;
      }
      continue;
    }
    positionals.push(word);
  }
  const common = { recursive, backup, ...(suffix ? { suffix } : {}) };
  if (target) return { sources: positionals, dest: target, ...common };
  return { sources: positionals.slice(0, -1), dest: positionals.at(-1), ...common };
}

/** Every path below `dir` (relative), or undefined when there are more than the walk allows. */
async function treeOf(dir: string): Promise<string[] | undefined> {
  const out: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(join(dir, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = rel === '' ? entry.name : join(rel, entry.name);
      out.push(path);
      if (out.length > MAX_WALK) return undefined;
      // Links are copied as links (cp -r, mv): their targets are not walked.
      if (entry.isDirectory()) pending.push(path);
    }
  }
  return out;
}

const isDirectory = (path: string) =>
  lstat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );

/**
 * What a source word names on disk now: itself, or for a glob in its last component the entries
 * it matches (bash's expansion; the literal when nothing matches). `name` is what lands in a
 * destination folder — `.` for `payload/.`, whose contents are copied. Undefined: not knowable.
 */
async function sourcePaths(
  word: ShellWord,
  roots: { cwd: string; home: string },
): Promise<{ path: string; name: string }[] | undefined> {
  if (word.dynamic) return undefined;
  const path = resolveUserPath(word.value, roots.cwd, roots.home);
  const name = basename(word.value.replace(/\/+$/, '')) || '.';
  if (!word.glob) return [{ path, name }];
  const dir = dirname(path);
  if (/[*?[{]/.test(dir)) return undefined;
  const matcher = new RegExp(globToRegExp(basename(path), true).source, 'is');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [{ path, name }];
  }
  const matches = names.filter((entry) => matcher.test(entry));
  return matches.length > 0
    ? matches.map((entry) => ({ path: join(dir, entry), name: entry }))
    : [{ path, name }];
}

/**
 * The files this copy or move may create besides its named destination (absolute), or undefined
 * when they cannot be known (a source only the shell knows, copied into a folder, or a tree too
 * large to walk). Empty for every other command.
 */
export async function filesCopiedInto(
  unit: ShellUnit,
  roots: { cwd: string; home: string },
): Promise<string[] | undefined> {
  const parsed = unit.name ? copyArgs(unit.name, unit.argv.slice(1)) : undefined;
  if (!parsed?.dest || parsed.dest.dynamic || parsed.sources.length === 0) return [];
  const dest = resolveUserPath(parsed.dest.value, roots.cwd, roots.home);
  const intoFolder = (await isDirectory(dest)) || parsed.dest.value.endsWith('/');
  const out: string[] = [];
  // Backups (`mv -b -S ributes a .gitatt` keeps the old file as `.gitattributes`): the suffix is
  // `-S`, else SIMPLE_BACKUP_SUFFIX from the command's environment, else `~`.
  const suffixWord = parsed.suffix ?? unit.env.find((e) => e.name === 'SIMPLE_BACKUP_SUFFIX')?.value;
  if (parsed.backup && suffixWord?.dynamic) return undefined;
  const backupSuffix = parsed.backup ? (suffixWord?.value ?? '~') : undefined;
  const withBackup = (path: string) =>
    backupSuffix === undefined ? [path] : [path, `${path}${backupSuffix}`];
  if (backupSuffix !== undefined) out.push(`${dest}${backupSuffix}`);
  for (const source of parsed.sources) {
    const paths = await sourcePaths(source, roots);
    if (!paths) {
      if (intoFolder) return undefined;
      continue;
    }
    for (const { path, name } of paths) {
      // `cp -r a b` makes `b` a copy of `a` when `b` is new, else `b/a`: both are candidates.
      const inside = join(dest, name);
      const bases = parsed.recursive && inside !== dest ? [inside, dest] : [inside];
      if (inside !== dest) out.push(...withBackup(inside));
      if (!parsed.recursive || !(await isDirectory(path))) continue;
      const tree = await treeOf(path);
      if (!tree) return undefined;
      for (const base of bases) for (const rel of tree) out.push(join(base, rel));
    }
  }
  return out;
}
