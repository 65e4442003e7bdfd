/**
 * The red-team attack set against the shell analysis (issue 11 §1), run through the real pipeline
 * in default mode with no rules unless a row says otherwise: options of read-only commands that
 * run or write (abbreviated, clustered, glued, after operands, hidden in expansions), bash
 * evaluation sites, and environment that changes what runs. Each class ends with the everyday
 * commands that must keep running without a prompt. The rows that were holes when this set was
 * written are run for real in red-team-calibration.test.ts (`RED_TEAM_CALIBRATED`).
 */
import { type DangerCase, GIT_REPO } from './option-danger-cases';

import { RED_TEAM_COREUTILS_CASES } from './red-team-coreutils-cases';
import { RED_TEAM_EVAL_CASES } from './red-team-eval-cases';
import { RED_TEAM_GIT_CASES } from './red-team-git-cases';
import { RED_TEAM_OPTION_CASES } from './red-team-option-cases';
import { type RedTeamCase, rows } from './red-team-rows';

export type { RedTeamCase } from './red-team-rows';

/** Variables that point bash at message catalogs whose translations it expands (`$"…"`). */
const TRANSLATIONS = [
  ...rows('environment', 'ask', [
    'TEXTDOMAIN=x\nTEXTDOMAINDIR=tdir\necho $"hello"',
    'TEXTDOMAINDIR=. TEXTDOMAIN=x; echo $"hello"',
    'export TEXTDOMAINDIR=.; TEXTDOMAIN=x; echo $"hello"',
    'TEXTDOMAINDIR=. echo $"x"',
    'LANGUAGE=de TEXTDOMAIN=x TEXTDOMAINDIR=. ; echo $"x"',
    'declare -x TEXTDOMAINDIR=/tmp; echo $"x"',
  ]),
  ...rows('environment', 'allow', ['echo $"hello"', 'LANGUAGE=de ls']),
];

/** A rule for git (`Bash(git:*)`, the user's own) does not vouch for a program a setting names. */
const anyGit: Partial<RedTeamCase> = { allow: ['Bash(git:*)'], source: 'userSettings' };
const GIT_RULES = [
  ...rows(
    'git rules',
    'ask',
    [
      'git -c core.pager=sh log',
      "git -c alias.x='!touch pwned' x",
      'git --config-env=core.pager=X log',
      'git --exec-path=/tmp log',
      'git -ccore.pager=sh log',
    ],
    anyGit,
  ),
  ...rows('git rules', 'allow', ['git -C src log', 'git commit -m x', 'git status'], anyGit),
  ...rows('git rules', 'allow', ['git -c core.pager=sh log'], {
    allow: ['Bash(git -c core.pager=sh log)'],
    source: 'userSettings',
  }),
];

/** Wrappers whose own options run, write or read: `env -S` splits a string into a command line. */
const WRAPPERS = [
  ...rows('wrappers', 'ask', [
    "env -S'touch pwned'",
    `env -S"sh -c 'touch pwned'"`,
    "env -iS'touch pwned'",
    "env -vS'touch pwned'",
    "env --split-s='touch pwned'",
    "env --sp='touch pwned'",
    "env -u X -S'touch pwned'",
    "env -S 'touch pwned'",
    "env --split-string='ls' x",
    'env PAGER=x git log',
    'env -i PATH=/tmp ls',
    'env BASH_ENV=/tmp/x bash -c ls',
    'time -o pwned ls',
    '\\time -o pwned ls',
    'command time -o pwned ls',
    '/usr/bin/time -o pwned ls',
    '/usr/bin/time --out=pwned ls',
    '/usr/bin/time -apwned ls',
    'timeout -s KILL 5 touch pwned',
    'timeout 5 sort -o pwned x',
    'nice -n 5 sort -o pwned x',
    'nice sort --output=pwned x',
    'stdbuf -oL sort -opwned x',
    'xargs -a /etc/passwd echo',
    'xargs --arg-file=/etc/passwd echo',
    'xargs -a/etc/passwd echo',
    'xargs -I{} sort -o {} x',
    'xargs --process-slot-var=LD_PRELOAD echo',
    "xargs sh -c 'touch pwned'",
    'xargs -i sh',
    'command -p sort -o pwned x',
    "builtin eval 'touch pwned'",
    'exec -a foo touch pwned',
    'nohup touch pwned',
    'timeout --foreground 5 git -c core.pager=x log',
    'env -- sort -o pwned x',
    'env - sort -o pwned x',
    'xargs -- sort -o pwned',
  ]),
  ...rows('wrappers', 'deny', ["env -S'rm -rf x'", "env -iS'rm x'", 'env -S rm x'], { deny: ['Bash(rm:*)'] }),
  // `env` with no command prints the environment; `-C` without one is an error.
  ...rows('wrappers', 'allow', [
    'env',
    'env -C /tmp',
    'env LD_PRELOAD=/tmp/x.so',
    'env LANG=C ls',
    'env -i ls',
    'env -u HOME ls',
    'env -C src ls',
  ]),
];

