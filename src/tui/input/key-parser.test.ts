import { describe, expect, it } from 'vitest';
import { KeyParser } from './key-parser';

const parse = (...chunks: string[]) => {
  const parser = new KeyParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
};

describe('KeyParser', () => {
  it('groups printable text and splits control keys out of it', () => {
    expect(parse('ab\rc')).toEqual([
      { type: 'text', text: 'ab' },
      { type: 'key', name: 'return', ctrl: false, meta: false, shift: false },
      { type: 'text', text: 'c' },
    ]);
  });

  it('reads a bracketed paste as one event, across reads, newlines included', () => {
    expect(parse('\x1b[200~line one\r\nline', ' two\x1b[201~x')).toEqual([
      { type: 'paste', text: 'line one\r\nline two' },
      { type: 'text', text: 'x' },
    ]);
  });

  it('knows the Shift+Enter encodings, Ctrl+J and Alt+Enter as a new line', () => {
    const names = parse('\x1b[13;2u', '\x1b[27;2;13~', '\n', '\x1b\r').map((e) => e.type === 'key' && e.name);
    expect(names).toEqual(['newline', 'newline', 'newline', 'newline']);
  });

  it('reads arrows, Shift+Tab, Ctrl+letters, Delete and focus reports', () => {
    const events = parse('\x1b[A\x1b[Z\x03\x1b[3~\x1b[O\x1b[I\x7f');
    expect(events).toEqual([
      { type: 'key', name: 'up', ctrl: false, meta: false, shift: false },
      { type: 'key', name: 'tab', ctrl: false, meta: false, shift: true },
      { type: 'key', name: 'c', ctrl: true, meta: false, shift: false },
      { type: 'key', name: 'delete', ctrl: false, meta: false, shift: false },
      { type: 'focus', focused: false },
      { type: 'focus', focused: true },
      { type: 'key', name: 'backspace', ctrl: false, meta: false, shift: false },
    ]);
  });

  it('a lone ESC is the Escape key; ESC + letter is Alt+letter', () => {
    expect(parse('\x1b')).toEqual([{ type: 'key', name: 'escape', ctrl: false, meta: false, shift: false }]);
    expect(parse('\x1bb')).toEqual([{ type: 'key', name: 'left', ctrl: false, meta: true, shift: false }]);
  });
});
