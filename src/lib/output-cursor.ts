/**
 * Reads a growing output file piece by piece: each `readNew()` returns what was appended since the
 * previous call (everything on the first), decoding UTF-8 across the cut. Background shells and
 * background agents page through their output files with it.
 */
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

export class OutputCursor {
  private offset = 0;
  private readonly decoder = new StringDecoder('utf8');

  constructor(readonly path: string) {}

  async readNew(): Promise<string> {
    const handle = await open(this.path, 'r');
    try {
      const { size } = await handle.stat();
      if (size <= this.offset) return '';
      const buffer = Buffer.alloc(size - this.offset);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, this.offset);
      this.offset += bytesRead;
      return this.decoder.write(buffer.subarray(0, bytesRead));
    } finally {
      await handle.close();
    }
  }
}
