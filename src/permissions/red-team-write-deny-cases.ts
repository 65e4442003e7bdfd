/**
 * The red-team attack set of wave 7 against Edit deny rules, in bypassPermissions where anything a
 * deny rule misses runs: a read-write redirect (`<>`, which the grammar splits), writes named as
 * an option's value (`dd of=`) or a copy's destination (`rsync`, `scp`), a path behind a link the
 * line makes or in a variable, and code that may write the file. A sure write is denied; one only
 * known at run time asks, naming the rule. Each class ends with the commands that must still run.
 */
import type { DangerCase } from './option-danger-cases';
import { type RedTeamCase, rows } from './red-team-rows';

const denyX: Partial<RedTeamCase> = { deny: ['Edit(./x)'], mode: 'bypassPermissions' };

const SURE_WRITES = ['exec 3<>x; echo new >&3', 'echo new 1<>x', 'dd of=x', 'rsync y x', 'scp y x'];
const UNKNOWN_WRITES = [
  'ln -s x r; echo new > r',
  'f=x; echo new > $f',
  `python3 -c 'open("x", "w").write("new")'`,
  `python3 -c 'open("".join(["x"]), "w").write("new")'`,
];

/**
 * Wave 8: a copy or move into a folder writes the file the folder gets (`cp -t . d/x` writes
 * `./x`), while the command's own write names only the folder; before, each ran past Edit(./x).
 */
const COPIES_INTO_FOLDER = ['cp -t . d/x', 'cp --target-directory=. d/x', 'mv -t . d/x', 'install -t . d/x'];

/** Wave 8: a compressor replaces the file it is given (`gzip x` leaves only `x.gz`). */
const COMPRESSORS = ['gzip x', 'bzip2 x', 'xz x', 'gzip -9 -- x'];

/** Wave 8: archives and patches write the files their input names (archive-writes.ts). */
const EXTRACTIONS = [
  'tar -xf a.tar',
  'tar xf a.tar x',
  'tar --extract -f a.tar',
  'unzip -o a.zip',
  'patch < p',
  'patch x p',
];
const ARCHIVE_SETUP =
  'mkdir -p s && echo new > s/x && tar -cf a.tar -C s x && (cd s && zip -q ../a.zip x) && rm -r s';
const PATCH_SETUP = `printf '%s\\n' '--- x' '+++ x' '@@ -1,2 +1,2 @@' '-b' '+patched' ' a' > p`;

/** Wave 8: git config writes the file `--file` names when it changes a setting. */
const GIT_CONFIG_FILES = [
  'git config --file x a.b c',
  'git config -f x a.b c',
  'git config --file=x a.b c',
  'git config --file x --unset-all a.b',
];

/**
 * Stop 32: the same after git's global options, which refused the read-only proof and dropped the
 * subcommand's paths with it; `-C` moves them (each relative to the one before).
 */
const GIT_CONFIG_FILES_MOVED = [
  'git -C . config --file=x a.b c',
  'git -C d config --file ../x a.b c',
  'git -C d -C .. config -f x a.b c',
  'git -c a.b=c config --file x a.b c',
];

/** Wave 8: xargs and find -exec hand the file to a writer (input-named-writes.ts). */
const HANDED_WRITES = [
  'echo x | xargs rm',
  'xargs cp y <<< x',
  'xargs -I{} cp y {} <<< x',
  'find . -name x -exec cp y {} \\;',
];

