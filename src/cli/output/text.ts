/**
 * `--output-format text`: the final assistant text on stdout; an error result is one stderr line,
 * and so is each refused tool call and a hook's stop, as they happen.
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

export function createTextSink(streams: SinkStreams): OutputSink {
  let result: SDKResultMessage | undefined;
  return {
    write(message) {
      if (message.type === 'result') result = message;
      const notice = stderrNotice(message, { refusals: true });
      if (notice) streams.stderr.write(notice);
    },
    finish() {
      if (!result) streams.stderr.write('yoke: the turn ended without a result.\n');
      else if (isErrorResult(result)) streams.stderr.write(`yoke: ${resultErrorLine(result)}\n`);
      else {
        const text = result.result ?? '';
        streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      }
      return exitCodeFor(result);
    },
  };
}
