import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse';
import { commandBaseName, type NestedCommand, nestedCommands } from './wrappers';

async function nestedOf(source: string): Promise<Array<string | undefined>> {
  const [segment] = (await parseCommand(source)).segments;
  if (!segment) throw new Error('no segment');
  return nestedCommands(segment.argv, segment.redirects).map((nested: NestedCommand) =>
    nested.kind === 'script'
      ? `script(${nested.via}): ${nested.script}`
      : `argv(${nested.via}): ${nested.argv.map((w) => w.value).join(' ')}`,
  );
}

describe('nestedCommands', () => {
  it.each([
    ['ls -la', []],
    ['eval "rm -rf x"', ['script(eval): rm -rf x']],
    ['eval $CMD', ['script(eval): undefined']],
    ["bash -c 'rm x' name arg", ['script(bash): rm x']],
    ["sh -ec 'ls'", ['script(sh): ls']],
    ['bash -o pipefail -c "a | b"', ['script(bash): a | b']],
    ['bash deploy.sh', ['script(bash): undefined']],
    ['sh', ['script(sh): undefined']],
    ["bash <<'EOF'\nrm x\nEOF", ['script(bash): rm x\n']],
    ['bash <<EOF\nrm $X\nEOF', ['script(bash): undefined']],
    ['sh <<< "ls"', ['script(sh): ls']],
    ['source ./env.sh', ['script(source): undefined']],
    ['. ./env.sh', ['script(.): undefined']],
    ['xargs -0 -n 1 rm -f', ['argv(xargs): rm -f']],
    ['xargs -I{} mv {} dst', ['argv(xargs): mv {} dst']],
    ['xargs', ['argv(xargs): echo']],
    ['xargs sh -c "rm x"', ['argv(xargs): sh -c rm x']],
    ['env -i FOO=1 BAR=2 node app.js', ['argv(env): node app.js']],
    ['env', []],
    ["env -S 'rm x'", ['script(env -S): rm x']],
    // Glued, clustered and abbreviated spellings split a string into a command line too.
    ["env -iS'rm x'", ['script(env -S): rm x']],
    ["env --sp='rm x' y", ['script(env --sp): rm x y']],
    ['env -S"$X"', ['script(env -S): undefined']],
    ['timeout -k 5 30 make test', ['argv(timeout): make test']],
    ['nice -n 10 make', ['argv(nice): make']],
    ['nice -5 make', ['argv(nice): make']],
    ['nohup server &', ['argv(nohup): server']],
    ['command -v node', []],
    ['command rm x', ['argv(command): rm x']],
    ['exec rm x', ['argv(exec): rm x']],
    ['/usr/bin/env rm x', ['argv(env): rm x']],
    [
      'find . -name x -exec rm {} \\; -execdir mv {} y +',
      ['argv(find -exec): rm {}', 'argv(find -execdir): mv {} y'],
    ],
    ['timeout --bogus 5 rm', ['script(timeout): undefined']],
  ])('%j', async (source, expected) => {
    expect(await nestedOf(source)).toEqual(expected);
  });

  it('carries env assignments of `env`', async () => {
    const [segment] = (await parseCommand('env PATH=/tmp LC_ALL=C ls')).segments;
    const [nested] = nestedCommands(segment?.argv ?? []);
    expect(nested?.kind === 'argv' && nested.env.map((e) => [e.name, e.value.value])).toEqual([
      ['PATH', '/tmp'],
      ['LC_ALL', 'C'],
    ]);
  });
});

describe('commandBaseName', () => {
  it.each([
    ['ls', 'ls'],
    ['/bin/ls', 'ls'],
    ['/usr/local/bin/rg', 'rg'],
    ['./ls', undefined],
    ['/tmp/ls', undefined],
    ['$CMD', undefined],
    ['~/bin/x', undefined],
    ['"git"', 'git'],
  ])('%s → %s', async (source, expected) => {
    const [segment] = (await parseCommand(source)).segments;
    expect(commandBaseName(segment?.argv[0])).toBe(expected);
  });
});
