/** Read: shows a file to the model — text with line numbers, images, PDFs, notebooks. */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import * as z from '../../../lib/zod';
import type { ToolResultContent } from '../../../model/types';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { binaryRefusal, hasBinaryExtension } from '../shared/binary';
import { recordFileHash, recordFileState } from '../shared/freshness';
import { describeFsError } from '../shared/fs-errors';
import { parseNotebook } from '../shared/notebook';
import { displayPath, resolveToolPath, suggestSimilarPaths } from '../shared/paths';
import { MAX_WHOLE_FILE_BYTES, openRegularFile, readWholeRegularFile } from '../shared/regular-file';
import { decodeText } from '../shared/text-format';
import { prepareImage } from './image';
import { IMAGE_EXTENSIONS, sniffImageType } from './image-info';
import { dropDamagedImages, type NotebookCellView, notebookBlocks, notebookCellViews } from './notebook-view';
import { MAX_PDF_BYTES, pdfTooLarge, preparePdf } from './pdf';
import prompt from './prompt.md';
import { imageResizerAvailability } from './resizer-availability';
import { scanTextFile, type TextScan } from './text-scan';
import {
  DEFAULT_LINE_LIMIT,
  DEFAULT_OUTPUT_CHARS,
  describeTextView,
  LARGE_OUTPUT_CHARS,
  LINE_CUT_NOTE,
  type TextView,
} from './text-view';

const inputSchema = z.lazy(() =>
  z.strictObject({
    file_path: z
      .string()
      .check(z.describe('Absolute path of the file to read (relative paths resolve against the cwd)')),
    offset: z
      .optional(z.number().check(z.int(), z.minimum(0)))
      .check(z.describe('Line number to start at (1-based)')),
    limit: z
      .optional(z.number().check(z.int(), z.positive()))
      .check(z.describe('How many lines to read (default 2000)')),
    pages: z
      .optional(z.string())
      .check(z.describe('PDF page range such as "3" or "1-5" (at most 20 pages per call)')),
    allow_large: z
      .optional(z.boolean())
      .check(z.describe('Allow up to about four times the usual amount of text')),
  }),
);
export type ReadInput = z.infer<typeof inputSchema>;

export type ReadOutput =
  | {
      type: 'text';
      file: {
        filePath: string;
        content: string;
        numLines: number;
        startLine: number;
        /** Lines in the file; with `largeFile`, only those seen before reading stopped. */
        totalLines: number;
        truncatedByTokenCap?: boolean;
        /** Set when the file was too large to read to its end just to count its lines. */
        largeFile?: { sizeBytes: number };
      };
    }
  | {
      type: 'image';
      file: {
        base64: string;
        type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
        originalSize: number;
        dimensions?: {
          originalWidth: number;
          originalHeight: number;
          displayWidth: number;
          displayHeight: number;
        };
      };
    }
  | { type: 'notebook'; file: { filePath: string; cells: NotebookCellView[] } }
  | { type: 'pdf'; file: { filePath: string; base64: string; originalSize: number } };

