/**
 * The corpus for values evaluated as code and for environments that change which code runs,
 * through the real pipeline. Every refused row was calibrated with bash or the real program
 * (evaluation-sites.calibration.test.ts, env-vars.calibration.test.ts); every control beside it
 * must keep running without a prompt.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the rows are shell source, not JS templates.
import { describe, expect, it } from 'vitest';
import { type CorpusCase, caseLabel, runCase } from './corpus-test-support';

const EVALUATION_CASES: CorpusCase[] = [
  // `[[` evaluates arithmetic operands and `-v` names; the `[` builtin does not do arithmetic.
  { cmd: '[[ $x -eq 1 ]]', expect: 'ask' },
  { cmd: '[[ $x -eq 1 ]] && ls', allow: ['Bash'], expect: 'ask' },
  { cmd: 'for f in *; do [[ $f -gt 1 ]] && echo "$f"; done', expect: 'ask' },
  { cmd: '[[ -v $x ]]', expect: 'ask' },
  { cmd: '[ -v "$x" ]', expect: 'ask' },
  { cmd: 'test -v "$x" && ls', allow: ['Bash(test:*)', 'Bash(ls:*)'], expect: 'ask' },
  { cmd: '[[ $# -eq 0 ]] && ls', expect: 'allow' },
  { cmd: '[ "$x" -eq 1 ] && ls', expect: 'allow' },
  { cmd: '[[ -v HOME ]] && [[ -n $x ]]', expect: 'allow' },
  { cmd: 'for f in *; do echo "$f"; done', expect: 'allow' },
  // Subscripts, offsets, indirection and prompt expansion in any word, string or heredoc.
  { cmd: 'echo ${a[$i]}', expect: 'ask' },
  { cmd: 'echo "${a[$i]}"', allow: ['Bash(echo:*)'], expect: 'ask' },
  { cmd: 'echo ${s:x}', allow: ['Bash'], expect: 'ask' },
  { cmd: 'echo ${!name}', allow: ['Bash(echo:*)'], expect: 'ask' },
  { cmd: 'echo ${p@P}', allow: ['Bash(echo:*)'], expect: 'ask' },
  { cmd: 'cat <<EOF\n${a[$x]}\nEOF', expect: 'ask' },
  { cmd: 'cat <<< "${a[$x]}"', expect: 'ask' },
  { cmd: "cat <<'EOF'\n${a[$x]}\nEOF", expect: 'allow' },
  { cmd: 'echo ${a[0]} ${a[@]} $((1+2)) ${s:1:2} ${!a[@]} ${#x}', expect: 'allow' },
  // Arithmetic expansion and commands.
  { cmd: 'echo $((x + 1))', expect: 'ask' },
  { cmd: 'echo $[x]', allow: ['Bash(echo:*)'], expect: 'ask' },
  { cmd: '(( x )) && npm test', allow: ['Bash(npm test:*)'], expect: 'ask' },
  { cmd: 'for ((i=n; i<3; i++)); do npm test; done', allow: ['Bash(npm test:*)'], expect: 'ask' },
  { cmd: 'let n', allow: ['Bash(let:*)'], expect: 'ask' },
  { cmd: '(( 2 > 1 )) && ls', expect: 'allow' },
  // Builtins that take a variable name, or run a code string later.
  { cmd: 'printf -v "$x" %s 1', expect: 'ask' },
  { cmd: 'printf -v "$x" %s 1', allow: ['Bash(printf:*)'], expect: 'ask' },
  { cmd: 'command printf -v "a[x]" %s 1', allow: ['Bash(printf:*)'], expect: 'ask' },
  { cmd: 'printf "%s\\n" "$x"', expect: 'allow' },
  { cmd: 'read "$name" < f', allow: ['Bash(read:*)'], expect: 'ask' },
  { cmd: 'unset "$name"', allow: ['Bash(unset:*)'], expect: 'ask' },
  { cmd: 'mapfile -C cb -c 1 lines < f', allow: ['Bash(mapfile:*)'], expect: 'ask' },
  { cmd: 'trap "touch x" EXIT; ls', allow: ['Bash(trap:*)', 'Bash(ls:*)'], expect: 'ask' },
  { cmd: "trap 'rm -rf /' EXIT", deny: ['Bash(rm:*)'], expect: 'deny' },
  { cmd: 'hash -p /tmp/evil ls; ls', allow: ['Bash(hash:*)'], expect: 'ask' },
  { cmd: 'cat {a[x]}</dev/null', expect: 'ask' },
  // Declarations and assignments that evaluate a name or a key.
  { cmd: 'declare -i n=x', expect: 'ask' },
  { cmd: 'declare -n ref=x; echo $ref', allow: ['Bash(declare:*)', 'Bash(echo:*)'], expect: 'ask' },
  { cmd: 'declare "$kv"', allow: ['Bash'], expect: 'ask' },
  { cmd: 'a[$i]=1', expect: 'ask' },
  { cmd: 'a=([$k]=1)', allow: ['Bash'], expect: 'ask' },
  { cmd: 'a[0]=1; echo ${a[0]}', expect: 'allow' },
  { cmd: 'export FOO=bar', expect: 'allow' },
];

const ENV_CASES: CorpusCase[] = [
  // Prefixes a broad rule does not cover: each changes which code the command runs.
  { cmd: 'XDG_CONFIG_HOME=/tmp/cfg git log', allow: ['Bash(git log:*)'], expect: 'ask' },
  { cmd: 'HOME=/tmp/h git log', allow: ['Bash(git log:*)'], expect: 'ask' },
  { cmd: 'GIT_PAGER=x git log', allow: ['Bash(git log:*)'], expect: 'ask' },
  { cmd: 'GIT_CONFIG_COUNT=1 git status', allow: ['Bash'], expect: 'ask' },
  { cmd: 'GCONV_PATH=. iconv -f X -t UTF-8 f', allow: ['Bash(iconv:*)'], expect: 'ask' },
  { cmd: 'LD_AUDIT=./a.so ls', allow: ['Bash'], expect: 'ask' },
  { cmd: 'GLIBC_TUNABLES=x ls', allow: ['Bash(ls:*)'], expect: 'ask' },
  { cmd: 'PAGER=x man ls', allow: ['Bash(man:*)'], expect: 'ask' },
  { cmd: 'MANOPT=-Px man ls', allow: ['Bash(man:*)'], expect: 'ask' },
  { cmd: 'EDITOR=x git commit', allow: ['Bash(git commit:*)'], expect: 'ask' },
  { cmd: 'LESSOPEN="|x %s" less f', allow: ['Bash(less:*)'], expect: 'ask' },
  { cmd: 'PYTHONWARNINGS=x python3 t.py', allow: ['Bash(python3:*)'], expect: 'ask' },
  { cmd: 'NODE_OPTIONS=--require=./x.js node t.js', allow: ['Bash(node:*)'], expect: 'ask' },
  { cmd: 'PERL5DB=x perl -d t.pl', allow: ['Bash(perl:*)'], expect: 'ask' },
  { cmd: 'RIPGREP_CONFIG_PATH=./rc rg foo', expect: 'ask' },
  { cmd: 'TAR_OPTIONS=--to-command=x tar xf a.tar', allow: ['Bash(tar:*)'], expect: 'ask' },
  { cmd: 'BASH_ENV=./x.sh npm test', allow: ['Bash(npm test:*)'], expect: 'ask' },
  { cmd: 'SHELLOPTS=xtrace PS4=x npm test', allow: ['Bash(npm test:*)'], expect: 'ask' },
  { cmd: 'LANG=/tmp/x npm test', allow: ['Bash(npm test:*)'], expect: 'ask' },
  { cmd: 'env GIT_PAGER=x git log', allow: ['Bash(git log:*)'], expect: 'ask' },
  // Harmless members of dangerous families and harmless values stay covered.
  { cmd: 'GIT_AUTHOR_DATE=2020-01-01 git commit -m x', allow: ['Bash(git commit:*)'], expect: 'allow' },
  { cmd: 'PYTHONUNBUFFERED=1 python3 t.py', allow: ['Bash(python3:*)'], expect: 'allow' },
  { cmd: 'NODE_ENV=test npm test', allow: ['Bash(npm test:*)'], expect: 'allow' },
  { cmd: 'LANG=de_DE.UTF-8 npm test', allow: ['Bash(npm test:*)'], expect: 'allow' },
  // The read-only proof: only variables proven harmless, with harmless values.
  { cmd: 'LANG=C.UTF-8 ls', expect: 'allow' },
  { cmd: 'LC_ALL=C grep -n foo README.md', expect: 'allow' },
  { cmd: 'TZ=Europe/Berlin date', expect: 'allow' },
  { cmd: 'TZ=UTC0 date', expect: 'allow' },
  { cmd: 'TERM=xterm-256color COLUMNS=80 ls', expect: 'allow' },
  { cmd: 'LANG=/tmp/x ls', expect: 'ask' },
  { cmd: 'LANGUAGE=../../../tmp/x grep -r foo src', expect: 'ask' },
  { cmd: 'LC_MESSAGES=./l grep foo f', expect: 'ask' },
  { cmd: 'TZ=/tmp/zone date', expect: 'ask' },
  { cmd: 'TZ=../../../tmp/zone date', expect: 'ask' },
  { cmd: 'TERM=../../tmp/t ls', expect: 'ask' },
  { cmd: 'COLUMNS=x ls', expect: 'ask' },
  { cmd: 'FOO=1 ls', expect: 'ask' },
  // A variable set earlier in the line reaches what runs after it.
  { cmd: 'export PAGER=x; git log', allow: ['Bash(git log:*)', 'Bash(export:*)'], expect: 'ask' },
  { cmd: 'export GIT_DIR=/tmp/x; git status', expect: 'ask' },
  { cmd: 'declare -x LD_PRELOAD=./x.so; ls', allow: ['Bash'], expect: 'ask' },
  { cmd: 'readonly PAGER=x; git log', allow: ['Bash(git log:*)', 'Bash(readonly:*)'], expect: 'ask' },
  { cmd: 'read PAGER < f; git log', allow: ['Bash(read:*)', 'Bash(git log:*)'], expect: 'ask' },
  { cmd: 'printf -v PAGER x; git log', expect: 'ask' },
  { cmd: 'for PAGER in x; do git log; done', allow: ['Bash(git log:*)'], expect: 'ask' },
  { cmd: 'v=PAGER=x; export "$v"; git log', allow: ['Bash(git log:*)', 'Bash(export:*)'], expect: 'ask' },
  { cmd: 'FOO=1; export FOO; git log', expect: 'allow' },
  { cmd: 'for f in a b; do git log -- "$f"; done', allow: ['Bash(git log:*)'], expect: 'allow' },
];

describe('Evaluation-site corpus', () => {
  it.each(EVALUATION_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });
});

describe('Environment corpus', () => {
  it.each(ENV_CASES.map((c) => [caseLabel(c), c] as const))('%s', async (_label, c) => {
    expect(await runCase(c)).toBe(c.expect);
  });
});
