/**
 * Commands a unit runs that the line does not show as commands, for Bash deny rules: what an
 * interpreter is handed (`awk 'BEGIN{system("rm x")}'`, `python3 -c`, a local program:
 * code-runners.ts), a program an option names (`sort --compress-program`, sed's `e`, `git -c
 * core.sshCommand=…`, `tar --to-command`, `rsync -e`, `git rebase --exec`), and the scripts of a
 * project's build or package tool (`make`, `npm run`, `npx`). All of it is data of the parser:
 * the `run` effects of the option tables (the unit's `runsProgram`, git's subcommands included)
 * and PROGRAM_OPTIONS / GIT_PROGRAM_OPTIONS for commands without a table (program-options.ts). A Bash deny rule names a command,
 * and none of these shows one, so while such a rule exists each asks in every mode, naming the
 * rule and the reason (as a Read deny rule does for the same code, code-runners.ts). Without a
 * Bash deny or ask rule nothing changes.
 *
 * Calibrated (bash 5.2, in a scratch folder; each ran `touch pwned` under `Bash(touch:*)`'s nose):
 * see red-team-unread-command-cases.ts.
 */
import { gitSubcommandRuns, PROGRAM_OPTIONS, programRunReason } from '../services/bash-parser';
import { codeRunReason } from './code-runners';
import { isHarmlessRepositoryKey } from './git-config-keys';
import { LAUNCHERS } from './launchers';
import { gitSubcommandIndex } from './shell-danger';
import type { ShellUnit } from './shell-unit';

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

/** Why the unit may run commands the line does not show, or undefined. */
export function unreadCommandReason(unit: ShellUnit): string | undefined {
  if (unit.kind !== 'command') return undefined;
  const name = unit.name;
  const args = unit.argv.slice(1).map((w) => w.value);
  // git's own `-c` is judged by its key; the subcommand's options by its table, whatever precedes it.
  if (name === 'git')
    return (
      gitOptionsRunProgram(args.slice(0, gitSubcommandIndex(args))) ?? gitSubcommandRuns(unit.argv.slice(1))
    );
  // An option of the command's read-only table that runs a program (`sort --compress-program`).
  if (unit.runsProgram) return unit.runsProgram;
  // A launcher's applets (`busybox awk …`) are units of their own, judged as what they are.
  const code = name && LAUNCHERS.has(name) ? undefined : codeRunReason(unit);
  if (code) return code;
  const spec = name === undefined ? undefined : PROGRAM_OPTIONS[name];
  return spec && programRunReason(name as string, spec, args);
}
