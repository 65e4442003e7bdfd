import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createDebugLog } from '../../cli/debug-log';
import { type CapturedLine, captureStderr } from './stderr-capture';

/** A stand-in for process.stderr: what would have reached the terminal is in `written`. */
function terminalStream() {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  });
  return { stream, written };
}

describe('captureStderr', () => {
  it("turns the session log's warnings and errors into lines for the transcript, and nothing reaches the terminal", () => {
    const { stream, written } = terminalStream();
    const shown: CapturedLine[] = [];
    const release = captureStderr(stream, (line) => shown.push(line));
    // The REPL's engine logs through the CLI's logger, which writes to stderr.
    const log = createDebugLog({ debug: false, stderr: stream });
    log.warn('Background shell bash_1 (dev server) killed.');
    log.error(new Error('the statusLine command failed'));
    stream.write('(node:123) Warning: something from Node\n');
    expect(shown).toEqual([
      { level: 'warning', text: 'Background shell bash_1 (dev server) killed.' },
      { level: 'error', text: 'the statusLine command failed' },
      { level: 'warning', text: '(node:123) Warning: something from Node' },
    ]);
    expect(written).toEqual([]);
    release();
  });

  it('joins a line written in pieces (bytes too), and shows an unfinished one when released', () => {
    const { stream } = terminalStream();
    const shown: string[] = [];
    const release = captureStderr(stream, (line) => shown.push(line.text));
    stream.write('first ');
    const bytes = new TextEncoder().encode('half…\nsecond é');
    stream.write(bytes.slice(0, bytes.length - 1));
    stream.write(bytes.slice(bytes.length - 1));
    expect(shown).toEqual(['first half…']);
    release();
    expect(shown).toEqual(['first half…', 'second é']);
  });

  it("calls a writer's callback, and once released stderr writes to the terminal again", async () => {
    const { stream, written } = terminalStream();
    const release = captureStderr(stream, () => {});
    await new Promise<void>((resolve) => stream.write('waited for\n', () => resolve()));
    release();
    release();
    expect(Object.hasOwn(stream, 'write')).toBe(false);
    stream.write('after\n');
    expect(written).toEqual(['after\n']);
  });
});
