/**
 * Markdown as terminal text: headings, lists, quotes, rules, tables, code blocks (highlighted, in
 * a gutter) and the inline styles. Line-oriented, so a half-streamed answer renders as well as a
 * finished one; what it does not know it shows verbatim, never dropped.
 */

import { printable } from '../terminal/terminal-text';
import type { Style } from './ansi';
import { highlightLine } from './highlight';
import { isTableRow, isTableStart, renderTable } from './markdown-table';
import { wrapText } from './wrap-rows';

function inline(text: string, style: Style): string {
  // Code spans first, so the emphasis rules do not reach into them.
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part, i) => {
      if (i % 2 === 1) return style.fg('cyan', part.slice(1, -1));
      return part
        .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_m, a, b) => style.bold(a ?? b))
        .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, (_m, pre, body) => pre + style.italic(body))
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label, url) => `${label} ${style.dim(`(${url})`)}`);
    })
    .join('');
}

/**
 * A block of an answer, settled or still streaming: a final newline ends its last line rather than
 * starting an empty one, so a block cut after its blank line renders as exactly the rows it had
 * while it streamed. Given a width, the rows come wrapped to it (see wrap-rows.ts for why Ink's
 * own wrapping is not used).
 */
export function renderAnswerBlock(text: string, style: Style, width?: number): string {
  const rendered = renderMarkdown(text.endsWith('\n') ? text.slice(0, -1) : text, style, width);
  return width ? wrapText(rendered, width) : rendered;
}

/** `width`: the columns the text may take (a table wider than that is laid out another way). */
export function renderMarkdown(text: string, style: Style, width?: number): string {
  const out: string[] = [];
  let fence: { marker: string; tag: string } | undefined;
  // The model's text: its control characters are shown, never obeyed (terminal-text.ts).
  const lines = printable(text).split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const fenceMatch = /^\s{0,3}(```+|~~~+)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      if (fenceMatch?.[1]?.startsWith(fence.marker)) {
        fence = undefined;
        continue;
      }
      out.push(`${style.dim('│')} ${highlightLine(line, fence.tag, style)}`);
      continue;
    }
    if (fenceMatch) {
      fence = { marker: fenceMatch[1] as string, tag: fenceMatch[2] ?? '' };
      if (fence.tag) out.push(style.dim(`╭ ${fence.tag}`));
      continue;
    }
    if (isTableStart(line, lines[index + 1])) {
      let end = index + 2;
      while (end < lines.length && isTableRow(lines[end] as string)) end++;
      out.push(...renderTable(lines.slice(index, end), style, (cell) => inline(cell, style), width));
      index = end - 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const body = inline(heading[2] as string, style);
      out.push(heading[1] === '#' ? style.bold(style.underline(body)) : style.bold(body));
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push(style.dim('─'.repeat(40)));
      continue;
    }
    const bullet = /^(\s*)[-*+]\s+(\[[ xX]\]\s+)?(.*)$/.exec(line);
    if (bullet) {
      const box = bullet[2] ? (bullet[2].includes(' ]') ? '☐ ' : '☒ ') : '';
      out.push(`${bullet[1]}• ${box}${inline(bullet[3] as string, style)}`);
      continue;
    }
    const numbered = /^(\s*)(\d+)[.)]\s+(.*)$/.exec(line);
    if (numbered) {
      out.push(`${numbered[1]}${numbered[2]}. ${inline(numbered[3] as string, style)}`);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      out.push(`${style.dim('▎')} ${style.italic(inline(quote[1] as string, style))}`);
      continue;
    }
    out.push(inline(line, style));
  }
  return out.join('\n');
}
