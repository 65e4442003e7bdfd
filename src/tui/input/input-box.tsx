/**
 * The input box: the text with its cursor, in rounded borders. A prompt taller than a third of the
 * terminal shows a window of its rows that always holds the cursor and follows it (Up/Down,
 * Home/End, word moves, typing), with a line above and below that says how much is out of view:
 * the box never grows taller than the screen, where the frame would scroll and the cursor vanish.
 */
import { Box, Text } from 'ink';
import { useRef } from 'react';
import { useStyle } from '../views/style-context';
import { useTerminalSize } from '../views/use-terminal-size';
import { nextBoundary } from './graphemes';
import { cursorRow, type InputRow, inputRows, windowTop } from './input-rows';

/** Border and padding on each side, the mode symbol and its space, and a column for the cursor. */
const CHROME_COLUMNS = 2 + 2 + 2 + 1;

/** The columns the text has in a box as wide as the terminal. */
export const textColumns = (columns: number) => columns - CHROME_COLUMNS;

const more = (count: number, where: string) => `${count} more ${count === 1 ? 'row' : 'rows'} ${where}`;

export function InputBox({ text, cursor, symbol }: { text: string; cursor: number; symbol: string }) {
  const style = useStyle();
  const { columns, rows: screenRows } = useTerminalSize();
  const top = useRef(0);
  const rows = inputRows(text, textColumns(columns));
  const at = cursorRow(rows, cursor);
  const budget = Math.max(3, Math.floor(screenRows / 3));
  const windowed = rows.length > budget;
  // A window keeps its height as the cursor moves: the two hint rows stay, empty or not.
  const size = windowed ? budget - 2 : rows.length;
  top.current = windowed ? windowTop(top.current, at, size, rows.length) : 0;
  const shown = rows.slice(top.current, top.current + size);
  const below = rows.length - top.current - size;

  const drawRow = (row: InputRow, index: number) => {
    const line = text.slice(row.start, row.end);
    const lead = row.start === 0 ? symbol : ' ';
    if (top.current + index !== at) return `${lead} ${line}`;
    const offset = cursor - row.start;
    // The character under the cursor, whole: half an emoji in reverse video would show as garbage.
    const atEnd = Math.min(nextBoundary(text, cursor), row.end);
    const under = text.slice(cursor, atEnd);
    const before = line.slice(0, offset);
    const after = line.slice(atEnd - row.start);
    if (!(style.color || style.bold('x') !== 'x')) return `${lead} ${before}|${under}${after}`;
    const mark = under === '' ? '\x1b[7m \x1b[27m' : `\x1b[7m${under}\x1b[27m`;
    return `${lead} ${before}${mark}${after}`;
  };

  return (
    <Box
      borderStyle="round"
      borderColor={style.color ? 'gray' : undefined}
      paddingX={1}
      flexDirection="column"
    >
      {windowed ? (
        <Text>{top.current > 0 ? style.dim(`  ↑ ${more(top.current, 'above')}`) : ' '}</Text>
      ) : null}
      {shown.map((row, index) => (
        <Text key={row.start}>{drawRow(row, index)}</Text>
      ))}
      {windowed ? <Text>{below > 0 ? style.dim(`  ↓ ${more(below, 'below')}`) : ' '}</Text> : null}
    </Box>
  );
}
