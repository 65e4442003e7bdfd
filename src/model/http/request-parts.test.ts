/**
 * requestParts reads fetch's arguments without building a Request; whatever it returns must be
 * what a Request built from the same arguments would have sent.
 */
import { describe, expect, it } from 'vitest';
import { type RequestParts, requestParts } from './request-parts';

async function throughRequest(input: string | URL, init: RequestInit): Promise<RequestParts> {
  const request = new Request(input, init);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    url: new URL(request.url),
    method: request.method,
    headers,
    body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
  };
}

const url = 'https://api.example.test/v1/messages?beta=true';

const cases: Array<[string, RequestInit]> = [
  [
    'the SDK shape: Headers, a JSON string, POST',
    {
      method: 'POST',
      headers: new Headers({
        'Content-Type': 'application/json',
        'X-Api-Key': 'k',
        Accept: 'application/json',
      }),
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'héllo ✓' }] }),
    },
  ],
  [
    'a record of headers and a lower-case method',
    { method: 'post', headers: { 'X-One': ' 1 ' }, body: '{}' },
  ],
  ['a string body with no type', { method: 'POST', body: 'plain text' }],
  [
    'pairs with a repeated name',
    {
      method: 'PUT',
      headers: [
        ['Accept', 'a/b'],
        ['accept', 'c/d'],
      ],
      body: new Uint8Array([1, 2, 3]),
    },
  ],
  ['an ArrayBuffer body', { method: 'POST', body: new Uint8Array([104, 105]).buffer }],
  ['a view into a larger buffer', { method: 'POST', body: new Uint8Array([9, 8, 7, 6]).subarray(1, 3) }],
  ['no init at all but a GET', {}],
  ['a non-standard method keeps its case', { method: 'propfind', body: 'x' }],
  ['a stream body goes through Request', { method: 'POST', body: new Blob(['blob body']) }],
];

describe('requestParts', () => {
  for (const [name, init] of cases) {
    it(`sends what a Request would: ${name}`, async () => {
      expect(await requestParts(url, init)).toEqual(await throughRequest(url, init));
    });
  }

  it('takes a URL object and a Request as input', async () => {
    expect((await requestParts(new URL(url))).url.href).toBe(url);
    const request = new Request(url, { method: 'POST', headers: { 'x-a': 'b' }, body: 'from a request' });
    const parts = await requestParts(request);
    expect(parts.method).toBe('POST');
    expect(parts.headers['x-a']).toBe('b');
    expect(parts.body?.toString()).toBe('from a request');
  });

  it('refuses a relative URL as fetch does', async () => {
    await expect(requestParts('/v1/messages', {})).rejects.toThrow(TypeError);
  });
});
