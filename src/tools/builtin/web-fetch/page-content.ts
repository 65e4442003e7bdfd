/**
 * Turns a fetched body into text the summarizing model can read: HTML becomes Markdown without
 * scripts, styles and navigation; text and JSON pass through; binary content is refused.
 */
import { ToolError } from '../../tool';

/** Elements that carry no readable content, only noise and tokens. */
const NOISE_ELEMENTS = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
  'canvas',
  'nav',
  'head',
  'form',
];

const TEXT_TYPES = [
  /^text\//,
  /[/+]json$/,
  /[/+]xml$/,
  /^application\/(javascript|ecmascript|x-sh|x-yaml|yaml|toml)$/,
];

function mimeType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

function charset(contentType: string): string {
  const match = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType);
  return match ? match[1]!.toLowerCase() : 'utf-8';
}

function decode(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charset(contentType)).decode(body);
  } catch {
    // An unknown charset label: UTF-8 is right far more often than not.
    return new TextDecoder('utf-8').decode(body);
  }
}

function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 8000).includes(0);
}

function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(text);
}

async function htmlToMarkdown(html: string): Promise<string> {
  // Loaded on first use: turndown brings a DOM implementation that startup should not pay for.
  const { default: TurndownService } = await import('turndown');
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  service.remove(NOISE_ELEMENTS);
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The page as Markdown or plain text; throws a ToolError for content that is not text. */
export async function pageToText(body: Buffer, contentType: string, url: string): Promise<string> {
  const mime = mimeType(contentType);
  if (mime === 'text/html' || mime === 'application/xhtml+xml')
    return htmlToMarkdown(decode(body, contentType));
  if (TEXT_TYPES.some((pattern) => pattern.test(mime))) return decode(body, contentType);
  if (!mime || mime === 'application/octet-stream') {
    if (!looksBinary(body)) {
      const text = decode(body, contentType);
      return looksLikeHtml(text) ? htmlToMarkdown(text) : text;
    }
  }
  throw new ToolError(
    `${url} is ${mime || 'binary data'}, not a web page or text, so WebFetch cannot read it. ` +
      'To work with the file, download it with Bash (e.g. curl -L -o <file> <url>).',
  );
}
