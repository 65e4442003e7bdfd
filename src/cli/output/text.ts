/**
 * `--output-format text`: the final assistant text on stdout; an error result is one stderr line,
 * and so is each refused tool call and a hook's stop, as they happen. An interrupted turn (Ctrl-C,
 * a signal) still prints the text the model had written by then.
 */
import type { SDKResultMessage } from '../../engine/sdk-messages';
import {
  exitCodeFor,
  isErrorResult,
  type OutputSink,
  resultErrorLine,
  type SinkStreams,
  stderrNotice,
} from './sink';

const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

function wasInterrupted(result: SDKResultMessage): boolean {
  return result.terminal_reason === 'aborted_streaming' || result.terminal_reason === 'aborted_tools';
}

export function createTextSink(streams: SinkStreams): OutputSink {
  let result: SDKResultMessage | undefined;
  // The last response's text; its blocks arrive as separate frames sharing the message id.
  let lastText = '';
  let lastTextId: string | undefined;
  return {
    write(message) {
      if (message.type === 'result') result = message;
      const notice = stderrNotice(message, { refusals: true });
      if (notice) streams.stderr.write(notice);
      if (message.type !== 'assistant') return;
      const text = message.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      if (!text) return;
      lastText = message.message.id === lastTextId ? lastText + text : text;
      lastTextId = message.message.id;
    },
    finish() {
      if (!result) streams.stderr.write('yoke: the turn ended without a result.\n');
      else if (isErrorResult(result)) {
        if (wasInterrupted(result) && lastText) streams.stdout.write(withNewline(lastText));
        streams.stderr.write(`yoke: ${resultErrorLine(result)}\n`);
      } else streams.stdout.write(withNewline(result.result ?? ''));
      return exitCodeFor(result);
    },
  };
}
