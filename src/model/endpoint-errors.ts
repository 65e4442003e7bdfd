/**
 * The failures both providers classify the same way, phrased with the endpoint so the user reads
 * which address or variable to fix: connection failures (refused, out of time), rejected keys,
 * unknown models, and a 200 answer that is not an event stream.
 */
import { apiName, BASE_URL_VARIABLE, baseUrlOrigin, type Endpoint } from './endpoint';
import {
  AuthError,
  ConnectionError,
  InvalidRequestError,
  InvalidResponseError,
  type ModelErrorOptions,
  ModelNotFoundError,
  UnreachableError,
} from './errors';
import { findDeadline, formatDuration } from './http/deadline';
import { MODEL_ALIASES } from './models';

/** Socket errors that mean nothing is listening at the address, or the address does not exist. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
};

export type FailureContext = { midStream: boolean; requestId?: string | undefined };

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A failure below HTTP as a ConnectionError: which deadline ran out, or which socket error, with
 * the address and what set it. Unreachable addresses are not retried (UnreachableError).
 */
export function connectionFailure(
  err: unknown,
  endpoint: Endpoint,
  context: FailureContext,
): ConnectionError {
  const options = { requestId: context.requestId, cause: err };
  const name = apiName(endpoint);
  const deadline = findDeadline(err);
  if (deadline) {
    const wait = formatDuration(deadline.waitedMs);
    const text =
      deadline.phase === 'connect'
        ? `Could not connect to ${name}${baseUrlOrigin(endpoint)} within ${wait}`
        : deadline.phase === 'first_byte'
          ? `No answer from ${name}: connected, but nothing came back within ${wait}`
          : `${capitalize(name)} stopped sending mid-response: nothing received for ${wait}`;
    return new ConnectionError(text, context.midStream, options);
  }
  const code = socketCode(err);
  const reason = code === undefined ? undefined : UNREACHABLE[code];
  if (reason !== undefined && !context.midStream) {
    const where = endpoint.baseUrlSource
      ? `Is the server running, and is ${endpoint.baseUrlSource} right?`
      : 'Check your network connection.';
    return new UnreachableError(
      `Cannot reach ${name}${baseUrlOrigin(endpoint)}: ${reason} (${innermostMessage(err)}). ${where}`,
      options,
    );
  }
  const what = context.midStream ? `The connection to ${name} dropped` : `Could not reach ${name}`;
  return new ConnectionError(`${what}: ${innermostMessage(err)}`, context.midStream, options);
}

/** 401/403: the key was refused. Names the variable it came from, or the one to set. */
export function authFailure(
  detail: string,
  status: number | undefined,
  endpoint: Endpoint,
  options: ModelErrorOptions,
): AuthError {
  const name = capitalize(apiName(endpoint));
  const said = detail.replace(/[.\s]+$/, '');
  if (endpoint.keyVariables.length === 0) {
    const variable = endpoint.api === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    return new AuthError(`${name} wants an API key (${said}): set ${variable}.`, options);
  }
  const from = endpoint.keyVariables.join(' / ');
  if (status === 403) {
    return new AuthError(
      `${name} refused the request made with the key in ${from} (${said}): check what that key may use.`,
      options,
    );
  }
  return new AuthError(`${name} rejected the key in ${from} (${said}): set ${from} to a valid key.`, options);
}

/**
 * A 404. When it is about the model (the body names it or says "model"), the error names the
 * model and the aliases; otherwise the path does not exist there, which is a base URL mistake.
 */
export function notFoundFailure(
  detail: string,
  code: string | undefined,
  endpoint: Endpoint,
  options: ModelErrorOptions & { model?: string | undefined },
): InvalidRequestError {
  const model = options.model;
  const aboutModel =
    code === 'model_not_found' ||
    /\bmodel\b/i.test(detail) ||
    (model !== undefined && model !== '' && detail.includes(model));
  if (model && aboutModel) {
    return new ModelNotFoundError(
      `${capitalize(apiName(endpoint))} does not know the model "${model}" (${detail}). ${modelAdvice(endpoint)}`,
      model,
      options,
    );
  }
  const variable = endpoint.baseUrlSource ?? 'the base URL';
  return new InvalidRequestError(
    `${capitalize(apiName(endpoint))} has no such endpoint (${detail}). Check ${variable}.${basePathHint(endpoint)}`,
    options,
  );
}

