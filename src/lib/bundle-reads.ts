/**
 * How lib/cached-script.ts reads a bundle and its code cache: into one buffer the process keeps
 * and reuses, instead of a new buffer per file. A start reads ~4 MB (the app, the REPL's bundle,
 * Ink, a code cache for each); every new buffer is fresh memory, and on a small virtual machine
 * each fresh page costs ~15-20 µs to fault in — ~550 pages of a REPL's launch. The source is also
 * read straight into its CommonJS wrapper (`Module.wrap`'s text), so V8 gets one flat string
 * instead of flattening the joined one (another copy of the whole bundle).
 *
 * The buffer is shared by the entry's copy of this module and the app's (two bundles) through a
 * registered symbol, and only ever holds one file between a read and the synchronous use the
 * caller makes of it: the source is copied into a string at once, and V8 reads the cache only
 * while `new vm.Script` runs.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import Module from 'node:module';

const KEY = Symbol.for('yoke.bundleReadBuffer');

/** Node's CommonJS wrapper around a module's source, split where the source goes. */
const [HEAD, TAIL] = Module.wrap('\u0000').split('\u0000') as [string, string];

function bufferOf(size: number): Buffer {
  const holder = globalThis as Record<symbol, Buffer | undefined>;
  const current = holder[KEY];
  if (current && current.length >= size) return current;
  // A little room, so the next bundle (usually smaller) fits without a new buffer.
  const made = Buffer.allocUnsafeSlow(Math.ceil((size * 1.25) / 65536) * 65536);
  holder[KEY] = made;
  return made;
}

/**
 * Reads `path` into the shared buffer (with `extra` bytes of room), after the bytes `before`
 * writes at its start; returns the buffer and the bytes read. Throws as readFileSync does.
 */
function readInto(
  path: string,
  extra: number,
  before: (buffer: Buffer) => number,
): { buffer: Buffer; size: number } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer = bufferOf(size + extra);
    const offset = before(buffer);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, offset + read, size - read, read);
      if (n === 0) break; // The file shrank while we read: use what is there.
      read += n;
    }
    return { buffer, size: read };
  } finally {
    closeSync(fd);
  }
}

/** `Module.wrap(the file's text)`, the file read as latin1 (bundles are ASCII). */
export function readWrappedSource(path: string): string {
  const head = HEAD.length;
  const { buffer, size } = readInto(path, head + TAIL.length, (into) => into.write(HEAD, 0, 'latin1'));
  buffer.write(TAIL, head + size, 'latin1');
  return buffer.toString('latin1', 0, head + size + TAIL.length);
}

/**
 * The file's bytes, in the shared buffer: valid only until the next read, so for a synchronous use
 * (V8's cache check in `new vm.Script`) and nothing kept.
 */
export function readTransient(path: string): Buffer {
  const { buffer, size } = readInto(path, 0, () => 0);
  return buffer.subarray(0, size);
}
