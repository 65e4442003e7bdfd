/**
 * What node:http needs from a fetch call — URL, method, header record, body bytes — read straight
 * from `(input, init)`. The SDKs call fetch with a URL string and an init whose body is a JSON
 * string; building a WHATWG `Request` just to read those back costs the first model request of a
 * process several milliseconds of cold undici code (its Request class, WebIDL converters, an
 * AbortSignal and body stream per call), which a user sees as a keystroke that echoes late while a
 * turn starts and as a slower first answer with `-p`. Anything less plain (a `Request` as input,
 * a stream, Blob or form body) still goes through `Request`, which knows every form fetch accepts.
 */

export type RequestParts = {
  url: URL;
  method: string;
  /** Lower-case names; repeated headers joined with ", " as `Headers` does. */
  headers: Record<string, string>;
  body: Buffer | undefined;
};

export async function requestParts(
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<RequestParts> {
  const body = plainBody(init.body);
  if (input instanceof Request || body === NOT_PLAIN) return viaRequest(input, init);
  const headers = headerRecord(init.headers);
  // fetch labels a string body it was given without a type as text.
  if (typeof init.body === 'string' && headers['content-type'] === undefined)
    headers['content-type'] = 'text/plain;charset=UTF-8';
  return {
    url: new URL(input),
    method: normalizeMethod(init.method ?? 'GET'),
    headers,
    body,
  };
}

const NOT_PLAIN = Symbol('not plain');

function plainBody(body: RequestInit['body']): Buffer | undefined | typeof NOT_PLAIN {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return NOT_PLAIN;
}

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const trimmed = String(value).trim();
    record[key] = record[key] === undefined ? trimmed : `${record[key]}, ${trimmed}`;
  };
  if (!headers) return record;
  if (headers instanceof Headers) for (const [name, value] of headers) add(name, value);
  else if (Array.isArray(headers)) for (const [name, value] of headers) add(name as string, value as string);
  else
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value === 'string') add(name, value);
      else if (Array.isArray(value)) for (const one of value) add(name, one);
    }
  return record;
}

/** fetch upper-cases the standard methods only (`patch` stays as given). */
function normalizeMethod(method: string): string {
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'].includes(upper) ? upper : method;
}

async function viaRequest(input: string | URL | Request, init: RequestInit): Promise<RequestParts> {
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
