/**
 * What a live tool pool (MCP servers) tells the model at the start of a turn: its notices, once
 * each time they change, and the context a prompt's mentions bring. Kept per engine, so a second
 * session in the process has its own record of what its model was told.
 */
import type { UserContentBlock } from '../model/types';
import type { LiveToolPool } from './query-engine-config';

export class LivePoolMessages {
  /** The notices the model last read ('' when none). */
  private told = '';

  constructor(private readonly live: LiveToolPool) {}

  /** The notices as one text when they differ from what the model last read; else nothing. */
  changedNotices(): string[] {
    const text = this.live.notices().join('\n');
    if (text === this.told) return [];
    this.told = text;
    // Said once when the last problem is gone, so the model stops avoiding those tools.
    return [text === '' ? 'Every MCP server the model was told about is connected now.' : text];
  }

  promptContext(prompt: string | UserContentBlock[], signal: AbortSignal): Promise<string[]> {
    const text =
      typeof prompt === 'string'
        ? prompt
        : prompt.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    return this.live.promptContext(text, signal);
  }
}
