import { printable } from '../terminal/terminal-text';
import { isPending, type ToolOutcome } from './items';

/**
 * A tool_result's content as text: a string, or the text of its blocks. What a tool read or a
 * program printed is shown with its control characters as pictures, never obeyed (terminal-text.ts).
 */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return printable(content);
  if (!Array.isArray(content)) return '';
  const text = content
    .map((block) =>
      block && typeof block === 'object' && (block as { type?: string }).type === 'text'
        ? String((block as { text?: unknown }).text ?? '')
        : '[image]',
    )
    .join('\n');
  return printable(text);
}

export type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content?: unknown;
  is_error?: boolean;
};

/** What a tool_result says of its call, which was `before` until the result came. */
export function toolOutcome(block: ToolResultBlock, data: unknown, before: ToolOutcome): ToolOutcome {
  const text = resultText(block.content);
  if (!block.is_error) return { status: 'done', text, ...(data !== undefined ? { data } : {}) };
  // A tool that ran hands back its output as data, even when it failed: "Permission denied"
  // printed by a command is that command's failure, not the user's refusal.
  const ran = typeof data === 'object' && data !== null;
  return !ran && /permission|denied|rejected/i.test(text) && isPending(before)
    ? { status: 'denied', text }
    : { status: 'error', text };
}
