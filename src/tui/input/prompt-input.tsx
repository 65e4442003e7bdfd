/**
 * The input line: multi-line editing, history (Up/Down, Ctrl+R), completion of `/commands` and
 * `@paths`, and the keys that act on the session (Esc, Ctrl+C, Ctrl+D, Ctrl+G, Ctrl+Z, Shift+Tab,
 * Ctrl+O, Ctrl+T). The text lives in a ref so each key is applied to the latest state at once,
 * whatever React has rendered: keys typed faster than frames are never lost.
 */
import { Box, Text } from 'ink';
import { useEffect, useRef } from 'react';
import { printable } from '../terminal/terminal-text';
import { useStyle } from '../views/style-context';
import { useTerminalSize } from '../views/use-terminal-size';
import { applyEditKey } from './edit-keys';
import {
  currentToken,
  type EditorState,
  editorWith,
  emptyEditor,
  expandedText,
  recalledEditor,
  replaceToken,
} from './editor';
import { boundaryAtOrBefore, withoutLastCharacter } from './graphemes';
import { type HistorySearch, searchHistory } from './history-search';
import { InputBox, textColumns } from './input-box';
import { inputRows, moveRow } from './input-rows';
import type { KeyEvent } from './key-parser';
import { useTypingKeys } from './use-keys';
import { useRefState } from './use-ref-state';

export type Suggestion = {
  value: string;
  label: string;
  description?: string;
  /** Enter runs the prompt with this suggestion in it (a slash command) instead of only inserting it. */
  submits?: boolean;
};

export type PromptActions = {
  submit(text: string): void;
  /** Esc or Ctrl+C while a turn runs: true when there was one to stop. */
  interrupt(): boolean;
  exit(): void;
  cycleMode(): void;
  toggleFullOutput(): void;
  toggleTodos(): void;
  suspend(): void;
  /** Ctrl+G: the text after editing in $EDITOR, or undefined when none could be opened. */
  editExternally(text: string): string | undefined;
  complete(token: string, wholeText: string): Promise<readonly Suggestion[]>;
};

export type PromptInputProps = {
  actions: PromptActions;
  history: readonly string[];
  running: boolean;
  active: boolean;
};

type Hint = 'exit-pending' | undefined;

function modeOf(text: string): { symbol: string; colour: 'magenta' | 'blue' | undefined } {
  if (text.startsWith('!')) return { symbol: '!', colour: 'magenta' };
  if (text.startsWith('#')) return { symbol: '#', colour: 'blue' };
  return { symbol: '>', colour: undefined };
}

