/**
 * string-width for Yoke's Ink seams (widest-line.ts, row-output.ts): the same answers, without
 * segmenting graphemes when the text, less its colour codes, is made of single-width characters
 * (single-width.ts) — the input box's border, the status line, dashes and arrows in an answer.
 * string-width's own shortcut covers printable ASCII only, so every such row went through the
 * segmenter, and the first one paid for loading it while the REPL launched.
 */
import stringWidth from 'string-width';
import { simpleWidth } from './single-width';

/** Colour and attribute codes (SGR), which take no columns; any other escape gets the full measure. */
const SGR = /\u001b\[[0-9;]*m/g;

export default function fastStringWidth(text: string, options?: Parameters<typeof stringWidth>[1]): number {
  if (options === undefined) {
    const visible = text.includes('\u001b') ? text.replace(SGR, '') : text;
    const width = simpleWidth(visible);
    if (width !== undefined) return width;
  }
  return stringWidth(text, options);
}
