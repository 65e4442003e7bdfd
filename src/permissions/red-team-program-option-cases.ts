/**
 * The red-team attack set of wave 9 on programs a command's options name (program-options.ts and
 * the option tables' `run` effects): a git subcommand's own option after git's `-c`/`-C`, a long
 * option abbreviated as getopt_long and git's parse-options allow, tar's old-style option cluster,
 * and git's transport and template options. Under a Bash deny rule each asks in every mode,
 * naming the rule; under a rule allowing the command it asks too (the rule cannot vouch for the
 * program). The same tools' everyday forms keep running.
 */
import type { DangerCase } from './option-danger-cases';
import { type RedTeamCase, rows } from './red-team-rows';

const denyTouch: Partial<RedTeamCase> = { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' };

const COMMITTED = 'git init -q && git add -A && git commit -qm init';
const TWO_COMMITS = `${COMMITTED} && echo c >> x && git commit -qam second`;
/** A repository whose own configuration names a text conversion and an external diff program. */
const TEXTCONV = `${TWO_COMMITS} && echo 'x diff=t' > .gitattributes && git config diff.t.textconv 'touch pwned; cat'`;
const EXTERNAL = `${TWO_COMMITS} && git config diff.external 'touch pwned; true'`;
const TEMPLATE = `${COMMITTED} && mkdir -p tpl/hooks && printf '#!/bin/sh\\ntouch ../pwned\\n' > tpl/hooks/post-checkout && chmod +x tpl/hooks/post-checkout`;

/** Each created `pwned` when run (git 2.39.5, GNU tar 1.34, Info-ZIP 3.0, bash 5.2). */
export const RED_TEAM_PROGRAM_OPTION_CALIBRATED: DangerCase[] = [
  { cmd: 'git -c color.ui=never diff --textconv HEAD~1', effect: 'writes', setup: TEXTCONV },
  { cmd: 'git -c color.ui=never show --textconv HEAD', effect: 'writes', setup: TEXTCONV },
  { cmd: 'git -c color.ui=never log -p --ext-diff -1', effect: 'writes', setup: EXTERNAL },
  { cmd: "git -C . grep -O'touch pwned' b", effect: 'writes', setup: COMMITTED },
  { cmd: "git rebase --exe 'touch pwned' HEAD~1", effect: 'writes', setup: TWO_COMMITS },
  { cmd: "git fetch --upload-p='touch pwned; git-upload-pack' .", effect: 'writes', setup: COMMITTED },
  { cmd: "git pull --upload-pa='touch pwned; git-upload-pack' . HEAD", effect: 'writes', setup: COMMITTED },
  { cmd: "git clone -q --upload-pa='touch pwned; git-upload-pack' . y", effect: 'writes', setup: COMMITTED },
  { cmd: "git clone -q -c core.sshCommand='touch pwned; false' ssh://h/r y", effect: 'writes' },
  { cmd: 'git clone -q --template=tpl . y', effect: 'writes', setup: TEMPLATE },
  { cmd: "tar cIf 'touch pwned' a.tar x", effect: 'writes' },
  { cmd: "tar --to-com='touch pwned' -xf a.tar", effect: 'writes', setup: 'tar -cf a.tar x' },
  { cmd: "tar --use-comp='touch pwned' -cf a.tar x", effect: 'writes' },
  { cmd: "zip -q a.zip x -T --unzip-c='touch pwned'", effect: 'writes' },
];

export const RED_TEAM_PROGRAM_OPTION_CASES: RedTeamCase[] = [
  ...rows(
    'program options: asked under a Bash deny rule',
    'ask',
    [
      ...RED_TEAM_PROGRAM_OPTION_CALIBRATED.map((row) => row.cmd),
      "git --git-dir=.git grep --open-files-in-pager='touch pwned' b",
      "git push --receive-p='touch pwned' . HEAD",
      "git -c color.ui=never rebase -ix 'touch pwned' HEAD~1",
      'git -c color.ui=never difftool',
    ],
    denyTouch,
  ),
  // A rule allowing the command does not cover the program an option names.
  ...rows(
    'program options: not covered by a rule for the command',
    'ask',
    ["tar --to-command='touch pwned' -xf a.tar", "tar cIf 'touch pwned' a.tar x"],
    { allow: ['Bash(tar:*)'] },
  ),
  ...rows(
    'program options: not covered by a rule for git rebase',
    'ask',
    ["git rebase --exec 'touch pwned' HEAD~1"],
    {
      allow: ['Bash(git rebase:*)'],
    },
  ),
  // Controls: the same commands naming no program.
  ...rows(
    'program options: controls',
    'allow',
    [
      'git -c color.ui=never diff HEAD~1',
      'git -c color.ui=never log -p -1',
      'git -C . grep -n b',
      'git rebase main',
      'git fetch .',
      'git clone -q . y',
      'tar cf a.tar x',
      'tar -xf a.tar',
      'tar --to-stdout -xf a.tar',
      'zip -q a.zip x',
    ],
    denyTouch,
  ),
  ...rows('program options: controls under an allow rule', 'allow', ['tar -xf a.tar', 'tar cf a.tar x'], {
    allow: ['Bash(tar:*)'],
  }),
];
