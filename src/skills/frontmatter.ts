/**
 * The frontmatter of a command or skill file, read fast: only the file's head (the frontmatter
 * and the body's first line, for a description) is read at start; the body waits until the
 * command runs. The heads are read synchronously: for a few hundred small reads the thread pool's
 * round trips cost tens of milliseconds, the reads themselves a few. Simple frontmatter is read
 * by simple-yaml.ts; the YAML parser (a vendor bundle) loads only for a file that needs it.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseSimpleYaml } from '../lib/simple-yaml';

/** Enough for the frontmatter of every real command file seen; a longer one is read whole. */
const HEAD_BYTES = 4096;
const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /\r?\n---[ \t]*(?:\r?\n|$)/;

export type FileHead = {
  /** The parsed mapping; empty when there is none. */
  data: Record<string, unknown>;
  /** Byte offset of the body. */
  bodyOffset: number;
  /** The first non-empty line of the body (within the head), for a default description. */
  firstLine: string;
  /** Why the frontmatter could not be read (the file still loads, without it). */
  problem?: string;
};

// One buffer for every head: the reads are synchronous, so no two use it at once.
let headBuffer: Buffer | undefined;

function readBytes(path: string, length: number | undefined): { text: string; whole: boolean } {
  if (length === undefined) return { text: readFileSync(path, 'utf8'), whole: true };
  const fd = openSync(path, 'r');
  try {
    if (!headBuffer || headBuffer.length < length) headBuffer = Buffer.allocUnsafe(length);
    const buffer = headBuffer;
    const bytesRead = readSync(fd, buffer, 0, length, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), whole: bytesRead < length };
  } finally {
    closeSync(fd);
  }
}

function firstLineOf(text: string): string {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.replace(/^#+\s*/, '').trim();
    if (trimmed !== '') return trimmed.length > 200 ? `${trimmed.slice(0, 199)}…` : trimmed;
  }
  return '';
}

export async function readFileHead(path: string): Promise<FileHead> {
  let { text, whole } = readBytes(path, HEAD_BYTES);
  if (!OPENING.test(text)) return { data: {}, bodyOffset: 0, firstLine: firstLineOf(text) };
  let close = CLOSING.exec(text);
  if (!close && !whole) {
    ({ text, whole } = readBytes(path, undefined));
    close = CLOSING.exec(text);
  }
  if (!close) {
    return {
      data: {},
      bodyOffset: 0,
      firstLine: firstLineOf(text),
      problem: 'its frontmatter has no closing ---',
    };
  }
  const opening = (OPENING.exec(text) as RegExpExecArray)[0];
  const yamlText = text.slice(opening.length, close.index);
  const bodyStart = close.index + close[0].length;
  const bodyOffset = Buffer.byteLength(text.slice(0, bodyStart), 'utf8');
  const firstLine = firstLineOf(text.slice(bodyStart));
  const simple = parseSimpleYaml(yamlText);
  if (simple) return { data: simple, bodyOffset, firstLine };
  try {
    const { parse } = await import('yaml');
    const parsed: unknown = parse(yamlText);
    if (parsed === null || parsed === undefined) return { data: {}, bodyOffset, firstLine };
    if (typeof parsed !== 'object' || Array.isArray(parsed))
      return { data: {}, bodyOffset, firstLine, problem: 'its frontmatter is not a key: value mapping' };
    return { data: parsed as Record<string, unknown>, bodyOffset, firstLine };
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0]?.replace(/:$/, '');
    return { data: {}, bodyOffset, firstLine, problem: `its frontmatter is not valid YAML (${reason})` };
  }
}

/** The body of a file after its frontmatter. */
export async function readBody(path: string, offset: number): Promise<string> {
  return (await readFile(path)).subarray(offset).toString('utf8');
}
