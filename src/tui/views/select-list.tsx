/**
 * A framed list that owns the keys while it is shown: ↑/↓ (and PgUp/PgDn) move, typing filters
 * when a filter is given, Enter picks, Esc closes. The resume picker, /tasks and /mcp are this list
 * with their own rows; `onKey` lets a view add its own keys (`k` to stop a task) for the row
 * under the cursor.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { withoutLastCharacter } from '../input/graphemes';
import type { KeyEvent } from '../input/key-parser';
import { useKeys } from '../input/use-keys';
import { useRefState } from '../input/use-ref-state';
import { DialogFrame } from './dialog-frame';
import { useStyle } from './style-context';

export type SelectListProps<T> = {
  title: string;
  items: readonly T[];
  /** One line per item (may carry SGR styles); the list truncates it to the width. */
  row(item: T): string;
  keyOf(item: T): string;
  /** When given, typed text filters the items through it. */
  filter?(items: readonly T[], query: string): readonly T[];
  onPick(item: T): void;
  onClose(): void;
  /** A key the view handles for the selected item; return true when used. */
  onKey?(event: KeyEvent, item: T | undefined): boolean;
  /** Shown when there is nothing to list (after filtering). */
  empty: string;
  /** The key hints under the list. */
  hint: string;
  /** Rows shown at once; the list scrolls to keep the cursor visible. */
  visible?: number;
  /** Lines under the list, e.g. the selected item's details. */
  footer?: (item: T | undefined) => ReactNode;
};

export function SelectList<T>(props: SelectListProps<T>) {
  const style = useStyle();
  // Read by the key handler at once: keys that arrive in one read each see the previous key's effect.
  const [query, setQuery] = useRefState('');
  const [cursor, setCursor] = useRefState(0);
  const visible = props.visible ?? 10;
  const view = () => {
    const shown = props.filter ? props.filter(props.items, query.current) : props.items;
    const index = Math.min(cursor.current, Math.max(0, shown.length - 1));
    return { shown, index, selected: shown[index] };
  };
  const { shown, index, selected } = view();

  useKeys((event) => {
    const { shown, index, selected } = view();
    if (props.onKey?.(event, selected)) return true;
    if (event.type === 'key') {
      const move = (by: number) => setCursor(Math.max(0, Math.min(shown.length - 1, index + by)));
      if (event.name === 'escape' || (event.ctrl && event.name === 'c')) props.onClose();
      else if (event.name === 'return') {
        if (selected !== undefined) props.onPick(selected);
      } else if (event.name === 'up' || (event.ctrl && event.name === 'p')) move(-1);
      else if (event.name === 'down' || (event.ctrl && event.name === 'n')) move(1);
      else if (event.name === 'pageup') move(-visible);
      else if (event.name === 'pagedown') move(visible);
      else if (event.name === 'backspace' && props.filter) {
        setQuery(withoutLastCharacter(query.current));
        setCursor(0);
      }
      return true;
    }
    if ((event.type === 'text' || event.type === 'paste') && props.filter) {
      setQuery(query.current + event.text.replace(/[\r\n]/g, ''));
      setCursor(0);
    }
    return true;
  });

  const start = Math.max(0, Math.min(index - Math.floor(visible / 2), shown.length - visible));
  const window = shown.slice(start, start + visible);
  return (
    <DialogFrame marginTop={1}>
      <Text>
        {style.bold(props.title)}
        {props.filter
          ? style.dim(`  filter: ${query.current === '' ? '(type to filter)' : query.current}`)
          : ''}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {shown.length === 0 ? <Text>{style.dim(props.empty)}</Text> : null}
        {start > 0 ? <Text>{style.dim(`  ↑ ${start} more`)}</Text> : null}
        {window.map((item, i) => (
          <Text key={props.keyOf(item)} wrap="truncate-end">
            {start + i === index ? style.fg('cyan', `❯ ${props.row(item)}`) : `  ${props.row(item)}`}
          </Text>
        ))}
        {start + window.length < shown.length ? (
          <Text>{style.dim(`  ↓ ${shown.length - start - window.length} more`)}</Text>
        ) : null}
      </Box>
      {props.footer ? props.footer(selected) : null}
      <Text>{style.dim(props.hint)}</Text>
    </DialogFrame>
  );
}
