import { describe, expect, it } from 'vitest';
import { collectSse, parseSse, parseSseJson, readSse } from './sse';

function streamOf(...parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

describe('SSE parsing', () => {
  it('parses event names, multi-line data, ids and comments; drops an unfinished event', () => {
    const text =
      ': keep-alive\nevent: ping\ndata: {}\n\nid: 7\ndata: line one\ndata:line two\n\ndata: unfinished';
    expect(parseSse(text)).toEqual([
      { event: 'ping', data: '{}', id: undefined },
      { event: undefined, data: 'line one\nline two', id: '7' },
    ]);
  });

  it('accepts CRLF and CR line ends', () => {
    expect(parseSse('event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r')).toEqual([
      { event: 'a', data: '1', id: undefined },
      { event: 'b', data: '2', id: undefined },
    ]);
  });

  it('parses JSON data and skips the [DONE] sentinel', () => {
    expect(parseSseJson('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([{ event: undefined, data: { a: 1 } }]);
  });

  it('reassembles events split across chunk boundaries, including a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('event: t\ndata: "héllo ✓"\n\n');
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of é
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    expect(await collectSse(stream)).toEqual([{ event: 't', data: '"héllo ✓"', id: undefined }]);
  });

  it('yields events as they arrive from a Response', async () => {
    const events = [];
    for await (const event of readSse(new Response(streamOf('data: 1\n', '\ndata: 2\n\n'))))
      events.push(event.data);
    expect(events).toEqual(['1', '2']);
  });
});
