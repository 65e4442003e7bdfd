/**
 * The OpenAI-compatible provider: OpenAI itself and local servers (Ollama, vLLM, llama.cpp,
 * LM Studio) through the official SDK's Chat Completions API.
 */
import OpenAI from 'openai';
import { AbortedError, MissingCredentialsError } from '../errors';
import type { ModelRequest, Provider, StreamEvent } from '../types';
import { classifyOpenAIError } from './classify-error';
import { ChatStreamNormalizer } from './stream-normalizer';
import { isOpenAIPlatform, OPENAI_DEFAULT_BASE_URL, toChatCompletionParams } from './translate-request';

export type OpenAIProviderOptions = {
  /** Required for api.openai.com; local servers usually need none. */
  apiKey?: string;
  /** Defaults to https://api.openai.com/v1. */
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  defaultHeaders?: Record<string, string>;
  /** Per-request timeout; the SDK's default (10 minutes) when unset. */
  timeoutMs?: number;
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
  private generatedIds = 0;

  constructor(options: OpenAIProviderOptions = {}) {
    this.baseURL = options.baseURL ?? OPENAI_DEFAULT_BASE_URL;
    this.missingKey = !options.apiKey && isOpenAIPlatform(this.baseURL);
    this.client = new OpenAI({
      // Explicit values so the SDK never falls back to its own environment lookups.
      apiKey: options.apiKey || 'none',
      baseURL: this.baseURL,
      // Yoke's retry layer owns retries, stream resets and fallback.
      maxRetries: 0,
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      // Without a key, send no Authorization header at all rather than a made-up one.
      defaultHeaders: { ...(options.apiKey ? {} : { Authorization: null }), ...options.defaultHeaders },
    });
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
      });
    }
  }
}
