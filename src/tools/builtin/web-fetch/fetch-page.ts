/**
 * Downloads one page for WebFetch with node:http(s) rather than fetch(): only a request-level
 * `lookup` and the request's own socket let the host policy check the address each connection
 * really uses (connection-guard.ts). Every request gets a fresh connection, so no check is
 * skipped for a reused socket. Redirects are followed by hand so that each hop is checked, and
 * one to another host is handed back.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { ToolError } from '../../tool';
import { bareHostname, checkFetchTarget, isAllowedHost, type LookupAll } from './address-policy';
import { type ConnectionPolicy, guardedLookup, guardSocket } from './connection-guard';

export type FetchPageOptions = {
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  allowPrivateHosts: readonly string[];
  lookup?: LookupAll;
};

export type FetchedPage =
  | { kind: 'page'; url: string; status: number; statusText: string; contentType: string; body: Buffer }
  | { kind: 'redirect'; url: string; status: number; statusText: string; location: string };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const HEADERS = {
  'user-agent': `Yoke/${YOKE_VERSION} (WebFetch; +https://github.com/yoke)`,
  accept: 'text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
};

/**
 * Same site: equal host, ignoring a leading `www.` (example.com ↔ www.example.com), and equal
 * explicit port. Default ports count as equal, so an http → https upgrade is followed.
 */
export function isSameHost(a: URL, b: URL): boolean {
  const strip = (url: URL) => bareHostname(url).replace(/^www\./, '');
  return strip(a) === strip(b) && a.port === b.port;
}

function send(url: URL, policy: ConnectionPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  // http, https and zlib cost ~15 ms to load, so they load on the first fetch, not at start.
  const { request } = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', headers: HEADERS, lookup: guardedLookup(policy), agent: false, signal },
      resolve,
    );
    if (!policy.allowed) req.on('socket', (socket) => guardSocket(socket, policy.host));
    req.on('error', reject);
    req.end();
  });
}

function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').toLowerCase().trim();
  const zlib = () => process.getBuiltinModule('node:zlib');
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib().createGunzip());
  if (encoding === 'deflate') return response.pipe(zlib().createInflate());
  if (encoding === 'br') return response.pipe(zlib().createBrotliDecompress());
  return response;
}

function tooLarge(maxBytes: number): ToolError {
  return new ToolError(
    `The page is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, too large to fetch. Try a more specific URL.`,
  );
}

/** Reads the body, counting decompressed bytes so a small compressed bomb cannot get through. */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = decoded(response);
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks);
}

/** Fetches `start`, following same-host redirects; every hop passes the host policy. */
export async function fetchPage(start: URL, options: FetchPageOptions): Promise<FetchedPage> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  if (options.signal.aborted) controller.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    let url = start;
    for (let hop = 0; ; hop++) {
      await checkFetchTarget(url, options.allowPrivateHosts, options.lookup);
      const policy: ConnectionPolicy = {
        host: bareHostname(url),
        allowed: isAllowedHost(url, options.allowPrivateHosts),
        ...(options.lookup ? { lookup: options.lookup } : {}),
      };
      const response = await send(url, policy, controller.signal);
      const status = response.statusCode ?? 0;
      const statusText = response.statusMessage ?? '';
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        response.resume();
        const next = new URL(location, url);
        if (!isSameHost(url, next)) {
          return { kind: 'redirect', url: url.href, status, statusText, location: next.href };
        }
        if (hop >= options.maxRedirects) {
          throw new ToolError(
            `Too many redirects (more than ${options.maxRedirects}) starting at ${start.href}.`,
          );
        }
        url = next;
        continue;
      }
      const body = await readBody(response, options.maxBytes);
      const contentType = String(response.headers['content-type'] ?? '');
      return { kind: 'page', url: url.href, status, statusText, contentType, body };
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (timedOut) {
      throw new ToolError(
        `Fetching ${start.href} timed out after ${Math.round(options.timeoutMs / 1000)} s.`,
      );
    }
    if (options.signal.aborted) throw new ToolError('The fetch was interrupted.');
    throw new ToolError(`Fetching ${start.href} failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}
