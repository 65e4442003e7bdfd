/**
 * The red-team attack set that needs a real project on disk (red-team-disk-corpus.test.ts builds
 * it): `proj/` is a git repository holding `.env`, `README.md`, `src/a.ts`, `x`, and planted links
 * — `out-link` → `../outside`, `secret-link` → `../outside/secret.txt`, `env-link` → `.env`,
 * `cfg-link` → `.git/config`; `../outside/secret.txt` and `home/.ssh/id_rsa` are secrets. Classes:
 * links a line makes for itself, hard links to protected files, reads past the project and deny
 * rules, protected files written through every shell route. The rows that were holes are
 * calibrated in red-team-calibration.test.ts.
 */

import { RED_TEAM_FOLDER_READ_DISK_CASES } from './red-team-code-read-cases';
import { RED_TEAM_DENY_DISK_CASES } from './red-team-deny-cases';
import { RED_TEAM_SHELL_IO_CASES } from './red-team-io-cases';
import { RED_TEAM_PATH_CASES } from './red-team-path-cases';
import { type RedTeamCase, rows } from './red-team-rows';
import { RED_TEAM_WRITE_CASES } from './red-team-write-cases';

const edits = { mode: 'acceptEdits' } as const;

/** A line that makes a link and then writes or reads through it (acceptEdits: plain edits otherwise). */
const LINKS_IN_LINE = [
  ...rows(
    'links in line',
    'ask',
    [
      'ln -s .git/config c; echo x > c',
      'ln -s .git g; echo x > g/config',
      'ln -s .git g && cd g && echo x > config',
      'ln -s ../outside o; echo x > o/pwn',
      'ln -s ../outside o && cp x o/',
      'ln -s ../outside o; mkdir o/d',
      'mv cfg-link b; echo x > b',
      'cp -P cfg-link b; echo x > b',
      'cp -d cfg-link b; echo x >> b',
      'cp -a cfg-link b; echo x > b',
      'cp -r cfg-link b; echo x > b',
      'cp --no-dereference cfg-link b; echo x > b',
      'mv out-link o; echo x > o/pwn',
      'cp -r src s2; echo x > s2/a.ts',
      'mv * d; echo x > d/cfg-link',
      'for i in 1 2; do echo x >> c; ln -sf .git/config c; done',
      'echo x > c | ln -s .git/config c',
      'ln -s .git/hooks h; cp x h/pre-commit',
      'ln -s ~ h; echo x > h/.bashrc',
      'ln -s ../outside o; sed -i s/a/b/ o/secret.txt',
      'ln -s ../outside o; tee o/x < x',
      'mkdir d && ln -s ../../outside d/o && echo x > d/o/p',
      'ln -sT .git g; echo > g/config',
      'ln --symbolic .git g; echo > g/config',
      'cp -s .git/config c; echo x > c',
      'ln -s .git g; ln -s ../x g/hooks/pre-commit',
      'ln -s .. up; echo x > up/../pwn',
      'ln -s ../outside o; echo x > o/../pwn',
      'ln -s ../outside o; cat o/secret.txt',
    ],
    edits,
  ),
  ...rows('links in line', 'ask', ['ln -s ../outside o; cat o/secret.txt', 'ln -s /etc e; cat e/passwd']),
  // A hard link makes its source writable under another name.
  ...rows(
    'hard links',
    'ask',
    [
      'ln .git/config c',
      'ln .git/config c; echo x > c',
      'cp -l .git/config c',
      'cp -l .git/config c; echo x > c',
      'ln -P .git/config c',
      'cp --link .git/config c',
      'cp --li .git/config c',
      'ln -f .git/config c',
      'ln .git/config .git/HEAD src/',
      'ln -t src .git/config',
      'ln ../outside/secret.txt h',
      'ln ~/.bashrc b',
      'cp -al .git g',
    ],
    edits,
  ),
  ...rows(
    'links in line',
    'allow',
    [
      'ln -s .git/config c',
      'ln -s src/a.ts b.ts',
      'ln --sym src/a.ts b.ts',
      'ln src/a.ts b.ts',
      'cp -l src/a.ts b.ts',
      'ln -sf x y',
      'mkdir d && echo x > d/f',
      'cp x y && cat y',
      'touch a; echo x > a',
      'cp x y; echo z >> y',
      'ln -s src/a.ts b.ts && cat README.md',
      // A move or copy of a plain file leaves a plain file.
      'mv x y; cat y',
      'mv x y && echo z >> y',
      'cp -a x y; echo z > y',
      'mv README.md docs.md && sed -i s/a/b/ docs.md',
    ],
    edits,
  ),
];

/**
 * Recursive listings and searches with a link out of the project below (`out-link`, and
 * `usr-share` → /usr/share, too big to walk). A listing that does not follow links (`find`,
 * `tree`, `du`, `fd`, `ls -R`, and the content searches `ag`, `git grep`) stays inside; one that
 * follows them lists or reads outside. A listing shows names, as `ls` does: a deny rule on a
 * file's content does not stop it; a content search asks.
 */
