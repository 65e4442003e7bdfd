import { describe, expect, it } from 'vitest';
import { startKind } from './app-loader';

describe('startKind', () => {
  it('tells a session the Agent SDK drives from a -p run and from other commands', () => {
    expect(startKind(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json'])).toBe(
      'stream-json',
    );
    expect(startKind(['--print', '--input-format=stream-json'])).toBe('stream-json');
    expect(startKind(['-p', 'hello'])).toBe('print');
    expect(startKind(['--print', '--input-format', 'text'])).toBe('print');
    expect(startKind(['sessions', 'list'])).toBe('other');
    expect(startKind(['mock-server', '--port', '0'])).toBe('other');
    expect(startKind(['--help'])).toBe('other');
    expect(startKind(['--version', '--debug'])).toBe('other');
  });

  it('tells a REPL from the subcommands, so that its cache is its own', () => {
    expect(startKind([])).toBe('repl');
    expect(startKind(['fix the failing test'])).toBe('repl');
    expect(startKind(['--model', 'opus', '--resume'])).toBe('repl');
  });
});