export function PromptInput({ actions, history, running, active }: PromptInputProps) {
  const style = useStyle();
  const [editor, setEditor] = useRefState<EditorState>(emptyEditor);
  const [hintRef, setHint] = useRefState<Hint>(undefined);
  const [searchRef, setSearch] = useRefState<HistorySearch | undefined>(undefined);
  const [suggestionsRef, setSuggestions] = useRefState<readonly Suggestion[]>([]);
  const [selectedRef, setSelected] = useRefState(0);
  /** Where Up/Down is in the history: -1 is the text being written. */
  const historyIndex = useRef(-1);
  const draft = useRef<EditorState>(emptyEditor);

  const update = setEditor;
  const columnsRef = useRef(80);
  columnsRef.current = useTerminalSize().columns;

  // Completion follows the token at the cursor; a late answer for an older token is dropped.
  const token = currentToken(editor.current).token;
  const wholeText = editor.current.text;
  useEffect(() => {
    let current = true;
    const completable = token.startsWith('@') || (wholeText.startsWith('/') && !wholeText.includes(' '));
    if (!completable) {
      // Only when some are shown: a render asked for nothing would draw a second frame per key.
      if (suggestionsRef.current.length > 0) setSuggestions([]);
      return;
    }
    actions.complete(token, wholeText).then(
      (found) => {
        if (!current) return;
        setSuggestions(found.slice(0, 6));
        setSelected(0);
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [token, wholeText, actions, suggestionsRef, setSuggestions, setSelected]);

  const recall = (direction: -1 | 1): boolean => {
    const next = historyIndex.current + (direction < 0 ? 1 : -1);
    if (next < -1 || next >= history.length) return false;
    if (historyIndex.current === -1) draft.current = editor.current;
    historyIndex.current = next;
    update(next === -1 ? draft.current : recalledEditor(history[history.length - 1 - next] as string));
    return true;
  };

  const submit = () => {
    const text = expandedText(editor.current);
    if (!text.trim()) return;
    historyIndex.current = -1;
    update(emptyEditor);
    setSuggestions([]);
    actions.submit(text);
  };

  const onSearchKey = (event: KeyEvent, state: HistorySearch) => {
    if (event.type === 'text') {
      const query = state.query + event.text;
      setSearch({ query, index: searchHistory(history, query)?.index ?? state.index });
    } else if (event.type === 'key' && event.ctrl && event.name === 'r') {
      const further = searchHistory(history, state.query, state.index + 1);
      if (further) setSearch({ ...state, index: further.index });
    } else if (event.type === 'key' && event.name === 'backspace') {
      const query = withoutLastCharacter(state.query);
      setSearch({ query, index: searchHistory(history, query)?.index ?? 0 });
    } else if (
      event.type === 'key' &&
      (event.name === 'escape' || (event.ctrl && (event.name === 'c' || event.name === 'g')))
    ) {
      setSearch(undefined);
    } else {
      const found = searchHistory(history, state.query, state.index);
      setSearch(undefined);
      if (found) update(recalledEditor(found.match));
      if (event.type === 'key' && event.name === 'return' && found) submit();
    }
  };

  // A typing handler: the rest of a burst of typing reaches it under a dialog that just opened.
  useTypingKeys((event) => {
    const search = searchRef.current;
    const suggestions = suggestionsRef.current;
    const selected = selectedRef.current;
    const hint = hintRef.current;
    if (event.type === 'focus') return false;
    if (search) {
      onSearchKey(event, search);
      return true;
    }
    const isCtrl = (name: string) => event.type === 'key' && event.ctrl && event.name === name;
    if (!isCtrl('c') && hint) setHint(undefined);
    if (event.type === 'key') {
      if (event.name === 'escape') {
        if (suggestions.length > 0) setSuggestions([]);
        else actions.interrupt();
        return true;
      }
      if (isCtrl('c')) {
        if (editor.current.text) update(emptyEditor);
        else if (running && actions.interrupt()) setHint(undefined);
        else if (hint === 'exit-pending') {
          // The frame left on screen at exit is drawn first: it no longer asks for a second Ctrl+C.
          setHint(undefined);
          actions.exit();
        } else setHint('exit-pending');
        return true;
      }
      if (isCtrl('d')) {
        if (!editor.current.text) actions.exit();
        return true;
      }
      if (isCtrl('r')) {
        setSearch({ query: '', index: 0 });
        return true;
      }
      if (isCtrl('g')) {
        const edited = actions.editExternally(expandedText(editor.current));
        if (edited !== undefined) update(editorWith(edited.replace(/\n+$/, '')));
        return true;
      }
      if (isCtrl('z')) {
        actions.suspend();
        return true;
      }
      if (isCtrl('o')) {
        actions.toggleFullOutput();
        return true;
      }
      if (isCtrl('t')) {
        actions.toggleTodos();
        return true;
      }
      if (event.name === 'tab' && event.shift) {
        actions.cycleMode();
        return true;
      }
      if (event.name === 'tab' || (event.name === 'return' && suggestions.length > 0 && !event.ctrl)) {
        const choice = suggestions[selected];
        if (choice) {
          const completed = replaceToken(editor.current, choice.value);
          setSuggestions([]);
          // Enter on a command, or on a word already typed out in full, sends the prompt: a
          // second Enter for `/help` typed to the end would be a key the user must learn.
          const nothingToAdd = completed.text.trimEnd() === editor.current.text.trimEnd();
          if (event.name === 'return' && (choice.submits || nothingToAdd)) {
            const text = completed.text.trimEnd();
            update({ ...completed, text, cursor: Math.min(completed.cursor, text.length) });
            submit();
          } else update(completed);
          return true;
        }
        if (event.name === 'tab') return true;
      }
      if (event.name === 'return') {
        // A backslash before Enter continues the line, in every terminal.
        if (editor.current.text.slice(0, editor.current.cursor).endsWith('\\')) {
          const state = editor.current;
          const before = state.text.slice(0, state.cursor - 1);
          update({ ...state, text: `${before}\n${state.text.slice(state.cursor)}`, cursor: state.cursor });
          return true;
        }
        submit();
        return true;
      }
      if (event.name === 'up' || event.name === 'down') {
        const direction = event.name === 'up' ? -1 : 1;
        if (suggestions.length > 0) {
          setSelected((selected + suggestions.length + direction) % suggestions.length);
          return true;
        }
        // By the rows the box shows: a long line wrapped onto several is walked row by row.
        const state = editor.current;
        const moved = moveRow(
          inputRows(state.text, textColumns(columnsRef.current)),
          state.cursor,
          direction,
        );
        if (moved !== undefined) update({ ...state, cursor: boundaryAtOrBefore(state.text, moved) });
        else recall(direction);
        return true;
      }
    }
    const next = applyEditKey(editor.current, event);
    if (next) {
      historyIndex.current = -1;
      update(next);
    }
    return true;
  }, active);

  const search = searchRef.current;
  const suggestions = suggestionsRef.current;
  const selected = selectedRef.current;
  const hint = hintRef.current;
  const state = editor.current;
  const mode = modeOf(state.text);
  const symbol = mode.colour ? style.fg(mode.colour, mode.symbol) : style.dim(mode.symbol);
  return (
    <Box flexDirection="column">
      {search ? (
        <Box borderStyle="round" borderColor={style.color ? 'gray' : undefined} paddingX={1}>
          <Text>{`(reverse-i-search)\`${search.query}': ${oneEntryLine(searchHistory(history, search.query, search.index)?.match ?? '')}`}</Text>
        </Box>
      ) : (
        // In the ! and # modes the symbol is the line's first character: it is not drawn twice.
        <InputBox
          text={mode.colour ? state.text.slice(1) : state.text}
          cursor={mode.colour ? Math.max(0, state.cursor - 1) : state.cursor}
          symbol={symbol}
        />
      )}
      {suggestions.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {suggestions.map((s, index) => (
            // One row each: a long description is cut, not wrapped under the next command. File
            // names and command descriptions come from the repository: shown, never obeyed.
            <Text key={s.value} wrap="truncate-end">
              {index === selected ? style.fg('cyan', printable(s.label)) : printable(s.label)}
              {s.description ? style.dim(`  ${printable(s.description)}`) : ''}
            </Text>
          ))}
        </Box>
      ) : null}
      {hint === 'exit-pending' ? <Text>{style.dim('  Press Ctrl+C again to exit')}</Text> : null}
    </Box>
  );
}

/** A history entry in the search line: its first line, and how many more it has. */
function oneEntryLine(entry: string): string {
  const lines = entry.split('\n');
  return lines.length > 1 ? `${lines[0]} (+${lines.length - 1} more lines)` : entry;
}
