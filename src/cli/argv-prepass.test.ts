import { describe, expect, it } from 'vitest';
import { flagTable, looksLikeFlag, prepassArgv } from './argv-prepass';
import { CliUsageError } from './errors';
import { buildProgram } from './program';

const table = flagTable(buildProgram({ onRoot: () => {}, onMockServer: async () => {} }));
const prepass = (argv: string[]) => prepassArgv(argv, table);

describe('prepassArgv', () => {
  it('normalizes --x=v and --x v to the canonical --x=v', () => {
    expect(prepass(['--model=opus', '--max-turns', '3']).args).toEqual(['--model=opus', '--max-turns=3']);
  });

  it('keeps bare booleans and maps short flags to their long form', () => {
    expect(prepass(['-p', '--verbose', '-c']).args).toEqual(['--print', '--verbose', '--continue']);
  });

  it('keeps empty values', () => {
    expect(prepass(['--setting-sources=']).args).toEqual(['--setting-sources=']);
    expect(prepass(['--system-prompt', '']).args).toEqual(['--system-prompt=']);
  });

  it('maps both spellings of the tool rule flags to one canonical flag', () => {
    expect(prepass(['--allowedTools=Read', '--allowed-tools', 'Edit']).args).toEqual([
      '--allowed-tools=Read',
      '--allowed-tools=Edit',
    ]);
    expect(prepass(['--disallowedTools', 'Bash']).args).toEqual(['--disallowed-tools=Bash']);
  });

  it('keeps repeated flags in order', () => {
    expect(prepass(['--add-dir=/a', '--add-dir', '/b']).args).toEqual(['--add-dir=/a', '--add-dir=/b']);
  });

  it('drops an unknown bare flag with a warning and keeps the prompt after a known flag', () => {
    const result = prepass(['-p', '--some-flag', '--verbose', 'hello']);
    expect(result.args).toEqual(['--print', '--verbose', 'hello']);
    expect(result.warnings).toEqual(['ignoring unknown option --some-flag']);
  });

  it('drops an unknown flag together with its value', () => {
    const spaced = prepass(['--other-flag', 'v', '-p']);
    expect(spaced.args).toEqual(['--print']);
    expect(spaced.warnings).toEqual(['ignoring unknown option --other-flag and its value "v"']);
    const joined = prepass(['--other-flag=v', 'prompt']);
    expect(joined.args).toEqual(['prompt']);
    expect(joined.warnings[0]).toContain('--other-flag');
  });

  it('drops unknown short flags too', () => {
    expect(prepass(['-x', '-p']).args).toEqual(['--print']);
  });

  it('treats everything after -- as positional', () => {
    expect(prepass(['-p', '--', '--not-a-flag']).args).toEqual(['--print', '--', '--not-a-flag']);
  });

  it('keeps an optional value only in the = form, and moves the bare form past the prompt', () => {
    // Last, commander cannot take the prompt for the flag's value.
    expect(prepass(['--debug', 'prompt']).args).toEqual(['prompt', '--debug']);
    expect(prepass(['-p', '--worktree', 'fix it', '--verbose']).args).toEqual([
      '--print',
      'fix it',
      '--verbose',
      '--worktree',
    ]);
    expect(prepass(['--worktree', '--', 'prompt']).args).toEqual(['--worktree', '--', 'prompt']);
    expect(prepass(['--debug=api']).args).toEqual(['--debug=api']);
  });

  it("gives --resume the next word as its id (Claude Code's form); bare, it stays bare", () => {
    expect(prepass(['-p', '--resume', 'abc123', 'go on']).args).toEqual([
      '--print',
      '--resume=abc123',
      'go on',
    ]);
    expect(prepass(['-r', 'abc123']).args).toEqual(['--resume=abc123']);
    expect(prepass(['--resume', '--verbose']).args).toEqual(['--verbose', '--resume']);
  });

  it('accepts boolean flags written with true/false values', () => {
    expect(prepass(['--verbose=true', '--strict-mcp-config=false']).args).toEqual(['--verbose']);
    expect(() => prepass(['--verbose=maybe'])).toThrow(CliUsageError);
  });

  it('fails with one line when a value flag has no value', () => {
    expect(() => prepass(['--model'])).toThrow('--model needs a value');
    expect(() => prepass(['--model', '--verbose'])).toThrow('--model needs a value');
  });

  it('takes negative numbers and a lone dash as values', () => {
    expect(looksLikeFlag('-1')).toBe(false);
    expect(looksLikeFlag('-')).toBe(false);
    expect(prepass(['--max-turns', '-1']).args).toEqual(['--max-turns=-1']);
  });

  it('stops on a near miss of a flag that takes a value, naming the flag meant', () => {
    expect(() => prepass(['-p', '--max-turn', '3', 'hi'])).toThrow(
      'unknown option --max-turn; did you mean --max-turns? (not running without it)',
    );
    expect(() => prepass(['--max-budget-us=1'])).toThrow('did you mean --max-budget-usd?');
    expect(() => prepass(['--allowedtools', 'Bash'])).toThrow(CliUsageError);
  });

  it('warns on a near miss of a boolean flag, suggests it, and keeps the next word as the prompt', () => {
    const result = prepass(['-p', '--verbos', 'hello']);
    expect(result.args).toEqual(['--print', 'hello']);
    expect(result.warnings).toEqual(['ignoring unknown option --verbos; did you mean --verbose?']);
  });

  it('ignores a Claude Code flag Yoke lacks, even when it is close to one of Yoke flags', () => {
    // --sdk-url is passed by the Agent SDK; --system-prompt-file is in Claude Code's reference.
    const result = prepass(['--sdk-url', 'ws://x', '--system-prompt-file', 'f.txt', '-p', 'hi']);
    expect(result.args).toEqual(['--print', 'hi']);
    expect(result.warnings).toEqual([
      'ignoring --sdk-url and its value "ws://x": a Claude Code option Yoke does not support yet',
      'ignoring --system-prompt-file and its value "f.txt": a Claude Code option Yoke does not support yet',
    ]);
  });

  it('keeps ignoring flags that are far from every known one', () => {
    expect(prepass(['--frobnicate', '-p']).warnings).toEqual(['ignoring unknown option --frobnicate']);
  });
});
