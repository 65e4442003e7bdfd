/**
 * The red-team attack set against deny rules (wave 6): spellings of a denied command that the
 * words as written do not show. Most rows run in bypassPermissions, where anything a deny rule
 * misses runs without a question: a command that surely runs what the rule names is denied (brace
 * expansion, git's own options before the subcommand, `bash -c` with options after `-c`, a
 * launcher running its operands); one that only may (a pattern, a word only known when it runs,
 * code the line does not show, a line that cannot be parsed) asks in every mode, naming the rule.
 * Each class ends with the everyday commands that must keep running as before.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the rows are shell source, not JS templates.
import { type DangerCase, GIT_REPO } from './option-danger-cases';
import { type RedTeamCase, rows } from './red-team-rows';

/** Pushes that replace the remote's rewritten ref, as `git push -f` does. */
const FORCE_PUSHES = [
  'git push --force-with-lease origin main',
  'git push --force-with-lease=main origin main',
  'git push --force-if-includes --force-with-lease origin main',
  'git push origin +main',
  'git push origin +HEAD:main',
  'git push --mirror origin',
  'git -C . push origin +main',
  'git -c remote.origin.push=+main:main push origin',
  'git -c remote.origin.mirror=true push origin',
];
/** A scratch remote (`r.git`) holding `main`, whose local commit was then amended. */
const PUSHED_THEN_AMENDED =
  'git init -q -b main && git add -A && git commit -qm init && git init -q --bare r.git && git remote add origin r.git && git push -q origin main && git commit -q --amend -m rewritten';

const denyTouch: Partial<RedTeamCase> = { deny: ['Bash(touch:*)'], mode: 'bypassPermissions' };
const denyTag: Partial<RedTeamCase> = { deny: ['Bash(git tag:*)'], mode: 'bypassPermissions' };

