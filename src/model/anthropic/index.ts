export { classifyAnthropicError } from './classify-error';
export {
  type AnthropicFetch,
  type AnthropicProviderOptions,
  anthropicOptionsFromEnv,
  DEFAULT_ANTHROPIC_BASE_URL,
} from './client';
export { AnthropicProvider } from './provider';
export { MAX_CACHE_BREAKPOINTS, toCountTokensParams, toMessagesParams } from './request';
export { AnthropicStreamNormalizer } from './stream-normalizer';
