import { describe, expect, it } from 'vitest';
import { findMentions } from '../../interactive/mentions';
import { currentToken, editorWith, replaceToken } from './editor';
import { mentionQuery, mentionSuggestion } from './mention-completion';

describe('mention completion', () => {
  it('offers a folder once with its slash, open for completion inside it', () => {
    expect(mentionSuggestion({ path: 'src/deep/', kind: 'dir' })).toEqual({
      value: '@src/deep/',
      label: '@src/deep/',
    });
    expect(mentionSuggestion({ path: 'src/a.ts', kind: 'file' })).toEqual({
      value: '@src/a.ts ',
      label: '@src/a.ts',
    });
  });

  it('quotes a path with a space, so the prompt sent attaches that file and not a piece of its name', () => {
    const file = mentionSuggestion({ path: 'src/my dir/a file.ts', kind: 'file' });
    expect(file.value).toBe('@"src/my dir/a file.ts" ');
    const prompt = replaceToken(editorWith('look at @src/my'), file.value).text;
    expect(findMentions(`${prompt}please`).map((m) => m.path)).toEqual(['src/my dir/a file.ts']);
  });

  it('goes on completing inside a quoted folder: the open quote and its spaces are one token', () => {
    const folder = mentionSuggestion({ path: 'src/my dir/', kind: 'dir' });
    expect(folder.value).toBe('@"src/my dir/');
    const typed = `${replaceToken(editorWith('see @src/m'), folder.value).text}a f`;
    const token = currentToken(editorWith(typed));
    expect(token).toEqual({ token: '@"src/my dir/a f', start: 4 });
    expect(mentionQuery(token.token)).toBe('src/my dir/a f');
    const file = mentionSuggestion({ path: 'src/my dir/a file.ts', kind: 'file' });
    expect(replaceToken(editorWith(typed), file.value).text).toBe('see @"src/my dir/a file.ts" ');
    // A closed quote ends the mention: what follows is a word of its own.
    expect(currentToken(editorWith('@"a b" nex')).token).toBe('nex');
  });
});
