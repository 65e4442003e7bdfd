/**
 * Recovery from a media error (the API's 400 for an image or PDF it cannot use: too large, too
 * many pixels, unreadable): the offending blocks are replaced by a short text note the model can
 * read, and the loop retries once. Which blocks offend is decided from data, not guessed from the
 * wire: media the API already accepted cannot be the problem, so the suspects are the media added
 * since the model last answered (all media only when there are none of those, e.g. after a model
 * switch); when the error states a byte limit, only suspects larger than it are removed.
 */
import type {
  DocumentBlock,
  ImageBlock,
  ToolReferenceBlock,
  ToolResultBlock,
  UserContentBlock,
} from '../model/types';
import { createSystemMessage, type Message, type SystemMessage, type UserMessage } from '../session/messages';
import { errorText } from './recovery';

/** A block of a user message, or one inside a tool result (which may name a loaded tool). */
type ResultOrUserBlock = UserContentBlock | ToolReferenceBlock;

type MediaBlock = ImageBlock | DocumentBlock;
type MediaKind = 'image' | 'document';

export type MediaStrip = {
  messages: Message[];
  /** Blocks replaced by a note. */
  removed: number;
  /** What the user is told (also kept in the transcript). */
  notice: SystemMessage;
};

const REASON_CHARS = 160;
/** "image exceeds 5 MB maximum" without a byte count. */
const MB = 1024 * 1024;

/** The kinds of block the error is about: a PDF/document error spares images, and the reverse. */
function kindsOf(text: string): Set<MediaKind> {
  const document = /\b(pdf|document)s?\b/i.test(text);
  const image = /\bimages?\b/i.test(text);
  if (document && !image) return new Set(['document']);
  if (image && !document) return new Set(['image']);
  return new Set(['image', 'document']);
}

/** The largest size the error allows, in bytes, when it says. */
function byteLimitOf(text: string): number | undefined {
  const bytes = /(\d+)\s*bytes\s*>\s*(\d+)\s*bytes/i.exec(text);
  if (bytes) return Number(bytes[2]);
  const mb = /exceeds?\s+(\d+(?:\.\d+)?)\s*MB/i.exec(text);
  return mb ? Number(mb[1]) * MB : undefined;
}

/** Decoded size of a base64 payload; undefined for media given by URL or as text. */
function decodedBytes(block: MediaBlock): number | undefined {
  const source = block.source;
  if (source.type !== 'base64') return undefined;
  const padding = source.data.endsWith('==') ? 2 : source.data.endsWith('=') ? 1 : 0;
  return Math.floor((source.data.length * 3) / 4) - padding;
}

/** The API's reason without the request path it starts with ("messages.3.content.0.image…: "). */
function shortReason(error: unknown): string {
  const text = errorText(error)
    .replace(/^(?:[\w-]+\.)*\d+(?:\.[\w-]+)*:\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
}

type Found = { message: number; block: MediaBlock; origin: string };

/** Where a block came from, in words the model can act on. */
function originOf(result: ToolResultBlock | undefined, calls: ReadonlyMap<string, string>): string {
  if (!result) return 'the user';
  return calls.get(result.tool_use_id) ?? 'a tool result';
}

function describeCall(name: string, input: Record<string, unknown>): string {
  const target = input.file_path ?? input.notebook_path ?? input.path ?? input.url;
  return typeof target === 'string' ? `${name}(${target})` : name;
}

function collectMedia(messages: readonly Message[], from: number, kinds: Set<MediaKind>): Found[] {
  const calls = new Map<string, string>();
  for (const m of messages)
    if (m.type === 'assistant')
      for (const b of m.message.content)
        if (b.type === 'tool_use') calls.set(b.id, describeCall(b.name, b.input));
  const found: Found[] = [];
  const visit = (index: number, blocks: readonly ResultOrUserBlock[], result?: ToolResultBlock) => {
    for (const block of blocks) {
      if (block.type === 'tool_result') {
        if (typeof block.content !== 'string') visit(index, block.content, block);
      } else if ((block.type === 'image' || block.type === 'document') && kinds.has(block.type)) {
        found.push({ message: index, block, origin: originOf(result, calls) });
      }
    }
  };
  for (let i = from; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.type === 'user' && typeof m.message.content !== 'string') visit(i, m.message.content);
  }
  return found;
}

/** Index after the last response the model actually gave: media before it were accepted. */
function firstUnanswered(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as Message;
    if (m.type === 'assistant' && m.apiError === undefined && m.aborted !== true) return i + 1;
  }
  return 0;
}

function noteFor(found: Found, reason: string): string {
  const what = found.block.type === 'image' ? 'An image' : 'A document';
  return (
    `[${what} from ${found.origin} was removed: the model API could not use it (${reason}). ` +
    'Work without it, or ask the user for a smaller or different file.]'
  );
}

function replaceBlocks<T extends ResultOrUserBlock>(
  blocks: readonly T[],
  notes: ReadonlyMap<MediaBlock, string>,
): T[] {
  return blocks.map((block) => {
    if (block.type === 'tool_result' && typeof block.content !== 'string') {
      const content = replaceBlocks(block.content, notes);
      return content.some((b, i) => b !== (block.content as unknown[])[i]) ? { ...block, content } : block;
    }
    const note = notes.get(block as MediaBlock);
    return note === undefined ? block : ({ type: 'text', text: note } as T);
  });
}

/**
 * The history with the media the API refused replaced by notes, or undefined when there is no
 * media to remove (the error then ends the turn). Messages keep their uuids: the transcript
 * records the new content as a replacement.
 */
export function stripRefusedMedia(messages: readonly Message[], error: unknown): MediaStrip | undefined {
  const text = errorText(error);
  const kinds = kindsOf(text);
  let suspects = collectMedia(messages, firstUnanswered(messages), kinds);
  if (suspects.length === 0) suspects = collectMedia(messages, 0, kinds);
  const limit = byteLimitOf(text);
  if (limit !== undefined) {
    const larger = suspects.filter((f) => (decodedBytes(f.block) ?? Number.POSITIVE_INFINITY) > limit);
    if (larger.length > 0) suspects = larger;
  }
  if (suspects.length === 0) return undefined;

  const reason = shortReason(error);
  const notes = new Map<MediaBlock, string>(suspects.map((f) => [f.block, noteFor(f, reason)]));
  const touched = new Set(suspects.map((f) => f.message));
  const out = messages.map((m, i) => {
    if (!touched.has(i)) return m;
    const user = m as UserMessage;
    const content = replaceBlocks(user.message.content as UserContentBlock[], notes);
    return { ...user, message: { ...user.message, content } };
  });
  const images = suspects.filter((f) => f.block.type === 'image').length;
  const documents = suspects.length - images;
  const parts = [
    images > 0 ? `${images} image${images === 1 ? '' : 's'}` : '',
    documents > 0 ? `${documents} document${documents === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const notice = createSystemMessage(
    'warning',
    `Removed ${parts.join(' and ')} the model API could not use (${reason}); retrying without ${
      suspects.length === 1 ? 'it' : 'them'
    }.`,
    { level: 'warning', data: { mediaStripped: { count: suspects.length, reason } } },
  );
  return { messages: out, removed: suspects.length, notice };
}
