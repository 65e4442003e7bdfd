/**
 * Picks the provider and model for a session from flags and environment, checks credentials up
 * front (so a missing key is one clear line at start-up, not a failed first turn) and returns the
 * provider already wrapped in the retry layer. Provider modules are imported lazily: they pull in
 * the vendor SDKs, which `--version` and `--help` must not pay for. An OpenAI-compatible server
 * with no model named is asked which it serves (served-model.ts).
 */

import type { ContextLengthLookup } from './catalog';
import {
  ANTHROPIC_CREDENTIAL_VARIABLES,
  type AnthropicChoice,
  missingAnthropicKey,
  missingOpenAIKey,
} from './credentials';
import { BASE_URL_VARIABLE, baseUrlProblem, type Endpoint, isLocalBaseUrl } from './endpoint';
import type { MissingCredentialsError } from './errors';
import { DEFAULT_ANTHROPIC_MODEL, getModelInfo, MODEL_ALIASES, resolveModelAlias } from './models';
import type { ServedModels } from './openai/served-models';
import { type RetryOptions, withRetry } from './retry';
import { chooseServedModel } from './served-model';
import { type ApiTimeoutSettings, type ApiTimeouts, resolveApiTimeouts } from './timeouts';
import type { Env, Provider } from './types';

export const PROVIDER_NAMES = ['anthropic', 'openai'] as const;
export type SelectableProvider = (typeof PROVIDER_NAMES)[number];

export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

export type { Env };
export { ANTHROPIC_CREDENTIAL_VARIABLES, isLocalBaseUrl };

export type SelectModelOptions = {
  /** `--model`: an id or an alias (opus, sonnet, haiku). */
  model?: string;
  /**
   * The `--agent`'s model. Below `--model`; an Anthropic alias on an OpenAI-compatible server is
   * passed over for the provider's default (as a worker's is), since agent files are shared.
   */
  agentModel?: string;
  /** The `model` setting: below `--model`, the agent's and ANTHROPIC_MODEL, as in Claude Code. */
  settingsModel?: string;
  /** `--provider`. */
  provider?: string;
  /** Overrides ANTHROPIC_BASE_URL / OPENAI_BASE_URL for the chosen provider. */
  baseUrl?: string;
  /** `--fallback-model`: used by the query loop after repeated 529 overloaded errors. */
  fallbackModel?: string;
  env: Env;
  /** The settings' `apiTimeouts`; `API_TIMEOUT_MS` in `env` sets the first-byte wait. */
  timeouts?: ApiTimeoutSettings;
  retry?: RetryOptions;
  /** Awaited before each model request is sent: the REPL's pause for typed input (NodeFetchOptions). */
  beforeSend?: () => Promise<void>;
};

export type ModelSelection = {
  providerName: SelectableProvider;
  /** The model id with any alias resolved. */
  model: string;
  /** Already wrapped with `withRetry`. */
  provider: Provider;
  /** Where requests go and what set it. */
  endpoint: Endpoint;
  timeouts: ApiTimeouts;
  /** Problems with the settings or variables that were ignored, one line each. */
  warnings: string[];
  /** Asks the server for a model's context length (OpenAI-compatible servers only). */
  contextLookup?: ContextLengthLookup;
  fallbackModel?: string;
  /** Set when the server's model list chose the model (served-model.ts): the line to say once. */
  servedModelNote?: string;
  /** Asks the server which models it serves (`GET <base>/models`; OpenAI-compatible servers only), for /model. */
  listModels?: (signal?: AbortSignal) => Promise<ServedModels>;
};

/** A flag combination that cannot work; the message is the one line shown to the user. */
export class ModelSelectionError extends Error {
  override name = 'ModelSelectionError';
}

const has = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/** The provider a model id implies, or undefined when the id does not say (e.g. local models). */
export function providerForModel(model: string): SelectableProvider | undefined {
  const id = model.trim().toLowerCase();
  if (id in MODEL_ALIASES || id.startsWith('claude-')) return 'anthropic';
  if (id.startsWith('gpt-') || id.startsWith('o1') || id.startsWith('o3') || id.startsWith('o4')) {
    return 'openai';
  }
  return undefined;
}

