/**
 * The input line's text and cursor, as an immutable value with the edits the keys map to.
 * Multi-line: the cursor is an offset into the whole text (Up/Down move by the rows the input box
 * shows: input-rows.ts).
 * Long pastes are kept aside and shown as a placeholder until the prompt is submitted.
 */

import { nextBoundary, previousBoundary } from './graphemes';

export type Paste = { readonly id: number; readonly text: string };

export type EditorState = {
  readonly text: string;
  readonly cursor: number;
  readonly pastes: readonly Paste[];
};

export const emptyEditor: EditorState = { text: '', cursor: 0, pastes: [] };

export function editorWith(text: string): EditorState {
  return { text, cursor: text.length, pastes: [] };
}

/** A paste longer than this (or with more lines) is collapsed into a placeholder. */
const PASTE_COLLAPSE_CHARS = 800;
const PASTE_COLLAPSE_LINES = 10;

export function insert(state: EditorState, piece: string): EditorState {
  const clean = piece.replace(/\r\n?/g, '\n');
  const text = state.text.slice(0, state.cursor) + clean + state.text.slice(state.cursor);
  return { ...state, text, cursor: state.cursor + clean.length };
}

/** The lines the paste holds: a copied block usually ends with a newline, which starts no line. */
const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length;
const placeholder = (paste: Paste) => `[Pasted text #${paste.id} +${lineCount(paste.text)} lines]`;

/** Pasted text: inserted as is when short, as a placeholder when long. */
export function paste(state: EditorState, text: string): EditorState {
  const clean = text.replace(/\r\n?/g, '\n');
  const lines = clean.split('\n').length;
  if (clean.length <= PASTE_COLLAPSE_CHARS && lines <= PASTE_COLLAPSE_LINES) return insert(state, clean);
  const entry: Paste = { id: state.pastes.length + 1, text: clean };
  return { ...insert(state, placeholder(entry)), pastes: [...state.pastes, entry] };
}

/**
 * A prompt recalled from history: collapsed to a placeholder again when it is as long as a paste
 * that would be, so Up on a pasted log does not fill the screen with it (it is sent whole).
 */
export function recalledEditor(text: string): EditorState {
  const collapsed = paste(emptyEditor, text);
  return collapsed.pastes.length > 0 ? collapsed : editorWith(text);
}

/** The prompt to send: placeholders replaced by the text they stand for. */
export function expandedText(state: EditorState): string {
  let text = state.text;
  for (const entry of state.pastes) text = text.split(placeholder(entry)).join(entry.text);
  return text;
}

/** Backspace: deletes the character before the cursor (a whole emoji, not half of it). */
export function backspace(state: EditorState): EditorState {
  if (state.cursor === 0) return state;
  const to = previousBoundary(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, to) + state.text.slice(state.cursor), cursor: to };
}

export function deleteForward(state: EditorState): EditorState {
  if (state.cursor >= state.text.length) return state;
  const to = nextBoundary(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(to) };
}

/** Left (-1) or Right (1) by one character. */
export function moveBy(state: EditorState, direction: -1 | 1): EditorState {
  const cursor =
    direction < 0 ? previousBoundary(state.text, state.cursor) : nextBoundary(state.text, state.cursor);
  return { ...state, cursor };
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end < 0 ? text.length : end;
}

export function home(state: EditorState): EditorState {
  return { ...state, cursor: lineStart(state.text, state.cursor) };
}

export function end(state: EditorState): EditorState {
  return { ...state, cursor: lineEnd(state.text, state.cursor) };
}

export function wordLeft(state: EditorState): EditorState {
  let i = state.cursor;
  while (i > 0 && /\s/.test(state.text[i - 1] as string)) i--;
  while (i > 0 && !/\s/.test(state.text[i - 1] as string)) i--;
  return { ...state, cursor: i };
}

export function wordRight(state: EditorState): EditorState {
  let i = state.cursor;
  const n = state.text.length;
  while (i < n && /\s/.test(state.text[i] as string)) i++;
  while (i < n && !/\s/.test(state.text[i] as string)) i++;
  return { ...state, cursor: i };
}

/** Ctrl+W: deletes the word before the cursor. */
export function deleteWordBack(state: EditorState): EditorState {
  const to = wordLeft(state).cursor;
  return { ...state, text: state.text.slice(0, to) + state.text.slice(state.cursor), cursor: to };
}

/** Ctrl+U: deletes to the start of the line. */
export function killToLineStart(state: EditorState): EditorState {
  const start = lineStart(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, start) + state.text.slice(state.cursor), cursor: start };
}

/** Ctrl+K: deletes to the end of the line. */
export function killToLineEnd(state: EditorState): EditorState {
  const stop = lineEnd(state.text, state.cursor);
  return { ...state, text: state.text.slice(0, state.cursor) + state.text.slice(stop) };
}

/**
 * The word being typed at the cursor (for `@path` and `/command` completion). A quoted mention
 * still open before the cursor, `@"my dir/a f`, is one word with its spaces.
 */
export function currentToken(state: EditorState): { token: string; start: number } {
  const line = state.text.slice(lineStart(state.text, state.cursor), state.cursor);
  const quoted = /(?:^|\s)(@"[^"]*)$/.exec(line);
  if (quoted) {
    const token = quoted[1] as string;
    return { token, start: state.cursor - token.length };
  }
  let start = state.cursor;
  while (start > 0 && !/\s/.test(state.text[start - 1] as string)) start--;
  return { token: state.text.slice(start, state.cursor), start };
}

/** Replaces the token at the cursor with `replacement`. */
export function replaceToken(state: EditorState, replacement: string): EditorState {
  const { start } = currentToken(state);
  const text = state.text.slice(0, start) + replacement + state.text.slice(state.cursor);
  return { ...state, text, cursor: start + replacement.length };
}
