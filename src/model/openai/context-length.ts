/**
 * Asks an OpenAI-compatible server how long a model's context is, for models Yoke's table does not
 * know. Two places say it:
 * - the model list, `GET <base>/models`: vLLM puts `max_model_len` on each entry (OpenRouter and
 *   some others `context_length`);
 * - Ollama's `POST <root>/api/show {model}`: `num_ctx` in `parameters` when the model file sets
 *   the window it runs with, else `model_info["<architecture>.context_length"]`, the length the
 *   model was trained for.
 * Any failure or missing figure is `undefined`: the caller keeps its default.
 */
import type { Endpoint } from '../endpoint';
import type { FetchLike } from '../http/timed-fetch';

export type ContextLengthOptions = {
  endpoint: Endpoint;
  fetch: FetchLike;
  /** Sent as a Bearer token when the server wants one. */
  apiKey?: string | undefined;
};

export async function fetchContextLength(
  model: string,
  signal: AbortSignal,
  options: ContextLengthOptions,
): Promise<number | undefined> {
  const listed = await fromModelList(model, signal, options);
  if (listed !== undefined) return listed;
  return fromOllamaShow(model, signal, options);
}

function headers(options: ContextLengthOptions): Record<string, string> {
  return {
    accept: 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
}

async function getJson(url: string, init: RequestInit, fetch: FetchLike): Promise<unknown> {
  const response = await fetch(url, init);
  if (!response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

async function fromModelList(
  model: string,
  signal: AbortSignal,
  options: ContextLengthOptions,
): Promise<number | undefined> {
  const url = `${options.endpoint.baseUrl.replace(/\/+$/, '')}/models`;
  const body = await getJson(url, { headers: headers(options), signal }, options.fetch);
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return undefined;
  const entry = data.find((m: unknown) => (m as { id?: unknown })?.id === model) as
    | Record<string, unknown>
    | undefined;
  return positiveInt(entry?.max_model_len) ?? positiveInt(entry?.context_length);
}

async function fromOllamaShow(
  model: string,
  signal: AbortSignal,
  options: ContextLengthOptions,
): Promise<number | undefined> {
  // Ollama serves its OpenAI-compatible API under /v1 and its own API at the root.
  const root = options.endpoint.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const body = (await getJson(
    `${root}/api/show`,
    {
      method: 'POST',
      headers: { ...headers(options), 'content-type': 'application/json' },
      body: JSON.stringify({ model }),
      signal,
    },
    options.fetch,
  )) as { parameters?: unknown; model_info?: unknown } | undefined;
  if (!body) return undefined;
  const numCtx =
    typeof body.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(body.parameters)?.[1] : undefined;
  if (numCtx !== undefined) return positiveInt(Number(numCtx));
  const info = body.model_info;
  if (typeof info !== 'object' || info === null) return undefined;
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith('.context_length')) return positiveInt(value);
  }
  return undefined;
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
