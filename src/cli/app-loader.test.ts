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
    expect(startKind([])).toBe('other');
  });
});