function hasAnthropicCredentials(env: Env): boolean {
  return has(env.ANTHROPIC_API_KEY) || has(env.ANTHROPIC_AUTH_TOKEN);
}

/** Explicit provider > what the model id implies > environment > anthropic. */
export function chooseProvider(
  options: Pick<SelectModelOptions, 'model' | 'provider' | 'env'>,
): SelectableProvider {
  if (options.provider !== undefined) {
    const name = options.provider.trim().toLowerCase();
    if (!(PROVIDER_NAMES as readonly string[]).includes(name)) {
      throw new ModelSelectionError(
        `Unknown provider "${options.provider}". Valid providers: ${PROVIDER_NAMES.join(', ')}.`,
      );
    }
    return name as SelectableProvider;
  }
  const implied = options.model !== undefined ? providerForModel(options.model) : undefined;
  if (implied) return implied;
  // Only OpenAI settings present: the user evidently means OpenAI (or a local compatible server).
  const hasOpenAISettings = has(options.env.OPENAI_BASE_URL) || has(options.env.OPENAI_API_KEY);
  if (hasOpenAISettings && !hasAnthropicCredentials(options.env)) return 'openai';
  return 'anthropic';
}

function defaultModel(providerName: SelectableProvider, env: Env): string {
  if (providerName === 'anthropic') return DEFAULT_ANTHROPIC_MODEL;
  return has(env.OPENAI_MODEL) ? env.OPENAI_MODEL.trim() : DEFAULT_OPENAI_MODEL;
}

const isAlias = (name: string) => name.trim().toLowerCase() in MODEL_ALIASES;

/**
 * An alias names an Anthropic model; an OpenAI-compatible server knows it by neither name, so
 * the request would only come back as an unknown model. Said before anything is sent.
 */
function resolveFor(providerName: SelectableProvider, name: string, from: string): string {
  const id = resolveModelAlias(name.trim());
  if (providerName === 'openai' && isAlias(name)) {
    throw new ModelSelectionError(
      `${from} ${name.trim()}: "${name.trim()}" is Yoke's alias for Anthropic's ${id}, which an ` +
        'OpenAI-compatible server does not serve by that name. Pass the id the server serves ' +
        '(--model <id>), or --provider anthropic.',
    );
  }
  return id;
}

/** --model > the agent's > ANTHROPIC_MODEL (on Anthropic) > the setting; undefined when none names one. */
function namedModel(providerName: SelectableProvider, options: SelectModelOptions): string | undefined {
  if (has(options.model)) return resolveFor(providerName, options.model, '--model');
  const agent = options.agentModel;
  if (has(agent) && !(providerName === 'openai' && isAlias(agent))) return resolveModelAlias(agent.trim());
  const fromEnv = options.env.ANTHROPIC_MODEL;
  if (providerName === 'anthropic' && has(fromEnv)) return resolveModelAlias(fromEnv.trim());
  if (has(options.settingsModel)) {
    return resolveFor(providerName, options.settingsModel, 'The "model" setting');
  }
  return undefined;
}

/** Why the session is on Anthropic, for the missing-key line. */
function anthropicChoice(options: SelectModelOptions, requested: string | undefined): AnthropicChoice {
  if (options.provider !== undefined) return { by: 'provider' };
  if (requested === undefined || providerForModel(requested) !== 'anthropic') return { by: 'default' };
  const env = options.env;
  return {
    by: 'model',
    model: resolveModelAlias(requested.trim()),
    openAISettings: has(env.OPENAI_BASE_URL) || has(env.OPENAI_API_KEY),
  };
}

function checkFallback(providerName: SelectableProvider, model: string, fallback: string): void {
  if (fallback === model) {
    throw new ModelSelectionError(
      `The fallback model is the same as the main model (${model}); choose a different --fallback-model.`,
    );
  }
  // The query loop switches models on the same provider, so a fallback the provider cannot
  // serve would only fail later, at the worst moment.
  const implied = providerForModel(fallback) ?? getModelInfo(fallback)?.provider;
  if (implied && implied !== providerName) {
    throw new ModelSelectionError(
      `The fallback model ${fallback} belongs to ${implied} but the session uses ${providerName}; ` +
        `choose a --fallback-model that ${providerName} serves.`,
    );
  }
}

