/**
 * Read with the media libraries it uses when installed (they are dependencies of Yoke):
 * pdf-lib for page ranges and sharp for shrinking images past the API's limits.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { callTool, makeTempDir, makeTestContext } from '../shared/test-context';
import { TARGET_LONG_EDGE } from './image';
import { readTool } from './index';

async function realPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`page ${i + 1}`, { x: 20, y: 100 });
  return doc.save();
}

type Block = { type: string; source?: { data: string; media_type: string } };
const blocks = (content: unknown) => content as Block[];

describe('Read with pdf-lib and sharp', () => {
  it('sends only the requested pages of a PDF', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'book.pdf'), await realPdf(30));
    const result = await callTool(
      readTool,
      { file_path: join(dir, 'book.pdf'), pages: '3-5' },
      makeTestContext({ cwd: dir }),
    );
    const doc = blocks(result.content ?? readTool.mapResultToContent(result.data as never)).find(
      (b) => b.type === 'document',
    );
    expect(doc?.source?.media_type).toBe('application/pdf');
    const sent = await PDFDocument.load(Buffer.from(doc?.source?.data ?? '', 'base64'));
    expect(sent.getPageCount()).toBe(3);
  });

  it('shrinks a large image to the long-edge target', async () => {
    const dir = await makeTempDir();
    const big = await sharp({ create: { width: 4000, height: 2000, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    await writeFile(join(dir, 'wide.png'), big);
    const result = await callTool(
      readTool,
      { file_path: join(dir, 'wide.png') },
      makeTestContext({ cwd: dir }),
    );
    const image = blocks(result.content ?? readTool.mapResultToContent(result.data as never)).find(
      (b) => b.type === 'image',
    );
    const meta = await sharp(Buffer.from(image?.source?.data ?? '', 'base64')).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(TARGET_LONG_EDGE);
    expect((meta.width ?? 0) / (meta.height ?? 1)).toBeCloseTo(2, 1);
  });
});
