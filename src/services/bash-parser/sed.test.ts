import { describe, expect, it } from 'vitest';
import { parseCommand } from './parse';
import { analyzeSed, isPureSubstitution, sedPrintsOnly, sedScriptEffects } from './sed';

/** Each script is calibrated against GNU sed 4.9 (see option-danger-cases.ts for the run rows). */
describe('sedScriptEffects: every command in every position', () => {
  it.each([
    ['p', [], [], false],
    ['1,10p;20q', [], [], false],
    ['s/a/b/g;/x/d;$!N', [], [], false],
    ['w out', [], ['out'], false],
    ['1w out', [], ['out'], false],
    ['p;w out', [], ['out'], false],
    ['1{w out\n}', [], ['out'], false],
    ['/x/I,+3W out', [], ['out'], false],
    ['0,/re/w out', [], ['out'], false],
    ['1~2w out', [], ['out'], false],
    ['2,~4w out', [], ['out'], false],
    ['$!w out', [], ['out'], false],
    ['\\%x%w out', [], ['out'], false],
    [':a;w out', [], ['out'], false],
    [':a w out', [], ['out'], false],
    ['v;w out', [], ['out'], false],
    ['bx;w out\n:x', [], ['out'], false],
    ['T;w out', [], ['out'], false],
    ['s/a/b/w out', [], ['out'], false],
    ['s/a/b/ w out', [], ['out'], false],
    ['s|a|b|gpw out', [], ['out'], false],
    ['s/[/]/b/w out', [], ['out'], false],
    ['s/a/[/w out', [], ['out'], false],
    ['w out ; p', [], ['out ; p'], false],
    ['w /dev/stdout', [], [], false],
    ['r /etc/x', ['/etc/x'], [], false],
    ['1R /etc/x', ['/etc/x'], [], false],
    ['e touch x', [], [], true],
    ['1e', [], [], true],
    ['s/x/date/e', [], [], true],
    ['s/x/y/ge', [], [], true],
    ['$!{e x\n}', [], [], true],
    ['a hello; w out', [], [], false],
    ['1i\\ w out', [], [], false],
    ['c\\\nw out', [], [], false],
    ['y/abc/xyz/', [], [], false],
    ['s/a/b/\n/c/d', [], [], false],
  ] as const)('%j reads %j writes %j runs %s', (script, reads, writes, runs) => {
    const effects = sedScriptEffects(script);
    expect(effects.error).toBeUndefined();
    expect(effects.reads).toEqual(reads);
    expect(effects.writes).toEqual(writes);
    expect(effects.runs).toBe(runs);
  });

  // GNU sed 4.9's own words for each (`echo x | sed SCRIPT`): "INTERNAL ERROR: Bad cmd L",
  // "unknown option to `s'", "unmatched `{'", "unexpected `}'", "unterminated `s' command",
  // "unterminated `y' command", "multiple `!'s", "unknown command: `k'".
  it.each([
    ['L', 'unknown command: L (at character 2)'],
    ['s/a/b/q', 'extra characters after command: q (at character 7)'],
    ['1{p', "unmatched `{' (at character 4)"],
    ['}', "unexpected `}' (at character 2)"],
    ['s/a', 'unterminated s command (at character 4)'],
    ['y/ab/c', 'unterminated y command (at character 7)'],
    ['1!!p', "multiple `!'s (at character 3)"],
    ['k', 'unknown command: k (at character 2)'],
  ])('%j is rejected, as sed rejects it: %s', (script, error) => {
    expect(sedScriptEffects(script).error).toBe(error);
  });

  it('a write before a syntax error still counts: sed opens the file while compiling', () => {
    const effects = sedScriptEffects('1{w out}');
    expect(effects.writes).toEqual(['out}']);
    expect(effects.error).toMatch(/unmatched/);
  });

  it('tells a pure substitution from an edit that does more', () => {
    expect(isPureSubstitution(sedScriptEffects('s/a/b/g;s|c|d|'))).toBe(true);
    expect(isPureSubstitution(sedScriptEffects('/x/{s/a/b/}'))).toBe(true);
    expect(isPureSubstitution(sedScriptEffects('s/a/b/w out'))).toBe(false);
    expect(isPureSubstitution(sedScriptEffects('s/a/b/e'))).toBe(false);
    expect(isPureSubstitution(sedScriptEffects('1d'))).toBe(false);
    expect(sedPrintsOnly(sedScriptEffects('1d'))).toBe(true);
  });
});

describe('analyzeSed: options, scripts and files', () => {
  const analyze = async (line: string) => {
    const [segment] = (await parseCommand(`sed ${line}`)).segments;
    return analyzeSed(segment?.argv.slice(1) ?? []);
  };

  it('finds the script in -e, --expression or the first operand', async () => {
    expect((await analyze("-e p -e 'w out' f")).script?.writes).toEqual(['out']);
    expect((await analyze("--expression='w out' f")).script?.writes).toEqual(['out']);
    expect((await analyze("-n 'w out' f")).files.map((w) => w.value)).toEqual(['f']);
  });

  it('in-place edits write their files; a hidden script is not seen', async () => {
    const inPlace = await analyze("-i 's/a/b/' f g");
    expect(inPlace.inPlace).toBe(true);
    expect(inPlace.effects.writes.map((w) => w.word.value)).toEqual(['f', 'g']);
    expect((await analyze('-f script f')).script).toBeUndefined();
    expect((await analyze('-f script f')).effects.runs).toBe(
      'sed -f runs a script kept in a file, which cannot be checked',
    );
    expect((await analyze('"$S" f')).effects.notReadOnly).toMatch(
      /may expand to an option|only known when it runs/,
    );
    expect((await analyze('-e "$S" f')).effects.notReadOnly).toMatch(/only known when it runs/);
  });

  it('--sandbox makes sed refuse e/r/w before doing anything', async () => {
    const { effects } = await analyze("--sandbox 'w out' f");
    expect(effects.notReadOnly).toBeUndefined();
    expect(effects.writes).toEqual([]);
  });
});