type Built = {
  provider: Provider;
  endpoint: Endpoint;
  timeouts: ApiTimeouts;
  warnings: string[];
  contextLookup?: ContextLengthLookup;
  listModels?: (signal?: AbortSignal) => Promise<ServedModels>;
};

/** A model list or details answer is small and quick; a server that takes longer is not waited for. */
const LOOKUP_FIRST_BYTE_MS = 30_000;

/** The base URL the settings or variables give the provider, and which of them gave it. */
function configuredBaseUrl(
  providerName: SelectableProvider,
  baseUrl: string | undefined,
  env: Env,
): { url?: string; source?: string } {
  if (has(baseUrl)) return { url: baseUrl.trim(), source: 'the "baseUrl" setting' };
  const variable = BASE_URL_VARIABLE[providerName];
  const fromEnv = env[variable];
  return has(fromEnv) ? { url: fromEnv.trim(), source: variable } : {};
}

/** The missing-key error for this provider, or undefined when a request can carry what it needs. */
function credentialsProblem(
  providerName: SelectableProvider,
  options: SelectModelOptions,
  requested: string | undefined,
): MissingCredentialsError | undefined {
  const { env } = options;
  if (providerName === 'anthropic') {
    return hasAnthropicCredentials(env)
      ? undefined
      : missingAnthropicKey(anthropicChoice(options, requested));
  }
  // Local servers need no key: the provider then sends no Authorization header at all.
  const base = configuredBaseUrl(providerName, options.baseUrl, env);
  if (has(env.OPENAI_API_KEY) || (base.url !== undefined && isLocalBaseUrl(base.url))) return undefined;
  return missingOpenAIKey(
    base.url !== undefined && base.source !== undefined
      ? { baseUrl: base.url, source: base.source }
      : undefined,
  );
}

/** The provider and model these options choose, checked (flags, aliases, fallback, credentials). */
export function checkModelOptions(options: SelectModelOptions): {
  providerName: SelectableProvider;
  model: string;
  fallbackModel?: string;
  /** Nothing named a model for an OpenAI-compatible server: its model list decides (selectModel). */
  askServer?: true;
} {
  // An agent file's alias does not choose the provider: the file is shared with Anthropic users.
  const agent =
    options.agentModel !== undefined && isAlias(options.agentModel) ? undefined : options.agentModel;
  const requested = [options.model, agent, options.settingsModel].find(has);
  const providerName = chooseProvider({ ...options, model: requested });
  const named = namedModel(providerName, options);
  const model = named ?? defaultModel(providerName, options.env);
  const askServer =
    named === undefined &&
    providerName === 'openai' &&
    !has(options.env.OPENAI_MODEL) &&
    configuredBaseUrl(providerName, options.baseUrl, options.env).url !== undefined;
  const fallbackModel = has(options.fallbackModel)
    ? resolveModelAlias(options.fallbackModel.trim())
    : undefined;
  if (fallbackModel !== undefined) checkFallback(providerName, model, fallbackModel);
  const base = configuredBaseUrl(providerName, options.baseUrl, options.env);
  const badBase = base.url !== undefined && baseUrlProblem(base.url, base.source ?? 'the base URL');
  if (badBase) throw new ModelSelectionError(badBase);
  const missing = credentialsProblem(providerName, options, requested);
  if (missing) throw missing;
  return {
    providerName,
    model,
    ...(fallbackModel !== undefined ? { fallbackModel } : {}),
    ...(askServer ? { askServer } : {}),
  };
}

