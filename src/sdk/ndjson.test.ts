import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeSkippedLine, NdjsonWriter, readNdjson, type SkippedLine } from './ndjson';

async function readAll(chunks: (string | Buffer)[]) {
  const skipped: SkippedLine[] = [];
  const values: unknown[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const value of readNdjson(source(), (s) => skipped.push(s))) values.push(value);
  return { values, skipped };
}

describe('readNdjson', () => {
  it('reassembles objects split across chunks, including a multi-byte character', async () => {
    const line = Buffer.from('{"type":"user","text":"héllo €"}\n');
    const cut = line.indexOf(0xe2) + 1; // inside the three bytes of "€"
    const { values } = await readAll([line.subarray(0, 5), line.subarray(5, cut), line.subarray(cut)]);
    expect(values).toEqual([{ type: 'user', text: 'héllo €' }]);
  });

  it('skips blank lines silently, accepts CRLF and a last line without newline', async () => {
    const { values, skipped } = await readAll(['\n  \n{"a":1}\r\n\n{"b":2}']);
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(skipped).toEqual([]);
  });

  it('reports malformed lines and non-objects, and keeps reading', async () => {
    const { values, skipped } = await readAll(['{oops\n[1,2]\n"text"\n{"ok":true}\n']);
    expect(values).toEqual([{ ok: true }]);
    expect(skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^not valid JSON/),
      'not a JSON object',
      'not a JSON object',
    ]);
    expect(describeSkippedLine(skipped[0] as SkippedLine)).toMatch(
      /^yoke: ignored a stdin line that is not valid JSON.*: \{oops\n$/,
    );
  });
});

describe('NdjsonWriter', () => {
  it('writes one line per object, in order, and reports when flushed', async () => {
    let text = '';
    const sink = new Writable({
      highWaterMark: 1,
      write(chunk, _encoding, done) {
        text += String(chunk);
        setTimeout(done, 1);
      },
    });
    const writer = new NdjsonWriter(sink);
    for (let i = 0; i < 20; i++) writer.write({ i, text: 'line\nbreak' });
    await writer.flushed();
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    expect(lines.map((l) => JSON.parse(l).i)).toEqual([...Array(20).keys()]);
  });

  it('does not throw when the stream is already closed', async () => {
    const stream = new PassThrough();
    stream.on('error', () => {});
    stream.destroy();
    const writer = new NdjsonWriter(stream);
    writer.write({ late: true });
    await expect(writer.flushed()).resolves.toBeUndefined();
  });
});