export const readTool = buildTool<ReadInput, ReadOutput>({
  name: 'Read',
  tier: 'read',
  access: 'file-read',
  inputSchema,
  prompt,
  // Read caps its own output; saving it to a file the model would have to Read again helps no one.
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  description: (input) =>
    `Read ${displayPath(input.file_path)}${input.pages ? ` (pages ${input.pages})` : ''}`,
  isConcurrencySafe: () => true,
  isReadOnly: () => true,
  interruptBehavior: () => 'cancel',
  availability: () => imageResizerAvailability(),
  toAutoClassifierInput: (input) => input.file_path,
  mapResultToContent: (output) => {
    if (output.type === 'text') return textContent(textViewOf(output.file));
    if (output.type === 'image') {
      return [
        { type: 'image', source: { type: 'base64', media_type: output.file.type, data: output.file.base64 } },
      ];
    }
    if (output.type === 'pdf') {
      return [
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: output.file.base64 },
        },
      ];
    }
    return notebookBlocks(output.file.cells);
  },
  async call(input, context) {
    const path = resolveToolPath(input.file_path, context.cwd);
    await assertReadableFile(path, context);
    const extension = extname(path).slice(1).toLowerCase();
    if (input.pages !== undefined && extension !== 'pdf') {
      throw new ToolError('The pages parameter applies to PDF files only; use offset and limit for text.');
    }
    const readWhole = (maxBytes: number, tooLarge: (size: string) => string) =>
      readWholeRegularFile(path, { purpose: 'read', signal: context.abortSignal, maxBytes, tooLarge });

    if (IMAGE_EXTENSIONS.has(extension)) {
      const { bytes } = await readWhole(
        MAX_WHOLE_FILE_BYTES,
        (size) =>
          `${path} is ${size}, too large to load as an image. Make a smaller copy with Bash and Read that.`,
      );
      const mediaType = sniffImageType(bytes);
      if (!mediaType)
        throw new ToolError(`${path} has an image extension but is not a png, jpeg, gif or webp image.`);
      const image = await prepareImage(path, bytes, mediaType);
      await recordFileState(context, path, bytes);
      const data: ReadOutput = {
        type: 'image',
        file: { base64: image.base64, type: image.mediaType, originalSize: image.originalSize },
      };
      if (image.dimensions) data.file.dimensions = image.dimensions;
      return { data };
    }
    if (extension === 'pdf') {
      const { bytes } = await readWhole(MAX_PDF_BYTES, pdfTooLarge(path));
      const pdf = await preparePdf(path, bytes, input.pages);
      await recordFileState(context, path, bytes);
      const pagesNote = pdf.range
        ? `pages ${pdf.range.first}-${pdf.range.last}${pdf.pageCount ? ` of ${pdf.pageCount}` : ''}`
        : pdf.pageCount
          ? `${pdf.pageCount} pages`
          : 'whole file';
      return {
        data: { type: 'pdf', file: { filePath: path, base64: pdf.base64, originalSize: bytes.length } },
        content: [
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.base64 } },
          { type: 'text', text: `PDF ${path} (${pagesNote}).` },
        ],
      };
    }
    if (extension === 'ipynb') {
      const { bytes } = await readWhole(
        MAX_WHOLE_FILE_BYTES,
        (size) => `${path} is ${size}, too large to show as a notebook. Search it with Grep instead.`,
      );
      const { text } = decodeText(bytes);
      const cells = await dropDamagedImages(notebookCellViews(parseNotebook(text, path)));
      await recordFileState(context, path, bytes);
      return { data: { type: 'notebook', file: { filePath: path, cells } } };
    }
    if (hasBinaryExtension(path)) throw new ToolError(binaryRefusal(path));

    const view = await readTextPage(path, input, context);
    const file: TextFile = {
      filePath: path,
      content: view.content,
      numLines: view.numLines,
      startLine: view.startLine,
      totalLines: view.totalLines,
    };
    if (view.truncatedByTokenCap) file.truncatedByTokenCap = true;
    if (!view.counted) file.largeFile = { sizeBytes: view.fileSize };
    return { data: { type: 'text', file }, content: textContent(view) };
  },
});

/** Streams the page of a text file and records what the model has now seen of it. */
async function readTextPage(path: string, input: ReadInput, context: ToolUseContext): Promise<TextView> {
  const { handle, info } = await openRegularFile(path, 'read');
  let scan: TextScan;
  try {
    scan = await scanTextFile(
      handle,
      info.size,
      {
        startLine: input.offset ?? 1,
        limit: input.limit ?? DEFAULT_LINE_LIMIT,
        maxChars: input.allow_large ? LARGE_OUTPUT_CHARS : DEFAULT_OUTPUT_CHARS,
      },
      context.abortSignal,
    );
  } catch (error) {
    if (error instanceof ToolError || (error as Error).name === 'AbortError') throw error;
    throw new ToolError(describeFsError(error, path));
  } finally {
    await handle.close();
  }
  if (scan.kind === 'binary') throw new ToolError(binaryRefusal(path));
  const { view, hash } = scan;
  // A file too large to read whole is not recorded: the edit tools do not change it anyway.
  if (hash !== undefined) {
    const lastShown = view.startLine + view.numLines - 1;
    const partial = view.startLine > 1 || lastShown < view.totalLines || view.cutLongLines > 0;
    await recordFileHash(
      context,
      path,
      hash,
      partial ? { offset: view.startLine, limit: view.numLines } : undefined,
    );
  }
  return view;
}

type TextFile = Extract<ReadOutput, { type: 'text' }>['file'];

/** The view behind a text output, for rendering it again from the output data alone. */
function textViewOf(file: TextFile): TextView {
  const lines = file.numLines > 0 ? file.content.split('\n').slice(0, file.numLines) : [];
  return {
    content: file.content,
    numbered: lines.map((line, i) => `${file.startLine + i}\t${line}`).join('\n'),
    startLine: file.startLine,
    numLines: file.numLines,
    totalLines: file.totalLines,
    counted: !file.largeFile,
    fileSize: file.largeFile?.sizeBytes ?? 0,
    truncatedByTokenCap: !!file.truncatedByTokenCap,
    cutLongLines: lines.filter((line) => LINE_CUT_NOTE.test(line)).length,
  };
}

function textContent(view: TextView): ToolResultContent {
  const note = describeTextView(view);
  if (view.numLines === 0) return `(${note ?? 'The file is empty.'})`;
  return note ? `${view.numbered}\n\n(${note})` : view.numbered;
}

async function assertReadableFile(path: string, context: ToolUseContext): Promise<void> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ToolError(describeFsError(error, path));
    const similar = await suggestSimilarPaths(path);
    const hint = similar.length > 0 ? ` Did you mean ${similar.join(', ')}?` : '';
    throw new ToolError(
      `File does not exist: ${path}. The current working directory is ${context.cwd}.${hint}`,
    );
  }
  if (info.isDirectory()) {
    throw new ToolError(
      `${path} is a directory. List it with Glob (e.g. pattern "*") or run \`ls\` with Bash.`,
    );
  }
}
