/**
 * What the mock server remembers about each request, and an API-neutral view of a request body
 * used by turn matching (both wire formats are reduced to the few facts a `match` can test).
 */
import { isJsonObject, type JsonObject } from '../../lib/json-object';

export type ApiKind = 'anthropic' | 'openai';

export type RecordedRequest = {
  method: string;
  /** The URL path without the query string. */
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body; undefined when the body was empty or not JSON. */
  body: unknown;
  /** Undefined for routes that belong to neither API. */
  api: ApiKind | undefined;
  /** The scenario turn that answered; undefined when none did (auth failure, count_tokens, no match). */
  turnIndex: number | undefined;
  /** Date.now() when the request arrived. */
  receivedAt: number;
};

export type RequestView = {
  api: ApiKind;
  model: string;
  lastUserText: string;
  /** The text of the first user message that has text (the conversation's opening prompt). */
  firstUserText: string;
  /** The system prompt's text. */
  systemText: string;
  lastToolResultText: string;
  toolNames: string[];
  /** The first image the request carries: where, in the API's own path notation, and its size. */
  firstImage?: RequestImage;
};

export type RequestImage = { path: string; bytes: number };

type Json = JsonObject;

/** Text of a string or of the `text` parts of a content array; a `tool_reference` as the name it loads. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (!isJsonObject(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'tool_reference' && typeof part.tool_name === 'string') {
      texts.push(`tool_reference:${part.tool_name}`);
    }
  }
  return texts.join('\n');
}

function messagesOf(body: Json): Json[] {
  return Array.isArray(body.messages) ? body.messages.filter(isJsonObject) : [];
}

type TextParts = Omit<RequestView, 'api' | 'model' | 'toolNames'>;

/** The first user message with text, and the last (tool results have none). */
function userTexts(users: readonly Json[]): { firstUserText: string; lastUserText: string } {
  let lastUserText = '';
  for (let i = users.length - 1; i >= 0 && !lastUserText; i--) lastUserText = textOf(users[i]?.content);
  let firstUserText = '';
  for (let i = 0; i < users.length && !firstUserText; i++) firstUserText = textOf(users[i]?.content);
  return { firstUserText, lastUserText };
}

function anthropicView(body: Json): TextParts {
  const messages = messagesOf(body).filter((m) => m.role === 'user');
  const last = messages.at(-1)?.content;
  const results = Array.isArray(last)
    ? last.filter((b): b is Json => isJsonObject(b) && b.type === 'tool_result').map((b) => textOf(b.content))
    : [];
  return { ...userTexts(messages), systemText: textOf(body.system), lastToolResultText: results.join('\n') };
}

function openaiView(body: Json): TextParts {
  const messages = messagesOf(body);
  const users = messages.filter((m) => m.role === 'user');
  const systemText = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n');
  // Tool results are the trailing run of `role: tool` messages.
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
    results.unshift(textOf(messages[i]?.content));
  }
  return { ...userTexts(users), systemText, lastToolResultText: results.join('\n') };
}

/** Decoded size of base64 data (a data URL's payload for OpenAI). */
function base64Bytes(data: string): number {
  const payload = data.slice(data.indexOf(',') + 1);
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  return Math.floor((payload.length * 3) / 4) - padding;
}

/** An image block's size, for either wire's block shape; undefined for anything else. */
function imageBytes(block: Json): number | undefined {
  if (block.type === 'image' && isJsonObject(block.source)) {
    return typeof block.source.data === 'string' ? base64Bytes(block.source.data) : 0;
  }
  if (block.type === 'image_url' && isJsonObject(block.image_url)) {
    return typeof block.image_url.url === 'string' ? base64Bytes(block.image_url.url) : 0;
  }
  return undefined;
}

/** The first image, searching message content and (Anthropic) tool results' content. */
function firstImageOf(api: ApiKind, body: Json): RequestImage | undefined {
  const suffix = api === 'anthropic' ? '.image.source.base64' : '.image_url';
  const search = (blocks: unknown, path: string): RequestImage | undefined => {
    if (!Array.isArray(blocks)) return undefined;
    for (const [j, block] of blocks.entries()) {
      if (!isJsonObject(block)) continue;
      const bytes = imageBytes(block);
      if (bytes !== undefined) return { path: `${path}.${j}${suffix}`, bytes };
      const nested = search(block.content, `${path}.${j}.content`);
      if (nested) return nested;
    }
    return undefined;
  };
  for (const [i, message] of messagesOf(body).entries()) {
    const found = search(message.content, `messages.${i}.content`);
    if (found) return found;
  }
  return undefined;
}

function toolNamesOf(body: Json): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.filter(isJsonObject).map((tool) => {
    const fn = isJsonObject(tool.function) ? tool.function : tool;
    return typeof fn.name === 'string' ? fn.name : '';
  });
}

export function viewRequest(api: ApiKind, body: unknown): RequestView {
  const json = isJsonObject(body) ? body : {};
  const parts = api === 'anthropic' ? anthropicView(json) : openaiView(json);
  const firstImage = firstImageOf(api, json);
  return {
    api,
    model: typeof json.model === 'string' ? json.model : '',
    toolNames: toolNamesOf(json),
    ...parts,
    ...(firstImage ? { firstImage } : {}),
  };
}
