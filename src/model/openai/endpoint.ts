/** The endpoint an OpenAI provider's options describe, for error messages. */
import type { Endpoint } from '../endpoint';
import { OPENAI_DEFAULT_BASE_URL } from './translate-request';

type EndpointOptions = { apiKey?: string; baseURL?: string; endpoint?: Endpoint };

/** The endpoint the options describe, when the caller did not say what set them. */
export function openAIEndpoint(options: EndpointOptions): Endpoint {
  if (options.endpoint) return options.endpoint;
  return {
    api: 'openai',
    baseUrl: options.baseURL ?? OPENAI_DEFAULT_BASE_URL,
    ...(options.baseURL !== undefined ? { baseUrlSource: 'OPENAI_BASE_URL' } : {}),
    keyVariables: options.apiKey ? ['OPENAI_API_KEY'] : [],
  };
}
