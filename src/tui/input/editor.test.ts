import { describe, expect, it } from 'vitest';
import {
  backspace,
  currentToken,
  deleteForward,
  deleteWordBack,
  editorWith,
  emptyEditor,
  expandedText,
  insert,
  moveBy,
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

  it('moves and deletes by whole characters: an emoji, a flag or a family is never split', () => {
    // Each of these is more than one UTF-16 unit; a cursor inside one would leave a lone surrogate.
    for (const wide of ['🎉', '👍🏽', '👨‍👩‍👧', '🇩🇪', 'é']) {
      const state = editorWith(`a${wide}b`);
      const beforeB = moveBy(state, -1);
      const beforeWide = moveBy(beforeB, -1);
      expect(beforeWide.cursor).toBe(1);
      expect(insert(beforeWide, 'X').text).toBe(`aX${wide}b`);
      expect(moveBy(beforeWide, 1).cursor).toBe(beforeB.cursor);
      expect(backspace(beforeB).text).toBe('ab');
      expect(deleteForward(beforeWide).text).toBe('ab');
    }
    expect(moveBy(editorWith('x\n🎉'), -1).cursor).toBe(2);
    expect(moveBy({ ...editorWith('x\ny'), cursor: 1 }, 1).cursor).toBe(2);
  });

  it('collapses a long paste to a placeholder and expands it on submit', () => {
    const long = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const state = paste(insert(emptyEditor, 'look: '), long);
    expect(state.text).toBe('look: [Pasted text #1 +30 lines]');
    expect(expandedText(state)).toBe(`look: ${long}`);
    expect(paste(emptyEditor, 'short').text).toBe('short');
  });

  it('counts the lines a paste holds: the newline that ends a copied block starts none', () => {
    const copied = Array.from({ length: 60 }, (_, i) => `line ${i + 1}\n`).join('');
    expect(paste(emptyEditor, copied).text).toBe('[Pasted text #1 +60 lines]');
  });

  it('finds and replaces the token at the cursor (for completion)', () => {
    const state = editorWith('read @src/ap');
    expect(currentToken(state)).toEqual({ token: '@src/ap', start: 5 });
    expect(replaceToken(state, '@src/app.ts ').text).toBe('read @src/app.ts ');
    expect(deleteWordBack(state).text).toBe('read ');
  });
});
