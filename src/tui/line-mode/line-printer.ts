/**
 * The line mode's output (TERM=dumb and terminals without ANSI): every transcript item printed
 * once, in order, as plain lines, and the model's text appended as it streams — no cursor
 * movement, no escape sequences, nothing redrawn. Finished items come from the transcript store;
 * the streamed text comes from the turn's messages, and the answer blocks the store settles from
 * that same text are not printed a second time.
 */
import type { SDKMessage } from '../../engine/sdk-messages';
import { printable } from '../terminal/terminal-text';
import type { TranscriptItem } from '../transcript/items';
import type { TranscriptStore } from '../transcript/transcript-store';
import { plainStyle } from '../views/ansi';
import { toolInputSummary, toolResultSummary } from '../views/tool-summary';

const indent = (text: string, by = '  ') =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `${by}${line}`))
    .join('\n');

/** One finished item as plain text (no styles), or '' for nothing to print. */
export function lineText(item: TranscriptItem, cwd: string): string {
  switch (item.kind) {
    case 'user':
      return `> ${item.text}`;
    case 'assistant':
      return indent(item.text.replace(/\n+$/, ''));
    case 'thinking': {
      const first = item.text.trim().split('\n')[0] ?? '';
      return `  Thinking: ${first.length > 70 ? `${first.slice(0, 69)}…` : first}`;
    }
    case 'tool': {
      const summary = toolInputSummary(item.name, item.input, cwd);
      const result = toolResultSummary(item, plainStyle, false);
      const detail = result.detail.length > 0 ? `\n${indent(result.detail.join('\n'), '    ')}` : '';
      return `* ${item.name}${summary ? `(${summary})` : ''}\n  -> ${result.headline}${detail}`;
    }
    case 'shell': {
      const status = item.exitCode === 0 ? '' : ` (exit ${item.exitCode ?? 'killed'})`;
      const output = item.output.replace(/\n+$/, '');
      return `! ${item.command}${status}${output ? `\n${indent(output)}` : ''}`;
    }
    case 'notice':
      return item.level === 'info' ? item.text : `${item.level}: ${item.text}`;
    case 'command-output':
      return indent(item.text);
    case 'turn-end':
      return `  -> ${item.text}`;
  }
}

export class LinePrinter {
  private printed = 0;
  /** Text streamed to the terminal that the store has not settled into answer items yet. */
  private streamed = '';
  /** Whether the terminal's cursor is at the end of a streamed line (a newline is owed). */
  private midLine = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: TranscriptStore,
    private readonly cwd: () => string,
    private readonly write: (text: string) => void,
  ) {
    this.unsubscribe = store.subscribe(() => this.flush());
    this.flush();
  }

  /** A message of the running turn: the main thread's text deltas are written as they come. */
  onMessage(message: SDKMessage): void {
    if (message.type !== 'stream_event' || message.parent_tool_use_id !== null) return;
    const event = message.event as { type?: string; delta?: { type?: string; text?: string } };
    if (event.type !== 'content_block_delta' || event.delta?.type !== 'text_delta') return;
    // The model's text: its control characters are shown, never obeyed (terminal-text.ts).
    const text = printable(event.delta.text ?? '');
    if (text === '') return;
    if (!this.midLine) this.write(this.streamed === '' ? '\n  ' : '  ');
    this.write(text.replace(/\n(?!$)/g, '\n  '));
    this.midLine = !text.endsWith('\n');
    this.streamed += text;
  }

  /** Prints the items that finished since the last call. */
  flush(): void {
    const { committed } = this.store.getSnapshot();
    for (; this.printed < committed.length; this.printed++) {
      const item = committed[this.printed] as TranscriptItem;
      if (item.kind === 'assistant' && this.alreadyStreamed(printable(item.text))) continue;
      // The terminal echoed what the user typed, in its own line editing.
      if (item.kind === 'user' && !item.past) continue;
      this.endLine();
      const text = lineText(item, this.cwd());
      if (text !== '') this.write(`\n${printable(text)}\n`);
    }
  }

  /** Ends a streamed line before anything else is printed. */
  endLine(): void {
    if (this.midLine) this.write('\n');
    this.midLine = false;
  }

  dispose(): void {
    this.unsubscribe();
  }

  private alreadyStreamed(text: string): boolean {
    const rest = this.streamed.replace(/^\n+/, '');
    const block = text.replace(/^\n+/, '');
    if (block === '' || !rest.startsWith(block)) return false;
    this.streamed = rest.slice(block.length);
    return true;
  }
}
