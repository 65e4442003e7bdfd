/**
 * The Anthropic Messages API as a Yoke Provider: streaming only, no SDK retries (src/model/retry.ts
 * owns retrying), every failure thrown as a typed model error.
 */

import { apiName, type Endpoint } from '../endpoint';
import { assertEventStream } from '../endpoint-errors';
import { AbortedError, ConnectionError, MissingCredentialsError } from '../errors';
import type { Transport } from '../http/transport';
import type { ModelRequest, Provider, StreamEvent } from '../types';
import { classifyAnthropicError } from './classify-error';
import type { YokeAnthropicClient } from './client';
import {
  type AnthropicProviderOptions,
  anthropicBaseUrl,
  anthropicEndpoint,
  anthropicTransport,
  createAnthropicClient,
  hasAnthropicCredentials,
} from './client';
import { toCountTokensParams, toMessagesParams } from './request';
import { AnthropicStreamNormalizer } from './stream-normalizer';

const CREDENTIAL_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

export class AnthropicProvider implements Provider {
  readonly name = 'anthropic' as const;
  private readonly client: YokeAnthropicClient;
  private readonly hasCredentials: boolean;
  private readonly endpoint: Endpoint;
  private readonly transport: Transport;
  private readonly baseUrl: string;

  constructor(options: AnthropicProviderOptions = {}) {
    this.transport = anthropicTransport(options);
    this.client = createAnthropicClient(options, this.transport);
    this.hasCredentials = hasAnthropicCredentials(options);
    this.endpoint = anthropicEndpoint(options);
    this.baseUrl = anthropicBaseUrl(options);
  }

  /** Without a credential the request fails before it is sent: nothing to connect for. */
  preconnect(): void {
    if (this.hasCredentials) this.transport.preconnect(this.baseUrl);
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    this.assertCredentials();
    const params = toMessagesParams(request);
    let requestId: string | undefined;
    let yielded = false;
    try {
      const {
        data: events,
        response,
        request_id,
      } = await this.client.messages.create({ ...params, stream: true }, { signal }).withResponse();
      requestId = request_id ?? undefined;
      await assertEventStream(response, this.endpoint, requestId ? { requestId } : {});
      const normalizer = new AnthropicStreamNormalizer(requestId);
      let received = 0;
      for await (const raw of events) {
        received++;
        for (const event of normalizer.push(raw)) {
          yielded = true;
          yield event;
        }
      }
      // The SDK ends the iteration quietly when the request is aborted, so a short stream is
      // either the caller's abort or a dropped connection.
      if (signal?.aborted) throw new AbortedError();
      if (received === 0) throw noMessagesEvent(this.endpoint, requestId);
      if (!normalizer.completed) {
        throw new ConnectionError(
          'The Anthropic API response ended before the message was complete.',
          yielded,
          {
            requestId,
          },
        );
      }
    } catch (err) {
      if (signal?.aborted) throw new AbortedError();
      throw classifyAnthropicError(err, {
        midStream: yielded,
        requestId,
        model: request.model,
        endpoint: this.endpoint,
      });
    }
  }

  async countTokens(request: ModelRequest, signal?: AbortSignal): Promise<number> {
    this.assertCredentials();
    try {
      const result = await this.client.messages.countTokens(toCountTokensParams(request), { signal });
      return result.input_tokens;
    } catch (err) {
      if (signal?.aborted) throw new AbortedError();
      throw classifyAnthropicError(err, { model: request.model, endpoint: this.endpoint });
    }
  }

  private assertCredentials(): void {
    if (!this.hasCredentials) throw new MissingCredentialsError(CREDENTIAL_VARIABLES);
  }
}

/**
 * An event stream that ended without one event of the Messages API. An empty answer may be a
 * proxy's hiccup, so it is retried as a short stream is; but the SDK also skips events it does
 * not know, and the usual cause on a configured address is another protocol — an
 * OpenAI-compatible server's chunks, its address given to ANTHROPIC_BASE_URL — so the line says so.
 */
function noMessagesEvent(endpoint: Endpoint, requestId: string | undefined): ConnectionError {
  const name = apiName(endpoint);
  const base = endpoint.baseUrl.replace(/\/+$/, '');
  const advice =
    endpoint.baseUrlSource === undefined
      ? ''
      : ` If it is an OpenAI-compatible server (Ollama, vLLM, llama.cpp), set OPENAI_BASE_URL=${base}/v1 instead of ${endpoint.baseUrlSource}.`;
  return new ConnectionError(
    `${name.charAt(0).toUpperCase()}${name.slice(1)} answered with an event stream that holds no Anthropic Messages API event.${advice}`,
    false,
    requestId ? { requestId } : {},
  );
}
