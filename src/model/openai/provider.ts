/**
 * The OpenAI-compatible provider: OpenAI itself and local servers (Ollama, vLLM, llama.cpp,
 * LM Studio) through the official SDK's Chat Completions API.
 */
import OpenAI from 'openai';
import type { Endpoint } from '../endpoint';
import { assertEventStream } from '../endpoint-errors';
import { AbortedError, MissingCredentialsError } from '../errors';
import type { TransportTimeouts } from '../http/deadline';
import { createTransport, type FetchLike, SDK_TIMEOUT_OFF_MS, type Transport } from '../http/transport';
import { resolveApiTimeouts } from '../timeouts';
import type { ModelRequest, Provider, StreamEvent } from '../types';
import { classifyOpenAIError } from './classify-error';
import { openAIEndpoint } from './endpoint';
import { ChatStreamNormalizer } from './stream-normalizer';
import { isOpenAIPlatform, OPENAI_DEFAULT_BASE_URL, toChatCompletionParams } from './translate-request';

export type OpenAIProviderOptions = {
  /** Required for api.openai.com; local servers usually need none. */
  apiKey?: string;
  /** Defaults to https://api.openai.com/v1. */
  baseURL?: string;
  /** The HTTP layer under the deadlines; Node sockets by default (tests pass a fake). */
  fetch?: FetchLike;
  defaultHeaders?: Record<string, string>;
  /** The connect, first-byte and between-chunks deadlines; the defaults for the base URL otherwise. */
  timeouts?: TransportTimeouts;
  /** What set the base URL and the key, for error messages; derived from the options otherwise. */
  endpoint?: Endpoint;
  /** Awaited before each request is sent (NodeFetchOptions.beforeSend; the REPL's pause for input). */
  beforeSend?: () => Promise<void>;
};

/** Reads OPENAI_API_KEY and OPENAI_BASE_URL; empty values count as unset. */
export function openAIOptionsFromEnv(env: Record<string, string | undefined>): OpenAIProviderOptions {
  const options: OpenAIProviderOptions = {};
  const apiKey = env.OPENAI_API_KEY?.trim();
  const baseURL = env.OPENAI_BASE_URL?.trim();
  if (apiKey) options.apiKey = apiKey;
  if (baseURL) options.baseURL = baseURL;
  return options;
}

export class OpenAIProvider implements Provider {
  readonly name = 'openai' as const;
  private readonly client: OpenAI;
  private readonly baseURL: string;
  private readonly missingKey: boolean;
  private readonly endpoint: Endpoint;
  private generatedIds = 0;
  private readonly transport: Transport;

  constructor(options: OpenAIProviderOptions = {}) {
    this.baseURL = options.baseURL ?? OPENAI_DEFAULT_BASE_URL;
    this.missingKey = !options.apiKey && isOpenAIPlatform(this.baseURL);
    this.endpoint = openAIEndpoint(options);
    const timeouts = options.timeouts ?? resolveApiTimeouts({ baseUrl: this.baseURL, env: {} }).timeouts;
    this.transport = createTransport(
      timeouts,
      options.fetch,
      options.beforeSend ? { beforeSend: options.beforeSend } : {},
    );
    this.client = new OpenAI({
      // Explicit values so the SDK never falls back to its own environment lookups.
      apiKey: options.apiKey || 'none',
      baseURL: this.baseURL,
      // Yoke's retry layer owns retries, stream resets and fallback.
      maxRetries: 0,
      timeout: SDK_TIMEOUT_OFF_MS,
      fetch: this.transport,
      // The SDK would print a garbled stream chunk raw on stderr; the typed error says it in one line.
      logLevel: 'off',
      // Without a key, send no Authorization header at all rather than a made-up one.
      defaultHeaders: { ...(options.apiKey ? {} : { Authorization: null }), ...options.defaultHeaders },
    });
  }

  /** A platform request without a key fails before it is sent: nothing to connect for. */
  preconnect(): void {
    if (!this.missingKey) this.transport.preconnect(this.baseURL);
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    if (this.missingKey) throw new MissingCredentialsError(['OPENAI_API_KEY']);
    if (signal?.aborted) throw new AbortedError();
    const params = toChatCompletionParams(request, { baseURL: this.baseURL });
    let normalizer: ChatStreamNormalizer | undefined;
    let requestId: string | undefined;
    try {
      const { data: chunks, response } = await this.client.chat.completions
        .create(params, signal ? { signal } : {})
        .withResponse();
      requestId = response.headers.get('x-request-id') ?? undefined;
      await assertEventStream(response, this.endpoint, requestId ? { requestId } : {});
      normalizer = new ChatStreamNormalizer({
        ...(requestId ? { requestId } : {}),
        model: request.model,
        generateToolCallId: () => `call_${this.generatedIds++}`,
      });
      for await (const chunk of chunks) yield* normalizer.push(chunk);
      // The SDK ends the iteration quietly when aborted; that must not look like a normal end.
      if (signal?.aborted) throw new AbortedError();
      yield* normalizer.finish();
    } catch (err) {
      if (signal?.aborted) throw new AbortedError();
      throw classifyOpenAIError(err, {
        midStream: normalizer?.hasStarted ?? false,
        ...(requestId ? { requestId } : {}),
        model: request.model,
        endpoint: this.endpoint,
      });
    }
  }
}