export const RED_TEAM_DENY_CASES: RedTeamCase[] = [
  ...rows(
    'deny: git options before the subcommand',
    'deny',
    [
      'git -C . tag v1',
      'git -Cx tag v1',
      'git --no-pager tag v1',
      'git -c x.y=z tag v1',
      'git --git-dir .git tag v1',
      'git --git-dir=.git tag v1',
      'git --work-tree . tag v1',
      'git --namespace ns tag v1',
      'git --config-env=x.y=HOME tag v1',
      'git -P --literal-pathspecs tag v1',
      '/usr/bin/git -C . tag v1',
    ],
    denyTag,
  ),
  ...rows(
    'deny: git options before the subcommand',
    'allow',
    ['git -C . status', 'git --no-pager log'],
    denyTag,
  ),
  ...rows('deny: brace expansion', 'deny', ['git {tag,v1}', 'git -C . {tag,v1}'], {
    ...denyTouch,
    deny: ['Bash(touch:*)', 'Bash(git tag:*)'],
  }),
  ...rows(
    'deny: bash -c with options after -c',
    'deny',
    [
      "bash -c -- 'touch pwned'",
      "bash -c -e 'touch pwned'",
      "bash -c -o errexit 'touch pwned'",
      "bash -c +x 'touch pwned'",
      "sh -c - 'touch pwned'",
      "bash -xc -- 'touch pwned'",
    ],
    denyTouch,
  ),
  ...rows(
    'deny: launchers',
    'deny',
    [
      'setsid -w touch pwned',
      'chroot / touch pwned',
      'ionice -c 3 touch pwned',
      'taskset 1 touch pwned',
      'chrt -o 0 touch pwned',
      'flock lock touch pwned',
      'unshare touch pwned',
      'runuser -u root -- touch pwned',
      "su -c 'touch pwned'",
      "sg root -c 'touch pwned'",
      "script -qc 'touch pwned' /dev/null",
      'setarch x86_64 touch pwned',
      'linux64 touch pwned',
      'fakeroot touch pwned',
      'dbus-run-session -- touch pwned',
      'strace -o /dev/null touch pwned',
      'watch -n1 touch pwned',
      "watch 'touch pwned'",
      'coproc touch pwned',
      'coproc name { touch pwned; }',
      "setsid sh -c 'touch pwned'",
    ],
    denyTouch,
  ),
  ...rows(
    'deny: patterns and words only known when the line runs',
    'ask',
    [
      '/usr/bin/tou?h pwned',
      '/usr/bin/t[o]uch pwned',
      'x=touch; $x pwned',
      '$(echo touch) pwned',
      '`echo touch` pwned',
      '${X:-touch} pwned',
      'a=to; b=uch; $a$b pwned',
    ],
    denyTouch,
  ),
  ...rows(
    'deny: patterns and words only known when the line runs',
    'ask',
    ['git ta? v1', 'git $sub v1'],
    denyTag,
  ),
  ...rows(
    'deny: code the line does not show',
    'ask',
    [
      'echo touch pwned | sh',
      'bash < <(echo touch pwned)',
      'bash ./script.sh',
      'source ./script.sh',
      'eval "$CMD"',
      "PROMPT_COMMAND='touch pwned' bash -i",
      'PATH=.:$PATH make',
      // The parser cannot read braces in the command word: the line is unparsable, and asks.
      '{touch,pwned}',
      '{/usr/bin/touch,pwned}',
    ],
    denyTouch,
  ),
  ...rows(
    'deny: options spelt another way',
    'deny',
    ['rm -r -f d', 'rm -fr d', 'rm --recursive --force d', 'rm -fR d', 'rm d -rf', '/bin/rm -r -f d'],
    { deny: ['Bash(rm -rf:*)'], mode: 'bypassPermissions' },
  ),
  ...rows(
    'deny: options spelt another way',
    'deny',
    ['git push -f', 'git push origin --force', 'git push origin main -f', 'git -C . push -f'],
    { deny: ['Bash(git push --force:*)'], mode: 'bypassPermissions' },
  ),
  // `--force-with-lease`, `--mirror` and a `+refspec` force-push as `-f` does (calibrated below).
  ...rows('deny: force-push spellings', 'deny', FORCE_PUSHES, {
    deny: ['Bash(git push --force:*)'],
    mode: 'bypassPermissions',
  }),
  ...rows('deny: force-push spellings', 'deny', ['git push --force', ...FORCE_PUSHES], {
    deny: ['Bash(git push -f:*)'],
    mode: 'bypassPermissions',
  }),
  // Controls: a push git refuses to force (`--force-if-includes` alone forces nothing).
  ...rows(
    'deny: force-push spellings',
    'allow',
    [
      'git push',
      'git push origin main',
      'git push --force-if-includes origin main',
      'git push -u origin main',
      'git -c remote.origin.push=main:main push origin',
      'git -c color.ui=never push origin',
    ],
    { deny: ['Bash(git push --force:*)'], mode: 'bypassPermissions' },
  ),
  // Controls: fewer options than the rule names, or `--` before the word, are not what it denies.
  ...rows('deny: options spelt another way', 'ask', ['rm -r d', 'rm -f d', 'rm -- -rf'], {
    deny: ['Bash(rm -rf:*)'],
  }),
  ...rows('deny: options spelt another way', 'ask', ['git push origin main'], {
    deny: ['Bash(git push --force:*)'],
  }),
  // Controls: the same deny rules leave everyday commands as they were.
  ...rows(
    'deny: controls',
    'allow',
    [
      'ls -la',
      'git status',
      'cat README.md',
      'grep -rn touch src',
      'echo touch pwned',
      'npm ls',
      'ls $HOME',
      'git log --oneline -5',
      'FOO=1 npm ls',
      'sh -c "echo hi"',
      "bash -c -e 'echo hi'",
      'setsid -w echo hi',
    ],
    denyTouch,
  ),
  ...rows('deny: controls', 'allow', ['ls -la', 'git status', 'cat README.md', 'grep -rn foo src'], {
    deny: ['Bash(touch:*)'],
  }),
  ...rows('deny: controls', 'ask', ['bash ./script.sh', 'setsid -w touch pwned', 'git -C . tag v1']),
];

