/**
 * Commands a unit runs that the line does not show as commands, for Bash deny rules: what an
 * interpreter is handed (`awk 'BEGIN{system("rm x")}'`, `python3 -c`, a local program:
 * code-runners.ts), a program an option names (`sort --compress-program`, sed's `e`, `git -c
 * core.sshCommand=…`, `tar --to-command`, `rsync -e`, `git rebase --exec`), and the scripts of a
 * project's build or package tool (`make`, `npm run`, `npx`). A Bash deny rule names a command,
 * and none of these shows one, so while such a rule exists each asks in every mode, naming the
 * rule and the reason (as a Read deny rule does for the same code, code-runners.ts). Without a
 * Bash deny or ask rule nothing changes.
 *
 * Calibrated (bash 5.2, in a scratch folder; each ran `touch pwned` under `Bash(touch:*)`'s nose):
 * see red-team-unread-command-cases.ts.
 */
import { codeRunReason } from './code-runners';
import { isHarmlessRepositoryKey } from './git-config-keys';
import { LAUNCHERS } from './launchers';
import { gitSubcommandIndex } from './shell-danger';
import type { ShellUnit } from './shell-unit';

/** Package tools' subcommands that run no script (list, show, explain). */
const PACKAGE_READS = new Set([
  'ls',
  'list',
  'view',
  'info',
  'show',
  'outdated',
  'help',
  'search',
  'why',
  'explain',
]);
const PACKAGE_TOOLS = new Set(['npm', 'pnpm', 'yarn']);
/** Tools that always run a project's or a downloaded package's scripts. */
const SCRIPT_RUNNERS = new Set(['make', 'gmake', 'npx', 'pnpx']);

/** Options that name a program the command runs, per command (long names with or without `=`). */
const PROGRAM_OPTIONS: Readonly<Record<string, RegExp>> = {
  tar: /^(--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command|rmt-command)\b|-[A-Za-z]*[IF])/,
  rsync: /^(--(rsh|rsync-path)\b|-[A-Za-z]*e)/,
  zip: /^(-TT|--unzip-command)/,
  ssh: /(ProxyCommand|LocalCommand|KnownHostsCommand)|^-F/i,
  scp: /(ProxyCommand|LocalCommand|KnownHostsCommand)|^-[FS]/i,
  sftp: /(ProxyCommand|LocalCommand|KnownHostsCommand)|^-[FS]/i,
  man: /^(-[A-Za-z]*[PH]|--(pager|html)\b)/,
};

/**
 * git's own options that make it run a program: a `-c` setting not known to be harmless (the same
 * list the repository check trusts, git-config-keys.ts: `core.sshCommand`, `core.pager`,
 * `alias.x=!…` are not on it; `color.ui`, `push.default` are), `--exec-path`, `--config-env`.
 */
function gitOptionsRunProgram(globals: readonly string[]): string | undefined {
  for (const [i, option] of globals.entries()) {
    const setting = option === '-c' ? globals[i + 1] : option.startsWith('-c') ? option.slice(2) : undefined;
    if (setting !== undefined) {
      const equals = setting.indexOf('=');
      const key = (equals < 0 ? setting : setting.slice(0, equals)).toLowerCase();
      if (!isHarmlessRepositoryKey(key, equals < 0 ? undefined : setting.slice(equals + 1)))
        return `git -c ${setting} sets configuration that can run a program`;
    }
    if (/^--(exec-path|config-env)/.test(option)) return `git ${option} can make git run another program`;
  }
  return undefined;
}

/** git subcommands that run a program the line names, or one the configuration picks. */
function gitRunsProgram(args: readonly string[]): string | undefined {
  const at = gitSubcommandIndex(args);
  const fromOptions = gitOptionsRunProgram(args.slice(0, at));
  const sub = args[at];
  if (fromOptions || sub === undefined) return fromOptions;
  const rest = args.slice(at + 1);
  if (sub === 'filter-branch' || sub === 'difftool' || sub === 'mergetool')
    return `git ${sub} runs the commands it is given`;
  if (sub === 'bisect' && rest[0] === 'run') return 'git bisect run runs the command it is given';
  if (sub === 'submodule' && rest.includes('foreach'))
    return 'git submodule foreach runs the command it is given';
  if (sub === 'rebase' && rest.some((a) => /^(-x|--exec\b|-[A-Za-z]*x)/.test(a)))
    return 'git rebase --exec runs the command it is given';
  if (
    rest.some((a) =>
      /^--(upload-pack|receive-pack|exec|extcmd|sendmail-cmd|to-cmd|cc-cmd|tool-cmd)\b/.test(a),
    )
  )
    return `git ${sub} runs the program an option names`;
  if (sub === 'clone' && rest.some((a) => /^-u/.test(a))) return 'git clone -u runs the program it names';
  return undefined;
}

/** Why the unit may run commands the line does not show, or undefined. */
export function unreadCommandReason(unit: ShellUnit): string | undefined {
  if (unit.kind !== 'command') return undefined;
  const name = unit.name;
  const args = unit.argv.slice(1).map((w) => w.value);
  // git's own `-c` is judged by its key (gitRunsProgram); a subcommand's option by its table.
  if (name === 'git')
    return gitRunsProgram(args) ?? (unit.runsProgram?.startsWith('git -') ? undefined : unit.runsProgram);
  if (unit.runsProgram) return unit.runsProgram;
  // A launcher's applets (`busybox awk …`) are units of their own, judged as what they are.
  const code = name && LAUNCHERS.has(name) ? undefined : codeRunReason(unit);
  if (code) return code;
  if (!name) return undefined;
  if (SCRIPT_RUNNERS.has(name)) return `${name} runs scripts the line does not show`;
  if (PACKAGE_TOOLS.has(name)) {
    const sub = args.find((a) => !a.startsWith('-'));
    if (sub === undefined ? !args.some((a) => a === '-v' || a === '--version') : !PACKAGE_READS.has(sub))
      return `${name} ${sub ?? ''}`.trim() + ' may run package scripts the line does not show';
    return undefined;
  }
  const option = PROGRAM_OPTIONS[name];
  const named = option && args.find((a) => option.test(a));
  return named ? `${name} ${named} runs a program it names` : undefined;
}
