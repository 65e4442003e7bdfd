/**
 * Commands that write files whose names only their input knows: `tar -xf a.tar` and `unzip a.zip`
 * write what the archive holds, `patch < p` what the patch names, `cpio -i` what its stream names.
 * The line shows none of those names, so an Edit deny rule cannot be matched against them; while
 * one exists, such a command asks in every mode, naming the rule (as code that may write a denied
 * file does, code-runners.ts). Calibrated (GNU tar 1.34, UnZip 6.00, GNU patch 2.7.6, bash 5.2, in a
 * scratch project): each overwrote `./x` under Edit(./x) in bypassPermissions. Listing, testing
 * and creating archives, and a patch's dry run, write nothing and stay as they were.
 */
import type { ShellUnit } from './shell-unit';

const longOption = (arg: string, names: readonly string[]) =>
  arg.startsWith('--') &&
  names.some((name) => arg.length > 4 && name.startsWith(arg.slice(2).split('=')[0] as string));

/** Short option letters given, in `-xvf` bundles (and tar's old dashless first word). */
function shortLetters(args: readonly string[], dashlessFirst: boolean): string {
  const bundles = args.filter(
    (arg, i) => /^-[^-]/.test(arg) || (dashlessFirst && i === 0 && !arg.startsWith('-')),
  );
  return bundles.map((arg) => arg.replace(/^-/, '')).join('');
}

/** Why the unit writes files only its input names, or undefined. */
export function archiveWriteReason(unit: ShellUnit): string | undefined {
  if (unit.kind !== 'command' || unit.name === undefined) return undefined;
  const args = unit.argv.slice(1).map((word) => word.value);
  const says = `\`${unit.text}\` writes the files`;
  switch (unit.name) {
    case 'tar':
    case 'bsdtar':
      return shortLetters(args, true).includes('x') || args.some((arg) => longOption(arg, ['extract', 'get']))
        ? `${says} the archive holds, which only it knows`
        : undefined;
    case 'unzip': {
      const letters = shortLetters(args, false);
      return /[ltpvzZ]/.test(letters) ? undefined : `${says} the archive holds, which only it knows`;
    }
    case 'patch':
      return args.some((arg) => longOption(arg, ['dry-run'])) ? undefined : `${says} the patch names`;
    case 'cpio':
      return shortLetters(args, false).includes('i') || args.some((arg) => longOption(arg, ['extract']))
        ? `${says} its input names`
        : undefined;
    default:
      return undefined;
  }
}
