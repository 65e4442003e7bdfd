/**
 * The red-team attack set of wave 8 on commands a line runs without showing them as commands
 * (unread-commands.ts): an interpreter's code, a program an option names, a build or package
 * tool's scripts. Under a Bash deny rule each asks in every mode, bypassPermissions included,
 * naming the rule; the same tools' everyday forms that run nothing of the kind keep running.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the rows are shell source, not JS templates.
import type { DangerCase } from './option-danger-cases';
import { type RedTeamCase, rows } from './red-team-rows';

const denyTouch: Partial<RedTeamCase> = { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' };

const COMMITTED = 'git init -q && git add -A && git commit -qm init';
const SCRIPTS = `echo '{"scripts":{"test":"touch pwned","build":"touch pwned"}}' > package.json`;

/** Each created `pwned` (or ran `prog`) when run (gawk/mawk, GNU sed 4.9, GNU tar 1.34, GNU make 4.3, npm 10, Info-ZIP 3.0, rsync 3.2.7, git 2.39). */
export const RED_TEAM_UNREAD_COMMAND_CALIBRATED: DangerCase[] = [
  { cmd: `awk 'BEGIN{system("touch pwned")}'`, effect: 'writes' },
  { cmd: "sed '1e touch pwned' x", effect: 'writes' },
  { cmd: "tar --to-command='touch pwned' -xf a.tar", effect: 'writes', setup: 'tar -cf a.tar x' },
  { cmd: "tar -cf a.tar -I 'touch pwned' x", effect: 'writes' },
  { cmd: 'make -f x.mk', effect: 'writes', setup: "printf 'all:\\n\\ttouch pwned\\n' > x.mk" },
  { cmd: 'npm test', effect: 'writes', setup: SCRIPTS },
  { cmd: 'FOO=1 npm test', effect: 'writes', setup: SCRIPTS, needs: 'npm' },
  { cmd: 'npm run build', effect: 'writes', setup: SCRIPTS },
  { cmd: 'npx --offline touch pwned', effect: 'writes' },
  { cmd: "zip -q a.zip x -T -TT 'touch pwned'", effect: 'writes' },
  { cmd: 'rsync -e ./prog x host:y', effect: 'runs' },
  { cmd: "git -c core.sshCommand='touch pwned' fetch ssh://h/r", effect: 'writes', setup: COMMITTED },
  { cmd: "git rebase -x 'touch pwned' --root", effect: 'writes', setup: COMMITTED },
  { cmd: "git fetch --upload-pack='touch pwned; git-upload-pack' .", effect: 'writes', setup: COMMITTED },
  {
    cmd: 'git --exec-path=. x',
    effect: 'writes',
    setup: "printf '#!/bin/sh\\ntouch pwned\\n' > git-x && chmod +x git-x",
  },
];

export const RED_TEAM_UNREAD_COMMAND_CASES: RedTeamCase[] = [
  ...rows(
    'unread commands: asked under a Bash deny rule',
    'ask',
    [
      ...RED_TEAM_UNREAD_COMMAND_CALIBRATED.map((row) => row.cmd),
      `python3 -c 'import os; os.system("touch pwned")'`,
      'pnpm exec touch pwned',
      'git bisect run touch pwned',
      'git submodule foreach touch pwned',
      "git -c core.pager='touch pwned' log",
      'ssh -o ProxyCommand=./prog h',
      'timeout 5 make',
    ],
    denyTouch,
  ),
  // Controls: the same tools when they run nothing the line does not show.
  ...rows(
    'unread commands: controls',
    'allow',
    [
      'npm ls',
      'FOO=1 npm ls',
      'npm --version',
      'npm view react version',
      'tar -cf a.tar x',
      'tar -xf a.tar',
      'rsync -a src/ dst/',
      'zip -q a.zip x',
      'sed -n 1p x',
      'git -c color.ui=never log',
      'git -c push.default=current push origin',
      'git rebase main',
      'git fetch origin',
      'busybox ls',
    ],
    denyTouch,
  ),
  // Without a Bash deny or ask rule nothing changes: bypassPermissions runs them.
  ...rows('unread commands: no rule', 'allow', ['npm test', 'make', `awk 'BEGIN{print 1}'`], {
    mode: 'bypassPermissions',
  }),
];