/**
 * What to pick instead of an unknown model. The aliases are Anthropic's models: on an
 * OpenAI-compatible server they would only send the user to another unknown id, so there the
 * advice is the server's own list.
 */
function modelAdvice(endpoint: Endpoint): string {
  if (endpoint.api === 'openai') {
    const list = `${endpoint.baseUrl.replace(/\/+$/, '')}/models`;
    return `Check --model or the "model" setting: the server lists the ids it serves at ${list} (Ollama: \`ollama list\`).`;
  }
  const aliases = Object.entries(MODEL_ALIASES)
    .map(([alias, id]) => `${alias} → ${id}`)
    .join(', ');
  return `Check --model or the "model" setting; aliases: ${aliases}.`;
}

/**
 * The usual cause of a 404 for the API's path: the `/v1` part of the base URL. An OpenAI-compatible
 * server serves under `/v1` (Ollama at http://localhost:11434/v1); Anthropic's SDK adds `/v1`
 * itself, so a base URL that ends in it asks for `/v1/v1/messages`. Two other slips: the whole
 * endpoint's address pasted from a server's docs (`…/v1/chat/completions`), and Ollama's own API
 * path (`…/api`, where its OpenAI API is at `/v1`). The hint names the URL to try.
 */
function basePathHint(endpoint: Endpoint): string {
  const base = endpoint.baseUrl.replace(/\/+$/, '');
  if (endpoint.api === 'openai') {
    const root = base.replace(OPENAI_ENDPOINT_PATH, '');
    if (/\/api$/i.test(root)) {
      const host = root.slice(0, -4);
      return ` An OpenAI-compatible base URL usually ends in /v1: try ${host}/v1 (Ollama serves its OpenAI API there, beside /api) or ${root}/v1.`;
    }
    const fix = /\/v1$/i.test(root) ? root : `${root}/v1`;
    return fix === base
      ? ' An OpenAI-compatible base URL usually ends in /v1.'
      : ` An OpenAI-compatible base URL usually ends in /v1${root !== base ? ", without the endpoint's path" : ''}: try ${fix}.`;
  }
  const root = base.replace(/(\/v1)?\/messages$/i, '');
  if (/\/v1$/i.test(root) || root !== base) {
    const fix = root.replace(/\/v1$/i, '');
    return ` The base URL is the server root, without /v1${root !== base ? '/messages' : ''}: try ${fix}.`;
  }
  // The usual way here: a local server that speaks the OpenAI API, given to the Anthropic variable.
  const other =
    endpoint.baseUrlSource === undefined
      ? ''
      : ` If it speaks the OpenAI API (Ollama, vLLM, llama.cpp), set OPENAI_BASE_URL=${base}/v1 instead.`;
  return ` The base URL is the server root, without /v1.${other}`;
}

/** The path of one endpoint, which a base URL copied from a request line ends in. */
const OPENAI_ENDPOINT_PATH = /\/(chat\/completions|completions|responses|embeddings|models)$/i;

/**
 * A 3xx: the transport does not follow redirects, because an API address that redirects is a
 * stale or wrong base URL (http → https, a moved gateway), and the fix is to set the new one.
 */
export function redirectFailure(
  location: string | null,
  endpoint: Endpoint,
  options: ModelErrorOptions,
): InvalidRequestError {
  const target = location ? ` to ${location}` : '';
  const variable = endpoint.baseUrlSource ?? BASE_URL_VARIABLE[endpoint.api];
  return new InvalidRequestError(
    `${capitalize(apiName(endpoint))} redirected the request${target}. Set ${variable} to the address it moved to.`,
    options,
  );
}

