/**
 * Splits decoded text, fed piece by piece, into lines and keeps only a window of them: the page
 * Read shows. Lines before and after the page are only counted, and a page line keeps at most
 * MAX_LINE_CHARS characters however long it is, so memory stays bounded by the page, not the file.
 *
 * Line breaks follow the file's first break: `\n` (a `\r` before it is dropped) for LF and CRLF
 * files; `\r`, `\r\n` or `\n` for a file whose first break is a lone `\r` (old Mac style).
 */
import { type LineEnding, wellFormed } from '../shared/text-format';
import { MAX_LINE_CHARS } from './text-view';

export type WindowSpec = {
  /** 1-based number of the first line to keep. */
  startLine: number;
  limit: number;
  /** Budget for the numbered output (`N<TAB>line` plus a newline per line). */
  maxChars: number;
};

export class LineWindow {
  lineEnding: LineEnding | undefined;
  /** The kept lines, each already cut to MAX_LINE_CHARS with a note. */
  readonly lines: string[] = [];
  cutLongLines = 0;
  truncatedByTokenCap = false;
  /** Every line of the page has been seen (or the budget is spent). */
  pageDone = false;

  private readonly first: number;
  private readonly end: number;
  private chars = 0;
  /** 0-based index of the line in progress; after `finish`, the number of lines. */
  private index = 0;
  /** The first characters of the line in progress, when it is on the page. */
  private kept = '';
  /** Characters of the line in progress so far. */
  private length = 0;
  private lastWasCR = false;
  /** While the style is unknown, a trailing `\r` waits to see whether `\n` follows. */
  private heldCR = false;
  /** CR style: the previous piece ended in a `\r` break, so a leading `\n` is part of it. */
  private breakEndedInCR = false;

  constructor(private readonly spec: WindowSpec) {
    this.first = Math.max(1, spec.startLine) - 1;
    this.end = this.first + spec.limit;
    if (spec.limit <= 0) this.pageDone = true;
  }

  get lineCount(): number {
    return this.index;
  }

  push(piece: string): void {
    let text = piece;
    if (this.lineEnding === undefined) {
      if (this.heldCR) {
        text = `\r${text}`;
        this.heldCR = false;
      }
      const at = text.search(/[\r\n]/);
      if (at < 0 || (text[at] === '\r' && at === text.length - 1)) {
        // No break yet: all of it belongs to the first line, whatever the style turns out to be.
        const content = at < 0 ? text : text.slice(0, at);
        this.heldCR = at >= 0;
        this.feed(content, 'LF');
        return;
      }
      this.lineEnding = text[at] === '\n' ? 'LF' : text[at + 1] === '\n' ? 'CRLF' : 'CR';
    }
    this.feed(text, this.lineEnding);
  }

  /** Ends the input: a last line without a final break still counts. */
  finish(): void {
    if (this.lineEnding === undefined) {
      this.lineEnding = this.heldCR ? 'CR' : 'LF';
      if (this.heldCR) this.endLine(false);
    }
    if (this.length > 0) this.endLine(false);
  }

  private feed(text: string, style: LineEnding): void {
    let pos = 0;
    if (style === 'CR' && this.breakEndedInCR && text.length > 0) {
      if (text[0] === '\n') pos = 1;
      this.breakEndedInCR = false;
    }
    // The next `\r` and `\n` positions, found once each and reused (no quadratic rescans).
    let nextCR = style === 'CR' ? text.indexOf('\r', pos) : -1;
    let nextLF = text.indexOf('\n', pos);
    while (pos < text.length) {
      if (nextCR >= 0 && nextCR < pos) nextCR = text.indexOf('\r', pos);
      if (nextLF >= 0 && nextLF < pos) nextLF = text.indexOf('\n', pos);
      const brk = nextCR < 0 ? nextLF : nextLF < 0 ? nextCR : Math.min(nextCR, nextLF);
      if (brk < 0) {
        this.append(text, pos, text.length);
        return;
      }
      this.append(text, pos, brk);
      this.endLine(style !== 'CR');
      pos = brk + 1;
      if (text[brk] === '\r') {
        if (pos === text.length) this.breakEndedInCR = true;
        else if (text[pos] === '\n') pos++;
      }
    }
  }

  private onPage(): boolean {
    return !this.pageDone && this.index >= this.first && this.index < this.end;
  }

  private append(text: string, from: number, to: number): void {
    if (to <= from) return;
    this.length += to - from;
    this.lastWasCR = text.charCodeAt(to - 1) === 13;
    if (this.onPage() && this.kept.length <= MAX_LINE_CHARS) {
      this.kept += text.slice(from, Math.min(to, from + MAX_LINE_CHARS + 1 - this.kept.length));
    }
  }

  /** `byNewline`: the line ended at a `\n`, so a `\r` just before it is part of the break. */
  private endLine(byNewline: boolean): void {
    if (this.onPage()) {
      let length = this.length;
      let kept = this.kept;
      if (byNewline && this.lastWasCR) {
        length -= 1;
        if (kept.length > length) kept = kept.slice(0, length);
      }
      const { text, cut } = cutLine(kept, length);
      const entryLength = String(this.index + 1).length + 1 + text.length + 1;
      // Always show at least one line, or the model could never page past a huge one.
      if (this.lines.length > 0 && this.chars + entryLength > this.spec.maxChars) {
        this.truncatedByTokenCap = true;
        this.pageDone = true;
      } else {
        this.lines.push(text);
        this.chars += entryLength;
        if (cut) this.cutLongLines++;
        if (this.index + 1 >= this.end) this.pageDone = true;
      }
    }
    this.index++;
    this.kept = '';
    this.length = 0;
    this.lastWasCR = false;
  }
}

/**
 * A line for display: at most MAX_LINE_CHARS characters (never half a surrogate pair) and a note
 * of how many more there were. `kept` holds the line's first characters, `length` its full size.
 */
export function cutLine(kept: string, length: number): { text: string; cut: boolean } {
  if (length <= MAX_LINE_CHARS) return { text: wellFormed(kept), cut: false };
  let end = MAX_LINE_CHARS;
  const code = kept.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return {
    text: `${wellFormed(kept.slice(0, end))}… [line cut: ${length - end} more characters]`,
    cut: true,
  };
}
