/**
 * An output sink renders one headless run's SDK messages in the chosen `--output-format` and
 * decides the exit code: 0 when the last result succeeded, 1 otherwise (as the real CLI does).
 */
import type { SDKMessage, SDKResultMessage } from '../../engine/sdk-messages';
import type { OutputFormat } from '../cli-options';

export type Writable = { write(text: string): unknown };

export type OutputSink = {
  write(message: SDKMessage): void;
  /** Writes whatever is written at the end and returns the exit code. */
  finish(): number;
};

export type SinkStreams = { stdout: Writable; stderr: Writable };

export function isErrorResult(result: SDKResultMessage): boolean {
  return result.is_error || result.subtype !== 'success';
}

export function exitCodeFor(result: SDKResultMessage | undefined): number {
  return result === undefined || isErrorResult(result) ? 1 : 0;
}

/** The one line an error result is reported with. */
export function resultErrorLine(result: SDKResultMessage): string {
  const errors = 'errors' in result ? result.errors : [];
  return errors.join('; ') || result.result || `the turn ended with ${result.subtype}`;
}

/**
 * A frame a person running `yoke -p` should see as it happens, as one stderr line: a refused tool
 * call (its message names the rule that would allow it) and a hook's `continue: false` stop.
 * The machine-readable formats carry both in their own frames and fields.
 */
export function stderrNotice(message: SDKMessage, { refusals }: { refusals: boolean }): string | undefined {
  if (message.type !== 'system') return undefined;
  if (message.subtype === 'permission_denied' && refusals) return `yoke: ${String(message.message)}\n`;
  if (message.subtype === 'informational' && message.tag === 'hook_stopped') {
    return `yoke: a hook stopped the turn: ${String(message.content)}\n`;
  }
  return undefined;
}

export async function createOutputSink(
  format: OutputFormat,
  verbose: boolean,
  streams: SinkStreams,
): Promise<OutputSink> {
  switch (format) {
    case 'text':
      return (await import('./text')).createTextSink(streams);
    case 'json':
      return (await import('./json')).createJsonSink(streams, verbose);
    case 'stream-json':
      return (await import('./stream-json')).createStreamJsonSink(streams);
  }
}
