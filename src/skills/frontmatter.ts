/**
 * The frontmatter of a command or skill file, read fast: only the file's head (the frontmatter
 * and the body's first line, for a description) is read at start; the body waits until the
 * command runs. The heads are read synchronously, one open-read-close each: for a few hundred
 * small files the thread pool's round trips cost several times the reads themselves (250 heads:
 * about 5 ms read in turn, over 20 ms through fs/promises on two cores). Simple frontmatter is
 * read by simple-yaml.ts; the YAML parser (a vendor bundle) loads once, only when some file
 * needs it.
 */
import { closeSync, constants, readSync, realpathSync, type Stats } from 'node:fs';
import { isWithin } from '../lib/path-within';
import { openRegularSync, readOpenedSync, readRegularBytes } from '../lib/regular-file-text';
import { parseSimpleYaml } from '../lib/simple-yaml';
import { yamlErrorReason } from '../lib/yaml-error';

/** Enough for the frontmatter of every real command file seen; a longer one is read whole. */
const HEAD_BYTES = 4096;
const MAX_FIRST_LINE = 200;
/** The most of a command or skill file read: its body goes into the prompt, as a memory file's does. */
export const MAX_COMMAND_FILE_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;

export type FileHead = {
  /** The parsed mapping; empty when there is none. */
  data: Record<string, unknown>;
  /** Byte offset of the body. */
  bodyOffset: number;
  /** The first non-empty line of the body (within the head), for a default description; '' when the frontmatter has one. */
  firstLine: string;
  /** Why the frontmatter could not be read (the file still loads, without it). */
  problem?: string;
};

/** A head as read from disk: complete, or with frontmatter only the YAML parser can read. */
export type ScannedHead = {
  head: FileHead;
  yamlText?: string;
  /** The file a confined link led to: the body is read from there, not through the link again. */
  target?: string;
};

// One buffer for every head: the reads are synchronous, so no two use it at once.
let headBuffer: Buffer | undefined;

/** A file that is a symbolic link to a place outside the folder its author may use. */
export class OutsideLinkError extends Error {
  constructor(
    readonly path: string,
    readonly target: string,
  ) {
    super(`it is a link to ${target}, outside its folder`);
  }
}

/**
 * Opens the file for reading; with `confineTo`, a file that is a symbolic link must resolve to a
 * place inside that folder. The link test costs nothing for a plain file: the open refuses to
 * follow one (O_NOFOLLOW), and only then is the link resolved and judged.
 */
