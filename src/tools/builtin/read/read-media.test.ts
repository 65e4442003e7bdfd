import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolUseContext } from '../../context';
import { ToolError } from '../../tool';
import { callTool, resultText, tempProjectPerTest } from '../shared/test-context';
import { readImageSize, sniffImageType } from './image-info';
import { type ReadOutput, readTool } from './index';
import { countPdfPagesCheaply, parsePageRange } from './pdf';

// A 1x1 PNG (RGBA), written out byte for byte.
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A minimal PDF whose page objects are plain text, as the cheap page counter sees them. */
function fakePdf(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  const pageObjects = Array.from(
    { length: pages },
    (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj`,
  );
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      `2 0 obj << /Type /Pages /Kids [${kids}] /Count ${pages} >> endobj`,
      ...pageObjects,
      '%%EOF',
    ].join('\n'),
  );
}

let dir: string;
let context: ToolUseContext;
tempProjectPerTest((project) => {
  ({ dir, context } = project);
});

const read = (input: Record<string, unknown>) => callTool<ReadOutput>(readTool, input, context);

describe('Read: images', () => {
  it('returns a small PNG as an image block with its size', async () => {
    await writeFile(join(dir, 'dot.png'), PNG_1X1);
    const result = await read({ file_path: join(dir, 'dot.png') });
    expect(result.data).toEqual({
      type: 'image',
      file: {
        base64: PNG_1X1.toString('base64'),
        type: 'image/png',
        originalSize: PNG_1X1.length,
        dimensions: { originalWidth: 1, originalHeight: 1, displayWidth: 1, displayHeight: 1 },
      },
    });
    expect(readTool.mapResultToContent(result.data)).toEqual([
      {
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: PNG_1X1.toString('base64') },
      },
    ]);
    expect(context.readFileState.has(join(dir, 'dot.png'))).toBe(true);
  });

  it('uses the real type, not the extension, and rejects non-images', async () => {
    await writeFile(join(dir, 'photo.jpg'), PNG_1X1);
    const result = await read({ file_path: join(dir, 'photo.jpg') });
    expect(result.data.type === 'image' && result.data.file.type).toBe('image/png');
    await writeFile(join(dir, 'fake.png'), 'not an image');
    await expect(read({ file_path: join(dir, 'fake.png') })).rejects.toThrow(/not a png, jpeg, gif or webp/);
  });

  it('refuses an image too large to send (or to shrink)', async () => {
    const huge = Buffer.from(PNG_1X1);
    huge.writeUInt32BE(20_000, 16);
    huge.writeUInt32BE(20_000, 20);
    await writeFile(join(dir, 'huge.png'), huge);
    await expect(read({ file_path: join(dir, 'huge.png') })).rejects.toBeInstanceOf(ToolError);
  });

  it('reads dimensions of gif, jpeg and webp headers', () => {
    const gif = Buffer.from('GIF89a\x05\x00\x07\x00', 'latin1');
    expect(sniffImageType(gif)).toBe('image/gif');
    expect(readImageSize(gif, 'image/gif')).toEqual({ width: 5, height: 7 });
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 30, 0, 40, 3, 0, 0, 0,
    ]);
    expect(readImageSize(jpeg, 'image/jpeg')).toEqual({ width: 40, height: 30 });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(99, 24, 3);
    webp.writeUIntLE(49, 27, 3);
    expect(sniffImageType(webp)).toBe('image/webp');
    expect(readImageSize(webp, 'image/webp')).toEqual({ width: 100, height: 50 });
  });
});

describe('Read: PDFs', () => {
  it('sends a small PDF whole as a document block', async () => {
    const pdf = fakePdf(2);
    await writeFile(join(dir, 'doc.pdf'), pdf);
    const result = await read({ file_path: join(dir, 'doc.pdf') });
    expect(result.data).toEqual({
      type: 'pdf',
      file: { filePath: join(dir, 'doc.pdf'), base64: pdf.toString('base64'), originalSize: pdf.length },
    });
    expect(result.content).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') },
      },
      { type: 'text', text: `PDF ${join(dir, 'doc.pdf')} (2 pages).` },
    ]);
  });

  it('asks for a page range when the PDF is longer than 20 pages', async () => {
    await writeFile(join(dir, 'book.pdf'), fakePdf(25));
    await expect(read({ file_path: join(dir, 'book.pdf') })).rejects.toThrow(/has 25 pages; read at most 20/);
    await expect(read({ file_path: join(dir, 'book.pdf'), pages: '1-30' })).rejects.toThrow(
      /more than 20 pages/,
    );
    await expect(read({ file_path: join(dir, 'book.pdf'), pages: '26' })).rejects.toThrow(
      /page 26 does not exist/,
    );
  });

  it('parses page ranges and counts pages cheaply', () => {
    expect(parsePageRange('3')).toEqual({ first: 3, last: 3 });
    expect(parsePageRange(' 3 - 5 ')).toEqual({ first: 3, last: 5 });
    expect(parsePageRange('4-')).toEqual({ first: 4 });
    expect(() => parsePageRange('5-3')).toThrow(/Invalid pages/);
    expect(() => parsePageRange('0')).toThrow(/Invalid pages/);
    expect(countPdfPagesCheaply(fakePdf(7))).toBe(7);
  });
});

describe('Read: notebooks', () => {
  it('shows cells, text outputs and image outputs', async () => {
    const notebook = {
      cells: [
        { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'text'] },
        {
          cell_type: 'code',
          execution_count: 1,
          id: 'plot',
          metadata: {},
          source: 'print(1)',
          outputs: [
            { output_type: 'stream', name: 'stdout', text: ['1\n'] },
            {
              output_type: 'display_data',
              data: { 'image/png': `${PNG_1X1.toString('base64')}\n`, 'text/plain': '<Figure>' },
            },
          ],
        },
        { cell_type: 'code', execution_count: null, metadata: {}, source: [], outputs: [] },
      ],
      metadata: { language_info: { name: 'python' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    await writeFile(join(dir, 'n.ipynb'), JSON.stringify(notebook, null, 1));
    const result = await read({ file_path: join(dir, 'n.ipynb') });
    expect(result.data.type).toBe('notebook');
    const cells = result.data.type === 'notebook' ? result.data.file.cells : [];
    expect(cells.map((cell) => cell.cell_id)).toEqual(['intro', 'plot', 'cell-2']);
    expect(cells[0]?.source).toBe('# Title\ntext');
    const content = readTool.mapResultToContent(result.data);
    expect(Array.isArray(content) && content.map((block) => block.type)).toEqual(['text', 'image', 'text']);
    const text = resultText(readTool, result);
    expect(text).toContain('<cell id="plot" type="code">\nprint(1)\n</cell>');
    expect(text).toContain('<output cell="plot">\n1\n\n</output>');
    expect(text).toContain('<Figure>');
    expect(context.readFileState.has(join(dir, 'n.ipynb'))).toBe(true);
  });

  it('refuses a notebook that is not valid JSON', async () => {
    await writeFile(join(dir, 'bad.ipynb'), '{ nope');
    await expect(read({ file_path: join(dir, 'bad.ipynb') })).rejects.toThrow(/not valid notebook JSON/);
  });
});