export const RED_TEAM_WRITE_DENY_CASES: RedTeamCase[] = [
  ...rows('write deny: files xargs or find hand to a writer', 'ask', HANDED_WRITES, denyX),
  ...rows(
    'write deny: files xargs or find hand over, controls',
    'allow',
    ['echo y | xargs cat', 'find . -name y -exec cat {} \\;', 'find . -exec cp x d \\;'],
    denyX,
  ),
  ...rows('write deny: git config --file', 'deny', GIT_CONFIG_FILES, denyX),
  ...rows(
    'write deny: git config --file, controls',
    'allow',
    [
      'git config --file x --get a.b',
      'git config -f x -l',
      'git config --file x a.b',
      'git config --file y a.b c',
    ],
    denyX,
  ),
  ...rows('write deny: git config --file after global options', 'deny', GIT_CONFIG_FILES_MOVED, denyX),
  ...rows(
    'write deny: git config --file after global options, controls',
    'allow',
    [
      'git -C d config --file x a.b c',
      'git -C . config --file=y a.b c',
      'git -C . config --file=x --get a.b',
    ],
    denyX,
  ),
  ...rows('write deny: archives and patches write what their input names', 'ask', EXTRACTIONS, denyX),
  ...rows(
    'write deny: archives and patches, controls',
    'allow',
    ['tar -tf a.tar', 'tar -cf b.tar y', 'unzip -l a.zip', 'patch --dry-run < p'],
    denyX,
  ),
  ...rows('write deny: archives and patches, controls', 'allow', ['tar -xf a.tar', 'patch < p'], {
    mode: 'bypassPermissions',
  }),
  ...rows('write deny: compressors replace the file', 'deny', COMPRESSORS, denyX),
  ...rows(
    'write deny: compressors replace the file, controls',
    'allow',
    ['gzip -c x', 'gzip -k x', 'xz --keep x', 'bzip2 --stdout x', 'gzip y', 'gzip -t y'],
    denyX,
  ),
  ...rows('write deny: sure writes', 'deny', SURE_WRITES, denyX),
  ...rows('write deny: copies into a folder', 'deny', COPIES_INTO_FOLDER, denyX),
  ...rows(
    'write deny: copies into a folder, controls',
    'allow',
    ['cp -t . d/y', 'cp -t d y', 'mv -t d y', 'cat d/x'],
    denyX,
  ),
  ...rows('write deny: writes only known when the line runs', 'ask', UNKNOWN_WRITES, denyX),
  // Controls: other files written, the denied file read, other code with no Edit deny rule.
  ...rows(
    'write deny: controls',
    'allow',
    ['echo new > y', 'cp x y', 'cat x', 'dd if=x of=y', 'rsync x y', 'echo new 1<>y', 'f=y; cat $f'],
    denyX,
  ),
  ...rows('write deny: controls', 'allow', [`python3 -c 'open("x", "w").write("new")'`, 'echo new 1<>x'], {
    mode: 'bypassPermissions',
  }),
];

const Y = 'echo yyyyyyyy > y';

/** Each changed `x` when run (bash 5.2, coreutils 9.1, rsync 3.2, OpenSSH 9.2, Python 3.11). */
export const RED_TEAM_WRITE_DENY_CALIBRATED: DangerCase[] = [
  { cmd: 'exec 3<>x; echo new >&3', effect: 'writes', changed: 'x', needs: 'bash' },
  { cmd: 'echo new 1<>x', effect: 'writes', changed: 'x' },
  { cmd: 'dd of=x', effect: 'writes', changed: 'x', stdin: 'new\n' },
  { cmd: 'rsync y x', effect: 'writes', changed: 'x', setup: Y },
  { cmd: 'scp y x', effect: 'writes', changed: 'x', setup: Y },
  { cmd: 'ln -s x r; echo new > r', effect: 'writes', changed: 'x', needs: 'ln' },
  { cmd: 'f=x; echo new > $f', effect: 'writes', changed: 'x', needs: 'bash' },
  { cmd: `python3 -c 'open("x", "w").write("new")'`, effect: 'writes', changed: 'x' },
  { cmd: `python3 -c 'open("".join(["x"]), "w").write("new")'`, effect: 'writes', changed: 'x' },
  ...GIT_CONFIG_FILES.map((cmd) => ({
    cmd,
    effect: 'writes' as const,
    changed: 'x',
    setup: "printf '[a]\\n\\tb = old\\n' > x",
    needs: 'git',
  })),
  ...GIT_CONFIG_FILES_MOVED.map((cmd) => ({
    cmd,
    effect: 'writes' as const,
    changed: 'x',
    setup: "mkdir -p d && printf '[a]\\n\\tb = old\\n' > x",
    needs: 'git',
  })),
  ...HANDED_WRITES.map((cmd) => ({
    cmd,
    effect: 'writes' as const,
    ...(cmd.includes('rm') ? { gone: 'x' } : { changed: 'x', setup: Y }),
    needs: cmd.includes('find') ? 'find' : 'xargs',
  })),
  ...EXTRACTIONS.map((cmd) => ({
    cmd,
    effect: 'writes' as const,
    changed: 'x',
    setup: cmd.startsWith('patch') ? PATCH_SETUP : ARCHIVE_SETUP,
    needs: cmd.split(' ')[0] as string,
  })),
  ...COMPRESSORS.map((cmd) => ({
    cmd,
    effect: 'writes' as const,
    gone: 'x',
    needs: cmd.split(' ')[0] as string,
  })),
  ...COPIES_INTO_FOLDER.map((cmd) => ({
    cmd,
    effect: 'writes' as const,
    changed: 'x',
    setup: 'mkdir -p d && echo yyyyyyyy > d/x',
    needs: cmd.split(' ')[0] as string,
  })),
];
