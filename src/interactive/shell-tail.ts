/**
 * The last lines a background task printed, for /tasks: read from the end of its output file (a
 * fixed few KB, however long the file), without consuming what TaskOutput has yet to give the model.
 */
import { open } from 'node:fs/promises';

const TAIL_BYTES = 4096;

/**
 * Up to `count` last non-empty lines of the file, oldest first, from its last `windowBytes`;
 * [] when there are none or the file cannot be read. A line the window cut at its start is marked `…`.
 */
export async function lastOutputLines(
  path: string,
  count: number,
  windowBytes = TAIL_BYTES,
): Promise<string[]> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return [];
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(windowBytes, size);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split(/\r?\n|\r/);
    const out: string[] = [];
    for (let i = lines.length - 1; i >= 0 && out.length < count; i--) {
      const line = (lines[i] as string).trimEnd();
      if (line.trim() === '') continue;
      out.unshift(i === 0 && size > windowBytes ? `…${line.trimStart()}` : line);
    }
    return out;
  } finally {
    await handle.close();
  }
}

/** The last non-empty line of the file, trimmed; '' when there is none or the file cannot be read. */
export async function lastOutputLine(path: string): Promise<string> {
  const [line] = await lastOutputLines(path, 1);
  return line?.trim() ?? '';
}
