/** Read: shows a file to the model — text with line numbers, images, PDFs, notebooks. */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import * as z from '../../../lib/zod';
import type { ToolResultContent } from '../../../model/types';
import type { ToolUseContext } from '../../context';
import { buildTool, ToolError } from '../../tool';
import { binaryRefusal, hasBinaryExtension, looksBinary } from '../shared/binary';
import { recordFileState } from '../shared/freshness';
import { describeFsError } from '../shared/fs-errors';
import { parseNotebook } from '../shared/notebook';
import { displayPath, resolveToolPath, suggestSimilarPaths } from '../shared/paths';
import { decodeText } from '../shared/text-format';
import { prepareImage } from './image';
import { IMAGE_EXTENSIONS, sniffImageType } from './image-info';
import { type NotebookCellView, notebookBlocks, notebookCellViews } from './notebook-view';
import { preparePdf } from './pdf';
import prompt from './prompt.md';
import { imageResizerAvailability } from './resizer-availability';
import { DEFAULT_OUTPUT_CHARS, describeTextView, LARGE_OUTPUT_CHARS, renderTextView } from './text-view';

/** Bigger text files are searched (Grep) or sliced (Bash), not loaded whole into memory. */
const MAX_TEXT_FILE_BYTES = 64 * 1024 * 1024;

const inputSchema = z.strictObject({
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
});
export type ReadInput = z.infer<typeof inputSchema>;

export type ReadOutput =
  | {
      type: 'text';
      file: {
        filePath: string;
        content: string;
        numLines: number;
        startLine: number;
        totalLines: number;
        truncatedByTokenCap?: boolean;
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
    if (output.type === 'text') return textContent(output.file, 0);
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
    const bytes = await readFile(path, { signal: context.abortSignal }).catch((error: unknown) => {
      throw new ToolError(describeFsError(error, path));
    });

    if (IMAGE_EXTENSIONS.has(extension)) {
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
      const { text } = decodeText(bytes);
      const cells = notebookCellViews(parseNotebook(text, path));
      await recordFileState(context, path, bytes);
      return { data: { type: 'notebook', file: { filePath: path, cells } } };
    }
    if (hasBinaryExtension(path)) throw new ToolError(binaryRefusal(path));
    if (bytes.length > MAX_TEXT_FILE_BYTES) {
      throw new ToolError(
        `${path} is ${(bytes.length / 1024 / 1024).toFixed(0)} MB, too large to read. Search it with Grep, or show parts with Bash (head, tail, sed -n '100,200p').`,
      );
    }
    const { text, format } = decodeText(bytes);
    if (format.encoding !== 'utf16le' && looksBinary(bytes)) throw new ToolError(binaryRefusal(path));

    const view = renderTextView(text, {
      offset: input.offset,
      limit: input.limit,
      maxChars: input.allow_large ? LARGE_OUTPUT_CHARS : DEFAULT_OUTPUT_CHARS,
    });
    const partial =
      view.startLine > 1 || view.startLine + view.numLines - 1 < view.totalLines || view.cutLongLines > 0;
    await recordFileState(
      context,
      path,
      bytes,
      partial ? { offset: view.startLine, limit: view.numLines } : undefined,
    );
    const file: Extract<ReadOutput, { type: 'text' }>['file'] = {
      filePath: path,
      content: view.content,
      numLines: view.numLines,
      startLine: view.startLine,
      totalLines: view.totalLines,
    };
    if (view.truncatedByTokenCap) file.truncatedByTokenCap = true;
    return { data: { type: 'text', file }, content: textContent(file, view.cutLongLines, view.numbered) };
  },
});

function textContent(
  file: Extract<ReadOutput, { type: 'text' }>['file'],
  cutLongLines: number,
  numbered?: string,
): ToolResultContent {
  const lines =
    numbered ??
    file.content
      .split('\n')
      .slice(0, file.numLines)
      .map((line, i) => `${file.startLine + i}\t${line}`)
      .join('\n');
  const note = describeTextView({
    ...file,
    numbered: lines,
    cutLongLines,
    truncatedByTokenCap: !!file.truncatedByTokenCap,
  });
  if (file.numLines === 0) return `(${note ?? 'The file is empty.'})`;
  return note ? `${lines}\n\n(${note})` : lines;
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
