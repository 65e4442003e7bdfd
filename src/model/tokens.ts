/**
 * A cheap token estimate for a request before it is sent (context-window checks, compaction
 * triggers). It runs every turn over the whole conversation, so it is one linear pass over char
 * codes: no regexes, no tokenizer tables. Exact counts come from the API's usage afterwards.
 *
 * Weights per UTF-16 code unit, from BPE tokenizers' typical behaviour:
 * - ASCII letters, digits and whitespace: 1/4 (the usual ~4 characters per token of prose);
 * - ASCII punctuation: 1/2, because JSON and code punctuation (`{"`, `":`, `);`) rarely merges
 *   into long tokens, which makes such text about twice as dense as prose;
 * - CJK ideographs, kana, Hangul and fullwidth forms: 1 (roughly one token per character);
 * - surrogate halves (emoji, rare ideographs): 3/4 each, so 1.5 per astral character;
 * - other non-ASCII (accented Latin, Cyrillic, Greek, Arabic, ...): 2/5.
 */

import type { ContentBlock, MessageParam, ModelRequest, ToolResultContent, ToolSchema } from './types';

/**
 * An image as the API bills it is about width·height/750 tokens and images are downscaled to
 * about 1.15 megapixels, so ~1600 tokens at most; 2000 leaves room for the framing.
 */
export const IMAGE_TOKEN_ESTIMATE = 2000;
/**
 * A PDF's page count is unknown without parsing it; a PDF page costs text plus a page image,
 * roughly 1500-3000 tokens. This is a per-document figure for a few-page document.
 */
export const PDF_DOCUMENT_TOKEN_ESTIMATE = 6000;
/** Role and turn framing around each message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Framing around each tool definition (name, schema wrapper). */
export const TOOL_OVERHEAD_TOKENS = 8;

// Weights scaled by 20 so the inner loop adds small integers; divided once at the end.
const SCALE = 20;
const W_WORD = 5; // 1/4
const W_PUNCT = 10; // 1/2
const W_CJK = 20; // 1
const W_SURROGATE = 15; // 3/4
const W_OTHER = 8; // 2/5

/** Weight of each ASCII code, precomputed so the loop is a table lookup. */
const ASCII_WEIGHT = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const word =
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32 || c === 9 || c === 10;
  ASCII_WEIGHT[c] = word || c < 32 ? W_WORD : W_PUNCT;
}

function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x11ff) || // Hangul Jamo
    (c >= 0x2e80 && c <= 0x9fff) || // CJK radicals, punctuation, kana, ideographs
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xff00 && c <= 0xffef) // fullwidth forms
  );
}

/** Estimated tokens of a string. Never decreases when text is appended. */
export function estimateTextTokens(text: string): number {
  let units = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) units += ASCII_WEIGHT[c] as number;
    else if (c >= 0xd800 && c <= 0xdfff) units += W_SURROGATE;
    else if (isWide(c)) units += W_CJK;
    else units += W_OTHER;
  }
  return Math.ceil(units / SCALE);
}

function estimateToolResultContent(content: ToolResultContent): number {
  if (typeof content === 'string') return estimateTextTokens(content);
  let sum = 0;
  for (const block of content) {
    // The schema a reference expands to is counted with the request's tools, where it is sent.
    sum += block.type === 'tool_reference' ? estimateTextTokens(block.tool_name) : estimateBlockTokens(block);
  }
  return sum;
}

/** Estimated tokens of one content block. Images and PDFs use the fixed figures above. */
export function estimateBlockTokens(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return estimateTextTokens(block.text);
    case 'image':
      return IMAGE_TOKEN_ESTIMATE;
    case 'document':
      return block.source.type === 'text'
        ? estimateTextTokens(block.source.data) + estimateTextTokens(block.title ?? '')
        : PDF_DOCUMENT_TOKEN_ESTIMATE;
    case 'thinking':
      return estimateTextTokens(block.thinking);
    case 'redacted_thinking':
      // Opaque encrypted data: its base64 length over 4 is the best cheap proxy.
      return Math.ceil(block.data.length / 4);
    case 'tool_use':
      return estimateTextTokens(block.name) + estimateTextTokens(JSON.stringify(block.input));
    case 'tool_result':
      return estimateToolResultContent(block.content) + MESSAGE_OVERHEAD_TOKENS;
  }
}

/** Estimated tokens of a conversation. */
export function estimateMessagesTokens(messages: readonly MessageParam[]): number {
  let sum = 0;
  for (const message of messages) {
    sum += MESSAGE_OVERHEAD_TOKENS;
    if (typeof message.content === 'string') {
      sum += estimateTextTokens(message.content);
    } else {
      for (const block of message.content) sum += estimateBlockTokens(block);
    }
  }
  return sum;
}

/**
 * Estimated input tokens of a whole request: system prompt, tool definitions and messages.
 * `messagesTokens` is the messages' estimate when the caller keeps it up to date already (the
 * query loop does, so a long history is not walked again every turn).
 */
export function estimateRequestTokens(
  request: Pick<ModelRequest, 'system' | 'messages'> & Partial<Pick<ModelRequest, 'tools'>>,
  messagesTokens?: number,
): number {
  let sum = 0;
  for (const part of request.system) sum += estimateTextTokens(part.text);
  for (const tool of request.tools ?? []) sum += estimateToolSchemaTokens(tool);
  return sum + (messagesTokens ?? estimateMessagesTokens(request.messages));
}

/** Estimated tokens of one tool definition: its name, description and input schema. */
// Process-wide on purpose: a pure memo keyed weakly by a tool's input schema (a tool's schema
// object never changes once built), so each request and the context pipeline do not stringify
// and count the same ~35 KB of definitions again.
const schemaTokenMemo = new WeakMap<object, { name: string; description: string; tokens: number }>();
// The schema's own share, which the build counts for the built-in tools' prebuilt schemas
// (tools/builtin/index.ts): the start does not stringify and count them at all.
const schemaTextTokens = new WeakMap<object, number>();

/** Estimated tokens of a JSON Schema as sent in a tool definition. */
export function estimateSchemaTokens(schema: object): number {
  return estimateTextTokens(JSON.stringify(schema));
}

/** Records `estimateSchemaTokens(schema)`, computed elsewhere (at build time) for this object. */
export function rememberSchemaTokens(schema: object, tokens: number): void {
  schemaTextTokens.set(schema, tokens);
}

export function estimateToolSchemaTokens(
  tool: Pick<ToolSchema, 'name' | 'description' | 'input_schema'>,
): number {
  const key = tool.input_schema as object;
  const memo = schemaTokenMemo.get(key);
  if (memo && memo.name === tool.name && memo.description === tool.description) return memo.tokens;
  const tokens =
    TOOL_OVERHEAD_TOKENS +
    estimateTextTokens(tool.name) +
    estimateTextTokens(tool.description) +
    (schemaTextTokens.get(key) ?? estimateSchemaTokens(key));
  schemaTokenMemo.set(key, { name: tool.name, description: tool.description, tokens });
  return tokens;
}
