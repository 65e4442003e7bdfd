/**
 * Read with the media libraries it uses when installed (they are dependencies of Yoke):
 * pdf-lib for page ranges and sharp for shrinking images past the API's limits.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { callTool, makeTempDir, makeTestContext, resultText } from '../shared/test-context';
import { TARGET_LONG_EDGE } from './image';
import type { ImageMediaType } from './image-info';
import { findStructuralDamage } from './image-structure';
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

const FORMATS = [
  ['png', 'image/png'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
] as const;

/** A small real image in each format, and copies of it damaged the ways files get damaged. */
async function damagedImages(format: (typeof FORMATS)[number][0]) {
  const base = sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } });
  const good = await base[format]().toBuffer();
  const damaged: Array<[string, Buffer]> = [
    ['cut off at 60%', good.subarray(0, Math.floor(good.length * 0.6))],
    ['cut off after the header', good.subarray(0, 30)],
  ];
  // Overwritten bytes in the middle (GIF's LZW data still decodes to something when garbled).
  if (format !== 'gif') {
    const garbled = Buffer.from(good);
    for (let i = Math.floor(garbled.length / 2); i < garbled.length / 2 + 16; i++) garbled[i]! ^= 0xff;
    damaged.push(['garbled in the middle', garbled]);
  }
  return { good, damaged };
}

describe('damaged images and PDFs', () => {
  for (const [format, mediaType] of FORMATS) {
    it(`refuses a damaged ${format.toUpperCase()} instead of sending it, and still sends a whole one`, async () => {
      const dir = await makeTempDir();
      const context = makeTestContext({ cwd: dir });
      const { good, damaged } = await damagedImages(format);
      await writeFile(join(dir, `good.${format}`), good);
      const sent = await callTool(readTool, { file_path: join(dir, `good.${format}`) }, context);
      expect(blocks(readTool.mapResultToContent(sent.data as never))[0]?.source?.media_type).toBe(mediaType);
      for (const [how, bytes] of damaged) {
        const path = join(dir, `bad.${format}`);
        await writeFile(path, bytes);
        await expect(callTool(readTool, { file_path: path }, context), how).rejects.toThrow(
          new RegExp(
            `bad\\.${format} is not a valid ${format.toUpperCase()} image \\(.+\\); it is damaged or incomplete, so it was not sent\\.`,
          ),
        );
      }
    });

    it(`finds the same ${format.toUpperCase()} damage by structure alone, for when sharp is missing`, async () => {
      const { good, damaged } = await damagedImages(format);
      expect(findStructuralDamage(good, mediaType as ImageMediaType)).toBeUndefined();
      for (const [how, bytes] of damaged) {
        // Only PNG checksums its data; garbled JPEG/WebP data takes a decoder to notice.
        if (format !== 'png' && how === 'garbled in the middle') continue;
        expect(findStructuralDamage(bytes, mediaType as ImageMediaType), how).toEqual(expect.any(String));
      }
    });
  }

  it('shows a notebook whose image output is damaged, with a note in place of the image', async () => {
    const dir = await makeTempDir();
    const { good, damaged } = await damagedImages('png');
    const output = (png: Buffer) => ({
      output_type: 'display_data',
      data: { 'image/png': png.toString('base64') },
    });
    const notebook = {
      cells: [
        {
          cell_type: 'code',
          metadata: {},
          source: 'plot()',
          outputs: [output(good), output(damaged[0]![1])],
        },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(join(dir, 'n.ipynb'), JSON.stringify(notebook));
    const result = await callTool(
      readTool,
      { file_path: join(dir, 'n.ipynb') },
      makeTestContext({ cwd: dir }),
    );
    const content = blocks(readTool.mapResultToContent(result.data as never));
    expect(content.filter((b) => b.type === 'image')).toHaveLength(1);
    expect(resultText(readTool, result)).toMatch(/\[an image output is not shown: .+\]/);
  });

  it('refuses a damaged or fake PDF with a clear error, with and without pages', async () => {
    const dir = await makeTempDir();
    const context = makeTestContext({ cwd: dir });
    const whole = Buffer.from(await realPdf(3));
    const cases: Array<[string, Buffer, RegExp]> = [
      [
        'cut.pdf',
        whole.subarray(0, Math.floor(whole.length / 2)),
        /could not be opened as a PDF \(pdf-lib: .+\)/,
      ],
      ['junk.pdf', Buffer.from('%PDF-1.7\n%%EOF\n'), /could not be opened as a PDF/],
      [
        'text.pdf',
        Buffer.from('just some text\n'),
        /could not be opened as a PDF \(there is no %PDF- header\)/,
      ],
    ];
    for (const [name, bytes, message] of cases) {
      await writeFile(join(dir, name), bytes);
      for (const pages of [undefined, '1-2']) {
        const input = pages ? { file_path: join(dir, name), pages } : { file_path: join(dir, name) };
        await expect(callTool(readTool, input, context), `${name} ${pages}`).rejects.toThrow(message);
      }
    }
    await writeFile(join(dir, 'whole.pdf'), whole);
    const ok = await callTool(readTool, { file_path: join(dir, 'whole.pdf'), pages: '2' }, context);
    expect(resultText(readTool, ok)).toContain('(pages 2-2 of 3)');
  });
});
