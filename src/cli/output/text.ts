/** `--output-format text`: the final assistant text on stdout; an error result is one stderr line. */
import type { SDKResultMessage } from '../../engine/sdk-messages';
import { exitCodeFor, isErrorResult, type OutputSink, resultErrorLine, type SinkStreams } from './sink';

export function createTextSink(streams: SinkStreams): OutputSink {
  let result: SDKResultMessage | undefined;
  return {
    write(message) {
      if (message.type === 'result') result = message;
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
