/**
 * The red-team attack set of wave 7 against Bash deny rules: a name the line makes run another
 * command — an alias (`shopt -s expand_aliases`, then `alias r=touch`: `r` runs `touch` on the
 * next line), `hash -p PROG NAME`, the `BASH_ALIASES` and `BASH_CMDS` tables — and programs that
 * run their operands as a command (BusyBox's and toybox's applets, GNU parallel). An alias body or a bound
 * program written out is checked as the command it is (denied); a table entry asks in every mode,
 * naming the rule. Each class ends with the commands that must keep running as before.
 */
import type { DangerCase } from './option-danger-cases';
import { type RedTeamCase, rows } from './red-team-rows';

const denyTouch: Partial<RedTeamCase> = { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' };

const ALIASED = 'shopt -s expand_aliases; alias r=touch\nr pwned';
const HASHED = 'hash -p /usr/bin/touch ls; ls pwned';
const CMDS_TABLE = 'BASH_CMDS[ls]=/usr/bin/touch; ls pwned';
const ALIAS_TABLE = 'shopt -s expand_aliases; BASH_ALIASES[r]=touch\nr pwned';

export const RED_TEAM_RENAMED_COMMAND_CASES: RedTeamCase[] = [
  ...rows(
    'renamed: an alias or a bound program, written out',
    'deny',
    [ALIASED, "alias r='touch pwned'", HASHED, 'hash -p/usr/bin/touch ls'],
    denyTouch,
  ),
  ...rows('renamed: the shell tables', 'ask', [CMDS_TABLE, ALIAS_TABLE], denyTouch),
  ...rows(
    'renamed: launchers',
    'deny',
    [
      'busybox touch pwned',
      'toybox touch pwned',
      'toybox nice touch pwned',
      'parallel touch ::: pwned',
      "parallel 'touch {}' ::: pwned",
      'echo pwned | parallel touch',
    ],
    denyTouch,
  ),
  // Controls: aliases and hashing of other commands, listing them, other applets.
  ...rows(
    'renamed: controls',
    'allow',
    [
      "alias ll='ls -l'",
      "shopt -s expand_aliases; alias ll='ls -l'\nll",
      'alias',
      'hash',
      'hash -r',
      'busybox ls',
      'toybox ls',
      'parallel echo ::: a b',
    ],
    denyTouch,
  ),
];

/** Each created `pwned` when run (bash 5.2, BusyBox 1.35, toybox 0.8.9, GNU parallel 20221122). */
export const RED_TEAM_RENAMED_COMMAND_CALIBRATED: DangerCase[] = [
  { cmd: ALIASED, effect: 'writes', needs: 'bash' },
  { cmd: HASHED, effect: 'writes', needs: 'bash' },
  { cmd: CMDS_TABLE, effect: 'writes', needs: 'bash' },
  { cmd: ALIAS_TABLE, effect: 'writes', needs: 'bash' },
  { cmd: 'busybox touch pwned', effect: 'writes' },
  { cmd: 'toybox touch pwned', effect: 'writes' },
  { cmd: 'toybox nice touch pwned', effect: 'writes' },
  { cmd: 'parallel touch ::: pwned', effect: 'writes' },
  { cmd: "parallel 'touch {}' ::: pwned", effect: 'writes' },
  { cmd: 'echo pwned | parallel touch', effect: 'writes', needs: 'parallel' },
];
