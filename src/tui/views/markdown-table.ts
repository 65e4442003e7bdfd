/**
 * Markdown tables (GitHub's pipe tables) as terminal text: columns lined up in a box, each cell
 * aligned as the delimiter row says. Widths are terminal columns, so a CJK word or an emoji
 * (two columns each) does not push its row's borders out of line. A table wider than the room it
 * has would be wrapped by the terminal into a tangle of borders; it is shown as one block per
 * row instead, each cell under its column's name.
 */
import { type Style, stripAnsi } from './ansi';
import { displayWidth } from './display-width';

type Align = 'left' | 'right' | 'center';

const DELIMITER_CELL = /^:?-+:?$/;

/** Splits `| a | b \| c |` into its cells (an escaped pipe stays in its cell). */
export function tableCells(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  return body.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Whether `header` and `delimiter` open a table (same column count, a dashes row). */
export function isTableStart(header: string, delimiter: string | undefined): boolean {
  if (delimiter === undefined || !header.includes('|') || !delimiter.includes('-')) return false;
  const cells = tableCells(delimiter);
  return cells.every((cell) => DELIMITER_CELL.test(cell)) && cells.length === tableCells(header).length;
}

/** Whether a line continues a table: any non-blank line with a pipe. */
export function isTableRow(line: string): boolean {
  return line.trim() !== '' && line.includes('|');
}

function alignOf(cell: string): Align {
  if (cell.startsWith(':') && cell.endsWith(':')) return 'center';
  return cell.endsWith(':') ? 'right' : 'left';
}

function pad(text: string, width: number, align: Align): string {
  const room = Math.max(0, width - displayWidth(stripAnsi(text)));
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
  return text + ' '.repeat(room);
}

/**
 * `lines`: the header, the delimiter row and the body rows. `inline` styles a cell's text;
 * `maxWidth` is the columns the table may take (none: as wide as it needs).
 */
export function renderTable(
  lines: readonly string[],
  style: Style,
  inline: (text: string) => string,
  maxWidth?: number,
): string[] {
  const header = tableCells(lines[0] as string);
  const aligns = tableCells(lines[1] as string).map(alignOf);
  const columns = header.length;
  const rows = lines.slice(2).map((line) => {
    const cells = tableCells(line).slice(0, columns);
    while (cells.length < columns) cells.push('');
    return cells.map(inline);
  });
  const head = header.map((cell) => style.bold(inline(cell)));
  const widths = head.map((_, column) =>
    Math.max(...[head, ...rows].map((row) => displayWidth(stripAnsi(row[column] as string)))),
  );
  const total = widths.reduce((sum, width) => sum + width + 3, 1);
  if (maxWidth !== undefined && total > maxWidth) return stacked(head, rows);
  const rule = (left: string, middle: string, right: string) =>
    style.dim(left + widths.map((width) => '─'.repeat(width + 2)).join(middle) + right);
  const line = (cells: readonly string[], align: (column: number) => Align) =>
    `${style.dim('│')} ${cells.map((cell, i) => pad(cell, widths[i] as number, align(i))).join(` ${style.dim('│')} `)} ${style.dim('│')}`;
  return [
    rule('┌', '┬', '┐'),
    line(head, () => 'left'),
    rule('├', '┼', '┤'),
    ...rows.map((row) => line(row, (i) => aligns[i] ?? 'left')),
    rule('└', '┴', '┘'),
  ];
}

/** One block per row: `Name: value` for each cell, a blank line between rows. */
function stacked(head: readonly string[], rows: readonly string[][]): string[] {
  return rows.flatMap((row, index) => [
    ...(index > 0 ? [''] : []),
    ...row.map((cell, column) => `${head[column]}: ${cell}`),
  ]);
}
