/**
 * The SDK client as Yoke configures it: credentials come only from the options (never from the
 * SDK's own environment or on-disk profile lookup), the SDK never retries, and an API key is sent
 * as `x-api-key` while an auth token is sent as `Authorization: Bearer`.
 */
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Endpoint } from '../endpoint';
import type { TransportTimeouts } from '../http/deadline';
import { createTransport, SDK_TIMEOUT_OFF_MS, type Transport } from '../http/transport';
import { resolveApiTimeouts } from '../timeouts';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

export type AnthropicFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export type AnthropicProviderOptions = {
  /** Sent as `x-api-key`. */
  apiKey?: string;
  /** Sent as `Authorization: Bearer <token>` (gateways, OAuth). */
  authToken?: string;
  baseURL?: string;
  /** The HTTP layer under the deadlines; Node sockets by default (tests pass a fake). */
  fetch?: AnthropicFetch;
  defaultHeaders?: Record<string, string>;
  /** The connect, first-byte and between-chunks deadlines; the defaults for the base URL otherwise. */
  timeouts?: TransportTimeouts;
  /** What set the base URL and the key, for error messages; derived from the options otherwise. */
  endpoint?: Endpoint;
  /**
   * The SDK's OpenTelemetry spans, off unless ANTHROPIC_OPEN_TELEMETRY=true. The SDK turns them on
   * by default, but Yoke registers no tracer provider, so without one the user installed (e.g.
   * preloaded with NODE_OPTIONS) each request would do the span bookkeeping — attributes, merged
   * headers, a watched stream — for nothing; the first request of a REPL pays ~2 ms of cold code
   * for it while the user types.
   */
  openTelemetry?: boolean;
  /** Awaited before each request is sent (NodeFetchOptions.beforeSend; the REPL's pause for input). */
  beforeSend?: () => Promise<void>;
};

/**
 * Reads ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL and ANTHROPIC_OPEN_TELEMETRY;
 * blank values count as unset.
 */
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
  if (env.ANTHROPIC_OPEN_TELEMETRY?.trim().toLowerCase() === 'true') options.openTelemetry = true;
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

/** The endpoint the options describe, when the caller did not say what set them. */
export function anthropicEndpoint(options: AnthropicProviderOptions): Endpoint {
  if (options.endpoint) return options.endpoint;
  const keyVariables = [
    ...(options.apiKey ? ['ANTHROPIC_API_KEY'] : []),
    ...(options.authToken ? ['ANTHROPIC_AUTH_TOKEN'] : []),
  ];
  return {
    api: 'anthropic',
    baseUrl: options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL,
    ...(options.baseURL !== undefined ? { baseUrlSource: 'ANTHROPIC_BASE_URL' } : {}),
    keyVariables,
  };
}

/** The base URL requests go to. */
export const anthropicBaseUrl = (options: AnthropicProviderOptions) =>
  options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL;

/** The transport with the options' deadlines (the defaults for the base URL otherwise). */
export function anthropicTransport(options: AnthropicProviderOptions): Transport {
  const baseUrl = anthropicBaseUrl(options);
  const timeouts = options.timeouts ?? resolveApiTimeouts({ baseUrl, env: {} }).timeouts;
  return createTransport(
    timeouts,
    options.fetch,
    options.beforeSend ? { beforeSend: options.beforeSend } : {},
  );
}

export function createAnthropicClient(
  options: AnthropicProviderOptions,
  transport: Transport = anthropicTransport(options),
): YokeAnthropicClient {
  const headers: Record<string, string> = { ...options.defaultHeaders };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const baseURL = anthropicBaseUrl(options);
  return new YokeAnthropicClient({
    // `null` (not undefined) keeps the SDK from reading ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN
    // itself; the key goes in a header because the SDK would send it as a Bearer token.
    apiKey: null,
    authToken: options.authToken ?? null,
    baseURL,
    defaultHeaders: headers,
    maxRetries: 0,
    fetch: transport,
    timeout: SDK_TIMEOUT_OFF_MS,
    // The SDK would print a garbled stream chunk raw on stderr; the typed error says it in one line.
    logLevel: 'off',
    // Left unset when asked for, the SDK settles the rest from its ANTHROPIC_OPEN_TELEMETRY_* variables.
    ...(options.openTelemetry ? {} : { openTelemetry: false }),
  });
}
