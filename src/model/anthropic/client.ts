/**
 * The SDK client as Yoke configures it: credentials come only from the options (never from the
 * SDK's own environment or on-disk profile lookup), the SDK never retries, and an API key is sent
 * as `x-api-key` while an auth token is sent as `Authorization: Bearer`.
 */
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export type AnthropicFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export type AnthropicProviderOptions = {
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** Sent as `Authorization: Bearer <token>` (gateways, OAuth). */
  authToken?: string;
  baseURL?: string;
  fetch?: AnthropicFetch;
  defaultHeaders?: Record<string, string>;
  /** Time allowed until the response headers arrive; the SDK default (10 minutes) otherwise. */
  timeoutMs?: number;
};

/** Reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_BASE_URL; blank values count as unset. */
export function anthropicOptionsFromEnv(
  env: Record<string, string | undefined> = process.env,
): AnthropicProviderOptions {
  const options: AnthropicProviderOptions = {};
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const authToken = env.ANTHROPIC_AUTH_TOKEN?.trim();
  const baseURL = env.ANTHROPIC_BASE_URL?.trim();
  if (apiKey) options.apiKey = apiKey;
  if (authToken) options.authToken = authToken;
  if (baseURL) options.baseURL = baseURL;
  return options;
}

/** True when a request built from these options would carry some credential. */
export function hasAnthropicCredentials(options: AnthropicProviderOptions): boolean {
  if (options.apiKey || options.authToken) return true;
  return Object.keys(options.defaultHeaders ?? {}).some((name) => {
    const lower = name.toLowerCase();
    return lower === 'x-api-key' || lower === 'authorization';
  });
}

/**
 * The SDK's base client with the one resource Yoke calls, `messages`. The full `Anthropic` class
 * also builds some forty other resources (files, skills, batches, organizations, …), which is
 * two thirds of the SDK's code: read, compiled and constructed on every start for nothing.
 *
 * The override: without it a client with no credential option would resolve one lazily from
 * `~/.config/anthropic` profiles or workload-identity variables, which Yoke does not configure
 * and must not silently pick up.
 */
export class YokeAnthropicClient extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);

  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }
}

export function createAnthropicClient(options: AnthropicProviderOptions): YokeAnthropicClient {
  const headers: Record<string, string> = { ...options.defaultHeaders };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  return new YokeAnthropicClient({
    // `null` (not undefined) keeps the SDK from reading ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN
    // itself; the key goes in a header because the SDK would send it as a Bearer token.
    apiKey: null,
    authToken: options.authToken ?? null,
    baseURL: options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL,
    defaultHeaders: headers,
    maxRetries: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  });
}
