/**
 * `--output-format json`: the `result` message as one JSON object on stdout; with `--verbose`, a
 * JSON array of every message of the run. Error results are printed too (exit code 1). A hook's
 * stop reason goes to stderr.
 */
import type { SDKMessage, SDKResultMessage } from '../../engine/sdk-messages';
import { exitCodeFor, type OutputSink, type SinkStreams, stderrNotice } from './sink';

export function createJsonSink(streams: SinkStreams, verbose: boolean): OutputSink {
  const messages: SDKMessage[] = [];
  let result: SDKResultMessage | undefined;
  return {
    write(message) {
      if (verbose) messages.push(message);
      if (message.type === 'result') result = message;
      // Refusals are in the result's permission_denials; a hook's stop reason is nowhere else.
      const notice = stderrNotice(message, { refusals: false });
      if (notice) streams.stderr.write(notice);
    },
    finish() {
      if (verbose) streams.stdout.write(`${JSON.stringify(messages)}\n`);
      else if (result) streams.stdout.write(`${JSON.stringify(result)}\n`);
      else streams.stderr.write('yoke: the turn ended without a result.\n');
      return exitCodeFor(result);
    },
  };
}
