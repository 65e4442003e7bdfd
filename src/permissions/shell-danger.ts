/**
 * What makes one shell command risky beyond what a rule says: env prefixes that change which code
 * runs, commands that destroy data (these get a warning and are never covered by a broad rule),
 * and the files a command writes (checked against Edit rules and the project boundary).
 */
import { gitSubcommandIndex } from '../services/bash-parser';
import { withLongOptionsWrittenOut } from './long-option-prefixes';
import { isWithin } from './path-rules';

/**
 * Variables that change which program or library runs, or inject code into the shell or a tool:
 * the table lives beside the read-only proof's allowlist (bash-parser/env-vars.ts).
 */
export { dangerousEnvReason, isDangerousEnvVar } from '../services/bash-parser';

/** A command name with anything but printable ASCII (Cyrillic `ѕudo`, fullwidth `ｒｍ`) never matches an allow rule. */
export function hasNonAsciiName(name: string): boolean {
  return /[^\x21-\x7e]/.test(name);
}

const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper\/|md|loop)/;

export function isBlockDevice(path: string): boolean {
  return BLOCK_DEVICE.test(path);
}

/** Short-option clusters (`-rf`) or long options that contain a letter or name. */
function hasFlag(args: readonly string[], letters: string, long: readonly string[] = []): boolean {
  return args.some(
    (arg) =>
      (/^-[^-]/.test(arg) && [...arg.slice(1)].some((ch) => letters.includes(ch))) ||
      long.some((name) => arg === name || arg.startsWith(`${name}=`)),
  );
}

/** `arg` is `--NAME` or a getopt abbreviation of it at least `shortest` letters long. */
const abbreviates = (arg: string, name: string, shortest: number) =>
  arg.startsWith('--') && arg.length - 2 >= shortest && name.startsWith(arg.slice(2));

const positional = (args: readonly string[]) => args.filter((arg) => !arg.startsWith('-'));

/** Where git's subcommand is in its arguments: the parser's reading of git's global options. */
export { gitSubcommandIndex };

function gitWarning(args: readonly string[]): string | undefined {
  const i = gitSubcommandIndex(args);
  const sub = args[i];
  const rest = withLongOptionsWrittenOut(`git ${sub}`, args.slice(i + 1));
  if (
    sub === 'push' &&
    (hasFlag(rest, 'f', ['--force', '--force-with-lease', '--mirror', '--delete']) ||
      rest.some((a) => a.startsWith('+') || a.startsWith(':')))
  )
    return 'git push --force/--delete rewrites or removes history on the remote';
  if (sub === 'reset' && rest.includes('--hard')) return 'git reset --hard discards uncommitted changes';
  if (sub === 'clean' && hasFlag(rest, 'f', ['--force'])) return 'git clean -f deletes untracked files';
  // `-D` is `--delete --force` (calibrated: `git branch -d -f side` deleted an unmerged branch).
  if (
    sub === 'branch' &&
    (hasFlag(rest, 'D') || (hasFlag(rest, 'd', ['--delete']) && hasFlag(rest, 'f', ['--force'])))
  )
    return 'git branch -D deletes a branch without checking it is merged';
  if ((sub === 'checkout' || sub === 'restore') && (rest.includes('.') || hasFlag(rest, 'f', ['--force'])))
    return `git ${sub} discards uncommitted changes`;
  if (sub === 'stash' && (rest[0] === 'clear' || rest[0] === 'drop'))
    return 'git stash clear/drop deletes stashed work';
  return undefined;
}

export type DangerContext = {
  cwd: string;
  tempDirs: readonly string[];
  /**
   * The folders the session works in (its start folder, the project root). A project may live
   * under /tmp: only what lies outside them counts as a temp folder's scratch.
   */
  workspace: readonly string[];
  resolve: (path: string) => string;
};

