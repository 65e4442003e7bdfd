/**
 * The option-table corpus: every dangerous option of every read-only command asks in default mode
 * with no rules (each row is calibrated for real in option-danger-calibration.test.ts), forms the
 * tables cannot vouch for ask too, and the ordinary commands a model runs all day stay allowed.
 */
import { describe, expect, it } from 'vitest';
import { type CorpusCase, caseLabel, runCase } from './corpus-test-support';
import { DANGER_CASES } from './option-danger-cases';

/** Spellings the tables do not know or cannot resolve: asked, whatever the tool would make of them. */
const UNPROVEN_FORMS: string[] = [
  'grep --fi foo x', // ambiguous: --file, --files-with-matches, --fixed-strings, …
  'sort --co x', // a prefix of --compress-program
  'sort --bogus x',
  'ls --hyper=always --frobnicate',
  'cat -Z x',
  'sort $OPT x', // an expansion may be any option
  'sort "$OPT" x',
  // A glob is judged by the files it matches on disk (red-team-disk-cases.ts plants `--output=…`,
  // `-c`, `--files0-from=…`); an expansion only the shell knows may still be any option.
  'wc -l "$f"', // …or --files0-from=…
  'sed "$SCRIPT" x',
  'sed -e "$SCRIPT" x',
  "sed 'L' x", // not a sed 4.9 command
  "sed 's/a/b/q' x", // unknown flag
  "sed -n '1{p' x", // unmatched brace
  'jq "$FILTER" x.json',
  'jq -f prog.jq x.json',
  'find $DIR -name x',
  'find . $EXPR',
  'find . -frobnicate',
  'git $SUB',
  'git --bogus status',
  'git --exec-path=./bin status',
  'git --namespace=x log',
  'git --bare log',
  'git --help',
  'git log --help',
  'git frobnicate',
  'git log --bogus',
  'git remote show origin', // contacts the remote
  'xargs --bogus cat',
  'env --bogus cat x',
  'timeout --bogus 5 cat x',
  "printf -v 'a[1]' x",
  'printf "$FMT" x',
  'date $WHEN',
  'strings @args.txt',
  'uniq x $OUT',
  'xxd x $OUT',
  'hostname $NAME',
];

/** What must keep running without a prompt in default mode with no rules. */
const CONTROLS: string[] = [
  'sort data.txt',
  'sort -u -k2 x',
  'sort -t, -k2,2n -r x',
  'sort --reverse --numeric-sort x',
  'sort -- -o',
  'uniq -c x',
  'git grep needle',
  'git grep -n -e needle -- src',
  'sed -n 1p f',
  "sed -n '/re/p' f",
  "sed 's/a/b/g' f",
  "sed -n '1,10p;20q' f",
  "sed -E 's/(a|b)+/x/' f",
  "sed '/^#/d' f",
  "sed --sandbox 'w out' f",
  'grep -r foo src',
  'grep -rn --include="*.ts" TODO src',
  'grep -E "a|b" f',
  'grep -e foo -e bar f',
  'grep -5 foo f',
  'cat README.md',
  'cat -n src/index.ts',
  'ls -la',
  'ls -lah --color=never src',
  'ls -R src',
  'git log --oneline -5',
  'git log --format="%h %s" -n 3',
  'git log -p --stat -- src',
  'git diff HEAD~1 -- src',
  'git diff --stat --cached',
  'git diff --no-ext-diff --no-textconv',
  'git show HEAD:package.json',
  'git status --porcelain',
  'git status -sb',
  'git blame -L 1,10 src/x.ts',
  'git branch -a',
  'git branch --list "feat/*"',
  'git tag -l "v1.*"',
  'git config --get user.name',
  'git config user.name',
  'git stash list',
  'git stash show -p',
  'git remote -v',
  'git remote get-url origin',
  'git rev-parse --show-toplevel',
  'git ls-files -- src',
  'git --no-pager log -1',
  'git -P diff',
  'find . -name "*.ts"',
  'find src -type f -newer package.json',
  'find . -maxdepth 2 -name "*.md" -print',
  'rg foo src',
  'rg -n --type ts TODO',
  'rg --files',
  'head -n 5 f',
  'head -5 f',
  'tail -n 20 build.log',
  'tail -f build.log',
  'wc -l f',
  'jq .name package.json',
  'jq -r ".scripts | keys[]" package.json',
  "jq -n --arg x 1 '$x'",
  'diff a b',
  'diff -u a b',
  'diff -r src lib',
  'cmp a b',
  'cut -d, -f1 x.csv',
  'tr a-z A-Z',
  'xxd x',
  'od -c x',
  'base64 -d x',
  'md5sum x',
  'sha256sum x',
  'file x',
  'stat x',
  'du -sh src',
  'df -h',
  'date +%Y-%m-%d',
  'date -u',
  'hostname',
  'uname -a',
  'printf "%s\\n" a b',
  'printf -v name "%s" a',
  'echo -n hi',
  'seq -1 3',
  'basename /etc/passwd',
  'dirname /etc/passwd',
  'which node',
  'command -v node',
  'env',
  'env LC_ALL=C sort x',
  'env -C src cat x',
  'timeout 5 cat x',
  'nice -n 5 grep x f',
  'xargs echo',
  'xargs -I{} echo {}',
  'find . -name "*.o" | xargs echo',
  'cat x | sort | uniq -c | sort -rn | head',
  'wc -l ./*',
  'md5sum -- *',
  'ls *.ts',
  'grep foo *.ts',
];

