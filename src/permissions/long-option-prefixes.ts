/**
 * Long options written as a prefix of their name. getopt_long (coreutils, GNU tar) and git's
 * parse-options take any unique prefix, so `rm --r --f DIR` is `rm --recursive --force DIR` and
 * `git push --force-w` is `--force-with-lease` (calibrated, bash 5.2 in a scratch folder: `rm --r
 * --f dd` removed dd; `git push --force-w origin main` and `git push --mirr origin` replaced an
 * amended commit on a scratch bare remote; `git reset --ha` discarded a change; `git clean --f`
 * removed an untracked file; `truncate --s=0 f` emptied f; `tar --remove -cf a.tar d` removed
 * d). rsync's popt takes no prefixes (`--remove-source` is an unknown option there).
 *
 * Only the options a destructive warning or a deny rule's option matching looks at are listed: a
 * prefix of one of them is read as it (as the option tables read a prefix of an unsafe option),
 * even when the tool would find it ambiguous and refuse — asking about a command that then fails
 * costs nothing.
 */

const LONG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  rm: ['recursive', 'force'],
  chmod: ['recursive'],
  chown: ['recursive'],
  truncate: ['size', 'reference'],
  tar: ['remove-files'],
  'git push': ['force', 'force-with-lease', 'mirror', 'delete'],
  'git reset': ['hard'],
  'git clean': ['force'],
  'git branch': ['delete', 'force'],
  'git checkout': ['force'],
  'git restore': ['source'],
};

/** `--name[=value]` with `name` a prefix of one of `names`, written out; any other word as it is. */
function writtenOut(word: string, names: readonly string[]): string {
  const eq = word.indexOf('=');
  const written = eq < 0 ? word.slice(2) : word.slice(2, eq);
  if (written === '' || names.includes(written)) return word;
  const full = names.find((name) => name.startsWith(written));
  return full === undefined ? word : `--${full}${eq < 0 ? '' : word.slice(eq)}`;
}

/**
 * The arguments of `command` (`rm`, or `git push` for git's subcommands) with every long option
 * that abbreviates one of the listed names written out in full; `--` ends the options.
 */
export function withLongOptionsWrittenOut(command: string, args: readonly string[]): string[] {
  const names = LONG_OPTIONS[command];
  if (!names) return [...args];
  const end = args.indexOf('--');
  return args.map((arg, i) =>
    arg.startsWith('--') && arg !== '--' && (end < 0 || i < end) ? writtenOut(arg, names) : arg,
  );
}
