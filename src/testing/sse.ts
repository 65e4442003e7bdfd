/**
 * A tiny Server-Sent Events parser for tests: enough of the WHATWG rules (event/data/id fields,
 * multi-line data, comments, CR/LF/CRLF line ends) to read what the mock server and the real
 * APIs send, without depending on any SDK.
 */

export type SseEvent = {
  /** The `event:` field; undefined when the event had none (OpenAI sends none). */
  event: string | undefined;
  data: string;
  id: string | undefined;
};

/** Parses complete events from `text`; a trailing event without its blank line is dropped. */
export function parseSse(text: string): SseEvent[] {
  const { events } = parseBlocks(text);
  return events;
}

/** Parses the JSON data of each event (skipping OpenAI's `[DONE]` sentinel). */
export function parseSseJson<T = unknown>(text: string): Array<{ event: string | undefined; data: T }> {
  return parseSse(text)
    .filter((e) => e.data !== '[DONE]')
    .map((e) => ({ event: e.event, data: JSON.parse(e.data) as T }));
}

/**
 * Yields events as they arrive from a fetch Response (or its body). If the connection drops
 * mid-stream, the events received so far are yielded and then the read error is thrown.
 */
export async function* readSse(source: Response | ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const stream = source instanceof Response ? source.body : source;
  if (!stream) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    const { events, rest } = parseBlocks(buffer);
    buffer = rest;
    yield* events;
  }
  buffer += decoder.decode();
  yield* parseBlocks(`${buffer}\n\n`).events;
}

/** Collects every event of a response; rejects if the stream fails. */
export async function collectSse(source: Response | ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(source)) events.push(event);
  return events;
}

function parseBlocks(text: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const normalized = text.replace(/\r\n?/g, '\n');
  const end = normalized.lastIndexOf('\n\n');
  if (end < 0) return { events, rest: text };
  for (const block of normalized.slice(0, end).split('\n\n')) {
    const event = parseBlock(block);
    if (event) events.push(event);
  }
  return { events, rest: normalized.slice(end + 2) };
}

function parseBlock(block: string): SseEvent | undefined {
  let event: string | undefined;
  let id: string | undefined;
  const data: string[] = [];
  let hasData = false;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') {
      data.push(value);
      hasData = true;
    }
  }
  // Per the spec an event without data is not dispatched.
  return hasData ? { event, data: data.join('\n'), id } : undefined;
}