/** A path in a temp folder that is neither in the session's folders nor holds one of them. */
function isScratch(abs: string, ctx: DangerContext): boolean {
  const inTemp = ctx.tempDirs.some((dir) => abs !== dir && isWithin(abs, dir));
  return inTemp && !ctx.workspace.some((dir) => isWithin(abs, dir) || isWithin(dir, abs));
}

/** What `rm -r` removes, by the names it was given (the first few of many). */
function rmWarning(targets: readonly string[], unknownArgs: boolean): string {
  if (targets.length === 0) return 'rm -r deletes files and folders recursively';
  const shown = targets.slice(0, 3);
  const more = targets.length - shown.length;
  const names =
    more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ').replace(/, ([^,]*)$/, ' and $1');
  const what = `rm -r deletes ${names} and everything in ${targets.length > 1 ? 'them' : 'it'}`;
  return unknownArgs ? `${what} (a variable or pattern decides which files only when it runs)` : what;
}

/**
 * A one-line warning when the command can destroy data or the system, else undefined. Dynamic or
 * glob arguments count as "anywhere" so `rm -rf $DIR` is never mistaken for a temp-dir cleanup.
 */
export function destructiveWarning(
  name: string,
  written: readonly string[],
  unknownArgs: boolean,
  ctx: DangerContext,
): string | undefined {
  const args = withLongOptionsWrittenOut(name, written);
  switch (name) {
    case 'rm': {
      if (!hasFlag(args, 'rR', ['--recursive'])) return undefined;
      const targets = positional(args);
      const scratch =
        !unknownArgs && targets.length > 0 && targets.every((target) => isScratch(ctx.resolve(target), ctx));
      return scratch ? undefined : rmWarning(targets, unknownArgs);
    }
    case 'git':
      return gitWarning(args);
    case 'dd':
      return 'dd writes raw data and can overwrite disks';
    case 'shred':
      return 'shred destroys file contents irrecoverably';
    case 'wipefs':
    case 'fdisk':
    case 'sfdisk':
    case 'parted':
    case 'mke2fs':
      return `${name} can erase a disk or partition table`;
    case 'shutdown':
    case 'reboot':
    case 'halt':
    case 'poweroff':
      return `${name} stops the machine`;
    case 'chmod':
    case 'chown':
      if (
        hasFlag(args, 'R', ['--recursive']) &&
        (name === 'chown' || args.some((a) => /^(0?777|a\+rwx|o\+w|ugo\+rwx)$/.test(a)))
      )
        return `${name} -R changes permissions of a whole tree`;
      return undefined;
    case 'find':
      return args.includes('-delete') ? 'find -delete deletes every file it matches' : undefined;
    // Deleting under another name (calibrated in red-team-deletion-cases.ts): each removed or
    // emptied the files named. A deny rule names a command, not an effect, so `Bash(rm:*)` does
    // not cover these; they ask as destructive, with the reason, in every mode that asks.
    case 'rsync':
      if (args.some((a) => /^--del(ete(-\w+)?)?$/.test(a)))
        return 'rsync --delete deletes the files in the destination that the source lacks';
      return args.includes('--remove-source-files')
        ? 'rsync --remove-source-files deletes the files it sent'
        : undefined;
    case 'truncate':
      return truncates(args) ? 'truncate cuts files to a size, destroying their content past it' : undefined;
    case 'tar':
      return args.includes('--remove-files') ? 'tar --remove-files deletes the files it archives' : undefined;
    case 'zip':
      return hasFlag(args, 'm', ['--move']) ? 'zip -m deletes the files it archives' : undefined;
    case 'mv':
      // As root this replaces the device file itself; for anyone the moved file is gone.
      return positional(args).at(-1)?.startsWith('/dev/')
        ? `mv onto a device file deletes what it moves`
        : undefined;
    default:
      return name.startsWith('mkfs') ? 'mkfs formats a filesystem' : undefined;
  }
}

