/**
 * Commands without a read-only option table that run a program their arguments name, or scripts
 * their arguments do not show: the option, operand or subcommand that makes them do so, as data
 * (from each tool's manual). A command with a read-only table says the same with its `run`
 * effects (option-table.ts); together they answer `programRunReason`, which a Bash deny rule
 * reads (a rule naming `touch` cannot be checked against `tar --to-command='touch x'`).
 *
 * Long options count when written as any prefix of the name: getopt_long and git's
 * parse-options take unique abbreviations (calibrated: `tar --to-com=…`, `tar --use-comp=…`,
 * `zip --unzip-c=…`, `git rebase --exe …`, `git fetch --upload-p=…` each ran the program), and a
 * prefix shared with another option only makes the tool refuse. Short options count anywhere in a
 * cluster of letters (`-ix CMD`).
 */

export type ProgramOptions = {
  /** Short options (letters) that name a program, with why. */
  readonly short?: Readonly<Record<string, string>>;
  /** Long options (without dashes) that name a program, with why. */
  readonly long?: Readonly<Record<string, string>>;
  /** Words that name a program as a setting (`ssh -o ProxyCommand=…`), in any argument. */
  readonly settings?: { readonly keys: RegExp; readonly why: string };
  /** Operands that make it run the command after them (`git bisect run`), with why. */
  readonly operands?: Readonly<Record<string, string>>;
  /** It runs programs or scripts whatever its arguments (`make`, `git difftool`). */
  readonly always?: string;
  /**
   * Its first operand is a subcommand; every one but these runs the package's scripts, and so
   * does no subcommand at all unless only these options are given (npm).
   */
  readonly scripts?: { readonly except: readonly string[]; readonly alone: readonly string[] };
  /** Its first word may be a cluster of short options without a dash (`tar cIf PROG a.tar x`). */
  readonly oldStyle?: true;
};

const SSH_COMMANDS = {
  keys: /(ProxyCommand|LocalCommand|KnownHostsCommand)/i,
  why: 'sets an option that runs a program',
};
const SSH_CONFIG = 'reads a configuration file, which can name programs to run';

/** Package tools' subcommands that run no script (list, show, explain). */
const PACKAGE_READS = ['ls', 'list', 'view', 'info', 'show', 'outdated', 'help', 'search', 'why', 'explain'];
const PACKAGE = { scripts: { except: PACKAGE_READS, alone: ['-v', '--version'] } };

/** Commands of the system (GNU tar 1.34, rsync 3.2, Info-ZIP 3.0, OpenSSH 9, man-db 2.11, GNU make 4.3, npm 10). */
export const PROGRAM_OPTIONS: Readonly<Record<string, ProgramOptions>> = {
  tar: {
    oldStyle: true,
    short: { I: 'runs the program it names to compress', F: 'runs the script it names at each volume' },
    long: {
      'to-command': 'runs the program it names for each file',
      'use-compress-program': 'runs the program it names to compress',
      'checkpoint-action': 'can run a program at each checkpoint',
      'info-script': 'runs the script it names at each volume',
      'new-volume-script': 'runs the script it names at each volume',
      'rsh-command': 'runs the program it names to reach a remote archive',
      'rmt-command': 'runs the program it names on the remote side',
    },
  },
  rsync: {
    short: { e: 'runs the program it names as the remote shell' },
    long: {
      rsh: 'runs the program it names as the remote shell',
      'rsync-path': 'runs the program it names on the other side',
    },
  },
  zip: {
    long: {
      TT: 'runs the program it names to test the archive',
      'unzip-command': 'runs the program it names to test the archive',
    },
  },
  ssh: { short: { F: SSH_CONFIG }, settings: SSH_COMMANDS },
  scp: { short: { F: SSH_CONFIG, S: 'runs the program it names instead of ssh' }, settings: SSH_COMMANDS },
  sftp: { short: { F: SSH_CONFIG, S: 'runs the program it names instead of ssh' }, settings: SSH_COMMANDS },
  man: {
    short: { P: 'runs the pager it names', H: 'runs the browser it names' },
    long: { pager: 'runs the pager it names', html: 'runs the browser it names' },
  },
  make: { always: 'runs the recipes of a makefile the line does not show' },
  gmake: { always: 'runs the recipes of a makefile the line does not show' },
  npx: { always: 'runs a package whose code the line does not show' },
  pnpx: { always: 'runs a package whose code the line does not show' },
  npm: PACKAGE,
  pnpm: PACKAGE,
  yarn: PACKAGE,
};

/** The long options of a spec a `--name[=value]` word may stand for. */
const longMatches = (long: Readonly<Record<string, string>>, word: string): string | undefined => {
  const written = word.slice(2).split('=')[0] as string;
  if (written === '') return undefined;
  const name = Object.keys(long).find((n) => n.startsWith(written));
  return name === undefined ? undefined : long[name];
};

