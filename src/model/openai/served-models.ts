/**
 * Which models an OpenAI-compatible server serves: `GET <base>/models`, the list Ollama, vLLM,
 * llama.cpp and LM Studio all answer. Asked when a session names no model (served-model.ts).
 * A server that cannot be reached is reported as a model request would be (the address and what
 * set it); any other failure is one short reason for the caller's line.
 */
import type { Endpoint } from '../endpoint';
import { authFailure, connectionFailure, notFoundFailure, readableDetail } from '../endpoint-errors';
import type { FetchLike } from '../http/timed-fetch';

/**
 * The ids; or why there is no list (`failure`, a short reason); or, when a chat request would fail
 * the same way (nothing answers, a refused key, a 404 at a base URL without /v1), the whole line
 * that request would get (`requestFailure`).
 */
export type ServedModels = { ids: string[] } | { failure: string } | { requestFailure: string };

export type ServedModelsOptions = {
  endpoint: Endpoint;
  fetch: FetchLike;
  /** Sent as a Bearer token when given. */
  apiKey?: string | undefined;
  /** Ends the request (a /model listing the user cancelled, or its deadline). */
  signal?: AbortSignal | undefined;
};

export function modelListUrl(endpoint: Endpoint): string {
  return `${endpoint.baseUrl.replace(/\/+$/, '')}/models`;
}

/** The ids the server lists, in its order. */
export async function listServedModels(options: ServedModelsOptions): Promise<ServedModels> {
  const { endpoint } = options;
  let response: Response;
  try {
    response = await options.fetch(modelListUrl(endpoint), {
      headers: {
        accept: 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    return { requestFailure: connectionFailure(error, endpoint, { midStream: false }).message };
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const detail = errorSentence(text) ?? readableDetail(text, false);
    if (response.status === 401 || response.status === 403) {
      return { requestFailure: authFailure(detail, response.status, endpoint, {}).message };
    }
    if (response.status === 404 && !/\/v1\/*$/i.test(endpoint.baseUrl)) {
      return { requestFailure: notFoundFailure(detail, undefined, endpoint, {}).message };
    }
    return { failure: `it answered ${response.status}${detail ? ` (${detail})` : ''}` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { failure: 'its answer is not JSON' };
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return { failure: 'its answer has no "data" list' };
  const ids = data
    .map((entry: unknown) => (entry as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  return { ids };
}

/** The sentence of a JSON error body (`{"error":{"message":…}}`, `{"error":"…"}`, `{"message":…}`). */
function errorSentence(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = (body ?? {}) as { error?: unknown; message?: unknown };
  const error = record.error as { message?: unknown } | string | undefined;
  const message = typeof error === 'string' ? error : (error?.message ?? record.message);
  return typeof message === 'string' && message.trim() !== '' ? message.trim() : undefined;
}
