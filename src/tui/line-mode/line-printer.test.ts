/** The line mode's output from a scripted turn: plain lines, streamed text printed once. */
import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '../../engine/sdk-messages';
import { createUserMessage } from '../../session/messages';
import { assistantFrame, resultFrame, streamFrame, toolResultFrame } from '../session/scripted-engine';
import { TranscriptStore } from '../transcript/transcript-store';
import { LinePrinter } from './line-printer';

/** A printer of `store`'s items, and what it has written so far. */
function printerOf(store: TranscriptStore): { printer: LinePrinter; output: () => string } {
  let out = '';
  const printer = new LinePrinter(
    store,
    () => '/p',
    (text) => {
      out += text;
    },
  );
  return { printer, output: () => out };
}

function play(messages: SDKMessage[]): string {
  const store = new TranscriptStore();
  const { printer, output } = printerOf(store);
  store.user('tidy up');
  store.turnStarted();
  for (const message of messages) {
    printer.onMessage(message);
    store.apply(message);
  }
  store.turnEnded();
  printer.flush();
  // What the prompt does before it prints itself.
  printer.endLine();
  printer.dispose();
  return output();
}

const delta = (text: string) =>
  streamFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

describe('LinePrinter', () => {
  it('appends streamed text as it comes and does not print the settled answer again', () => {
    const answer = '## Plan\n\nFirst I look.\n\nThen I **change** it.';
    const out = play([
      streamFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      delta('## Plan\n\nFirst I'),
      delta(' look.\n\nThen I **change** it.'),
      assistantFrame([{ type: 'text', text: answer }]),
      resultFrame(),
    ]);
    expect(out).toBe('\n  ## Plan\n  \n  First I look.\n  \n  Then I **change** it.\n');
    expect(out).not.toContain('\x1b');
  });

  it('prints a tool call as one line with its result, and an answer that was not streamed', () => {
    const out = play([
      assistantFrame([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls src' } }]),
      toolResultFrame('t1', 'a.ts\nb.ts'),
      assistantFrame([{ type: 'text', text: 'Two files.' }]),
      resultFrame(),
    ]);
    expect(out).toBe('\n* Bash(ls src)\n  -> exit 0\n    a.ts\n    b.ts\n\n  Two files.\n');
  });

  it("prints a resumed conversation's prompts, which no terminal echoed in this run", () => {
    const store = new TranscriptStore();
    const { printer, output } = printerOf(store);
    store.showPast([createUserMessage('what changed?')]);
    store.user('typed just now');
    printer.flush();
    printer.dispose();
    expect(output()).toBe('\n> what changed?\n');
  });
});
