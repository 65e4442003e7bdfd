/**
 * `--output-format stream-json`: one JSON object per line, written as each message arrives.
 * stdout carries these lines and nothing else.
 */
import type { SDKResultMessage } from '../../engine/sdk-messages';
import { exitCodeFor, type OutputSink, type SinkStreams, type Writable } from './sink';

/** Writes one protocol line. JSON.stringify leaves U+2028/U+2029 raw; some line readers split on them. */
export function writeJsonLine(stream: Writable, value: unknown): void {
  stream.write(
    `${JSON.stringify(value)
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')}\n`,
  );
}

export function createStreamJsonSink(streams: SinkStreams): OutputSink {
  let result: SDKResultMessage | undefined;
  return {
    write(message) {
      if (message.type === 'result') result = message;
      writeJsonLine(streams.stdout, message);
    },
    finish() {
      if (!result) streams.stderr.write('yoke: the turn ended without a result.\n');
      return exitCodeFor(result);
    },
  };
}