export const RED_TEAM_CASES: RedTeamCase[] = [
  ...WRAPPERS,
  ...TRANSLATIONS,
  ...GIT_RULES,
  ...RED_TEAM_COREUTILS_CASES,
  ...RED_TEAM_OPTION_CASES,
  ...RED_TEAM_GIT_CASES,
  ...RED_TEAM_EVAL_CASES,
];

/** Every row of both sets, for the check that each calibrated hole is one of them. */
export const allRedTeamRows = async (): Promise<RedTeamCase[]> => [
  ...RED_TEAM_CASES,
  ...(await import('./red-team-disk-cases')).RED_TEAM_DISK_CASES,
];

/** A link out of the project, for the listings that follow links. */
const LINK_OUT = 'ln -s ../outside out-link';
/** A repository that tracks a `.env` holding the scratch secret. */
const TRACKED_SECRET = `echo SECRET-TOKEN-93 > .env && ${GIT_REPO}`;

/** The holes this pass found, each run for real: the effect the permission check now blocks. */
export const RED_TEAM_CALIBRATED: DangerCase[] = [
  { cmd: "env -S'touch pwned'", effect: 'writes' },
  { cmd: "env -iS'touch pwned'", effect: 'writes' },
  { cmd: "env -vS'touch pwned'", effect: 'writes' },
  { cmd: "env --split-s='touch pwned'", effect: 'writes' },
  { cmd: "env --sp='touch pwned'", effect: 'writes' },
  { cmd: "env -u X -S'touch pwned'", effect: 'writes' },
  // A link the line makes for itself, then a write through it (.git/config changes).
  {
    cmd: 'ln -s .git/config c; echo x > c',
    effect: 'writes',
    setup: GIT_REPO,
    changed: '.git/config',
    calibrate: 'ln -s .git/config c; echo x >> c',
  },
  {
    cmd: 'cp -P cfg-link b; echo x > b',
    effect: 'writes',
    setup: `${GIT_REPO} && ln -s .git/config cfg-link`,
    changed: '.git/config',
  },
  {
    cmd: 'for i in 1 2; do echo x >> c; ln -sf .git/config c; done',
    effect: 'writes',
    setup: GIT_REPO,
    changed: '.git/config',
  },
  {
    cmd: 'echo x > c | ln -s .git/config c',
    effect: 'writes',
    setup: GIT_REPO,
    changed: '.git/config',
    calibrate: 'ln -s .git/config c; echo x >> c | true',
  },
  { cmd: 'ln -s ../outside o; echo x > o/pwn', effect: 'writes', marker: '../outside/pwn' },
  {
    cmd: 'ln -s .. up; echo x > up/../pwn',
    effect: 'writes',
    marker: '../pwn',
    setup: 'mkdir -p inner && cd inner',
    calibrate: 'cd inner && ln -s .. up && echo x > up/../pwn',
  },
  // A hard link: the next plain write of `c` changes .git/config.
  {
    cmd: 'ln .git/config c',
    effect: 'writes',
    setup: GIT_REPO,
    changed: '.git/config',
    calibrate: 'ln .git/config c && echo x >> c',
  },
  {
    cmd: 'cp -l .git/config c',
    effect: 'writes',
    setup: GIT_REPO,
    changed: '.git/config',
    calibrate: 'cp -l .git/config c && echo x >> c',
  },
  // Listings that follow a link out of the project (the ones that do not, stay inside and run).
  {
    cmd: 'find -L . -name secret.txt',
    effect: 'reads-outside',
    setup: LINK_OUT,
    output: /out-link\/secret\.txt/,
  },
  {
    cmd: 'find . -follow -name secret.txt',
    effect: 'reads-outside',
    setup: LINK_OUT,
    output: /out-link\/secret\.txt/,
  },
  { cmd: 'tree -l', effect: 'reads-outside', setup: LINK_OUT, output: /secret\.txt/ },
  { cmd: 'du -L -a .', effect: 'reads-outside', setup: LINK_OUT, output: /out-link\/secret\.txt/ },
  { cmd: 'fd -L secret', effect: 'reads-outside', setup: LINK_OUT, output: /secret\.txt/, needs: 'fd' },
  { cmd: 'ls -RL', effect: 'reads-outside', setup: LINK_OUT, output: /secret\.txt/ },
  { cmd: 'ag -f SECRET', effect: 'reads-outside', setup: LINK_OUT, needs: 'ag' },
  // A glob matching a planted file named like an option; a line that plants one itself.
  {
    cmd: 'cd planted && sort *',
    effect: 'writes',
    setup: 'mkdir planted && touch planted/--output=pwned planted/a',
    marker: 'planted/pwned',
  },
  {
    cmd: 'cd planted && wc -l *',
    effect: 'reads-outside',
    setup: 'mkdir planted && cp ../outside/list0 planted/.list && touch planted/--files0-from=.list',
  },
  {
    cmd: 'cd plain && echo > ./--output=x; sort *',
    effect: 'writes',
    setup: 'mkdir plain && touch plain/a',
    marker: 'plain/x',
  },
  // git prints a tracked file a Read deny rule covers (its secret shows in the output).
  { cmd: 'git log -p', effect: 'reads-outside', setup: TRACKED_SECRET },
  { cmd: 'git show HEAD', effect: 'reads-outside', setup: TRACKED_SECRET },
  { cmd: 'git diff HEAD~0', effect: 'reads-outside', setup: `${TRACKED_SECRET} && echo changed >> .env` },
  { cmd: 'git cat-file --batch-all-objects --batch', effect: 'reads-outside', setup: TRACKED_SECRET },
  // A message catalog planted in TEXTDOMAINDIR: bash expands the translation of `$"hello"`.
  {
    cmd: 'TEXTDOMAIN=x\nTEXTDOMAINDIR=tdir\necho $"hello"',
    effect: 'runs',
    setup: `mkdir -p loc tdir/en_US/LC_MESSAGES && localedef -i en_US -f UTF-8 loc/en_US.UTF-8 && printf 'msgid "hello"\\nmsgstr "$(touch ran)hi"\\n' > x.po && msgfmt -o tdir/en_US/LC_MESSAGES/x.mo x.po`,
    // A locale other than C translates; this machine's is made with localedef.
    calibrate: `LOCPATH=$PWD/loc LC_ALL=en_US.UTF-8 bash -c 'TEXTDOMAIN=x\nTEXTDOMAINDIR=tdir\necho $"hello"'`,
    needs: 'msgfmt',
  },
  // A move of a planted link, then a write below it: the file lands outside.
  {
    cmd: 'mv out-link o; echo x > o/pwn',
    effect: 'writes',
    setup: 'ln -s ../outside out-link',
    marker: '../outside/pwn',
  },
  // git -c names a program through configuration: an alias that runs the shell.
  { cmd: "git -c alias.x='!touch pwned' x", effect: 'writes', setup: GIT_REPO },
];