/** The holes this pass found, each run for real: the effect the deny rule now blocks. */
export const RED_TEAM_DENY_CALIBRATED: DangerCase[] = [
  { cmd: 'git -C . tag v1', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: 'git --no-pager tag v1', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: 'git -c x.y=z tag v1', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: 'git --git-dir .git tag v1', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: 'git --work-tree . tag v1', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: 'git {tag,v1}', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: 'git -C . {tag,v1}', effect: 'writes', setup: GIT_REPO, marker: '.git/refs/tags/v1' },
  { cmd: '{/usr/bin/touch,pwned}', effect: 'writes', needs: 'touch' },
  { cmd: '{touch,pwned}', effect: 'writes', needs: 'touch' },
  { cmd: "bash -c -- 'touch pwned'", effect: 'writes' },
  { cmd: "bash -c -e 'touch pwned'", effect: 'writes' },
  { cmd: "bash -c -o errexit 'touch pwned'", effect: 'writes' },
  { cmd: "bash -c +x 'touch pwned'", effect: 'writes' },
  { cmd: "sh -c - 'touch pwned'", effect: 'writes' },
  { cmd: 'setsid -w touch pwned', effect: 'writes' },
  { cmd: 'chroot / touch pwned', effect: 'writes', calibrate: 'chroot / touch "$PWD/pwned"' },
  { cmd: 'ionice -c 3 touch pwned', effect: 'writes' },
  { cmd: 'taskset 1 touch pwned', effect: 'writes' },
  { cmd: 'chrt -o 0 touch pwned', effect: 'writes' },
  { cmd: 'flock lock touch pwned', effect: 'writes' },
  { cmd: 'unshare touch pwned', effect: 'writes' },
  { cmd: 'runuser -u root -- touch pwned', effect: 'writes' },
  { cmd: "su -c 'touch pwned'", effect: 'writes' },
  { cmd: "sg root -c 'touch pwned'", effect: 'writes' },
  { cmd: "script -qc 'touch pwned' /dev/null", effect: 'writes' },
  { cmd: 'setarch x86_64 touch pwned', effect: 'writes', calibrate: 'setarch "$(uname -m)" touch pwned' },
  { cmd: 'fakeroot touch pwned', effect: 'writes' },
  { cmd: 'strace -o /dev/null touch pwned', effect: 'writes' },
  { cmd: 'coproc touch pwned', effect: 'writes', needs: 'touch', calibrate: 'coproc touch pwned; wait' },
  {
    cmd: 'coproc name { touch pwned; }',
    effect: 'writes',
    needs: 'touch',
    calibrate: 'coproc name { touch pwned; }; wait',
  },
  { cmd: '/usr/bin/tou?h pwned', effect: 'writes', needs: 'touch' },
  { cmd: 'x=touch; $x pwned', effect: 'writes', needs: 'touch' },
  { cmd: 'echo touch pwned | sh', effect: 'writes', needs: 'touch' },
  { cmd: 'rm -r -f d', effect: 'writes', setup: 'mkdir -p d/x', gone: 'd' },
  { cmd: 'rm -fr d', effect: 'writes', setup: 'mkdir -p d/x', gone: 'd' },
  { cmd: 'rm --recursive --force d', effect: 'writes', setup: 'mkdir -p d/x', gone: 'd' },
  { cmd: 'rm -fR d', effect: 'writes', setup: 'mkdir -p d/x', gone: 'd' },
  { cmd: 'rm d -rf', effect: 'writes', setup: 'mkdir -p d/x', gone: 'd' },
  // Each replaced the remote's `main` (a plain `git push origin main` was refused, ref unchanged).
  ...FORCE_PUSHES.map(
    (cmd): DangerCase => ({
      cmd,
      effect: 'writes',
      setup: PUSHED_THEN_AMENDED,
      changed: 'r.git/refs/heads/main',
    }),
  ),
  // Reads of the denied file (here: the scratch secret, which the effect can see).
  { cmd: 'dd if=.env', effect: 'reads-outside', calibrate: 'dd if=../outside/secret.txt' },
  {
    cmd: 'echo $(<.env)',
    effect: 'reads-outside',
    needs: 'echo',
    calibrate: 'echo $(<../outside/secret.txt)',
  },
  {
    cmd: 'x=.env; cat $x',
    effect: 'reads-outside',
    needs: 'cat',
    calibrate: 'x=../outside/secret.txt; cat $x',
  },
  {
    cmd: 'find . -name .env -exec cat {} +',
    effect: 'reads-outside',
    calibrate: 'find ../outside -name secret.txt -exec cat {} +',
  },
];

const denyEnvBypass: Partial<RedTeamCase> = { deny: ['Read(./.env)'], mode: 'bypassPermissions' };

/**
 * Read deny rules on the disk project (red-team-disk-corpus.test.ts): a read only known when the
 * line runs, or a search sweeping over the denied file, asks even in bypassPermissions; a read the
 * line surely makes of it is denied. `find -exec CMD {}` reads what find finds.
 */
export const RED_TEAM_DENY_DISK_CASES: RedTeamCase[] = [
  ...rows(
    'read deny: bypassPermissions',
    'deny',
    ['dd if=.env', 'echo $(<.env)', 'cat env-link'],
    denyEnvBypass,
  ),
  ...rows(
    'read deny: bypassPermissions',
    'ask',
    [
      'x=.env; cat $x',
      'cat "$(printf .env)"',
      'grep -r ENV .',
      'rg ENV',
      'find . -name .env -exec cat {} +',
      'find . -exec grep ENV {} ;',
      'fdfind -H -x cat',
    ],
    denyEnvBypass,
  ),
  ...rows('read deny: find -exec', 'ask', ['find . -name .env -exec cat {} +', 'find . -exec cat {} +'], {
    deny: ['Read(./.env)'],
  }),
  ...rows('read deny: find -exec', 'ask', [
    'find .. -name secret.txt -exec cat {} +',
    'find -L . -exec cat {} +',
  ]),
  // Controls: a search whose files the rule does not cover runs as before (find -exec asks
  // in the default mode whatever it runs; bypassPermissions runs it).
  ...rows(
    'read deny: controls',
    'allow',
    ["find src -name '*.ts' -exec cat {} +", 'find src -exec grep -l export {} +', 'cat README.md', 'ls -la'],
    denyEnvBypass,
  ),
  ...rows('read deny: controls', 'allow', ['cat README.md', 'ls -la', 'grep -rn foo src'], {
    deny: ['Read(./.env)'],
  }),
];
