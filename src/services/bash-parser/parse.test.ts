import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse';
import type { ShellSegment } from './types';

const argvOf = (segment: ShellSegment | undefined) => segment?.argv.map((word) => word.value);
const argvs = async (source: string) => (await parseCommand(source)).segments.map(argvOf);

describe('parseCommand: splitting', () => {
  it('splits on ; && || | & and newlines', async () => {
    expect(await argvs('a 1; b && c || d | e & f\ng')).toEqual([
      ['a', '1'],
      ['b'],
      ['c'],
      ['d'],
      ['e'],
      ['f'],
      ['g'],
    ]);
  });

  it('keeps quoted and escaped operators inside one word', async () => {
    const parsed = await parseCommand(`echo "a; rm -rf /" 'b && c' d\\;e \\| f`);
    expect(parsed.segments).toHaveLength(1);
    expect(argvOf(parsed.segments[0])).toEqual(['echo', 'a; rm -rf /', 'b && c', 'd;e', '|', 'f']);
  });

  it('opens subshells, groups, control flow and function bodies', async () => {
    const source =
      '(cd a; ls); { pwd; }; if t; then x; elif y; then z; else w; fi; while r; do s; done; ' +
      'for i in 1 2; do u; done; case $v in a) p;; *) q;; esac; fn() { inner; }';
    const commands = (await parseCommand(source)).segments.filter((s) => s.kind !== 'compound');
    expect(commands.map((s) => s.argv[0]?.value)).toEqual([
      'cd',
      'ls',
      'pwd',
      't',
      'x',
      'y',
      'z',
      'w',
      'r',
      's',
      'u',
      'p',
      'q',
      'inner',
    ]);
    const parsed = await parseCommand(source);
    const byName = (name: string) => parsed.segments.find((s) => s.argv[0]?.value === name);
    expect(byName('cd')?.context.inSubshell).toBe(true);
    expect(byName('pwd')?.context.inSubshell).toBe(false);
    expect(byName('inner')?.context.inFunction).toBe(true);
    expect(byName('x')?.context.conditional).toBe(true);
    expect(byName('t')?.context.conditional).toBe(false);
    expect(parsed.hasFunctionDefinition).toBe(true);
  });

  it('finds commands inside $(…), backticks, process substitution and nested substitutions', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell source, not a JS template.
    const parsed = await parseCommand('echo $(a $(b)) `c` <(d) >(e) "x$(f)y" ${v:-$(g)}');
    expect(parsed.segments.map((s) => s.argv[0]?.value)).toEqual(['echo', 'a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(parsed.hasCommandSubstitution).toBe(true);
    expect(parsed.hasProcessSubstitution).toBe(true);
    const find = (name: string) => parsed.segments.find((s) => s.argv[0]?.value === name);
    expect(find('b')?.context.inCommandSubstitution).toBe(true);
    expect(find('d')?.context.inProcessSubstitution).toBe(true);
    expect(find('echo')?.context.inCommandSubstitution).toBe(false);
    expect(
      find('echo')
        ?.argv.slice(1)
        .every((word) => word.dynamic),
    ).toBe(true);
  });

  it('marks pipelines and background jobs', async () => {
    const parsed = await parseCommand('a | b; c & d');
    expect(parsed.segments.map((s) => [s.context.inPipeline, s.context.inBackground])).toEqual([
      [true, false],
      [true, false],
      [false, true],
      [false, false],
    ]);
    expect(parsed.hasBackground).toBe(true);
  });
});

describe('parseCommand: words', () => {
  it('removes quotes where the value is static and flags expansions, globs and tildes', async () => {
    const [segment] = (await parseCommand(`cmd 'a b' "c\\"d" e\\ f $'g\\th' x$HOME *.ts {a,b} ~/dir "~"`))
      .segments;
    const words = segment?.argv.slice(1) ?? [];
    expect(words.map((w) => w.value)).toEqual([
      'a b',
      'c"d',
      'e f',
      'g\th',
      'x$HOME',
      '*.ts',
      '{a,b}',
      '~/dir',
      '~',
    ]);
    expect(words.map((w) => w.dynamic)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(words.map((w) => w.glob)).toEqual([false, false, false, false, false, true, true, false, false]);
    expect(words.map((w) => w.tilde)).toEqual([false, false, false, false, false, false, false, true, false]);
  });

  it('separates the env prefix from argv', async () => {
    const [segment] = (await parseCommand('FOO=1 BAR="x y" BAZ+=z node app.js')).segments;
    expect(argvOf(segment)).toEqual(['node', 'app.js']);
    expect(segment?.assignments.map((a) => [a.name, a.value.value, a.append])).toEqual([
      ['FOO', '1', false],
      ['BAR', 'x y', false],
      ['BAZ', 'z', true],
    ]);
  });

  it('reports assignment-only, declaration and test segments', async () => {
    const parsed = await parseCommand('A=1 B=$(id); export C=2 D; unset E; [[ -f x ]]');
    expect(parsed.segments.map((s) => s.kind)).toEqual([
      'assignment',
      'command',
      'declaration',
      'declaration',
      'test',
    ]);
    expect(parsed.segments[0]?.assignments.map((a) => a.name)).toEqual(['A', 'B']);
    expect(argvOf(parsed.segments[2])).toEqual(['export', 'C=2', 'D']);
    expect(argvOf(parsed.segments[3])).toEqual(['unset', 'E']);
    expect(argvOf(parsed.segments[4])).toEqual(['[[', '-f', 'x', ']]']);
  });
});

describe('parseCommand: redirects', () => {
  const redirectsOf = async (source: string) =>
    (await parseCommand(source)).segments.map((s) =>
      s.redirects.map(
        (r) => `${r.fd ?? ''}${r.operator}${r.target?.value ?? ''}:${r.kind}${r.writesFile ? '!' : ''}`,
      ),
    );

  it('classifies writes, appends, reads and fd duplication', async () => {
    expect(
      await redirectsOf('a > f; b >> g; c 2>&1; d < h; e &> i; f >&2; g 2>/dev/null; h 1>&-; i >| j'),
    ).toEqual([
      ['>f:write!'],
      ['>>g:append!'],
      ['2>&1:dup'],
      ['<h:read'],
      ['&>i:write!'],
      ['>&2:dup'],
      ['2>/dev/null:write!'],
      ['1>&-:close'],
      ['>|j:write!'],
    ]);
  });

  it('takes a digit glued to a redirect as its fd, and stray words after a target as arguments', async () => {
    const parsed = await parseCommand('cat 0<in; echo > out hi there');
    expect(argvOf(parsed.segments[0])).toEqual(['cat']);
    expect(parsed.segments[0]?.redirects[0]?.fd).toBe(0);
    expect(argvOf(parsed.segments[1])).toEqual(['echo', 'hi', 'there']);
    expect(parsed.segments[1]?.redirects[0]?.target?.value).toBe('out');
  });

  it('gives redirects of a compound to every command inside it', async () => {
    const parsed = await parseCommand('{ a; b; } > out; while read l; do c; done < in');
    expect(parsed.segments.map((s) => s.redirects.map((r) => [r.target?.value, r.inherited]))).toEqual([
      [['out', true]],
      [['out', true]],
      [['in', true]],
      [['in', true]],
    ]);
    expect(parsed.redirects).toHaveLength(2);
  });

  it('binds a redirect after a list or pipeline to its last command, as the shell does', async () => {
    expect(await redirectsOf('a && b > out')).toEqual([[], ['>out:write!']]);
    expect(await redirectsOf('a | b 2>&1 | c >> log')).toEqual([[], ['2>&1:dup'], ['>>log:append!']]);
    expect(await redirectsOf('a || { b; c; } > out')).toEqual([[], ['>out:write!'], ['>out:write!']]);
  });

  it('reports a bare redirect as its own segment', async () => {
    const parsed = await parseCommand('> truncated');
    expect(parsed.segments.map((s) => [s.kind, s.redirects[0]?.target?.value])).toEqual([
      ['redirection', 'truncated'],
    ]);
  });

  it('reads heredocs: delimiter, quoting, body, and redirects and pipes on the same line', async () => {
    const parsed = await parseCommand('cat <<EOF > out\nhi $(id)\nEOF');
    expect(parsed.hasHeredoc).toBe(true);
    const [cat, id] = parsed.segments;
    expect(argvOf(cat)).toEqual(['cat']);
    expect(cat?.redirects.map((r) => r.kind)).toEqual(['heredoc', 'write']);
    expect(cat?.redirects[0]?.heredoc).toEqual({ delimiter: 'EOF', quoted: false, body: 'hi $(id)\n' });
    expect(argvOf(id)).toEqual(['id']);
    expect(id?.context.inHeredoc).toBe(true);

    const piped = await parseCommand('cat <<EOF | grep x\nhi\nEOF');
    expect(piped.segments.map(argvOf)).toEqual([['cat'], ['grep', 'x']]);

    const quoted = await parseCommand("cat <<'EOF'\n$(id)\nEOF");
    expect(quoted.segments).toHaveLength(1);
    expect(quoted.segments[0]?.redirects[0]?.heredoc?.quoted).toBe(true);
    expect(quoted.hasCommandSubstitution).toBe(false);
  });

  it('keeps segment text and offsets pointing into the source', async () => {
    const source = 'echo ü && ls -la > out';
    const parsed = await parseCommand(source);
    expect(parsed.segments.map((s) => s.text)).toEqual(['echo ü', 'ls -la > out']);
    expect(parsed.segments.map((s) => source.slice(s.startIndex, s.endIndex))).toEqual([
      'echo ü',
      'ls -la > out',
    ]);
  });
});

describe('parseCommand: errors', () => {
  it('flags parse errors instead of throwing', async () => {
    expect((await parseCommand('ls "unterminated')).parseError).toBe(true);
    expect((await parseCommand('if then fi')).parseError).toBe(true);
    expect((await parseCommand('ls -la')).parseError).toBe(false);
  });
});
