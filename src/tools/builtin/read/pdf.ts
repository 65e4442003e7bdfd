/**
 * PDFs go to the model as a `document` block. Small ones are sent whole; a page range is cut out
 * with `pdf-lib` when that package is installed. A PDF that cannot be opened is refused here:
 * sent to the API, a damaged document fails that request and every later one that carries it.
 */
import { ToolError } from '../../tool';
import { loadOptionalModule } from '../shared/optional-module';

export const MAX_PDF_BYTES = 32 * 1024 * 1024;
export const MAX_PDF_PAGES_PER_READ = 20;

type PdfDocument = {
  getPageCount(): number;
  copyPages(source: PdfDocument, indices: number[]): Promise<unknown[]>;
  addPage(page: unknown): unknown;
  save(): Promise<Uint8Array>;
};
type PdfLib = {
  PDFDocument: {
    load(
      bytes: Uint8Array,
      options: { ignoreEncryption: boolean; updateMetadata: boolean },
    ): Promise<PdfDocument>;
    create(): Promise<PdfDocument>;
  };
};

export type PageRange = { first: number; last?: number };

/** Parses "3", "3-5" or "3-" (to the end); pages are 1-based. */
export function parsePageRange(text: string): PageRange {
  const match = /^\s*(\d+)\s*(?:(-)\s*(\d+)?)?\s*$/.exec(text);
  const first = match ? Number(match[1]) : 0;
  const last = match?.[3] !== undefined ? Number(match[3]) : match?.[2] ? undefined : first;
  if (!match || first < 1 || (last !== undefined && last < first)) {
    throw new ToolError(
      `Invalid pages "${text}". Use a page number or range such as "3" or "3-5" (pages start at 1).`,
    );
  }
  return last === undefined ? { first } : { first, last };
}

/**
 * Counts pages without a PDF library by counting page objects. Files that keep their objects
 * in compressed streams hide them; then the largest page-tree `/Count` is the best guess.
 */
export function countPdfPagesCheaply(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const pages = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  if (pages > 0) return pages;
  let count: number | undefined;
  for (const match of text.matchAll(/\/Count\s+(\d+)/g)) count = Math.max(count ?? 0, Number(match[1]));
  return count;
}

export type PreparedPdf = { base64: string; pageCount?: number; range?: { first: number; last: number } };

export function pdfTooLarge(path: string): (size: string) => string {
  return (size) =>
    `${path} is ${size}; PDFs over ${MAX_PDF_BYTES / 1024 / 1024} MB cannot be sent. Extract its text with Bash (e.g. \`pdftotext\`).`;
}

function damaged(path: string, reason: string): ToolError {
  return new ToolError(
    `${path} could not be opened as a PDF (${reason}); it is damaged, incomplete or not a PDF, so it was not sent. ` +
      'If it is still being written, Read it again when it is complete; otherwise try its text with Bash (e.g. `pdftotext FILE -`).',
  );
}

/** The first line of a library's error, which is the part that says what is wrong. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
}

/** Opens the PDF with pdf-lib (undefined when the package is missing); a damaged file throws. */
async function openPdf(
  path: string,
  bytes: Buffer,
  pdfLib: PdfLib | undefined,
): Promise<PdfDocument | undefined> {
  // The header may follow a little junk (readers allow 1 KB of it); without one it is no PDF.
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw damaged(path, 'there is no %PDF- header');
  if (!pdfLib) {
    if (!bytes.subarray(-1024).includes('%%EOF')) throw damaged(path, 'it has no %%EOF end marker');
    return undefined;
  }
  let source: PdfDocument;
  try {
    source = await pdfLib.PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch (error) {
    throw damaged(path, `pdf-lib: ${firstLine(error)}`);
  }
  let pages: number;
  try {
    pages = source.getPageCount();
  } catch (error) {
    throw damaged(path, `its page tree cannot be read: ${firstLine(error)}`);
  }
  if (pages === 0) throw damaged(path, 'it has no pages');
  return source;
}

export async function preparePdf(
  path: string,
  bytes: Buffer,
  pages: string | undefined,
): Promise<PreparedPdf> {
  if (bytes.length > MAX_PDF_BYTES)
    throw new ToolError(pdfTooLarge(path)(`${(bytes.length / 1024 / 1024).toFixed(1)} MB`));
  const pdfLib = await loadOptionalModule<PdfLib>('pdf-lib');
  const source = await openPdf(path, bytes, pdfLib);
  const pageCount = source ? source.getPageCount() : countPdfPagesCheaply(bytes);
  const tooManyPages = () =>
    new ToolError(
      `${path} has ${pageCount} pages; read at most ${MAX_PDF_PAGES_PER_READ} at a time with the pages parameter, e.g. pages: "1-${MAX_PDF_PAGES_PER_READ}".`,
    );
  if (pages === undefined) {
    if (pageCount !== undefined && pageCount > MAX_PDF_PAGES_PER_READ) throw tooManyPages();
    return { base64: bytes.toString('base64'), pageCount };
  }
  const range = parsePageRange(pages);
  if (pageCount !== undefined && range.first > pageCount) {
    throw new ToolError(`${path} has ${pageCount} pages; page ${range.first} does not exist.`);
  }
  const last = Math.min(range.last ?? pageCount ?? range.first, pageCount ?? Number.POSITIVE_INFINITY);
  if (last - range.first + 1 > MAX_PDF_PAGES_PER_READ) {
    throw new ToolError(
      `The range "${pages}" spans more than ${MAX_PDF_PAGES_PER_READ} pages; ask for fewer.`,
    );
  }
  if (range.first === 1 && pageCount !== undefined && last === pageCount) {
    return { base64: bytes.toString('base64'), pageCount, range: { first: 1, last } };
  }
  if (!pdfLib || !source) {
    const whole =
      pageCount !== undefined && pageCount <= MAX_PDF_PAGES_PER_READ
        ? ` This PDF has ${pageCount} pages, so Read it without pages to get all of it.`
        : '';
    throw new ToolError(
      `Reading a page range needs the pdf-lib package, which is not available.${whole} ` +
        'Otherwise extract the pages with Bash (e.g. `pdftotext -f 3 -l 5 file.pdf -`).',
    );
  }
  const indices = Array.from({ length: last - range.first + 1 }, (_, i) => range.first - 1 + i);
  let saved: Uint8Array;
  try {
    const output = await pdfLib.PDFDocument.create();
    for (const page of await output.copyPages(source, indices)) output.addPage(page);
    saved = await output.save();
  } catch (error) {
    throw damaged(path, `pages ${range.first}-${last} cannot be copied out: ${firstLine(error)}`);
  }
  return { base64: Buffer.from(saved).toString('base64'), pageCount, range: { first: range.first, last } };
}
