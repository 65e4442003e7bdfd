/**
 * What the mock server remembers about each request, and an API-neutral view of a request body
 * used by turn matching (both wire formats are reduced to the few facts a `match` can test).
 */

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
  lastToolResultText: string;
  toolNames: string[];
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text of a string or of the `text` parts of a content array. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is Json => isObject(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

function messagesOf(body: Json): Json[] {
  return Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
}

function anthropicView(body: Json): Omit<RequestView, 'api' | 'model' | 'toolNames'> {
  const messages = messagesOf(body).filter((m) => m.role === 'user');
  let lastUserText = '';
  for (let i = messages.length - 1; i >= 0 && !lastUserText; i--) lastUserText = textOf(messages[i]?.content);
  const last = messages.at(-1)?.content;
  const results = Array.isArray(last)
    ? last.filter((b): b is Json => isObject(b) && b.type === 'tool_result').map((b) => textOf(b.content))
    : [];
  return { lastUserText, lastToolResultText: results.join('\n') };
}

function openaiView(body: Json): Omit<RequestView, 'api' | 'model' | 'toolNames'> {
  const messages = messagesOf(body);
  const users = messages.filter((m) => m.role === 'user');
  let lastUserText = '';
  for (let i = users.length - 1; i >= 0 && !lastUserText; i--) lastUserText = textOf(users[i]?.content);
  // Tool results are the trailing run of `role: tool` messages.
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
    results.unshift(textOf(messages[i]?.content));
  }
  return { lastUserText, lastToolResultText: results.join('\n') };
}

function toolNamesOf(body: Json): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.filter(isObject).map((tool) => {
    const fn = isObject(tool.function) ? tool.function : tool;
    return typeof fn.name === 'string' ? fn.name : '';
  });
}

export function viewRequest(api: ApiKind, body: unknown): RequestView {
  const json = isObject(body) ? body : {};
  const parts = api === 'anthropic' ? anthropicView(json) : openaiView(json);
  return {
    api,
    model: typeof json.model === 'string' ? json.model : '',
    toolNames: toolNamesOf(json),
    ...parts,
  };
}
