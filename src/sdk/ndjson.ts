/**
 * NDJSON framing for the stream-json protocol: one JSON object per line in both directions
 * (agent-sdk-protocol.md §1). Reading never throws on bad input, because one garbled line must
 * not end a session the host is still driving; writing keeps every object on one whole line.
 */
import { StringDecoder } from 'node:string_decoder';
import { isJsonObject, type JsonObject } from '../lib/json-object';

export type { JsonObject };

/** Why a line was skipped, for a readable stderr message. */
export type SkippedLine = { line: string; reason: string };

/**
 * Yields each line's object. Blank lines are skipped silently; a line that is not a JSON object is
 * reported through `onSkip` and skipped. Multi-byte characters split across chunks are kept whole.
 */
export async function* readNdjson(
  input: AsyncIterable<Buffer | string>,
  onSkip: (skipped: SkippedLine) => void,
): AsyncGenerator<JsonObject, void> {
  const decoder = new StringDecoder('utf8');
  let buffered = '';
  for await (const chunk of input) {
    buffered += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const parsed = parseLine(buffered.slice(0, newline), onSkip);
      buffered = buffered.slice(newline + 1);
      if (parsed) yield parsed;
      newline = buffered.indexOf('\n');
    }
  }
  // A last line without its newline still counts: hosts often end with `end(json)`.
  const parsed = parseLine(buffered + decoder.end(), onSkip);
  if (parsed) yield parsed;
}

function parseLine(raw: string, onSkip: (skipped: SkippedLine) => void): JsonObject | undefined {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    onSkip({ line, reason: `not valid JSON (${(error as Error).message})` });
    return undefined;
  }
  if (!isJsonObject(value)) {
    onSkip({ line, reason: 'not a JSON object' });
    return undefined;
  }
  return value;
}

/** The one stderr line for a skipped input line; long lines are cut so the log stays readable. */
export function describeSkippedLine({ line, reason }: SkippedLine): string {
  const shown = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  return `yoke: ignored a stdin line that is ${reason}: ${shown}\n`;
}

/**
 * Writes objects as lines in call order. Each object is one `write` call, so lines never
 * interleave; `flushed()` resolves once everything written so far has left the process.
 */
export class NdjsonWriter {
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly output: NodeJS.WritableStream) {}

  write(message: JsonObject): void {
    const line = `${JSON.stringify(message)}\n`;
    const done = new Promise<void>((resolve) => {
      // A closed stdout (the host went away) must not crash the session; there is no one to tell.
      this.output.write(line, () => resolve());
    });
    this.pending = this.pending.then(() => done);
  }

  flushed(): Promise<void> {
    return this.pending;
  }
}