/** A size that can shrink the file (`-s 0`, `--size=-5`, `-r REF`); only `+N` grows it. */
function truncates(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const size = arg === '-s' || arg === '--size' ? args[i + 1] : /^(-s|--size=)(.+)$/.exec(arg)?.[2];
    if (size !== undefined && !size.startsWith('+')) return true;
    if (arg === '-r' || arg.startsWith('--reference')) return true;
  }
  return false;
}

/** A function that runs itself in the background in a pipe: the classic `:(){ :|:& };:`. */
export function isForkBomb(source: string): boolean {
  const match = /([^\s(){};|&]+)\s*\(\)\s*\{([^}]*)\}/.exec(source);
  if (!match) return false;
  const name = (match[1] as string).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${name}\\s*\\|\\s*${name}`).test(match[2] as string);
}

/** Commands `acceptEdits` treats like file edits: they create or move files and delete nothing irreversibly. */
export const FILE_WRITING_COMMANDS: ReadonlySet<string> = new Set([
  'mkdir',
  'touch',
  'mv',
  'cp',
  'ln',
  'tee',
  'install',
]);

const WRITES_ALL_POSITIONALS: ReadonlySet<string> = new Set([
  ...FILE_WRITING_COMMANDS,
  'rm',
  'rmdir',
  'truncate',
  'shred',
  'unlink',
]);

/**
 * Compressors that replace each file they are given by its compressed copy: `gzip x` leaves only
 * `x.gz` (calibrated with gzip 1.12, bzip2 1.0.8, xz 5.4), unless told to keep it, to write to
 * standard output, or only to test or list.
 */
const REPLACING_COMPRESSORS: ReadonlySet<string> = new Set(['gzip', 'bzip2', 'xz', 'lzma']);
const KEEPING_OPTIONS = ['keep', 'stdout', 'to-stdout', 'test', 'list'];

function keepsInput(args: readonly string[]): boolean {
  return (
    hasFlag(args, 'cktl') || args.some((arg) => KEEPING_OPTIONS.some((name) => abbreviates(arg, name, 2)))
  );
}

/**
 * The files a command writes, as given (not resolved). `sed -i`/`perl -i` edit their file
 * arguments; `dd of=`; `chmod`/`chown` change the files after the mode.
 */
export function writtenPathArgs(name: string, args: readonly string[]): string[] {
  // A hard link makes its source writable under a second name (`ln .git/config c`, then
  // `echo x > c`): the sources count as written.
  if (
    (name === 'ln' && !hasFlag(args, 's') && !args.some((a) => abbreviates(a, 'symbolic', 2))) ||
    (name === 'cp' && (hasFlag(args, 'l') || args.some((a) => abbreviates(a, 'link', 2))))
  )
    return positional(args);
  // cp/ln/install write only their destination; mv also removes its sources.
  // rsync and scp too (calibrated: `rsync a b` and `scp a b` replaced b with a).
  if (['cp', 'ln', 'install', 'rsync', 'scp'].includes(name)) return positional(args).slice(-1);
  if (WRITES_ALL_POSITIONALS.has(name)) return positional(args);
  if (REPLACING_COMPRESSORS.has(name)) return keepsInput(args) ? [] : positional(args);
  if (name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  if (name === 'chmod' || name === 'chown' || name === 'chgrp') return positional(args).slice(1);
  if (name === 'sed' && hasFlag(args, 'i', ['--in-place'])) {
    const pos: string[] = [];
    let scriptGiven = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === '-e' || arg === '-f' || arg === '--expression' || arg === '--file') {
        scriptGiven = true;
        i++;
      } else if (!arg.startsWith('-')) pos.push(arg);
    }
    return scriptGiven ? pos : pos.slice(1);
  }
  if ((name === 'perl' || name === 'ruby') && hasFlag(args, 'i')) {
    const pos: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (/^-[^-]*e$/.test(arg)) i++;
      else if (!arg.startsWith('-')) pos.push(arg);
    }
    return pos;
  }
  return [];
}