async function createProvider(
  providerName: SelectableProvider,
  baseUrl: string | undefined,
  env: Env,
  timeoutSettings: ApiTimeoutSettings | undefined,
  beforeSend: (() => Promise<void>) | undefined,
): Promise<Built> {
  const hooks = beforeSend ? { beforeSend } : {};
  const { url: fromConfig, source: baseUrlSource } = configuredBaseUrl(providerName, baseUrl, env);
  const fromSetting = has(baseUrl) ? fromConfig : undefined;
  if (providerName === 'anthropic') {
    const { AnthropicProvider, anthropicOptionsFromEnv, DEFAULT_ANTHROPIC_BASE_URL } = await import(
      './anthropic'
    );
    const options = anthropicOptionsFromEnv(env);
    if (fromSetting !== undefined) options.baseURL = fromSetting;
    const endpoint: Endpoint = {
      api: 'anthropic',
      baseUrl: options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL,
      ...(baseUrlSource ? { baseUrlSource } : {}),
      keyVariables: ANTHROPIC_CREDENTIAL_VARIABLES.filter((name) => has(env[name])),
    };
    const { timeouts, warnings } = resolveApiTimeouts({
      baseUrl: endpoint.baseUrl,
      settings: timeoutSettings,
      env,
    });
    return {
      provider: new AnthropicProvider({ ...options, timeouts, endpoint, ...hooks }),
      endpoint,
      timeouts,
      warnings,
    };
  }
  const { OpenAIProvider, openAIOptionsFromEnv, OPENAI_DEFAULT_BASE_URL } = await import('./openai');
  const options = openAIOptionsFromEnv(env);
  if (fromSetting !== undefined) options.baseURL = fromSetting;
  const endpoint: Endpoint = {
    api: 'openai',
    baseUrl: options.baseURL ?? OPENAI_DEFAULT_BASE_URL,
    ...(baseUrlSource ? { baseUrlSource } : {}),
    keyVariables: options.apiKey ? ['OPENAI_API_KEY'] : [],
  };
  const { timeouts, warnings } = resolveApiTimeouts({
    baseUrl: endpoint.baseUrl,
    settings: timeoutSettings,
    env,
  });
  const lookupFetch = async () => {
    const { createTransport } = await import('./http/transport');
    return createTransport({
      ...timeouts,
      firstByteMs: Math.min(timeouts.firstByteMs, LOOKUP_FIRST_BYTE_MS),
    });
  };
  const contextLookup: ContextLengthLookup = async (model, signal) => {
    const [{ fetchContextLength }, fetch] = await Promise.all([
      import('./openai/context-length'),
      lookupFetch(),
    ]);
    return fetchContextLength(model, signal, { endpoint, fetch, apiKey: options.apiKey });
  };
  const listModels = async (signal?: AbortSignal) => {
    const [{ listServedModels }, fetch] = await Promise.all([
      import('./openai/served-models'),
      lookupFetch(),
    ]);
    return listServedModels({ endpoint, fetch, apiKey: options.apiKey, signal });
  };
  return {
    provider: new OpenAIProvider({ ...options, timeouts, endpoint, ...hooks }),
    endpoint,
    timeouts,
    warnings,
    contextLookup,
    listModels,
  };
}

/** Resolves flags and environment into a ready, retrying provider and a concrete model id. */
export async function selectModel(options: SelectModelOptions): Promise<ModelSelection> {
  const checked = checkModelOptions(options);
  const { providerName, fallbackModel } = checked;
  const built = await createProvider(
    providerName,
    options.baseUrl,
    options.env,
    options.timeouts,
    options.beforeSend,
  );
  let model = checked.model;
  let servedModelNote: string | undefined;
  if (checked.askServer && built.listModels) {
    const choice = chooseServedModel(await built.listModels(), built.endpoint, model);
    if ('problem' in choice) throw new ModelSelectionError(choice.problem);
    model = choice.model;
    servedModelNote = choice.note;
  }
  const retry: RetryOptions = {
    totalMs: built.timeouts.totalMs,
    firstByteMs: built.timeouts.firstByteMs,
    ...options.retry,
  };
  const selection: ModelSelection = {
    providerName,
    model,
    provider: withRetry(built.provider, retry),
    endpoint: built.endpoint,
    timeouts: built.timeouts,
    warnings: built.warnings,
  };
  if (built.contextLookup) selection.contextLookup = built.contextLookup;
  if (built.listModels) selection.listModels = built.listModels;
  if (fallbackModel !== undefined) selection.fallbackModel = fallbackModel;
  if (servedModelNote !== undefined) selection.servedModelNote = servedModelNote;
  return selection;
}
