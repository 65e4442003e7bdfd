/**
 * The folder each command of a line runs in, seen through the paths it reads. Every expectation
 * here was checked with bash (`cd /etc && cat hostname` prints /etc/hostname, a failed `cd`
 * leaves the shell where it was, a subshell's or a pipeline stage's `cd` does not move it, …).
 */
import { describe, expect, it } from 'vitest';
import { emptyPathFs, RealPaths } from './real-paths';
import { analyzeShellCommand } from './shell-analysis';
import { allUnits } from './shell-unit';

const PROJECT = '/home/u/proj';

/** The paths read by every `cat` unit of the line, in order (undefined: only the shell knows). */
async function catReads(command: string): Promise<Array<Array<string | undefined>>> {
  const analysis = await analyzeShellCommand(command, {
    cwd: PROJECT,
    home: '/home/u',
    paths: new RealPaths(emptyPathFs),
  });
  return [...allUnits(analysis.units)]
    .filter((unit) => unit.name === 'cat')
    .map((unit) => unit.reads.map((r) => r.path).sort());
}

describe('the folder a command runs in', () => {
  it.each([
    ['cd /etc && cat passwd', [['/etc/passwd']]],
    ['cd src; cat x', [['/home/u/proj/src/x', '/home/u/proj/x']]],
    ['cd src || cat x', [['/home/u/proj/x']]],
    ['cd src && cd .. && cat x', [['/home/u/proj/x']]],
    ['cd src && cat ../x', [['/home/u/proj/x']]],
    // After `;` the next command also runs when the cd failed, in the folder it did not leave.
    ['(cd /etc; cat a) && cat b', [['/etc/a', '/home/u/proj/a'], ['/home/u/proj/b']]],
    ['cd /etc | cat x', [['/home/u/proj/x']]],
    ['cd /etc & cat x', [['/home/u/proj/x']]],
    ['cat $(cd /etc && cat passwd) x', [['/home/u/proj/x', undefined], ['/etc/passwd']]],
    ['! cd /etc; cat x', [['/etc/x', '/home/u/proj/x']]],
    ['if true; then cd /etc; fi; cat x', [['/etc/x', '/home/u/proj/x']]],
    ['builtin cd /etc && cat x', [['/etc/x']]],
    ['command cd /etc && cat x', [['/etc/x']]],
    ['env cd /etc && cat x', [['/home/u/proj/x']]],
    ['pushd /etc && cat x', [['/etc/x']]],
    ['pushd -n /etc && cat x', [['/home/u/proj/x']]],
    ['cd ~ && cat x', [['/home/u/x']]],
    ['cd a b; cat x', [['/home/u/proj/x']]],
    ["cd /etc && bash -c 'cat x'", [['/etc/x']]],
    ['cd /etc\ncat x', [['/etc/x', '/home/u/proj/x']]],
  ])('%s', async (command, reads) => {
    expect(await catReads(command)).toEqual(reads);
  });

  it.each([
    'cd - && cat x',
    'cd "$X" && cat x',
    'cd && cat x',
    'popd && cat x',
    'pushd && cat x',
    '$C /etc && cat x',
    'c? /etc && cat x',
    'eval cd /etc; cat x',
    'source ./env.sh; cat x',
    'for d in a b; do cd $d; done; cat x',
    'while true; do cd sub; done; cat x',
    'f() { cd /etc; }; f; cat x',
    'HOME=/etc; cd ~ && cat x',
    'CDPATH=/etc; cd ssh && cat x',
    'cd ~root && cat x',
  ])('%s: later relative paths are unknown', async (command) => {
    const reads = await catReads(command);
    // `x` and the folder the command runs in.
    expect(reads.at(-1)).toEqual([undefined, undefined]);
  });

  it('knows absolute paths even where the folder is unknown', async () => {
    expect(await catReads('cd "$X" && cat /etc/passwd')).toEqual([['/etc/passwd', undefined]]);
  });

  it('runs a function body wherever it is called: its relative paths are unknown', async () => {
    expect(await catReads('f() { cat x; }; cd /etc; f')).toEqual([[undefined, undefined]]);
    // Nothing in the line moves the shell: the body runs where the line starts.
    expect(await catReads('f() { cat x; }; f')).toEqual([['/home/u/proj/x']]);
  });

  it('does not trust the grammar where a heredoc swallows the rest of the line', async () => {
    // bash runs `cat ../.env` in the project (the pipeline stage's cd does not move the shell).
    const reads = await catReads('cat <<EOF | cd sub && cat ../.env\nbody\nEOF');
    expect(reads.at(-1)).toContain('/home/u/.env');
  });

  it('resolves a loop that settles (the same cd each time) to the folders it can be in', async () => {
    expect(await catReads('for i in 1 2; do cd /etc; done; cat x')).toEqual([['/etc/x', '/home/u/proj/x']]);
  });
});

describe('a command in an unknown folder', () => {
  it.each(['cd && ls', 'cd - && git status', 'cd "$X"; ls -la', 'f() { ls; }; cd /etc; f'])(
    '%s reads a folder only known when it runs',
    async (command) => {
      const analysis = await analyzeShellCommand(command, {
        cwd: PROJECT,
        home: '/home/u',
        paths: new RealPaths(emptyPathFs),
      });
      const last = [...allUnits(analysis.units)].filter((u) => u.name === 'ls' || u.name === 'git').at(-1);
      expect(last?.reads.some((r) => r.path === undefined)).toBe(true);
    },
  );
});