/** An error body that is a web page: its title ('' without one); undefined for anything else. */
export function webPageTitle(body: string): string | undefined {
  if (!/^\s*<(!doctype html|html|head|body)\b/i.test(body)) return undefined;
  const title = /<title[^>]*>([^<]*)</i.exec(body)?.[1];
  return title?.replace(/\s+/g, ' ').trim() ?? '';
}

/**
 * An error answer's text as it fits one line: a web page by its title, anything else flattened.
 * A body that is not the API's own error (`fromApi` false: no error type or code came with it, a
 * gateway's plain text) is cut as well; the API's own sentence is kept whole, every word of it
 * may matter.
 */
export function readableDetail(body: string, fromApi: boolean): string {
  const title = webPageTitle(body);
  if (title !== undefined) return title ? `a web page: "${title}"` : 'a web page';
  const flat = body.replace(/\s+/g, ' ').trim();
  return !fromApi && flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

/**
 * A 4xx that is a web page rather than the API's JSON error: a proxy, firewall or login wall
 * answered in the API's place. Not the key's fault, whatever the status says, so the advice is
 * the address, as for a 200 page (assertEventStream).
 */
export function webPageFailure(
  title: string,
  endpoint: Endpoint,
  options: ModelErrorOptions,
): InvalidResponseError {
  const quote = title ? ` ("${title}")` : '';
  return new InvalidResponseError(
    `${capitalize(apiName(endpoint))} answered with a web page${quote} instead of the API's answer. ${pageAdvice(endpoint)}`,
    options,
  );
}

function pageAdvice(endpoint: Endpoint): string {
  return endpoint.baseUrlSource
    ? `Check ${endpoint.baseUrlSource}: it should be the API's address, not a web page or a proxy's login.`
    : 'A proxy or captive portal on this network may be answering in its place.';
}

/** How much of a wrong body is read to quote it. */
const SNIPPET_BYTES = 2048;

/**
 * A streaming request must get `text/event-stream`. An HTML page (a proxy, a login wall) or a
 * JSON body (a server that ignored `stream: true`) fails at once with what came instead, rather
 * than being read as an empty stream and retried as a dropped connection. A missing content type
 * is let through: some small servers send none.
 */
export async function assertEventStream(
  response: Response,
  endpoint: Endpoint,
  options: ModelErrorOptions,
): Promise<void> {
  const type = response.headers.get('content-type');
  if (type === null) return;
  const media = type.split(';')[0]?.trim().toLowerCase() ?? '';
  if (media === 'text/event-stream') return;
  const snippet = await readSnippet(response);
  const name = capitalize(apiName(endpoint));
  const what = media.includes('html')
    ? 'an HTML page'
    : media.includes('json')
      ? 'a JSON body'
      : `"${media}"`;
  const quote = quoteOf(snippet, media);
  throw new InvalidResponseError(
    `${name} answered with ${what} instead of an event stream${quote ? ` (${quote})` : ''}. ${pageAdvice(endpoint)}`,
    options,
  );
}

async function readSnippet(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // What arrived is enough to quote.
  } finally {
    void reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, SNIPPET_BYTES));
}

function quoteOf(snippet: string, media: string): string {
  if (media.includes('html')) {
    const title = /<title[^>]*>([^<]*)</i.exec(snippet)?.[1];
    const text = title ?? snippet.replace(/<[^>]*>/g, ' ');
    return shorten(text);
  }
  return shorten(snippet);
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `"${flat.slice(0, 117)}…"` : flat ? `"${flat}"` : '';
}

function socketCode(err: unknown): string | undefined {
  for (let current = err, depth = 0; current instanceof Error && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

/** The innermost message names the actual problem ("connect ECONNREFUSED 127.0.0.1:9"). */
export function innermostMessage(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  for (let current = err, depth = 0; current instanceof Error && depth < 6; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}