/** The short option of a spec in a `-abc` cluster (letters only: a value glued after ends it). */
const shortMatches = (short: Readonly<Record<string, string>>, word: string): string | undefined => {
  for (const letter of word.slice(1)) {
    if (!/[A-Za-z]/.test(letter)) return undefined;
    if (short[letter]) return short[letter];
  }
  return undefined;
};

/**
 * Why `label ARGS` runs a program an option, operand or setting of it names (`tar -I PROG`,
 * `git bisect run`), by `spec`, or undefined. `args` are the literal words after the command (or
 * subcommand). What it always runs, or a package's scripts, is not an option's doing: see
 * programRunReason.
 */
export function programOptionReason(
  label: string,
  spec: ProgramOptions,
  args: readonly string[],
): string | undefined {
  const [first] = args;
  if (spec.oldStyle && spec.short && first && !first.startsWith('-')) {
    const runs = shortMatches(spec.short, `-${first}`);
    if (runs) return `${label} ${first} ${runs}`;
  }
  let ended = false;
  for (const arg of args) {
    if (ended || !arg.startsWith('-') || arg === '-') {
      const runs = spec.operands?.[arg];
      if (runs) return `${label} ${arg} ${runs}`;
    } else if (arg === '--') ended = true;
    else {
      // Some tools (zip -TT) spell long options with one dash.
      const long =
        spec.long && (arg.startsWith('--') ? longMatches(spec.long, arg) : spec.long[arg.slice(1)]);
      const runs = long ?? (spec.short && !arg.startsWith('--') ? shortMatches(spec.short, arg) : undefined);
      if (runs) return `${label} ${arg} ${runs}`;
    }
    if (spec.settings?.keys.test(arg)) return `${label} ${arg} ${spec.settings.why}`;
  }
  return undefined;
}

/** Why `label ARGS` runs programs or scripts the line does not show, by `spec`, or undefined. */
export function programRunReason(
  label: string,
  spec: ProgramOptions,
  args: readonly string[],
): string | undefined {
  if (spec.always) return `${label} ${spec.always}`;
  const option = programOptionReason(label, spec, args);
  if (option || !spec.scripts) return option;
  const sub = args.find((a) => !a.startsWith('-'));
  const { alone, except } = spec.scripts;
  if (sub === undefined ? args.some((a) => alone.includes(a)) : except.includes(sub)) return undefined;
  return `${`${label} ${sub ?? ''}`.trim()} may run package scripts the line does not show`;
}

const UPLOAD_PACK = 'runs the program it names to serve the fetch (here, for a local repository)';

/**
 * git subcommands without a read-only table that run a program their arguments name (git 2.39;
 * calibrated in red-team-git-program-cases.ts). The tabled ones say it with `run` effects.
 */
export const GIT_PROGRAM_OPTIONS: Readonly<Record<string, ProgramOptions>> = {
  rebase: {
    short: { x: 'runs the command it is given after each commit' },
    long: { exec: 'runs the command it is given after each commit' },
  },
  push: {
    long: {
      'receive-pack': 'runs the program it names to receive the push (here, for a local repository)',
      exec: 'runs the program it names to receive the push (here, for a local repository)',
    },
  },
  fetch: { long: { 'upload-pack': UPLOAD_PACK } },
  pull: { long: { 'upload-pack': UPLOAD_PACK } },
  'ls-remote': { long: { 'upload-pack': UPLOAD_PACK, exec: UPLOAD_PACK } },
  clone: {
    short: {
      u: UPLOAD_PACK,
      c: 'sets configuration of the new repository before fetching, which can run programs',
    },
    long: {
      'upload-pack': UPLOAD_PACK,
      config: 'sets configuration of the new repository before fetching, which can run programs',
      template: 'copies hooks from the folder it names, and the checkout runs them',
    },
  },
  'send-email': {
    long: {
      'sendmail-cmd': 'runs the program it names to send mail',
      'to-cmd': 'runs the program it names to find recipients',
      'cc-cmd': 'runs the program it names to find recipients',
    },
  },
  bisect: { operands: { run: 'runs the command it is given' } },
  submodule: { operands: { foreach: 'runs the command it is given' } },
  difftool: { always: 'runs the diff tool or command it is given' },
  mergetool: { always: 'runs the merge tool or command it is given' },
  'filter-branch': { always: 'runs the commands it is given' },
};

/** Why a command without a read-only table runs a program one of its options names, or undefined. */
export function commandOptionRuns(name: string, args: readonly string[]): string | undefined {
  const spec = PROGRAM_OPTIONS[name];
  return spec && programOptionReason(name, spec, args);
}
