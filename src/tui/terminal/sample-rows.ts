/**
 * Rows a terminal frame holds, and random rows made of their pieces, for the tests that compare
 * Yoke's edits of Ink's text packages with the packages themselves.
 */
export const SAMPLE_ROWS: readonly string[] = [
  '',
  'plain ascii row',
  '\x1b[1mbold\x1b[22m and \x1b[38;5;208morange\x1b[39m',
  '\x1b[48;2;10;20;30mtruecolor\x1b[0m',
  '\x1b]8;;https://example.com\x07link\x1b]8;;\x07',
  '╭──────╮ │ > │ ╰──────╯ ⠋ Thinking… · default mode · $0.0000',
  'café naïve ÀÉÎ Ωμέγα Привет → ← • — “quotes”',
  'line\r\nnext',
  'cr\ralone',
  'tab\there',
  'e\u0301 combining',
  '界 漢字 wide',
  '🙂 👨‍👩‍👧 👍🏽 ❤️ 🇩🇪 1️⃣',
  'Ωmega\u0308 then ascii',
  '\x07\x1b[?25l\x1b[2K',
];

/** The pieces random rows are made of: the sample rows and single characters and escapes. */
export const ROW_PIECES: readonly string[] = [
  ...SAMPLE_ROWS.slice(1),
  'a',
  ' ',
  '─',
  '│',
  'é',
  '\u0301',
  '\u200d',
  '\ufe0f',
  '\r',
  '\n',
  '\x1b[',
  'm',
  ';',
];

/** A row of up to `maxPieces` pieces, the same for the same seed. */
export function seededRow(seed: number, pieces: readonly string[] = ROW_PIECES, maxPieces = 12): string {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  return Array.from({ length: next() % maxPieces }, () => pieces[next() % pieces.length]).join('');
}
