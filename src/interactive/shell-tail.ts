/**
 * The last line a background shell printed, for /tasks and the UI's task list: read from the end
 * of its output file (a fixed few KB, however long the file), without consuming what TaskOutput
 * has yet to give the model.
 */
import { open } from 'node:fs/promises';

const TAIL_BYTES = 4096;

/** The last non-empty line of the file, '' when there is none or the file cannot be read. */
export async function lastOutputLine(path: string): Promise<string> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(TAIL_BYTES, size);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split(/\r?\n|\r/);
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = (lines[i] as string).trim();
      if (line === '') continue;
      // The first piece may be the end of a line the window cut: marked as such.
      return i === 0 && size > TAIL_BYTES ? `…${line}` : line;
    }
    return '';
  } finally {
    await handle.close();
  }
}