function openConfined(
  path: string,
  confineTo: string | undefined,
): { fd: number; info: Stats; target?: string } {
  // A FIFO or a device is refused without waiting (UnreadableFileError): a planted SKILL.md that
  // is a FIFO blocked the start-up's synchronous open for good.
  if (confineTo === undefined) return openRegularSync(path);
  try {
    return openRegularSync(path, constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    const target = realpathSync.native(path);
    if (!isWithin(target, confineTo)) throw new OutsideLinkError(path, target);
    return { ...openRegularSync(target), target };
  }
}

/** The file's first bytes (all of them when `whole`): only what is needed is decoded later. */
function readBytes(
  path: string,
  whole: boolean,
  confineTo: string | undefined,
): { bytes: Buffer; complete: boolean; target?: string } {
  const { fd, info, target } = openConfined(path, confineTo);
  const at = target === undefined ? {} : { target };
  try {
    if (whole)
      return { bytes: readOpenedSync(fd, info, path, MAX_COMMAND_FILE_BYTES), complete: true, ...at };
    headBuffer ??= Buffer.allocUnsafe(HEAD_BYTES);
    const length = readSync(fd, headBuffer, 0, HEAD_BYTES, 0);
    return { bytes: headBuffer.subarray(0, length), complete: length < HEAD_BYTES, ...at };
  } finally {
    closeSync(fd);
  }
}

/**
 * After `---` at `at`: spaces or tabs, then a line end (or the end of the text, for a closing
 * fence); the index after it, else -1.
 */
function fenceEnd(bytes: Buffer, at: number, endMayClose = true): number {
  if (bytes[at] !== DASH || bytes[at + 1] !== DASH || bytes[at + 2] !== DASH) return -1;
  let i = at + 3;
  while (bytes[i] === 0x20 || bytes[i] === 0x09) i++;
  if (i === bytes.length) return endMayClose ? i : -1;
  if (bytes[i] === CR && bytes[i + 1] === NEWLINE) return i + 2;
  return bytes[i] === NEWLINE ? i + 1 : -1;
}

/** The closing fence after `from` (a line end): where its line starts (its `\r`) and ends. */
function closingFence(bytes: Buffer, from: number): { start: number; end: number } | undefined {
  for (let at = bytes.indexOf(NEWLINE, from); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) {
    const end = fenceEnd(bytes, at + 1);
    if (end >= 0) return { start: at > from && bytes[at - 1] === CR ? at - 1 : at, end };
  }
  return undefined;
}

/** The first non-empty line from `from` on, without a heading's `#`s, cut to a listing's length. */
function firstLineOf(bytes: Buffer, from: number): string {
  let at = from;
  while (at < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, at);
    const end = newline < 0 ? bytes.length : newline;
    // Only this line is decoded: the body may be long, and is read again when the command runs.
    const trimmed = bytes
      .toString('utf8', at, end)
      .replace(/^#+\s*/, '')
      .trim();
    if (trimmed !== '')
      return trimmed.length > MAX_FIRST_LINE ? `${trimmed.slice(0, MAX_FIRST_LINE - 1)}…` : trimmed;
    at = end + 1;
  }
  return '';
}

/**
 * Reads a file's head without waiting: the frontmatter is parsed here when it is simple, else
 * handed back as `yamlText` for `finishHead`. Throws when the file cannot be read, and with
 * `confineTo` an OutsideLinkError when it is a link out of that folder.
 */
export function scanFileHead(path: string, confineTo?: string): ScannedHead {
  const first = readBytes(path, false, confineTo);
  let { bytes, complete } = first;
  const at = first.target === undefined ? {} : { target: first.target };
  const opened = fenceEnd(bytes, 0, false);
  if (opened < 0) return { head: { data: {}, bodyOffset: 0, firstLine: firstLineOf(bytes, 0) }, ...at };
  let close = closingFence(bytes, opened - 1);
  if (!close && !complete) {
    ({ bytes, complete } = readBytes(first.target ?? path, true, first.target ? undefined : confineTo));
    close = closingFence(bytes, opened - 1);
  }
  if (!close) {
    return {
      head: {
        data: {},
        bodyOffset: 0,
        firstLine: firstLineOf(bytes, 0),
        problem: 'its frontmatter has no closing ---',
      },
      ...at,
    };
  }
  const yamlText = close.start > opened ? bytes.toString('utf8', opened, close.start) : '';
  const simple = parseSimpleYaml(yamlText);
  if (simple) {
    // The body's first line stands in for a missing description only: most files have one.
    const described = typeof simple.description === 'string' && simple.description.trim() !== '';
    const firstLine = described ? '' : firstLineOf(bytes, close.end);
    return { head: { data: simple, bodyOffset: close.end, firstLine }, ...at };
  }
  return {
    head: { data: {}, bodyOffset: close.end, firstLine: firstLineOf(bytes, close.end) },
    yamlText,
    ...at,
  };
}

/** Completes a scanned head with the YAML parser when it needs one. */
export async function finishHead(scanned: ScannedHead): Promise<FileHead> {
  const { head, yamlText } = scanned;
  if (yamlText === undefined) return head;
  try {
    const { parse } = await import('yaml');
    const parsed: unknown = parse(yamlText);
    if (parsed === null || parsed === undefined) return head;
    if (typeof parsed !== 'object' || Array.isArray(parsed))
      return { ...head, problem: 'its frontmatter is not a key: value mapping' };
    return { ...head, data: parsed as Record<string, unknown> };
  } catch (error) {
    // The block starts on the file's second line, after the opening `---`.
    return { ...head, problem: `its frontmatter is not valid YAML (${yamlErrorReason(error, 1)})` };
  }
}

export async function readFileHead(path: string): Promise<FileHead> {
  return finishHead(scanFileHead(path));
}

/** The body of a file after its frontmatter. */
export async function readBody(path: string, offset: number): Promise<string> {
  return (await readRegularBytes(path, MAX_COMMAND_FILE_BYTES)).subarray(offset).toString('utf8');
}
