/**
 * The editing keys (readline's, as Claude Code's input line has them): each maps the editor
 * state to the next one. Keys that do something beyond the text (submit, history, interrupt,
 * quit) are the prompt component's; this returns undefined for them.
 */
import {
  backspace,
  deleteForward,
  deleteWordBack,
  type EditorState,
  end,
  home,
  insert,
  killToLineEnd,
  killToLineStart,
  moveBy,
  paste,
  wordLeft,
  wordRight,
} from './editor';
import type { KeyEvent } from './key-parser';

export function applyEditKey(state: EditorState, event: KeyEvent): EditorState | undefined {
  if (event.type === 'text') return insert(state, event.text);
  if (event.type === 'paste') return paste(state, event.text);
  if (event.type !== 'key') return undefined;
  if (event.ctrl) {
    switch (event.name) {
      case 'a':
        return home(state);
      case 'e':
        return end(state);
      case 'b':
        return moveBy(state, -1);
      case 'f':
        return moveBy(state, 1);
      case 'h':
        return backspace(state);
      case 'w':
        return deleteWordBack(state);
      case 'u':
        return killToLineStart(state);
      case 'k':
        return killToLineEnd(state);
      case 'left':
        return wordLeft(state);
      case 'right':
        return wordRight(state);
      case 'newline':
        return insert(state, '\n');
      default:
        return undefined;
    }
  }
  switch (event.name) {
    case 'newline':
      return insert(state, '\n');
    case 'backspace':
      return event.meta ? deleteWordBack(state) : backspace(state);
    case 'delete':
      return deleteForward(state);
    case 'left':
      return event.meta ? wordLeft(state) : moveBy(state, -1);
    case 'right':
      return event.meta ? wordRight(state) : moveBy(state, 1);
    case 'home':
      return home(state);
    case 'end':
      return end(state);
    default:
      return undefined;
  }
}
