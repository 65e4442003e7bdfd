import { describe, expect, it } from 'vitest';
import { tableEffects } from './command-effects';
import { parseArgs } from './option-parse';
import { compileTable, FILES, FLAG, OPTIONAL, READ, run, VALUE, write } from './option-table';
import { parseCommand } from './parse';

/** A small getopt_long table in the shape of sort's. */
const TABLE = compileTable({
  manual: 'test',
  options: {
    'r reverse': FLAG,
    'k key': VALUE,
    'o output': write('writes a file'),
    'compress-program': run('runs a program'),
    'random-source': READ,
    check: OPTIONAL,
    'color colour': OPTIONAL,
    'n numeric-sort': FLAG,
  },
  operands: FILES,
});

async function words(line: string) {
  const [segment] = (await parseCommand(`cmd ${line}`)).segments;
  return segment?.argv.slice(1) ?? [];
}

async function parse(line: string) {
  const parsed = parseArgs(TABLE, await words(line));
  return {
    options: parsed.options.map((o) => `${o.name}${o.value ? `=${o.value.value}` : ''}`),
    operands: parsed.operands.map((o) => o.word.value),
    problem: parsed.problem,
  };
}

describe('parseArgs: getopt_long as GNU tools read their arguments', () => {
  it.each([
    ['-r x', ['--reverse'], ['x']],
    ['-rn x', ['--reverse', '--numeric-sort'], ['x']],
    ['-k2 x', ['--key=2'], ['x']],
    ['-k 2 x', ['--key=2'], ['x']],
    ['-rk2 x', ['--reverse', '--key=2'], ['x']],
    ['--key=2 x', ['--key=2'], ['x']],
    ['--key 2 x', ['--key=2'], ['x']],
    ['--ke 2 x', ['--key=2'], ['x']],
    ['x -r', ['--reverse'], ['x', '-r']],
    ['-- -r', [], ['-r']],
    ['- x', [], ['-', 'x']],
    ['--check x', ['--check'], ['x']],
    ['--check=quiet x', ['--check=quiet'], ['x']],
    ['--colour=never x', ['--color=never'], ['x']],
  ])('%s', async (line, options, operands) => {
    const parsed = await parse(line);
    expect(parsed.options).toEqual(options);
    expect(parsed.operands).toEqual(operands);
    expect(parsed.problem).toBeUndefined();
  });

  it('an abbreviation of an unsafe option is that option', async () => {
    expect((await parse('--ou=f x')).options).toEqual(['--output=f']);
    expect((await parse('--comp=sh x')).options).toEqual(['--compress-program=sh']);
    expect((await parse('--c x')).options).toEqual(['--compress-program=x']);
  });

  it('unknown options, ambiguous prefixes and missing values are problems', async () => {
    expect((await parse('--bogus x')).problem).toMatch(/--bogus/);
    expect((await parse('-z x')).problem).toMatch(/-z/);
    expect((await parse('--r x')).problem).toMatch(/ambiguous/);
    expect((await parse('-k')).problem).toMatch(/needs a value/);
    expect((await parse('--reverse=1 x')).problem).toMatch(/takes no value/);
  });

  it('an optional value is only taken glued or after =', async () => {
    expect((await parse('--check quiet')).operands).toEqual(['quiet']);
  });
});

describe('tableEffects', () => {
  const effects = async (line: string) => {
    const e = tableEffects('cmd', TABLE, await words(line));
    return {
      no: e.notReadOnly,
      reads: e.reads.map((r) => r.word.value),
      writes: e.writes.map((w) => w.word.value),
    };
  };

  it('reads operands and read options, writes write options', async () => {
    expect(await effects('--random-source=/etc/x a b')).toEqual({
      no: undefined,
      reads: ['/etc/x', 'a', 'b'],
      writes: [],
    });
    const out = await effects('-oout x');
    expect(out.writes).toEqual(['out']);
    expect(out.no).toBe('cmd -o (--output) writes a file');
  });

  it('a word only the shell knows may be any option: the worst one counts', async () => {
    expect((await effects('$OPT x')).no).toMatch(/may expand to an option such as --compress-program/);
    expect((await effects('"$OPT" x')).no).toMatch(/may expand/);
    expect((await effects('*.txt')).no).toMatch(/may expand/);
    expect((await effects('{-o,x} y')).no).toMatch(/may expand/);
    // A literal start rules an option out.
    expect((await effects('src/$f')).no).toBeUndefined();
    expect((await effects('-- "$f"')).no).toBeUndefined();
  });

  it('after an operand, options may be operands (POSIXLY_CORRECT): their positions count', async () => {
    const uniqLike = compileTable({
      manual: 'test',
      options: { 'c count': FLAG },
      operands: { leading: ['read'], rest: 'write' },
    });
    expect(tableEffects('uniq', uniqLike, await words('x -c')).writes.map((w) => w.word.value)).toEqual([
      '-c',
    ]);
    expect(tableEffects('uniq', uniqLike, await words('-c x')).notReadOnly).toBeUndefined();
  });
});
