/**
 * PDFs go to the model as a `document` block. Small ones are sent whole; a page range is cut out
 * with `pdf-lib` when that package is installed.
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

export async function preparePdf(
  path: string,
  bytes: Buffer,
  pages: string | undefined,
): Promise<PreparedPdf> {
  if (bytes.length > MAX_PDF_BYTES) {
    throw new ToolError(
      `${path} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; PDFs over 32 MB cannot be sent. Extract its text with Bash (e.g. \`pdftotext\`).`,
    );
  }
  const pdfLib = await loadOptionalModule<PdfLib>('pdf-lib');
  const source = pdfLib
    ? await pdfLib.PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false }).catch(
        () => undefined,
      )
    : undefined;
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
      `Reading a page range needs the pdf-lib package, which is not available${pdfLib ? ' for this file' : ''}.${whole} ` +
        'Otherwise extract the pages with Bash (e.g. `pdftotext -f 3 -l 5 file.pdf -`).',
    );
  }
  const output = await pdfLib.PDFDocument.create();
  const indices = Array.from({ length: last - range.first + 1 }, (_, i) => range.first - 1 + i);
  for (const page of await output.copyPages(source, indices)) output.addPage(page);
  const saved = await output.save();
  return { base64: Buffer.from(saved).toString('base64'), pageCount, range: { first: range.first, last } };
}
