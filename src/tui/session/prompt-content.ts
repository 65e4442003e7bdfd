/** A prompt as the engine takes it: its text, and the files its mentions attached after it. */
import type { UserContentBlock } from '../../model/types';

/** A prompt's own text: the string, or the first block when files follow it. */
export function promptText(content: string | readonly { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  const first = content[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** The prompt, followed by the files its mentions attached (as a typed prompt is sent). */
export function withBlocks(text: string, blocks: readonly UserContentBlock[]): string | UserContentBlock[] {
  return blocks.length > 0 ? [{ type: 'text', text }, ...blocks] : text;
}
