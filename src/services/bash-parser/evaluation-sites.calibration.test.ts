/**
 * Calibration of every evaluation site against the real bash (Debian 12's 5.2): each row runs
 * with `x` holding `a[$(touch M)]` — what a hostile file name or value can hold — and the marker
 * M says whether bash evaluated it. The row pins both facts: whether bash evaluates, and whether
 * the parser flags it. Flagging without evaluation is allowed only where a row says why (a
 * conservative answer); evaluation without a flag is never allowed.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the rows are shell source, not JS templates.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinReason } from './builtin-evaluation';
import { parseCommand } from './parse';

const BASH = '/bin/bash';
const PRELUDE = "x='a[$(touch M)]'; a=(1 2); s=hello; ";

type Row = {
  construct: string;
  evaluates: boolean;
  /** Set only where the parser refuses a construct that did not evaluate here, with why. */
  conservative?: string;
};

const ROWS: Row[] = [
  // Test expressions: `[[` evaluates arithmetic operands and `-v` names; the `[` builtin only `-v`.
  { construct: '[ -v "$x" ]', evaluates: true },
  { construct: 'test -v "$x"', evaluates: true },
  { construct: '[[ -v $x ]]', evaluates: true },
  { construct: '[[ -v "$x" ]]', evaluates: true },
  { construct: '[[ -v a[x] ]]', evaluates: true },
  { construct: '[ -v x -a -v "$x" ]', evaluates: true },
  { construct: 'y=-v; [ $y "$x" ]', evaluates: true },
  { construct: '[[ $x -eq 1 ]]', evaluates: true },
  { construct: '[[ "$x" -eq 1 ]]', evaluates: true },
  { construct: '[[ 1 -eq $x ]]', evaluates: true },
  { construct: '[[ $x -lt 1 ]]', evaluates: true },
  { construct: '[[ x -eq 1 ]]', evaluates: true },
  { construct: '[[ 1 -eq 1 && -v $x ]]', evaluates: true },
  { construct: '[[ -n ${a[x]} ]]', evaluates: true },
  { construct: '[ "$x" -eq 1 ]', evaluates: false },
  { construct: 'test "$x" -eq 1', evaluates: false },
  { construct: 'test "$x" -eq 1 -o 1 -eq 1', evaluates: false },
  { construct: '[ "$x" -ge 1 ]', evaluates: false },
  { construct: '[ "$x" ]', evaluates: false },
  { construct: '[ -v x ]', evaluates: false },
  { construct: 'test -v a[0]', evaluates: false },
  { construct: 'test -R "$x"', evaluates: false },
  { construct: '[[ -v a[@] ]]', evaluates: false },
  { construct: '[[ -R a[x] ]]', evaluates: false },
  { construct: '[[ $x == 1 ]]', evaluates: false },
  { construct: '[[ $x = 1 ]]', evaluates: false },
  { construct: '[[ -n $x ]]', evaluates: false },
  { construct: '[[ $# -eq 0 ]]', evaluates: false },
  { construct: '[[ $? -eq 0 ]]', evaluates: false },
  { construct: '[[ ${#x} -eq 1 ]]', evaluates: false },
  // Parameter expansions: subscripts, substring offsets, indirection, prompt expansion.
  { construct: 'echo ${a[$x]}', evaluates: true },
  { construct: 'echo "${a[$x]}"', evaluates: true },
  { construct: 'echo ${a[x]}', evaluates: true },
  { construct: 'echo "${#a[$x]}"', evaluates: true },
  { construct: 'echo ${!a[$x]}', evaluates: true },
  { construct: 'echo ${s:x}', evaluates: true },
  { construct: 'echo ${s:0:x}', evaluates: true },
  { construct: 'echo ${s:$x}', evaluates: true },
  { construct: 'echo ${s: -x}', evaluates: true },
  { construct: 'echo "${s:1:x}"', evaluates: true },
  { construct: 'echo ${a[@]:x}', evaluates: true },
  { construct: 'echo "${a[*]:1:x}"', evaluates: true },
  { construct: 'echo ${@:x}', evaluates: true },
  { construct: 'echo ${*:x}', evaluates: true },
  { construct: 'echo ${!x}', evaluates: true },
  { construct: 'echo ${x@P}', evaluates: true },
  { construct: 'echo ${u:-${a[x]}}', evaluates: true },
  {
    construct: 'echo ${x:-${a[x]}}',
    evaluates: false,
    conservative: 'the default is expanded whenever x is empty or unset',
  },
  {
    construct: 'b=x; echo ${!b}',
    evaluates: false,
    conservative: 'every indirection is refused: the name it reads is only known at run time',
  },
  {
    construct: 'x2=5; echo "${s:x2}"',
    evaluates: false,
    conservative: 'a name in an offset is refused whatever it was last assigned',
  },
  { construct: 'echo ${a[0]}', evaluates: false },
  { construct: 'echo ${a[-1]}', evaluates: false },
  { construct: 'echo ${a[ 1 ]}', evaluates: false },
  { construct: 'echo ${a[1+1]}', evaluates: false },
  { construct: 'echo ${a[@]} ${a[*]} ${#a[@]}', evaluates: false },
  { construct: 'echo ${a[@]:0:1}', evaluates: false },
  { construct: 'echo ${!a[@]} ${!a[*]}', evaluates: false },
  { construct: 'echo ${!s@} ${!x*}', evaluates: false },
  { construct: 'echo ${s:1} ${s:1:2} ${x:0:1}', evaluates: false },
  { construct: 'echo ${s: -1} ${s:(-1)}', evaluates: false },
  { construct: 'echo $x "$x" "${x}" ${#x}', evaluates: false },
  { construct: 'echo ${x^^} ${x//a/b} ${s/$x/y}', evaluates: false },
  { construct: 'echo ${x@Q} ${x@E} ${x@A} ${x@K} ${x@a} ${x@U} ${x@k}', evaluates: false },
  { construct: 'echo ${x[0]}', evaluates: false },
  // Arithmetic expansion and commands.
  { construct: 'echo $((x))', evaluates: true },
  { construct: 'echo $(($x))', evaluates: true },
  { construct: 'echo $((a[x]))', evaluates: true },
  { construct: 'echo $[x]', evaluates: true },
  { construct: 'y=$x; echo $((y))', evaluates: true },
  { construct: '(( x ))', evaluates: true },
  { construct: 'for ((i=x; i<1; i++)); do :; done', evaluates: true },
  { construct: 'let x', evaluates: true },
  { construct: 'let "y=x"', evaluates: true },
  { construct: 'echo $((1+2)) $(( 16#ff )) $(( 0x1f + 2#101 ))', evaluates: false },
  { construct: '(( 1 + 2 ))', evaluates: false },
  { construct: 'let 1+2', evaluates: false },
  {
    construct: 'echo $((y=1))',
    evaluates: false,
    conservative: 'every name in arithmetic is refused, assigned or read',
  },
  {
    construct: 'for ((i=0; i<1; i++)); do :; done',
    evaluates: false,
    conservative: 'every name in arithmetic is refused, assigned or read',
  },
  {
    construct: 'for i in 1; do echo $((i)); done',
    evaluates: false,
    conservative: 'a loop variable takes its words from anywhere, here a literal',
  },
  // Loops and case: the words a compound command expands itself.
  { construct: 'for f in ${a[x]}; do :; done', evaluates: true },
  { construct: 'case ${a[x]} in *) ;; esac', evaluates: true },
  { construct: 'case $x in *) echo ${a[x]};; esac', evaluates: true },
  { construct: 'case 1 in $x) :;; esac', evaluates: false },
  // Heredocs and here-strings expand like double-quoted strings, unless the delimiter is quoted.
  { construct: 'cat <<EOF\n${a[$x]}\nEOF', evaluates: true },
  { construct: 'cat <<EOF\n$((x))\nEOF', evaluates: true },
  { construct: 'cat <<"EOF"\n${a[$x]}\nEOF', evaluates: false },
  { construct: "cat <<'EOF'\n$((x))\nEOF", evaluates: false },
  { construct: 'cat <<< "${a[$x]}"', evaluates: true },
  // Assignments and declarations.
  { construct: 'a[$x]=1', evaluates: true },
  { construct: 'a[x]=1', evaluates: true },
  { construct: 'a=([$x]=1)', evaluates: true },
  { construct: 'a=([x]=1)', evaluates: true },
  { construct: 'a+=([x]=1)', evaluates: true },
  { construct: 'declare -a b=([x]=1)', evaluates: true },
  { construct: 'readonly -a b=([x]=1)', evaluates: true },
  { construct: 'declare "a[x]=1"', evaluates: true },
  { construct: 'declare "$x=1"', evaluates: true },
  { construct: 'y="$x=1"; declare "$y"', evaluates: true },
  { construct: 'f(){ local "$x=1"; }; f', evaluates: true },
  { construct: 'declare -i y=x', evaluates: true },
  { construct: 'declare -i y; y=x', evaluates: true },
  { construct: 'declare -i y=1; y=$x', evaluates: true },
  { construct: 'typeset -i y=$x', evaluates: true },
  { construct: 'declare -ia z=(x)', evaluates: true },
  { construct: 'declare -n r=$x; echo $r', evaluates: true },
  { construct: 'declare -n r=a; echo ${r[x]}', evaluates: true },
  { construct: 'a[x]=1 true', evaluates: false },
  { construct: 'export "$x=1"', evaluates: false },
  { construct: 'export "a[x]=1"', evaluates: false },
  { construct: 'export a[x]=1', evaluates: false },
  { construct: 'readonly "$x=1"', evaluates: false },
  { construct: 'readonly -A c=([x]=1)', evaluates: false },
  { construct: 'declare -A m=([x]=1)', evaluates: false },
  { construct: 'y="$x=1"; export $y', evaluates: false },
  { construct: 'declare -l y=$x; declare -x z=$x; declare w=$x; declare -- v=$x', evaluates: false },
  {
    construct: 'declare -A m; m[$x]=1',
    evaluates: false,
    conservative: 'whether an array is associative is not tracked across commands',
  },
  {
    construct: 'declare -A m; echo ${m[$x]}',
    evaluates: false,
    conservative: 'whether an array is associative is not tracked across commands',
  },
  {
    construct: 'declare "$x"',
    evaluates: false,
    conservative: 'a computed declare argument may expand to `a[$(cmd)]=1`',
  },
  {
    construct: 'local "$x=1"',
    evaluates: false,
    conservative: '`local` fails outside a function; inside one it evaluates',
  },
  {
    construct: 'declare -n r=x; echo $r',
    evaluates: false,
    conservative: 'every nameref is refused: its target is resolved on each use',
  },
  {
    construct: 'declare -i y; y+=1',
    evaluates: false,
    conservative: 'every integer attribute is refused: assignments later in the line are arithmetic',
  },
  // Builtins that take a variable name or run a code string.
  { construct: 'printf -v "$x" %s 1', evaluates: true },
  { construct: 'printf -v "a[x]" %s 1', evaluates: true },
  { construct: 'read "$x" <<< 1', evaluates: true },
  { construct: 'unset "$x"', evaluates: true },
  { construct: 'unset -v "$x"', evaluates: true },
  { construct: 'unset "a[x]"', evaluates: true },
  { construct: 'sleep 0 & wait -p "$x" -n', evaluates: true },
  { construct: 'mapfile -C "touch M" -c 1 arr <<< 1', evaluates: true },
  { construct: 'trap "touch M" EXIT', evaluates: true },
  { construct: 'hash -p /usr/bin/touch ls; ls M', evaluates: true },
  { construct: 'cat {a[x]}</dev/null', evaluates: true },
  { construct: 'true {a[x]}>/dev/null', evaluates: true },
  { construct: 'printf -v y %s 1; printf -vz %s 1; printf "%d %s" "$x" "$x"', evaluates: false },
  { construct: 'read -a "$x" <<< 1', evaluates: false },
  { construct: 'read -t x y <<< 1; read -n x y <<< 1', evaluates: false },
  { construct: 'mapfile -O x arr <<< 1; mapfile -n x arr <<< 1', evaluates: false },
  { construct: 'unset a; unset -f "$x"', evaluates: false },
  { construct: 'getopts ab "$x"', evaluates: false },
  { construct: 'kill -l "$x"', evaluates: false },
  { construct: 'shift $x; set -- 1; shift x', evaluates: false },
  { construct: 'for i in 1; do break $x; done; for i in 1; do continue x; done', evaluates: false },
  { construct: 'f() { return x; }; f', evaluates: false },
  { construct: 'exit $x', evaluates: false },
  { construct: 'trap - EXIT; trap "" INT; trap -p', evaluates: false },
  {
    construct: 'mapfile "$x" <<< 1',
    evaluates: false,
    conservative: 'a computed mapfile argument could be `-C callback`',
  },
  {
    construct: 'wait -p "$x" 2>/dev/null',
    evaluates: false,
    conservative: 'with no job to wait for the name is not assigned; with one it is',
  },
];

