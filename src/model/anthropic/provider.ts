/**
 * The Anthropic Messages API as a Yoke Provider: streaming only, no SDK retries (src/model/retry.ts
 * owns retrying), every failure thrown as a typed model error.
 */

import type { Endpoint } from '../endpoint';
import { assertEventStream } from '../endpoint-errors';
import { AbortedError, ConnectionError, MissingCredentialsError } from '../errors';
import type { ModelRequest, Provider, StreamEvent } from '../types';
import { classifyAnthropicError } from './classify-error';
import type { YokeAnthropicClient } from './client';
import {
  type AnthropicProviderOptions,
  anthropicEndpoint,
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

  constructor(options: AnthropicProviderOptions = {}) {
    this.client = createAnthropicClient(options);
    this.hasCredentials = hasAnthropicCredentials(options);
    this.endpoint = anthropicEndpoint(options);
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
      for await (const raw of events) {
        for (const event of normalizer.push(raw)) {
          yielded = true;
          yield event;
        }
      }
      // The SDK ends the iteration quietly when the request is aborted, so a short stream is
      // either the caller's abort or a dropped connection.
      if (signal?.aborted) throw new AbortedError();
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
