import { describe, expect, it } from 'vitest';
import {
  backspace,
  currentToken,
  deleteWordBack,
  editorWith,
  emptyEditor,
  expandedText,
  insert,
  moveLine,
  paste,
  replaceToken,
} from './editor';

describe('editor', () => {
  it('inserts at the cursor and deletes before it', () => {
    let state = insert(emptyEditor, 'helo');
    state = { ...state, cursor: 3 };
    state = insert(state, 'l');
    expect(state).toMatchObject({ text: 'hello', cursor: 4 });
    expect(backspace(state)).toMatchObject({ text: 'helo', cursor: 3 });
  });

  it('moves between lines keeping the column, and says when there is no line that way', () => {
    const state = { ...editorWith('first line\nsecond'), cursor: 15 };
    expect(moveLine(state, -1)?.cursor).toBe(4);
    expect(moveLine(state, 1)).toBeUndefined();
    expect(moveLine({ ...state, cursor: 2 }, -1)).toBeUndefined();
  });

  it('collapses a long paste to a placeholder and expands it on submit', () => {
    const long = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const state = paste(insert(emptyEditor, 'look: '), long);
    expect(state.text).toBe('look: [Pasted text #1 +30 lines]');
    expect(expandedText(state)).toBe(`look: ${long}`);
    expect(paste(emptyEditor, 'short').text).toBe('short');
  });

  it('finds and replaces the token at the cursor (for completion)', () => {
    const state = editorWith('read @src/ap');
    expect(currentToken(state)).toEqual({ token: '@src/ap', start: 5 });
    expect(replaceToken(state, '@src/app.ts ').text).toBe('read @src/app.ts ');
    expect(deleteWordBack(state).text).toBe('read ');
  });
});