/**
 * True when the parser flags the line: a segment's own reason, a builtin's, or a parse error
 * (forms the grammar does not know, like `${s:$x}`, which every check refuses).
 */
async function flagged(source: string): Promise<boolean> {
  const parsed = await parseCommand(source);
  if (parsed.parseError) return true;
  return parsed.segments.some(
    (s) =>
      s.evaluates !== undefined ||
      ((s.kind === 'command' || s.kind === 'declaration') && !!builtinReason(s.argv)),
  );
}

const scratch = mkdtempSync(join(tmpdir(), 'yoke-eval-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function bashEvaluates(construct: string, index: number): boolean {
  const dir = join(scratch, String(index));
  execFileSync('mkdir', ['-p', dir]);
  try {
    execFileSync(BASH, ['--norc', '--noprofile', '-c', PRELUDE + construct], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: 'ignore',
      timeout: 10_000,
    });
  } catch {
    // Many rows end in an error (a bad subscript, a failed test): only the marker matters.
  }
  return existsSync(join(dir, 'M'));
}

describe.skipIf(!existsSync(BASH))('evaluation sites, calibrated against bash', () => {
  it.each(ROWS.map((row, index) => [row.construct, row, index] as const))(
    '%s',
    async (_label, row, index) => {
      expect(bashEvaluates(row.construct, index)).toBe(row.evaluates);
      expect(await flagged(row.construct)).toBe(row.evaluates || row.conservative !== undefined);
    },
  );

  it('reads a real reason for each flagged row', async () => {
    const parsed = await parseCommand('[[ $x -eq 1 ]]');
    expect(parsed.segments[0]?.evaluates).toBe(
      '`[[ $x -eq 1 ]]` evaluates $x as arithmetic, which can run commands',
    );
  });
});