const RECURSION = [
  ...rows('recursion', 'allow', [
    "find . -name '*.ts'",
    'find . -type f',
    'find src',
    'find . -newer x',
    'tree',
    'tree -L 2',
    'du -sh .',
    'fd ts',
    'fd -e ts',
    'ls -R',
    'ls -R src',
    'ag foo',
    'grep -r foo .',
    'rg foo',
    'git grep foo',
    'diff -r src src',
  ]),
  ...rows('recursion', 'allow', ["find . -name '*.ts'", 'tree', 'du -sh .', 'fd ts', 'ls -R', 'ls -la'], {
    deny: ['Read(./.env)'],
  }),
  ...rows(
    'recursion',
    'ask',
    ['grep -r ENV .', 'rg ENV', 'ag --hidden ENV', 'git grep ENV', 'grep -rl ENV ./'],
    {
      deny: ['Read(./.env)'],
    },
  ),
  ...rows('recursion', 'ask', [
    'find -L . -name secret.txt',
    'find . -follow -name secret.txt',
    'find -L .',
    'tree -l',
    'du -L -a .',
    'du -sL .',
    'fd -L secret',
    'fd --follow secret',
    'ls -RL',
    'ls -R -L .',
    'ag -f SECRET',
    'ag --follow OUTSIDE',
    'grep -R OUTSIDE .',
    'rg -L OUTSIDE',
    'find -H out-link',
    'ls -R out-link',
    'tree out-link',
    'find out-link',
  ]),
];

/**
 * Globs are judged by the words they match on disk when the line creates no file: `planted/`
 * holds files named like options (`--output=pwned`, `-c`, `--files0-from=list`, `-i`,
 * `--run-tests`, `-r`); `plain/` holds ordinary ones. A line that creates files keeps the worst
 * case (any matched word may be any option).
 */
const GLOBS = [
  ...rows('globs', 'ask', [
    'cd planted && sort *',
    'cd planted && sort -u *',
    'cd planted && md5sum *',
    'cd planted && sha256sum *',
    'cd planted && wc -l *',
    'cd planted && sed -n p *',
    'cd planted && jq . *',
    'cd plain && uniq *',
    'cd plain && xxd *',
  ]),
  ...rows(
    'globs',
    'ask',
    ['cd plain && touch ./-c && md5sum *', 'cd plain && echo > ./--output=x; sort *'],
    edits,
  ),
  ...rows('globs', 'allow', [
    'wc -l *.ts',
    'cd src && wc -l *',
    'sort *.md',
    'cd plain && sort *',
    'cd plain && md5sum *',
    'cd plain && wc -l *',
    'cd plain && sed -n 1p *',
    'cd plain && jq . *',
    'sha256sum *.json',
    'cksum *.md',
    'grep foo *.md',
    'sort planted/*',
    'wc -l src/*.ts',
  ]),
];

/**
 * git commands that print tracked content no argument names, where a Read deny rule covers a
 * tracked file (`proj/.env` is committed). In `sub-repo/` the `.env` is ignored, not tracked:
 * nothing git prints there can show it.
 */
const denyEnv = { deny: ['Read(**/.env)'] };
const REPOSITORY_CONTENT = [
  ...rows(
    'repository content',
    'ask',
    [
      'git log -p',
      'git log -p -1',
      'git log --patch',
      'git log -pW',
      'git log -U3',
      'git log -S ENV_SECRET',
      'git log --word-diff',
      'git whatchanged -p',
      'git reflog -p',
      'git show',
      'git show HEAD',
      'git diff HEAD~0',
      'git diff',
      'git diff HEAD',
      'git cat-file --batch-all-objects --batch',
      'cd src && git log -p',
      'git log -p -- .',
      'git grep ENV',
    ],
    denyEnv,
  ),
  ...rows(
    'repository content',
    'deny',
    ['git cat-file -p HEAD:.env', 'git log -p src .env', 'git show HEAD:.env'],
    denyEnv,
  ),
  ...rows(
    'repository content',
    'allow',
    [
      'git log',
      'git log --oneline',
      'git log --stat',
      'git status',
      'git diff --stat',
      'git show --stat HEAD',
      'git log -p -- src',
      'git show HEAD -- src',
      'git diff -- src',
      'git cat-file -t HEAD',
      'git ls-files',
      'git log --name-only',
      'cd sub-repo && git log -p',
      'cd sub-repo && git show',
      'cd sub-repo && git diff HEAD',
    ],
    denyEnv,
  ),
];

export const RED_TEAM_DISK_CASES: RedTeamCase[] = [
  ...LINKS_IN_LINE,
  ...RECURSION,
  ...GLOBS,
  ...REPOSITORY_CONTENT,
  ...RED_TEAM_PATH_CASES,
  ...RED_TEAM_WRITE_CASES,
  ...RED_TEAM_SHELL_IO_CASES,
  ...RED_TEAM_DENY_DISK_CASES,
  ...RED_TEAM_FOLDER_READ_DISK_CASES,
];
