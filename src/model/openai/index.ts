export { classifyOpenAIError } from './classify-error';
export { OpenAIProvider, type OpenAIProviderOptions, openAIOptionsFromEnv } from './provider';
export { ChatStreamNormalizer, type NormalizerOptions } from './stream-normalizer';
export { toChatMessages } from './translate-messages';
export {
  type ChatTarget,
  isOpenAIPlatform,
  OPENAI_DEFAULT_BASE_URL,
  toChatCompletionParams,
} from './translate-request';