const row = (cmd: string, expect: CorpusCase['expect']): CorpusCase => ({ cmd, expect });

const CASES: CorpusCase[] = [
  ...DANGER_CASES.map((c) => row(c.cmd, 'ask')),
  ...UNPROVEN_FORMS.map((cmd) => row(cmd, 'ask')),
  ...CONTROLS.map((cmd) => row(cmd, 'allow')),
  // A rule for the command does not vouch for the program an option runs.
  { cmd: 'sort --compress-program=sh -S 1 x', allow: ['Bash(sort:*)'], expect: 'ask' },
  { cmd: "sed 's/.*/date/e' x", allow: ['Bash(sed:*)'], expect: 'ask' },
  { cmd: "git grep -O'vim' foo", allow: ['Bash(git grep:*)'], expect: 'ask' },
  { cmd: 'sort $OPT x', allow: ['Bash(sort:*)'], expect: 'ask' },
  { cmd: 'sort -o out x', allow: ['Bash(sort:*)'], expect: 'allow' },
  // A deny rule on a file holds for the reads an option or a script makes.
  { cmd: "sed '1r .env' x", deny: ['Read(.env)'], expect: 'deny' },
  { cmd: 'grep -f .env x', deny: ['Read(.env)'], expect: 'deny' },
  { cmd: 'git show HEAD:.env', deny: ['Read(.env)'], expect: 'deny' },
  { cmd: 'xargs -a .env echo', deny: ['Read(.env)'], expect: 'deny' },
  { cmd: 'env -C src cat .env', deny: ['Read(src/.env)'], expect: 'deny' },
  { cmd: 'sort -o .env x', deny: ['Edit(.env)'], expect: 'deny' },
  // Plan mode allows only proven reads.
  { cmd: 'sort -o out x', mode: 'plan', expect: 'deny' },
  { cmd: 'sort x', mode: 'plan', expect: 'allow' },
  // acceptEdits: an in-place sed that runs or writes elsewhere is not a file edit.
  { cmd: "sed -i 's/a/b/' src/x.ts", mode: 'acceptEdits', expect: 'allow' },
  { cmd: "sed -i '1e touch ran' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
  { cmd: "sed -i 'w /tmp/out' src/x.ts", mode: 'acceptEdits', expect: 'ask' },
];

describe('Bash option-table corpus', () => {
  it.each(CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });
});
